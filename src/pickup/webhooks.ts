import { and, eq, inArray, sql } from "drizzle-orm";
import { decryptSecret } from "../platform/crypto";
import type { Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { attemptWebhook, enqueueAttempt, followAttempt, type WebhookMessage, type WebhookSender } from "../platform/webhooks";
import { apps, disabledWebhookUrls, pickupTasks, webhookDeliveries, webhookEvents } from "./schema";

/** The name group P's webhook messages carry. */
export const PICKUP_WEBHOOKS = "pickup";

const OPEN = ["pending", "retrying"] as const;
/** An event's place among its task's events: the order they were written in. */
const placeOf = (eventId: string) => sql`(select rowid from ${webhookEvents} where ${webhookEvents.id} = ${eventId})`;

/** The first attempt of a pickup event, now. */
export const firstAttempt = (eventId: string): WebhookMessage => ({ sender: PICKUP_WEBHOOKS, eventId, attempt: 1, notBefore: Date.now() });

/** The task's first event still waiting after this one, queued now that the one before it is settled. */
async function queueNextOfTask(db: Database, env: Bindings, taskId: number, eventId: string) {
  const [next] = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.taskId, taskId), eq(webhookEvents.outcome, "pending"), sql`rowid > ${placeOf(eventId)}`))
    .orderBy(sql`rowid`)
    .limit(1);
  if (next) await enqueueAttempt(env, firstAttempt(next.id));
}

/**
 * One attempt: deliver, record it, then schedule the next, give up to the dead-letter queue, or
 * stop. A task's notifications arrive in the order they happened: an event waits while an earlier
 * one of its task is open, and each event, once settled, queues the next.
 */
async function attemptDelivery(db: Database, env: Bindings, message: WebhookMessage): Promise<void> {
  // One read: the event, its task and app, whether an earlier event of the task is still open, and whether its address is disabled.
  const [row] = await db
    .select({
      event: webhookEvents,
      task: pickupTasks,
      app: apps,
      waiting: sql<number>`exists (select 1 from ${webhookEvents} as earlier where earlier.task_id = ${webhookEvents.taskId}
        and earlier.outcome in ('pending', 'retrying') and earlier.rowid < ${webhookEvents}.rowid)`,
      disabled: sql<number>`exists (select 1 from ${disabledWebhookUrls} where ${disabledWebhookUrls.appId} = ${apps.id}
        and ${disabledWebhookUrls.url} = ${pickupTasks.webhookUrl})`,
    })
    .from(webhookEvents)
    .innerJoin(pickupTasks, eq(pickupTasks.id, webhookEvents.taskId))
    .innerJoin(apps, eq(apps.id, pickupTasks.appId))
    .where(eq(webhookEvents.id, message.eventId))
    .limit(1);
  if (!row) return;
  const { event, task, app, waiting, disabled } = row;
  // Settled (a duplicate message of a delivered event): a replay opens it again first.
  if (!OPEN.some((open) => open === event.outcome)) return;
  // The earlier event, once settled, queues this one.
  if (waiting) return;
  if (disabled) {
    await db.update(webhookEvents).set({ outcome: "disabled" }).where(eq(webhookEvents.id, event.id));
    return queueNextOfTask(db, env, task.id, event.id);
  }

  const attempt = await attemptWebhook(env, message, {
    url: task.webhookUrl,
    urlField: "webhook_url",
    secrets: async () => [await decryptSecret(app.encryptedWebhookSecret, env.KEY_ENCRYPTION_KEY)],
    eventId: event.id,
    body: event.payload,
  });
  await db.batch([
    db.insert(webhookDeliveries).values({
      eventId: event.id,
      taskId: task.id,
      attempt: message.attempt,
      url: task.webhookUrl,
      status: attempt.status,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      attemptedAt: attempt.attemptedAt,
      nextAttemptAt: attempt.nextAttemptAt,
      replay: event.replays,
    }),
    // A duplicate attempt that failed does not undo one that delivered.
    db
      .update(webhookEvents)
      .set({ outcome: attempt.outcome })
      .where(and(eq(webhookEvents.id, event.id), inArray(webhookEvents.outcome, OPEN))),
    ...(attempt.outcome === "disabled"
      ? [db.insert(disabledWebhookUrls).values({ appId: app.id, url: task.webhookUrl, disabledAt: attempt.attemptedAt }).onConflictDoNothing()]
      : []),
  ]);
  await followAttempt(env, message, attempt);
  if (!attempt.nextAttemptAt) await queueNextOfTask(db, env, task.id, event.id);
}

export const pickupWebhooks: WebhookSender = { name: PICKUP_WEBHOOKS, attempt: attemptDelivery };
