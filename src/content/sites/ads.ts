import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { mediaUrl } from "../media/addresses";
import { ads, adStats, media, type Site } from "../schema";

export interface ShownAd {
  id: number;
  kind: "image" | "html";
  clickUrl: string;
  imageUrl: string | null;
  /** For an HTML ad: the snippet, to put in a sandboxed iframe's srcdoc (never inline). */
  html: string | null;
}

/** One ad a slot, drawn by weight among the site's active ads whose schedule includes now. */
export async function adsForPage(db: Database, site: Site, now: string, random = Math.random): Promise<Record<string, ShownAd>> {
  const running = await db
    .select({ ad: ads, key: media.key })
    .from(ads)
    // Only the site's own media, whatever an older row says.
    .leftJoin(media, and(eq(media.id, ads.mediaId), eq(media.siteId, ads.siteId), eq(media.tenantId, ads.tenantId)))
    .where(
      and(
        eq(ads.tenantId, site.tenantId),
        eq(ads.siteId, site.id),
        eq(ads.isActive, true),
        lte(ads.startsAt, now),
        or(isNull(ads.endsAt), gt(ads.endsAt, now)),
      ),
    );
  const bySlot = new Map<string, typeof running>();
  for (const row of running) bySlot.set(row.ad.slot, [...(bySlot.get(row.ad.slot) ?? []), row]);
  const shown: Record<string, ShownAd> = {};
  for (const [slot, candidates] of bySlot) {
    let draw = random() * candidates.reduce((sum, c) => sum + c.ad.weight, 0);
    const chosen = candidates.find((c) => (draw -= c.ad.weight) < 0) ?? candidates.at(-1)!;
    shown[slot] = {
      id: chosen.ad.id,
      kind: chosen.ad.kind,
      clickUrl: `/ads/${chosen.ad.id}/click`,
      imageUrl: chosen.key ? mediaUrl(chosen.key) : null,
      html: chosen.ad.html,
    };
  }
  return shown;
}

const DEFAULT_FLUSH_SECONDS = 10;
const pending = new Map<string, { tenantId: number; adId: number; day: string; count: number }>();
let lastFlush = 0;

/**
 * Counts impressions in memory and writes them at most every `flushSeconds` (AD_FLUSH_SECONDS,
 * 10 by default) per isolate, in one batch: no write per page view. Counts an isolate holds when
 * it is evicted are lost (a few seconds' worth).
 */
export function countImpressions(
  db: Database,
  tenantId: number,
  adIds: number[],
  flushSeconds: number | undefined,
  waitUntil: (work: Promise<unknown>) => void,
) {
  const day = new Date().toISOString().slice(0, 10);
  for (const adId of adIds) {
    const key = `${adId}:${day}`;
    const entry = pending.get(key) ?? { tenantId, adId, day, count: 0 };
    entry.count++;
    pending.set(key, entry);
  }
  if (Date.now() - lastFlush < (flushSeconds ?? DEFAULT_FLUSH_SECONDS) * 1000 || pending.size === 0) return;
  lastFlush = Date.now();
  const batch = [...pending.values()];
  pending.clear();
  const [first, ...rest] = batch.map((e) =>
    db
      .insert(adStats)
      .values({ tenantId: e.tenantId, adId: e.adId, day: e.day, impressions: e.count })
      .onConflictDoUpdate({ target: [adStats.adId, adStats.day], set: { impressions: sql`${adStats.impressions} + ${e.count}` } }),
  );
  waitUntil(db.batch([first!, ...rest]));
}

/** A click: counted at once (clicks are few), and where the ad leads. */
export async function recordClick(db: Database, site: Site, adId: number): Promise<string | undefined> {
  const [ad] = await db
    .select()
    .from(ads)
    .where(and(eq(ads.id, adId), eq(ads.tenantId, site.tenantId), eq(ads.siteId, site.id)))
    .limit(1);
  if (!ad?.link) return undefined;
  const day = new Date().toISOString().slice(0, 10);
  await db
    .insert(adStats)
    .values({ tenantId: site.tenantId, adId, day, clicks: 1 })
    .onConflictDoUpdate({ target: [adStats.adId, adStats.day], set: { clicks: sql`${adStats.clicks} + 1` } });
  return ad.link;
}
