import type { Context } from "hono";
import { versionedAnswer } from "../../platform/answer-cache";
import type { AppEnv } from "../../platform/env";
import { nextScheduled, type ReaderSite, scheduleMark } from "../tenancy/scope";

/**
 * A headless answer (C1–C4) through the answer cache, under the site's content version and the
 * moment its newest scheduled content went live: a publish, or a scheduled content's time coming,
 * makes the next request miss; browsers keep it no longer than that time. Kept in the isolate too.
 */
export function cachedAnswer(c: Context<AppEnv>, site: ReaderSite, compute: () => Promise<unknown>): Promise<Response> {
  const now = new Date().toISOString();
  const spec = {
    namespace: `site/${site.id}`,
    version: `v${site.contentVersion}${scheduleMark(site, now)}`,
    kind: "content",
    // A hot answer from the isolate's memory skips the Cache API's round trip, as a site's pages do.
    inIsolate: true,
    until: nextScheduled(site, now),
  } as const;
  return versionedAnswer(c, spec, async () => ({
    body: JSON.stringify({ success: true, data: await compute() }),
    contentType: "application/json; charset=UTF-8",
    status: 200,
    keep: true,
  }));
}
