import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { Bindings } from "./env";

export type Database = DrizzleD1Database;

/** One Drizzle instance per D1 binding, made once per isolate rather than once per request. */
const instances = new WeakMap<D1Database, Database>();

export function database(env: Pick<Bindings, "DB">): Database {
  let db = instances.get(env.DB);
  if (!db) {
    db = drizzle(env.DB);
    instances.set(env.DB, db);
  }
  return db;
}

/**
 * Whether SQLite refused the write for the constraint `refusal` names (`UNIQUE constraint failed`,
 * `CHECK constraint failed: <name>`): Drizzle wraps D1's error, whose message is in the cause.
 */
export const refusedBy = (error: unknown, refusal: string) =>
  [error, (error as { cause?: unknown } | null)?.cause].some((e) => String((e as Error | null)?.message ?? e).includes(refusal));

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** A D1 bookmark as D1 writes them (e.g. 00000245-0000011e-00004f6f-<32 hex>); anything else is ignored. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/**
 * The database of one request, through D1's Sessions API: a read-only request may be answered by
 * a nearby replica (when read replication is on), a write starts at the primary, and every query
 * of the request sees the ones before it. A client that sends back the `X-D1-Bookmark` of its
 * last answer reads at least that state (its own write, from any replica). The plain binding
 * (`database`) is the primary: jobs, queues and scripts use it.
 */
export function requestDatabase(
  env: Pick<Bindings, "DB">,
  method: string,
  bookmark: string | undefined,
): { db: Database; session: D1DatabaseSession } {
  const start = bookmark && BOOKMARK.test(bookmark) ? bookmark : SAFE_METHODS.has(method) ? "first-unconstrained" : "first-primary";
  const session = env.DB.withSession(start);
  return { db: drizzle(session as unknown as D1Database), session };
}
