import { count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Principal } from "../platform/auth/principal";
import type { Database } from "../platform/database";
import { accountAuditEvents, type AuditAction } from "./schema";

interface AuditEvent {
  /** The account (user) the event belongs to. */
  userId: number;
  action: AuditAction;
  /** Who acted; none when the service did (an expiry). */
  actor?: Principal;
  /** A number, or the subquery that finds a key inserted in the same batch. */
  keyId?: number | SQL | null;
  detail?: Record<string, unknown>;
}

/** The statement that records an event, for the `db.batch` of the change it records. */
export const auditEvent = (db: Database, event: AuditEvent) =>
  db.insert(accountAuditEvents).values({
    userId: event.userId,
    action: event.action,
    actorUserId: event.actor?.userId ?? null,
    actorKeyId: event.actor?.keyId ?? null,
    keyId: event.keyId ?? null,
    detail: event.detail ?? {},
  });

/**
 * The statement that records an event only where a row is as the change leaves it (`from`: a
 * FROM … WHERE over that row; `userId`, `keyId` and `detail` are read from it). An insert from a
 * SELECT names every column, in the table's order.
 */
export const auditEventWhere = (db: Database, event: { action: AuditAction; actor: Principal; userId: SQL; keyId: SQL; detail: SQL }, from: SQL) =>
  db
    .insert(accountAuditEvents)
    .select(
      sql`SELECT NULL, ${event.userId}, ${event.action}, ${event.actor.userId}, ${event.actor.keyId}, ${event.keyId}, ${event.detail}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ${from}`,
    );

/** One page of an account's events, newest first, and how many there are. */
export async function auditEventsOf(db: Database, userId: number, page: number, size: number) {
  const [events, [total]] = await db.batch([
    db
      .select()
      .from(accountAuditEvents)
      .where(eq(accountAuditEvents.userId, userId))
      .orderBy(desc(accountAuditEvents.id))
      .limit(size)
      .offset(page * size),
    db.select({ n: count() }).from(accountAuditEvents).where(eq(accountAuditEvents.userId, userId)),
  ]);
  return { events, total: total?.n ?? 0 };
}
