import { eq, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { Database } from "./database";
import { readBizContent } from "./biz-content";
import { versionedAnswer } from "./answer-cache";
import { IsolateCache } from "./isolate-cache";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { dataVersions } from "./jobs/tables";

/** The reference data of groups T and O: one version for both, bumped by each job run that changes rows and by the seed. */
export const REFERENCE_DATA = "reference";

/** How long an isolate trusts the version it read: a job run elsewhere shows here within this. */
export const DATA_VERSION_MS = 10_000;
const versions = new IsolateCache<{ name: string; version: number }>(100, DATA_VERSION_MS);

export async function dataVersion(db: Database, name = REFERENCE_DATA): Promise<number> {
  const known = versions.get(name);
  if (known) return known.version;
  const [row] = await db.select({ version: dataVersions.version }).from(dataVersions).where(eq(dataVersions.name, name)).limit(1);
  const version = row?.version ?? 0;
  versions.set(name, { name, version });
  return version;
}

/** Forgets the versions this isolate read (after a change made outside `bumpDataVersion`, e.g. a seed run here). */
export const forgetDataVersions = () => versions.forget(() => true);

/** The write that makes cached answers stale, for the batch that changes the data; this isolate forgets at once. */
export function bumpDataVersion(db: Database, name = REFERENCE_DATA) {
  versions.forget((known) => known.name === name);
  return db
    .insert(dataVersions)
    .values({ name, version: 2, updatedAt: new Date().toISOString() })
    .onConflictDoUpdate({ target: dataVersions.name, set: { version: sql`${dataVersions.version} + 1`, updatedAt: new Date().toISOString() } });
}

/**
 * Reads of data that changes only with its version (T and O), through the answer cache: kept in
 * the isolate and at the edge under the version and the request (a POST query's body included),
 * so that a hot read costs neither D1 nor the handler. Runs after the access policy: who may call
 * and their rate limits are checked every time; only what they are answered is kept.
 */
export function cachedReads(name = REFERENCE_DATA, varyBy?: () => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "POST") return next();
    // A POST query is its business parameters (style F), whatever their encoding: read once, as the handler reads them.
    let body: string | undefined;
    if (c.req.method === "POST") {
      try {
        body = JSON.stringify(await readBizContent(c));
      } catch (error) {
        // No query this cache can name: the route says what is wrong with it (or, with no route for a POST here, that it takes another method).
        if (error instanceof ApiError) return next();
        throw error;
      }
    }
    // What else an answer depends on (group T: the day an undated answer is for).
    const vary = [body, varyBy?.()].filter((part) => part !== undefined).join("\n") || undefined;
    const version = await dataVersion(c.get("db"), name);
    c.res = await versionedAnswer(c, { namespace: name, version: `v${version}`, kind: "data", inIsolate: true, vary }, async () => {
      await next();
      const type = c.res.headers.get("Content-Type") ?? "";
      if (c.res.status !== 200 || !type.startsWith("application/json")) return c.res;
      return { body: new Uint8Array(await c.res.clone().arrayBuffer()), contentType: type, status: 200, keep: true };
    });
  };
}
