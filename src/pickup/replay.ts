import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { logEvent } from "../platform/logging";
import { disabledWebhookUrls, pickupTasks, webhookEvents } from "./schema";
import { firstAttempt } from "./webhooks";

/** Outcomes a person can replay: given up after the tenth attempt, or dropped while the endpoint was disabled. */
const UNDELIVERED = ["dead", "disabled"] as const;

const EVENT_UNKNOWN = "no webhook notification with this event_id for this app";

/** The app's notifications among `ids` whose endpoint is disabled (answered 410 and not re-enabled since). */
async function disabledAmong(db: Database, appId: number, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .innerJoin(pickupTasks, eq(pickupTasks.id, webhookEvents.taskId))
    .innerJoin(disabledWebhookUrls, and(eq(disabledWebhookUrls.appId, appId), eq(disabledWebhookUrls.url, pickupTasks.webhookUrl)))
    .where(inArray(webhookEvents.id, ids));
  return new Set(rows.map((row) => row.id));
}

/**
 * Opens the undelivered notifications among `ids` again as a new series of attempts (same
 * `webhook-id`) and queues the first of each task: the rest follow in order through the normal
 * path, each settled event queueing its task's next. The update decides, so a second replay while
 * the first is pending finds nothing to open and sends nothing.
 */
async function reopen(db: Database, env: Bindings, ids: string[]): Promise<{ id: string; taskId: number }[]> {
  if (ids.length === 0) return [];
  const reopened = await db
    .update(webhookEvents)
    .set({ outcome: "pending", replays: sql`${webhookEvents.replays} + 1`, replayedAt: new Date().toISOString() })
    .where(and(inArray(webhookEvents.id, ids), inArray(webhookEvents.outcome, UNDELIVERED)))
    .returning({ id: webhookEvents.id, taskId: webhookEvents.taskId });
  const firstOfTask = new Map<number, string>();
  // `ids` come in the order the events were written; the earliest of each task goes first.
  for (const id of ids) {
    const event = reopened.find((row) => row.id === id);
    if (event && !firstOfTask.has(event.taskId)) firstOfTask.set(event.taskId, id);
  }
  if (firstOfTask.size > 0) {
    // A failed send is left to the outbox sweep, which finds the replayed event with no attempt of this replay.
    try {
      await env.WEBHOOKS.sendBatch([...firstOfTask.values()].map((eventId) => ({ body: firstAttempt(eventId) })));
    } catch (error) {
      logEvent("warn", { webhooks: firstOfTask.size, error: `replay queue send failed; the outbox sweep will retry: ${String(error)}` });
    }
  }
  return reopened;
}

/** Replays one undelivered notification of the app; another app's event is as unknown as none. */
export async function replayOne(db: Database, env: Bindings, appId: number, eventId: string) {
  const [event] = await db
    .select({ id: webhookEvents.id, taskId: webhookEvents.taskId, outcome: webhookEvents.outcome, replays: webhookEvents.replays })
    .from(webhookEvents)
    .innerJoin(pickupTasks, eq(pickupTasks.id, webhookEvents.taskId))
    .where(and(eq(webhookEvents.id, eventId), eq(pickupTasks.appId, appId)))
    .limit(1);
  if (!event) throw new ApiError(404, EVENT_UNKNOWN);
  if (event.outcome === "pending" || event.outcome === "retrying")
    return { event_id: event.id, task_id: event.taskId, queued: false, replay: event.replays };
  if (event.outcome === "delivered") throw new ApiError(409, "this notification was delivered; P3 (re-send) sends a task's last notification again");
  if ((await disabledAmong(db, appId, [event.id])).size > 0) {
    throw new ApiError(
      409,
      "the webhook endpoint of this task is disabled after it answered 410 Gone; re-enable it first (POST /api/v1/pickup/webhooks/enable)",
    );
  }
  const reopened = await reopen(db, env, [event.id]);
  // Nothing reopened: another replay took it between the read and the update.
  return { event_id: event.id, task_id: event.taskId, queued: reopened.length > 0, replay: event.replays + (reopened.length > 0 ? 1 : 0) };
}

/** Replays the app's undelivered notifications written since a time, oldest first, at most `limit` per call. */
export async function replaySince(db: Database, env: Bindings, appId: number, since: string, limit: number) {
  const candidates = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .innerJoin(pickupTasks, eq(pickupTasks.id, webhookEvents.taskId))
    .leftJoin(disabledWebhookUrls, and(eq(disabledWebhookUrls.appId, appId), eq(disabledWebhookUrls.url, pickupTasks.webhookUrl)))
    .where(
      and(
        eq(pickupTasks.appId, appId),
        inArray(webhookEvents.outcome, UNDELIVERED),
        gte(webhookEvents.createdAt, since),
        sql`${disabledWebhookUrls.url} is null`,
      ),
    )
    .orderBy(asc(sql`${webhookEvents}.rowid`))
    .limit(limit + 1);
  const batch = candidates.slice(0, limit).map((row) => row.id);
  const reopened = await reopen(db, env, batch);
  const [skipped] = await db
    .select({ count: sql<number>`count(*)` })
    .from(webhookEvents)
    .innerJoin(pickupTasks, eq(pickupTasks.id, webhookEvents.taskId))
    .innerJoin(disabledWebhookUrls, and(eq(disabledWebhookUrls.appId, appId), eq(disabledWebhookUrls.url, pickupTasks.webhookUrl)))
    .where(and(eq(pickupTasks.appId, appId), inArray(webhookEvents.outcome, UNDELIVERED), gte(webhookEvents.createdAt, since)));
  if (reopened.length > 0) logEvent("info", { app: appId, replayed: reopened.length, since });
  return {
    queued: reopened.length,
    event_ids: reopened.map((row) => row.id),
    skipped_disabled: skipped?.count ?? 0,
    more: candidates.length > limit,
  };
}

/** Re-enables an endpoint of the app that answered 410, so that replays and new notifications reach it again. */
export async function enableEndpoint(db: Database, appId: number, url: string) {
  const removed = await db
    .delete(disabledWebhookUrls)
    .where(and(eq(disabledWebhookUrls.appId, appId), eq(disabledWebhookUrls.url, url)))
    .returning({ url: disabledWebhookUrls.url });
  return { url, was_disabled: removed.length > 0 };
}
