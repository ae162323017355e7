import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import type { Site } from "./schema";

/** Short enough that a scheduled content shows within a minute of its time; readers revalidate in the background. */
export const CACHE_CONTROL = "private, max-age=60, stale-while-revalidate=300";

const etagOf = async (body: string) =>
  `"${[...new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(body)))]
    .slice(0, 10)
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")}"`;

/**
 * A headless answer, cached at the edge under a key holding the site's content version: a change
 * to the site's content bumps the version, so the next request misses and no stale answer is
 * served after a publish (beyond the max-age a browser keeps). Carries an ETag; a matching
 * If-None-Match is a 304. `X-Cache` says whether the edge had it.
 */
export async function cachedAnswer(c: Context<AppEnv>, site: Site, compute: () => Promise<unknown>): Promise<Response> {
  const url = new URL(c.req.url);
  url.searchParams.sort();
  const key = new Request(`https://content-cache.invalid/site/${site.id}/v${site.contentVersion}${url.pathname}?${url.searchParams}`);
  const cache = caches.default;
  const hit = await cache.match(key);
  let body: string;
  let etag: string;
  if (hit) {
    body = await hit.text();
    etag = hit.headers.get("ETag") ?? (await etagOf(body));
  } else {
    body = JSON.stringify({ success: true, data: await compute() });
    etag = await etagOf(body);
    const stored = new Response(body, { headers: { "Content-Type": "application/json", ETag: etag, "Cache-Control": "max-age=60" } });
    c.executionCtx.waitUntil(cache.put(key, stored));
  }
  const headers = { ETag: etag, "Cache-Control": CACHE_CONTROL, "X-Cache": hit ? "HIT" : "MISS" };
  if (c.req.header("If-None-Match") === etag) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, "Content-Type": "application/json; charset=UTF-8" });
}
