import { sql } from "drizzle-orm";
import type { Database } from "../database";
import { keyUsageDaily } from "./tables";

/** How often an isolate adds its counts to D1, and how many distinct counters it holds before it adds them sooner. */
export const USAGE_FLUSH_MS = 10_000;
const USAGE_PENDING_MAX = 500;

const pending = new Map<string, { keyId: number; day: string; routeGroup: string; status: number; requests: number }>();
let lastFlush = 0;

/**
 * Drops the counts not yet written and starts the interval anew. For a database replaced under a
 * live isolate: the test pool rolls storage back between files, and a key id counted in one file
 * names another key in the next.
 */
export function forgetPendingKeyUsage() {
  pending.clear();
  lastFlush = Date.now();
}

/**
 * Counts a key's request in isolate memory and adds what the isolate counted to D1 at most every
 * 10 s, in one batch after the answer (`waitUntil`), as the ad counters do: the request waits for
 * no write. Counts an isolate holds when it is evicted are lost (a few seconds' worth).
 */
export function countKeyRequest(db: Database, waitUntil: (work: Promise<unknown>) => void, keyId: number, routeGroup: string, status: number) {
  const now = Date.now();
  const day = new Date(now).toISOString().slice(0, 10);
  const counter = `${keyId}|${day}|${routeGroup}|${status}`;
  const entry = pending.get(counter);
  if (entry) entry.requests++;
  else pending.set(counter, { keyId, day, routeGroup, status, requests: 1 });
  // Either way: a clock set back (tests move it) must not hold the counts until it catches up.
  if (Math.abs(now - lastFlush) < USAGE_FLUSH_MS && pending.size < USAGE_PENDING_MAX) return;
  lastFlush = now;
  const counts = [...pending.values()];
  pending.clear();
  const [first, ...rest] = counts.map((count) =>
    db
      .insert(keyUsageDaily)
      .values(count)
      .onConflictDoUpdate({
        target: [keyUsageDaily.keyId, keyUsageDaily.day, keyUsageDaily.routeGroup, keyUsageDaily.status],
        set: { requests: sql`${keyUsageDaily.requests} + ${count.requests}` },
      }),
  );
  waitUntil(db.batch([first!, ...rest]));
}
