import { eq, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { Database } from "./database";
import { readBizContent } from "./biz-content";
import { toHex } from "./crypto";
import type { AppEnv } from "./env";
import { IsolateCache } from "./isolate-cache";
import { dataVersions } from "./jobs/tables";

/** The reference data of groups T and O: one version for both, bumped by each job run that changes rows and by the seed. */
export const REFERENCE_DATA = "reference";

/** How long an isolate trusts the version it read: a job run elsewhere shows here within this. */
export const DATA_VERSION_MS = 10_000;
const versions = new Map<string, { version: number; until: number }>();

export async function dataVersion(db: Database, name = REFERENCE_DATA): Promise<number> {
  const known = versions.get(name);
  if (known && known.until > Date.now()) return known.version;
  const [row] = await db.select({ version: dataVersions.version }).from(dataVersions).where(eq(dataVersions.name, name)).limit(1);
  const version = row?.version ?? 0;
  versions.set(name, { version, until: Date.now() + DATA_VERSION_MS });
  return version;
}

/** Forgets the versions this isolate read (after a change made outside `bumpDataVersion`, e.g. a seed run here). */
export const forgetDataVersions = () => versions.clear();

/** The write that makes cached answers stale, for the batch that changes the data; this isolate forgets at once. */
export function bumpDataVersion(db: Database, name = REFERENCE_DATA) {
  versions.delete(name);
  return db
    .insert(dataVersions)
    .values({ name, version: 2, updatedAt: new Date().toISOString() })
    .onConflictDoUpdate({ target: dataVersions.name, set: { version: sql`${dataVersions.version} + 1`, updatedAt: new Date().toISOString() } });
}

interface Kept {
  /** Encoded once: a hot answer is sent as the bytes it was, not encoded again per request. */
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  contentType: string;
}

/** Answers kept in this isolate (most recently used last), and none larger than this. */
const kept = new IsolateCache<Kept>(500);
const KEPT_BODY_BYTES = 256 * 1024;

const digest = async (data: string | Uint8Array<ArrayBuffer>) =>
  toHex(await crypto.subtle.digest("SHA-1", typeof data === "string" ? new TextEncoder().encode(data) : data));

/**
 * Reads of data that changes only with its version (T and O): the answer is kept in the isolate
 * and in the edge cache (Cache API) under the version, the method, the path, the sorted query and
 * (for a POST query) the body, so that a hot read costs neither D1 nor the handler. Every answer
 * carries an ETag; a matching If-None-Match is a 304. Runs after the access policy: who may call
 * and their rate limits are checked every time; only what they are answered is kept.
 */
export function cachedReads(name = REFERENCE_DATA): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "POST") return next();
    const url = new URL(c.req.url);
    url.searchParams.sort();
    // A POST query is its business parameters (style F), whatever their encoding: read once, as the handler reads them.
    const body = c.req.method === "POST" ? JSON.stringify(await readBizContent(c)) : "";
    const version = await dataVersion(c.var.db, name);
    // The body's digest is a path segment: the Cache API drops a URL's fragment from its keys.
    const key = `https://read-cache.invalid/${name}/v${version}/${c.req.method}/${body ? await digest(body) : "-"}${url.pathname}?${url.searchParams}`;
    let answer = kept.get(key);
    let source = "isolate";
    if (!answer) {
      const edge = await caches.default.match(key);
      if (edge) {
        answer = { body: new Uint8Array(await edge.arrayBuffer()), etag: edge.headers.get("ETag")!, contentType: edge.headers.get("Content-Type")! };
        source = "edge";
      }
    }
    if (!answer) {
      await next();
      const type = c.res.headers.get("Content-Type") ?? "";
      if (c.res.status !== 200 || !type.startsWith("application/json")) return;
      const bytes = new Uint8Array(await c.res.clone().arrayBuffer());
      answer = { body: bytes, etag: `"v${version}-${(await digest(bytes)).slice(0, 16)}"`, contentType: type };
      const stored = answer;
      c.executionCtx.waitUntil(
        caches.default.put(
          key,
          new Response(stored.body, { headers: { "Content-Type": stored.contentType, ETag: stored.etag, "Cache-Control": "max-age=86400" } }),
        ),
      );
      source = "miss";
    }
    if (answer.body.length <= KEPT_BODY_BYTES) kept.set(key, answer);
    // Clients may keep it too, asking again with If-None-Match.
    const headers = { ETag: answer.etag, "Cache-Control": "private, no-cache", "X-Cache": source === "miss" ? "MISS" : "HIT" };
    if (c.req.header("If-None-Match") === answer.etag) {
      c.res = c.body(null, 304, headers);
      return;
    }
    c.res = c.body(answer.body, 200, { ...headers, "Content-Type": answer.contentType });
  };
}
