import { and, inArray, lt } from "drizzle-orm";
import { database } from "../platform/database";
import type { Bindings } from "../platform/env";
import type { Logger } from "../platform/logging";
import { pickupTasks } from "./schema";
import type { CarrierMessage } from "./service";
import { enqueueAttempt } from "../platform/webhooks";
import { PICKUP_WEBHOOKS } from "./webhooks";

/** How long a queued step may take before the sweep takes it for lost. */
export const OUTBOX_GRACE_MS = 5 * 60_000;
/** At most this many of each kind per sweep, so one run stays short after an outage. */
const SWEEP_LIMIT = 100;

/**
 * The outbox sweep (cron, every 5 minutes): a task still pending or processing, or an event still
 * waiting for an attempt, past the grace period lost its queue message (a failed send, a consumer
 * that died, a message the queue gave up on while storage failed). Queue it again. A duplicate is
 * harmless: the consumer moves a task only from `pending` or `processing`, the carrier gets the
 * task's idempotency key, and a receiver recognises a repeated notification by its `webhook-id`.
 */
export async function sweepPickupOutbox(env: Bindings, log: Logger): Promise<{ tasks: number; events: number }> {
  const db = database(env);
  const cutoff = new Date(Date.now() - OUTBOX_GRACE_MS).toISOString();
  const stranded = await db
    .select({ id: pickupTasks.id })
    .from(pickupTasks)
    .where(and(inArray(pickupTasks.process, ["pending", "processing"]), lt(pickupTasks.updatedAt, cutoff)))
    .limit(SWEEP_LIMIT);
  if (stranded.length > 0) {
    await env.PICKUPS.sendBatch(stranded.map((task) => ({ body: { taskId: task.id, action: "create" } satisfies CarrierMessage })));
  }

  // An event is due when it has no attempt yet, or its last attempt scheduled one that never came;
  // a replayed event counts only the attempts of its latest replay.
  const { results: due } = await env.DB.prepare(
    `SELECT e.id AS id, COALESCE(MAX(d.attempt), 0) AS attempts, MAX(d.next_attempt_at) AS next
       FROM webhook_events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id AND d.replay = e.replays
      WHERE e.outcome IN ('pending', 'retrying') AND COALESCE(e.replayed_at, e.created_at) < ?1
      GROUP BY e.id
     HAVING (attempts = 0) OR (next IS NOT NULL AND next < ?1)
      LIMIT ?2`,
  )
    .bind(cutoff, SWEEP_LIMIT)
    .all<{ id: string; attempts: number; next: string | null }>();
  for (const event of due)
    await enqueueAttempt(env, { sender: PICKUP_WEBHOOKS, eventId: event.id, attempt: event.attempts + 1, notBefore: Date.now() });

  if (stranded.length + due.length > 0) log.warn({ sweep: "pickup-outbox", tasks: stranded.length, events: due.length });
  return { tasks: stranded.length, events: due.length };
}
