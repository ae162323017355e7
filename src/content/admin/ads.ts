import { and, desc, eq, gte } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import type { adCreate, adUpdate, redirectWrite } from "./admin-params";
import { bumpVersion } from "./admin";
import { ads, adStats, media, redirects } from "./schema";
import { inTenant, siteInScope, type TenantScope } from "./tenancy";

// Redirects

export async function redirectsOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  return db
    .select()
    .from(redirects)
    .where(inTenant(redirects.tenantId, scope, eq(redirects.siteId, siteId)))
    .orderBy(redirects.fromPath);
}

/** Creates or replaces the redirect of a path. */
export async function putRedirect(db: Database, scope: TenantScope, input: z.infer<typeof redirectWrite>) {
  await siteInScope(db, scope, input.siteId);
  const [[row]] = await db.batch([
    db
      .insert(redirects)
      .values({ ...input, tenantId: scope.tenantId })
      .onConflictDoUpdate({ target: [redirects.siteId, redirects.fromPath], set: { toUrl: input.toUrl, status: input.status } })
      .returning(),
    bumpVersion(db, scope, input.siteId),
  ]);
  return row!;
}

export async function deleteRedirect(db: Database, scope: TenantScope, id: number) {
  const [row] = await db
    .delete(redirects)
    .where(inTenant(redirects.tenantId, scope, eq(redirects.id, id)))
    .returning();
  if (!row) throw new ApiError(404, `No redirect with id ${id}`);
}

// Ads

/** A media id in an ad's body, whatever the ad's kind, must be an image of the ad's own site. */
async function assertCreative(db: Database, scope: TenantScope, siteId: number, input: { mediaId?: number | null }) {
  if (input.mediaId === undefined || input.mediaId === null) return;
  const [image] = await db
    .select()
    .from(media)
    .where(inTenant(media.tenantId, scope, eq(media.id, input.mediaId), eq(media.siteId, siteId)))
    .limit(1);
  if (!image || !image.contentType.startsWith("image/")) throw new ApiError(400, `mediaId: no image ${input.mediaId} in site ${siteId}`);
}

export async function adsOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  return db
    .select()
    .from(ads)
    .where(inTenant(ads.tenantId, scope, eq(ads.siteId, siteId)))
    .orderBy(ads.slot, ads.id);
}

export async function createAd(db: Database, scope: TenantScope, input: z.infer<typeof adCreate>) {
  await siteInScope(db, scope, input.siteId);
  await assertCreative(db, scope, input.siteId, input);
  const [[ad]] = await db.batch([
    db
      .insert(ads)
      .values({ ...input, tenantId: scope.tenantId })
      .returning(),
    bumpVersion(db, scope, input.siteId),
  ]);
  return ad!;
}

export async function updateAd(db: Database, scope: TenantScope, id: number, input: z.infer<typeof adUpdate>) {
  const [existing] = await db
    .select()
    .from(ads)
    .where(inTenant(ads.tenantId, scope, eq(ads.id, id)))
    .limit(1);
  if (!existing) throw new ApiError(404, `No ad with id ${id}`);
  const merged = { ...existing, ...input };
  if (merged.kind === "image" && !merged.mediaId) throw new ApiError(400, "mediaId: an image ad needs its image");
  if (merged.kind === "html" && !merged.html) throw new ApiError(400, "html: an HTML ad needs its snippet");
  await assertCreative(db, scope, existing.siteId, merged);
  const [[ad]] = await db.batch([
    db
      .update(ads)
      .set(input)
      .where(inTenant(ads.tenantId, scope, eq(ads.id, id)))
      .returning(),
    bumpVersion(db, scope, existing.siteId),
  ]);
  return ad!;
}

export async function deleteAd(db: Database, scope: TenantScope, id: number) {
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
