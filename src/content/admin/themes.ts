import { z } from "@hono/zod-openapi";
import { and, eq, exists, ne, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { type Site, sites, themeVersions } from "../schema";
import { Prebuilt } from "../../platform/route";
import { themePreviewPath, themesOf, uploadTheme } from "../sites/theme-upload";
import { liveVersion, removeFiles, themePrefix, themeZip } from "../sites/themes";
import { withDomains } from "../tenancy/domains";
import { forgetSiteForReaders, inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { themesSchema } from "./answers";
import { audit } from "../audit-entries";
import { type AdminRoute, as } from "./guard";
import { deleted, inTenantPath } from "./shapes";
import { siteSchema, themeRoomOf } from "./sites";

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

/**
 * Deletes a theme that is not the site's: the site forgets it as its previous theme (nothing rolls
 * back to it) and its versions stop being live (the storage cleanup removes what is left of them) in
 * the same batch as the audit entry, then its files go. The active theme is refused.
 */
export async function deleteTheme(db: Database, bucket: R2Bucket, scope: TenantScope, site: Site, theme: string, userId: number) {
  if (site.theme === theme) throw new ApiError(409, `${theme} is the site's active theme: activate another one before deleting it`);
  if (!(await themesOf(db, bucket, site.id)).includes(theme)) throw new ApiError(404, `No theme ${theme} for site ${site.id}`);
  // Only while another theme is active: an activation since the site was read wins.
  const anotherActive = inTenant(sites.tenantId, scope, eq(sites.id, site.id), ne(sites.theme, theme));
  const [[kept]] = await db.batch([
    db
      .update(sites)
      .set({ previousTheme: sql`CASE WHEN ${sites.previousTheme} = ${theme} THEN NULL ELSE ${sites.previousTheme} END` })
      .where(anotherActive)
      .returning({ id: sites.id }),
    db
      .update(themeVersions)
      // Its files go right after this batch: the room they took is free at once.
      .set({ live: false, bytes: 0, updatedAt: new Date().toISOString() })
      .where(
        and(eq(themeVersions.siteId, site.id), eq(themeVersions.name, theme), exists(db.select({ id: sites.id }).from(sites).where(anotherActive))),
      ),
    audit(db, scope, userId, "delete-theme", `site ${site.id}: ${theme}`),
  ]);
  if (!kept) throw new ApiError(409, `${theme} is the site's active theme: activate another one before deleting it`);
  forgetSiteForReaders(site.id);
  await removeFiles(bucket, themePrefix(site.id, theme));
}

const themePath = () => inTenantPath({ siteId: idParam("siteId"), name: themeName.openapi({ param: { name: "name", in: "path" } }) });

/** A site's themes: listed, uploaded, previewed, activated, downloaded, deleted. */
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
      const site = await siteInScope(c.get("db"), scope, c.req.valid("param").siteId);
      return { active: site.theme, previous: site.previousTheme, themes: await themesOf(c.get("db"), c.env.THEMES, site.id) };
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
    errors: [409, 413, 415],
    description:
      "Refused (409) when the themes of all the tenant's sites would pass its room (THEME_BYTES_PER_TENANT, default 200 MB, counted unpacked; `GET /tenants/{tenantId}/storage`).",
    handle: async (c, scope) => {
      const site = await siteInScope(c.get("db"), scope, c.req.valid("param").siteId);
      if ((c.req.header("Content-Type") ?? "").split(";")[0]!.trim() !== "application/zip")
        throw new ApiError(415, "A theme is uploaded as application/zip");
      const { name } = c.req.valid("query");
      const db = c.get("db");
      const recorded = audit(db, scope, scope.userId, "upload-theme", `site ${site.id}: ${name}`);
      const stored = await uploadTheme(db, c.env.THEMES, site, name, new Uint8Array(await c.req.arrayBuffer()), themeRoomOf(c.env), recorded);
      return { ...stored, previewUrl: await themePreviewPath(c.env.JWT_SECRET, site.id, name) };
    },
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/themes/{name}/activate",
    summary: "Make a theme the site's",
    guard: as("owner"),
    summaryEnd: "; activating the previous one rolls back",
    request: themePath(),
    data: siteSchema,
    answer: "The site",
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      const site = await siteInScope(c.get("db"), scope, p.siteId);
      if (!(await themesOf(c.get("db"), c.env.THEMES, site.id)).includes(p.name)) throw new ApiError(404, `No theme ${p.name} for site ${site.id}`);
      // Read before the write, which is then the last call: a failure answers an activation that did not happen.
      const [view] = await withDomains(c.get("db"), scope, [site]);
      return { ...view!, ...(await activateTheme(c.get("db"), scope, site, p.name, scope.userId)) };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/themes/{name}/preview",
    summary: "A link that shows the site with one of its themes, to whoever opens it, until the theme is replaced or deleted",
    guard: as("owner"),
    request: themePath(),
    data: z
      .object({ name: z.string(), previewUrl: z.string().openapi({ description: "A path on the site's own host" }) })
      .openapi({ example: { name: "harbour", previewUrl: "/?theme_preview=harbour&token=3f1c…" } }),
    answer: "The preview's address",
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      const site = await siteInScope(c.get("db"), scope, p.siteId);
      if (!(await themesOf(c.get("db"), c.env.THEMES, site.id)).includes(p.name)) throw new ApiError(404, `No theme ${p.name} for site ${site.id}`);
      return { name: p.name, previewUrl: await themePreviewPath(c.env.JWT_SECRET, site.id, p.name) };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/themes/{name}/download",
    summary: "A theme's files as a zip that an upload takes again",
    guard: as("owner"),
    request: themePath(),
    data: z.never(),
    file: "application/zip",
    answer: "The zip, as an attachment named after the theme",
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      const site = await siteInScope(c.get("db"), scope, p.siteId);
      const zip = await themeZip(c.env.THEMES, themePrefix(site.id, p.name, await liveVersion(c.get("db"), site.id, p.name)));
      if (!zip) throw new ApiError(404, `No theme ${p.name} for site ${site.id}`);
      return new Prebuilt<never>(
        new Response(zip, {
          headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${p.name}.zip"`, "Cache-Control": "no-store" },
        }),
      );
    },
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/sites/{siteId}/themes/{name}",
    summary: "Delete a theme that is not the site's active one",
    guard: as("owner"),
    request: themePath(),
    ...deleted,
    errors: [409],
    errorTexts: { 409: "The theme is the site's active one" },
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      const site = await siteInScope(c.get("db"), scope, p.siteId);
      await deleteTheme(c.get("db"), c.env.THEMES, scope, site, p.name, scope.userId);
      return { deleted: true as const };
    },
  });
}
