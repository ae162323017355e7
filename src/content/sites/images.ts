import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { IsolateCache } from "../../platform/isolate-cache";
import { mediaKeyOf, mediaUrl } from "../media/addresses";
import { variantKey } from "../media/service";
import { media, type Site } from "../schema";

/** `image(address)` as templates read it (docs/themes.md): what an `<img>` needs for the right size and no layout shift. */
interface TemplateImage {
  src: string;
  /** Empty when the image has no resized copies (a GIF, a small image, one uploaded before November 2026). */
  srcset: string;
  sizes: string;
  width: number | null;
  height: number | null;
}

/** How wide the image is shown, for the browser's choice in `srcset`, unless the template says: the width of a reading column. */
const DEFAULT_SIZES = "(max-width: 48rem) 100vw, 48rem";

type Stored = { width: number | null; height: number | null; variantWidths: number[] };
/** A file's size and copies never change (keys are never reused); a deleted file is forgotten within the TTL. */
const stored = new IsolateCache<{ key: string; file: Stored | null }>(5000, 10 * 60_000);

/** The site's media addresses among a page's data: a walk bounded in depth and in the values it looks at. */
function addressesIn(value: unknown, site: Site, found: Set<string>, budget = { left: 20_000 }, depth = 0) {
  if (budget.left-- <= 0 || depth > 8) return;
  if (typeof value === "string") {
    const key = mediaKeyOf(value, site);
    if (key) found.add(key);
  } else if (Array.isArray(value)) {
    for (const item of value) addressesIn(item, site, found, budget, depth + 1);
  } else if (value && typeof value === "object") {
    for (const item of Object.values(value)) addressesIn(item, site, found, budget, depth + 1);
  }
}

/**
 * The template global `image(address[, sizes])` for a page: the site's media that the page's data
 * names are looked up once before the render (templates call functions synchronously); any other
 * address, another site's file or none is `none`.
 */
export async function imageGlobal(db: Database, site: Site, data: unknown): Promise<(address: unknown, sizes?: unknown) => TemplateImage | null> {
  const keys = new Set<string>();
  addressesIn(data, site, keys);
  const missing = [...keys].filter((key) => stored.get(key) === undefined);
  // D1 binds at most 100 parameters a statement.
  for (let i = 0; i < missing.length; i += 90) {
    const chunk = missing.slice(i, i + 90);
    const rows = await db
      .select({ key: media.key, width: media.width, height: media.height, variantWidths: media.variantWidths })
      .from(media)
      .where(and(eq(media.tenantId, site.tenantId), eq(media.siteId, site.id), inArray(media.key, chunk)));
    for (const key of chunk) stored.set(key, { key, file: rows.find((row) => row.key === key) ?? null });
  }
  return (address, sizes) => {
    const key = mediaKeyOf(address, site);
    const file = key ? stored.get(key)?.file : undefined;
    if (!key || !file) return null;
    const src = mediaUrl(key);
    const copies = file.variantWidths.map((width) => `${mediaUrl(variantKey(key, width))} ${width}w`);
    const withOriginal = file.width && copies.length ? [...copies, `${src} ${file.width}w`] : [];
    return {
      src,
      srcset: withOriginal.join(", "),
      sizes: withOriginal.length ? (typeof sizes === "string" && sizes.length <= 200 ? sizes : DEFAULT_SIZES) : "",
      width: file.width,
      height: file.height,
    };
  };
}
