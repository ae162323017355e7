import { mediaKeyOf } from "../media/addresses";
import { servedMedia } from "../media/service";
import type { Site } from "../schema";
import { themeAsset, themeFavicon, type ThemedSite } from "./themes";

/** The built-in favicon (32×32, a page in the default theme's blue), for a theme without one of its own. */
const DEFAULT_FAVICON = Uint8Array.from(
  atob(
    "AAABAAEAICAAAAEAIACOAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAFVJREFUeNpjYEAD3OEX/tMSM+ACtLYYr0PobTmGIwbUAQNlOdwRow7AJ0ktMOqAoeuA0Vwwmg1HE+GoA0YT4WgaGFKJcHg6YGSkgdGe0aDonA5k9xwA3nOoCtYydG0AAAAASUVORK5CYII=",
  ),
  (char) => char.charCodeAt(0),
);

/** `/favicon.ico` has no version in its URL: caches keep it a day, then check it (a theme change shows within a day). */
const FAVICON_CACHING = "public, max-age=86400, stale-while-revalidate=604800";

/**
 * The site's favicon: the image its settings chose from its media, else its theme's `assets/favicon.ico`,
 * `.svg` or `.png` (the first it has), else the built-in one.
 */
export async function siteFavicon(buckets: { THEMES: R2Bucket; MEDIA: R2Bucket }, site: Site & ThemedSite, request: Request): Promise<Response> {
  const chosen = mediaKeyOf(site.favicon, site);
  const fromMedia = chosen && (await servedMedia(buckets.MEDIA, chosen, request));
  if (fromMedia) {
    // The media's own headers, but the caching of an address that outlives the choice.
    const answer = new Response(fromMedia.body, fromMedia);
    answer.headers.set("Cache-Control", FAVICON_CACHING);
    return answer;
  }
  const own = await themeFavicon(buckets.THEMES, site, site.theme);
  const asset = own && (await themeAsset(buckets.THEMES, site, site.theme, own));
  const answer = asset || new Response(DEFAULT_FAVICON, { headers: { "Content-Type": "image/x-icon", ETag: '"default-favicon-1"' } });
  answer.headers.set("Cache-Control", FAVICON_CACHING);
  return answer;
}
