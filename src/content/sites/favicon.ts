import { themeAsset, themeFavicon } from "./themes";

/** The built-in favicon (32×32, a page in the default theme's blue), for a theme without one of its own. */
const DEFAULT_FAVICON = Uint8Array.from(
  atob(
    "AAABAAEAICAAAAEAIACOAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAFVJREFUeNpjYEAD3OEX/tMSM+ACtLYYr0PobTmGIwbUAQNlOdwRow7AJ0ktMOqAoeuA0Vwwmg1HE+GoA0YT4WgaGFKJcHg6YGSkgdGe0aDonA5k9xwA3nOoCtYydG0AAAAASUVORK5CYII=",
  ),
  (char) => char.charCodeAt(0),
);

/** `/favicon.ico` has no version in its URL: caches keep it a day, then check it (a theme change shows within a day). */
const FAVICON_CACHING = "public, max-age=86400, stale-while-revalidate=604800";

/** The site's favicon: its theme's `assets/favicon.ico`, `.svg` or `.png` (the first it has), else the built-in one. */
export async function siteFavicon(bucket: R2Bucket, siteId: number, theme: string): Promise<Response> {
  const own = await themeFavicon(bucket, siteId, theme);
  const asset = own && (await themeAsset(bucket, siteId, theme, own));
  const answer = asset || new Response(DEFAULT_FAVICON, { headers: { "Content-Type": "image/x-icon", ETag: '"default-favicon-1"' } });
  answer.headers.set("Cache-Control", FAVICON_CACHING);
  return answer;
}
