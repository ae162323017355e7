import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { mediaUrl } from "../media/addresses";
import { ads, adStats, media, type Site } from "../schema";
import { AD_FRAME_SANDBOX, adFrame, adTarget, adTargets } from "./ad-html";
import type { ReaderSite } from "../tenancy/scope";
import { perSiteVersion } from "./site-data";
import { SITE_PATH } from "../params";

const ONE_SITE_PATH = new RegExp(`^${SITE_PATH}$`);

export interface ShownAd {
  id: number;
  kind: "image" | "html";
  clickUrl: string;
  imageUrl: string | null;
  /** An image ad's picture in words (its `alt`), as the site's editor wrote it; null when they wrote none. */
  alt: string | null;
  /** For an HTML ad: its frame's document, to put in the `srcdoc` of an iframe (never inline): its links through the click counter. */
  html: string | null;
  /** For an HTML ad: whether a link of it opens a new tab (the default theme's frame title says so). */
  opensNewTab: boolean;
  /** The `sandbox` of that iframe: links open, scripts never run. */
  sandbox: string;
}

/** The site's active ads, whatever their schedule (an ad's change is a change of the site: see site-data.ts). */
const activeAds = (db: Database, site: ReaderSite) =>
  perSiteVersion(site, "ads", () =>
    db
      .select({ ad: ads, key: media.key })
      .from(ads)
      // Only the site's own media, whatever an older row says.
      .leftJoin(media, and(eq(media.id, ads.mediaId), eq(media.siteId, ads.siteId), eq(media.tenantId, ads.tenantId)))
      .where(and(eq(ads.tenantId, site.tenantId), eq(ads.siteId, site.id), eq(ads.isActive, true))),
  );

/** The ad of each slot for one view, and what names the draw for the page's cache. */
export interface AdDraw {
  chosen: Map<string, Awaited<ReturnType<typeof activeAds>>[number]>;
  /**
   * The slots drawn among several ads, with the ad each drew ("sidebar=7"), or "" when no slot had
   * a choice: a kept page is kept per draw, so that each view shows the ads in the share their weights ask.
   */
  variant: string;
}

/** One ad a slot, drawn by weight among the site's active ads whose schedule includes now, and whose language (if any) is the page's. */
export async function drawAds(db: Database, site: ReaderSite, language: string, now: string, random = Math.random): Promise<AdDraw> {
  const running = (await activeAds(db, site)).filter(
    ({ ad }) => ad.startsAt <= now && (ad.endsAt === null || ad.endsAt > now) && (ad.language === null || ad.language === language),
  );
  const bySlot = new Map<string, typeof running>();
  for (const row of running) bySlot.set(row.ad.slot, [...(bySlot.get(row.ad.slot) ?? []), row]);
  const chosen: AdDraw["chosen"] = new Map();
  const drawn: string[] = [];
  for (const [slot, candidates] of [...bySlot].sort(([a], [b]) => a.localeCompare(b))) {
    let draw = random() * candidates.reduce((sum, c) => sum + c.ad.weight, 0);
    const ad = candidates.find((c) => (draw -= c.ad.weight) < 0) ?? candidates.at(-1)!;
    chosen.set(slot, ad);
    if (candidates.length > 1) drawn.push(`${slot}=${ad.ad.id}`);
  }
  return { chosen, variant: drawn.join("&") };
}

/** The drawn ads as a template shows them (`ads.<slot>`). */
export async function shownAds({ chosen }: AdDraw): Promise<Record<string, ShownAd>> {
  const shown: Record<string, ShownAd> = {};
  for (const [slot, { ad, key }] of chosen) {
    const frame = ad.kind === "html" && ad.html ? await adFrame(ad.id, ad.html) : null;
    shown[slot] = {
      id: ad.id,
      kind: ad.kind,
      clickUrl: `/ads/${ad.id}/click`,
      imageUrl: key ? mediaUrl(key) : null,
      alt: ad.altText || null,
      html: frame?.document ?? null,
      opensNewTab: frame?.opensNewTab ?? false,
      sandbox: AD_FRAME_SANDBOX,
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

/**
 * A click on the way to `to` (one of an HTML ad's links) or to the ad's own link, counted at once
 * (clicks are few): where it leads, or undefined when the site has no such ad. An address the ad
 * does not link to is refused: the route sends no one anywhere else.
 */
export async function recordClick(db: Database, site: Site, adId: number, to?: string): Promise<string | undefined> {
  const [ad] = await db
    .select()
    .from(ads)
    .where(and(eq(ads.id, adId), eq(ads.tenantId, site.tenantId), eq(ads.siteId, site.id)))
    .limit(1);
  // An image ad's link may be a page of this site, as its editors may give it.
  const link = ad?.link ? (ONE_SITE_PATH.test(ad.link) ? ad.link : adTarget(ad.link)) : undefined;
  if (!ad || (to === undefined && !link)) return undefined;
  if (to !== undefined && to !== link && !(ad.kind === "html" && ad.html && (await adTargets(ad.html)).has(to)))
    throw new ApiError(400, "This ad does not link to that address.");
  const day = new Date().toISOString().slice(0, 10);
  await db
    .insert(adStats)
    .values({ tenantId: site.tenantId, adId, day, clicks: 1 })
    .onConflictDoUpdate({ target: [adStats.adId, adStats.day], set: { clicks: sql`${adStats.clicks} + 1` } });
  return to ?? link!;
}
