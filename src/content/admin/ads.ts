import { z } from "@hono/zod-openapi";
import { and, desc, eq, gte } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError, fieldRefused } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { ads, adStats, media, type Site } from "../schema";
import { siteLanguages } from "../sites/languages";
import { measureRows, ROWS_PER_TENANT, withinRooms } from "../tenancy/rooms";
import { inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { adDaySchema } from "./answers";
import { type AdminRoute, as, type MemberScope } from "./guard";
import { adCreate, adUpdate } from "./params";
import { deleted, inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";
import { bumpVersion } from "./writes";
import { adName } from "../ad-names";
import { audit } from "../audit-entries";

const adSchema = rowAnswer(createSelectSchema(ads), "Ad", {
  id: 4,
  tenantId: 1,
  siteId: 1,
  slot: "sidebar",
  kind: "image",
  mediaId: 7,
  link: "https://shop.example.com/winter-sale",
  html: null,
  startsAt: "2026-12-01T00:00:00.000Z",
  endsAt: "2026-12-31T23:59:59.000Z",
  weight: 1,
  isActive: true,
  language: null,
  altText: "Winter sale at the Harbour Shop: 30 % off coats",
  name: "Winter sale",
});

/** A media id in an ad's body, whatever the ad's kind, must be an image of the ad's own site. */
async function assertCreative(db: Database, scope: TenantScope, siteId: number, input: { mediaId?: number | null }) {
  if (input.mediaId === undefined || input.mediaId === null) return;
  const [image] = await db
    .select()
    .from(media)
    .where(inTenant(media.tenantId, scope, eq(media.id, input.mediaId), eq(media.siteId, siteId)))
    .limit(1);
  if (!image || !image.contentType.startsWith("image/"))
    throw fieldRefused("mediaId", `no image ${input.mediaId} in site ${siteId}: choose one of the site's images`);
}

/** An ad's language is one of its site's: otherwise no page would ever show it. */
function assertLanguage(site: Pick<Site, "languages" | "defaultLanguage">, language: string | null | undefined) {
  const languages = siteLanguages(site);
  if (!language || languages.includes(language)) return;
  throw fieldRefused("language", `the language ${language} is not one of the site's languages (${languages.join(", ")})`);
}

/** An ad that ends must end after it starts: otherwise no page would ever show it. */
function assertRuns(ad: { startsAt: string; endsAt?: string | null }) {
  if (ad.endsAt && Date.parse(ad.endsAt) <= Date.parse(ad.startsAt)) throw fieldRefused("endsAt", "the ad must end after it starts");
}

export async function adsOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  return db
    .select()
    .from(ads)
    .where(inTenant(ads.tenantId, scope, eq(ads.siteId, siteId)))
    .orderBy(ads.slot, ads.id);
}

export async function createAd(db: Database, scope: MemberScope, input: z.infer<typeof adCreate>) {
  assertLanguage(await siteInScope(db, scope, input.siteId), input.language);
  await assertCreative(db, scope, input.siteId, input);
  assertRuns(input);
  const [[ad]] = await withinRooms(() =>
    db.batch([
      db
        .insert(ads)
        .values({ ...input, tenantId: scope.tenantId })
        .returning(),
      bumpVersion(db, scope, input.siteId),
      audit(db, scope, scope.userId, "create-ad", adName(input)),
      measureRows(db, scope.tenantId, "ads"),
    ]),
  );
  return ad!;
}

export async function updateAd(db: Database, scope: MemberScope, id: number, input: z.infer<typeof adUpdate>) {
  const [existing] = await db
    .select()
    .from(ads)
    .where(inTenant(ads.tenantId, scope, eq(ads.id, id)))
    .limit(1);
  if (!existing) throw new ApiError(404, `No ad with id ${id}`);
  const merged = { ...existing, ...input };
  if (merged.kind === "image" && !merged.mediaId) throw fieldRefused("mediaId", "an image ad needs its image");
  if (merged.kind === "html" && !merged.html) throw fieldRefused("html", "an HTML ad needs its snippet");
  if (input.language) assertLanguage(await siteInScope(db, scope, existing.siteId), input.language);
  await assertCreative(db, scope, existing.siteId, merged);
  assertRuns(merged);
  const [[ad]] = await db.batch([
    db
      .update(ads)
      .set(input)
      .where(inTenant(ads.tenantId, scope, eq(ads.id, id)))
      .returning(),
    bumpVersion(db, scope, existing.siteId),
    audit(db, scope, scope.userId, "change-ad", adName({ ...merged, id })),
  ]);
  return ad!;
}

export async function deleteAd(db: Database, scope: MemberScope, id: number) {
  const [existing] = await db
    .select()
    .from(ads)
    .where(inTenant(ads.tenantId, scope, eq(ads.id, id)))
    .limit(1);
  if (!existing) throw new ApiError(404, `No ad with id ${id}`);
  await db.batch([
    db.delete(adStats).where(inTenant(adStats.tenantId, scope, eq(adStats.adId, id))),
    db.delete(ads).where(inTenant(ads.tenantId, scope, eq(ads.id, id))),
    bumpVersion(db, scope, existing.siteId),
    audit(db, scope, scope.userId, "delete-ad", adName(existing)),
  ]);
}

/** An ad's impressions and clicks a day, newest first, over the last `days`. */
export async function adStatsOf(db: Database, scope: TenantScope, id: number, days: number) {
  const [existing] = await db
    .select({ id: ads.id })
    .from(ads)
    .where(inTenant(ads.tenantId, scope, eq(ads.id, id)))
    .limit(1);
  if (!existing) throw new ApiError(404, `No ad with id ${id}`);
  const since = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  return db
    .select({ day: adStats.day, impressions: adStats.impressions, clicks: adStats.clicks })
    .from(adStats)
    .where(and(inTenant(adStats.tenantId, scope, eq(adStats.adId, id)), gte(adStats.day, since)))
    .orderBy(desc(adStats.day));
}

/** A site's ads and their daily counts. */
export function adRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/ads",
    summary: "A site's ads",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(adSchema),
    answer: "Ads",
    handle: async (c, scope) => adsOf(c.get("db"), scope, c.req.valid("param").siteId),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/ads",
    summary: "Create an ad: an image with a link, or an HTML snippet",
    description: `Refused (409) past ${ROWS_PER_TENANT.ads.toLocaleString("en-US")} ads, all the tenant's sites together.`,
    guard: as("owner"),
    errors: [409],
    request: { ...tenantPath, ...json(adCreate) },
    data: adSchema,
    answer: "Created",
    status: 201,
    handle: async (c, scope) => createAd(c.get("db"), scope, c.req.valid("json")),
  });
  route({
    method: "patch",
    path: "/tenants/{tenantId}/ads/{id}",
    summary: "Change an ad",
    guard: as("owner"),
    request: { ...inTenantPath({ id: idParam("id") }), ...json(adUpdate) },
    data: adSchema,
    answer: "The ad",
    handle: async (c, scope) => updateAd(c.get("db"), scope, c.req.valid("param").id, c.req.valid("json")),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/ads/{id}",
    summary: "Delete an ad and its counts",
    guard: as("owner"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteAd(c.get("db"), scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/ads/{id}/stats",
    summary: "An ad's impressions and clicks a day, the last 90 days",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    data: z.array(adDaySchema),
    answer: "Days",
    handle: async (c, scope) => adStatsOf(c.get("db"), scope, c.req.valid("param").id, 90),
  });
}
