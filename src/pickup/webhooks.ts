import { and, eq, inArray, sql } from "drizzle-orm";
import { decryptSecret, fromBase64, toBase64 } from "../platform/crypto";
import type { Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { logEvent } from "../platform/logging";
import { apps, disabledWebhookUrls, pickupTasks, webhookDeliveries, webhookEvents } from "./schema";
import { assertPublicWebhookUrl } from "./webhook-targets";

/** Seconds before attempt n+1 (Standard Webhooks' schedule): now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;
const ATTEMPT_TIMEOUT_MS = 15_000;

export interface WebhookMessage {
  eventId: string;
  attempt: number;
  /** Epoch ms before which the attempt must not be made; longer waits than a queue delay hop. */
  notBefore: number;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the secret's bytes after `whsec_`. */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", fromBase64(secret.replace(/^whsec_/, "")), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(signature)}`;
}

/** Up to 10% either way, so that retries of many failed deliveries do not arrive together. */
const withJitter = (seconds: number) => Math.round(seconds * (0.9 + Math.random() * 0.2));

function retryAfterSeconds(header: string | null): number {
  if (!header) return 0;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 0 : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export async function enqueueAttempt(env: Bindings, message: WebhookMessage) {
  const delaySeconds = Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil((message.notBefore - Date.now()) / 1000)));
  await env.WEBHOOKS.send(message, { delaySeconds });
}

const OPEN = ["pending", "retrying"] as const;
/** An event's place among its task's events: the order they were written in. */
const placeOf = (eventId: string) => sql`(select rowid from ${webhookEvents} where ${webhookEvents.id} = ${eventId})`;

/** The task's first event still waiting after this one, queued now that the one before it is settled. */
async function queueNextOfTask(db: Database, env: Bindings, taskId: number, eventId: string) {
  const [next] = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.taskId, taskId), eq(webhookEvents.outcome, "pending"), sql`rowid > ${placeOf(eventId)}`))
    .orderBy(sql`rowid`)
    .limit(1);
  if (next) await enqueueAttempt(env, { eventId: next.id, attempt: 1, notBefore: Date.now() });
}

/**
 * One attempt: deliver, record it, then schedule the next, give up to the dead-letter queue, or
 * stop. A task's notifications arrive in the order they happened: an event waits while an earlier
 * one of its task is open, and each event, once settled, queues the next.
 */
export async function attemptDelivery(db: Database, env: Bindings, message: WebhookMessage): Promise<void> {
  if (message.notBefore > Date.now() + 1000) return enqueueAttempt(env, message);
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

  const started = Date.now();
  const timestamp = Math.floor(started / 1000);
  let status: number | null = null;
  let error: string | null = null;
  let retryAfter = 0;
  try {
    // Checked again at each attempt: a name may have been pointed elsewhere since the submission.
    await assertPublicWebhookUrl(env, task.webhookUrl);
    const secret = await decryptSecret(app.encryptedWebhookSecret, env.KEY_ENCRYPTION_KEY);
    const res = await fetch(task.webhookUrl, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "webhook-id": event.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": await signWebhook(secret, event.id, timestamp, event.payload),
      },
      body: event.payload,
    });
    status = res.status;
    // Only the status is kept: what a receiver answers is never stored or shown (no SSRF read).
    await res.body?.cancel();
    retryAfter = retryAfterSeconds(res.headers.get("Retry-After"));
  } catch (failure) {
    error =
      failure instanceof Error && failure.name === "TimeoutError"
        ? "timed out after 15 s"
        : failure instanceof Error
          ? failure.message
          : String(failure);
  }

  const delivered = status !== null && status >= 200 && status < 300;
  const gone = status === 410;
  const last = message.attempt >= RETRY_SCHEDULE_SECONDS.length;
  const next = !delivered && !gone && !last ? Date.now() + 1000 * Math.max(withJitter(RETRY_SCHEDULE_SECONDS[message.attempt]!), retryAfter) : null;
  const now = new Date().toISOString();
  const outcome = delivered ? "delivered" : gone ? "disabled" : last ? "dead" : "retrying";
  await db.batch([
    db.insert(webhookDeliveries).values({
      eventId: event.id,
      taskId: task.id,
      attempt: message.attempt,
      url: task.webhookUrl,
      status,
      latencyMs: Date.now() - started,
      error:
        error ?? (status !== null && !delivered ? (status >= 300 && status < 400 ? `redirect to ${status} not followed` : `HTTP ${status}`) : null),
      attemptedAt: now,
      nextAttemptAt: next ? new Date(next).toISOString() : null,
      replay: event.replays,
    }),
    // A duplicate attempt that failed does not undo one that delivered.
    db
      .update(webhookEvents)
      .set({ outcome })
      .where(and(eq(webhookEvents.id, event.id), inArray(webhookEvents.outcome, OPEN))),
    ...(gone ? [db.insert(disabledWebhookUrls).values({ appId: app.id, url: task.webhookUrl, disabledAt: now }).onConflictDoNothing()] : []),
  ]);
  if (next) await enqueueAttempt(env, { ...message, attempt: message.attempt + 1, notBefore: next });
  if (outcome === "dead") {
    await env.WEBHOOKS_DLQ.send(message);
    logEvent("warn", { webhook: event.id, task: task.id, outcome: "dead", attempts: message.attempt });
  }
  if (!next) await queueNextOfTask(db, env, task.id, event.id);
}
