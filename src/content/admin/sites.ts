import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import type { Bindings } from "../../platform/env";
import { idParam } from "../../platform/openapi";
import { siteRelativeMedia } from "../media/addresses";
import { sites } from "../schema";
import { domainChanges, forgetHosts, verifyDomain, withDomains, withDomainsOne } from "../tenancy/domains";
import { forgetSiteForReaders, inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { type AdminRoute, as } from "./guard";
import { domainVerify, siteCreate, siteUpdate } from "./params";
import { inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema } from "../../platform/row-answer";
import { unlessTaken } from "./writes";

export const domainSchema = z
  .object({
    host: z.string(),
    primary: z.boolean(),
    verified: z.boolean().openapi({ description: "Proved with its DNS TXT record: only then does the host reach the site" }),
    verification: z
      .object({ type: z.literal("TXT"), name: z.string(), value: z.string() })
      .nullable()
      .openapi({ description: "The record to publish before POST …/domains/verify; null once proved" }),
  })
  .openapi("SiteDomain");
export const siteSchema = z
  .object({ ...createSelectSchema(sites).shape, primaryDomain: z.string().nullable(), aliases: z.array(z.string()), domains: z.array(domainSchema) })
  .openapi("Site");

export const sitesOf = (db: Database, scope: TenantScope) => db.select().from(sites).where(inTenant(sites.tenantId, scope)).orderBy(sites.id);

export async function createSite(db: Database, scope: TenantScope, input: z.infer<typeof siteCreate>) {
  return unlessTaken(`The site slug ${input.slug}`, async () => {
    const [site] = await db
      .insert(sites)
      .values({ ...input, tenantId: scope.tenantId, languages: input.languages ?? [input.defaultLanguage ?? "en"] })
      .returning();
    return site!;
  });
}

/** Changes a site and its claimed host names in one batch (tenancy/domains.ts checks the names). */
export async function updateSite(
  db: Database,
  env: Pick<Bindings, "PUBLIC_ORIGIN" | "SERVICE_HOSTS">,
  scope: TenantScope,
  siteId: number,
  input: z.infer<typeof siteUpdate>,
) {
  await siteInScope(db, scope, siteId);
  const { primaryDomain, aliases, ...fields } = input;
  const hostChanges = await domainChanges(db, env, scope, siteId, { primaryDomain, aliases });
  forgetSiteForReaders(siteId);
  return unlessTaken("The site slug", async () => {
    const [[site]] = await db.batch([
      db
        .update(sites)
        .set({
          ...fields,
          seoImage: siteRelativeMedia(fields.seoImage, scope.tenantId, siteId),
          contentVersion: sql`${sites.contentVersion} + 1`,
          updatedAt: new Date().toISOString(),
        })
        .where(inTenant(sites.tenantId, scope, eq(sites.id, siteId)))
        .returning(),
      ...hostChanges.statements,
    ]);
    forgetHosts(hostChanges.dropped);
    return withDomainsOne(db, scope, site!);
  });
}

/** A tenant's sites and the host names they answer on. */
export function siteRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites",
    summary: "Sites",
    guard: as("viewer"),
    request: tenantPath,
    data: z.array(siteSchema),
    answer: "Sites",
    handle: async (c, scope) => withDomains(c.var.db, scope, await sitesOf(c.var.db, scope)),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites",
    summary: "Create a site",
    guard: as("owner"),
    request: { ...tenantPath, ...json(siteCreate) },
    data: siteSchema,
    answer: "Created",
    status: 201,
    errors: [409],
    handle: async (c, scope) => withDomainsOne(c.var.db, scope, await createSite(c.var.db, scope, c.req.valid("json"))),
  });
  route({
    method: "patch",
    path: "/tenants/{tenantId}/sites/{siteId}",
    summary: "Change a site",
    guard: as("owner"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(siteUpdate) },
    data: siteSchema,
    answer: "The site",
    errors: [409],
    handle: async (c, scope) => updateSite(c.var.db, c.env, scope, c.req.valid("param").siteId, c.req.valid("json")),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/domains/verify",
    summary: "Prove a claimed host name with its DNS TXT record; from then on it reaches the site",
    guard: as("owner"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(domainVerify) },
    data: domainSchema,
    answer: "The host name, proved",
    errors: [409, 502],
    handle: async (c, scope) => {
      const { siteId } = c.req.valid("param");
      await siteInScope(c.var.db, scope, siteId);
      return verifyDomain(c.var.db, c.env, scope, siteId, c.req.valid("json").host);
    },
  });
}
