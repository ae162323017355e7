import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { type Site, sites } from "../schema";
import { previewToken, themesOf, uploadTheme } from "../sites/theme-upload";
import { withDomainsOne } from "../tenancy/domains";
import { forgetSiteForReaders, inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { themesSchema } from "./answers";
import { audit } from "./audit";
import { type AdminRoute, as } from "./guard";
import { inTenantPath } from "./shapes";
import { siteSchema } from "./sites";

const themeName = z
  .string()
  .regex(/^[a-z0-9-]{1,40}$/, { error: "name must be a theme's folder name: lower-case letters, digits, dashes" })
  .openapi({ example: "harbour" });

/** Makes a theme the site's and records who did, in one batch: the site's pages change at once. */
export async function activateTheme(db: Database, scope: TenantScope, site: Site, theme: string, userId: number) {
  forgetSiteForReaders(site.id);
  const [[updated]] = await db.batch([
    db
      .update(sites)
      .set({
        theme,
        previousTheme: site.theme === theme ? site.previousTheme : site.theme,
        contentVersion: sql`${sites.contentVersion} + 1`,
        updatedAt: new Date().toISOString(),
      })
      .where(inTenant(sites.tenantId, scope, eq(sites.id, site.id)))
      .returning(),
    audit(db, scope, userId, "activate-theme", `site ${site.id}: ${theme} (was ${site.theme})`),
  ]);
  return updated!;
}

/** A site's themes: listed, uploaded, activated. */
export function themeRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/themes",
    summary: "The site's themes in R2 and the active one",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: themesSchema,
    answer: "Themes",
    handle: async (c, scope) => {
      const site = await siteInScope(c.var.db, scope, c.req.valid("param").siteId);
      return { active: site.theme, previous: site.previousTheme, themes: await themesOf(c.env.THEMES, site.id) };
    },
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/themes",
    summary: "Upload a theme as a zip (at most 20 MB), checked before it is stored",
    guard: as("owner"),
    request: {
      ...inTenantPath({ siteId: idParam("siteId") }),
      query: z.strictObject({ name: themeName }),
      body: { required: true, content: { "application/zip": { schema: { type: "string", format: "binary" } } } },
    },
    data: z.object({ name: z.string(), files: z.number().int(), previewUrl: z.string() }).openapi({
      example: { name: "harbour", files: 14, previewUrl: "http://demo.localhost:8787/_theme-preview?token=7.1795775400.c1…" },
    }),
    answer: "Stored, not active",
    status: 201,
    errors: [413, 415],
    handle: async (c, scope) => {
      const site = await siteInScope(c.var.db, scope, c.req.valid("param").siteId);
      if ((c.req.header("Content-Type") ?? "").split(";")[0]!.trim() !== "application/zip")
        throw new ApiError(415, "A theme is uploaded as application/zip");
      const { name } = c.req.valid("query");
      const stored = await uploadTheme(c.env.THEMES, site.id, name, new Uint8Array(await c.req.arrayBuffer()));
      const token = await previewToken(c.env.JWT_SECRET, site.id, name);
      return { ...stored, previewUrl: `/?theme_preview=${name}&token=${token}` };
    },
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/themes/{name}/activate",
    summary: "Make a theme the site's",
    guard: as("owner"),
    summaryEnd: "; activating the previous one rolls back",
    request: inTenantPath({ siteId: idParam("siteId"), name: themeName.openapi({ param: { name: "name", in: "path" } }) }),
    data: siteSchema,
    answer: "The site",
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      const site = await siteInScope(c.var.db, scope, p.siteId);
      if (!(await themesOf(c.env.THEMES, site.id)).includes(p.name)) throw new ApiError(404, `No theme ${p.name} for site ${site.id}`);
      return withDomainsOne(c.var.db, scope, await activateTheme(c.var.db, scope, site, p.name, scope.userId));
    },
  });
}
