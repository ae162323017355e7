import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { logger } from "../platform/logging";
import { existingCountryCodes } from "../reference/service";
import { carrierFor } from "./carriers";
import { type listSchema, type submissionSchema, windowEnded } from "./params";
import { type PickupTask, type Process, pickupTasks, webhookDeliveries, webhookEvents } from "./schema";
import { enqueueAttempt } from "../platform/webhooks";
import { firstAttempt } from "./webhooks";
import { assertPublicWebhookUrl } from "./webhook-targets";

export interface CarrierMessage {
  taskId: number;
  action: "create" | "refresh";
}

const TASK_ID_UNKNOWN = "the task id is not exist";

/** What the webhook carries: the task's new state, and its sign_string so the receiver can match it. */
function eventPayload(task: PickupTask) {
  return JSON.stringify({
    type: "pickup.process_changed",
    timestamp: new Date().toISOString(),
    data: {
      task_id: task.id,
      request_id: task.requestId,
      reference_order_number: task.referenceOrderNumber,
      process: task.process,
      state: task.state,
      carrier_order_id: task.carrierOrderId,
      failure_reason: task.failureReason,
      sign_string: task.signString,
    },
  });
}

const newEventId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * Queues the first attempt of an event already stored. A failed send is left to the outbox sweep
 * (`sweepPickupOutbox`), which finds the event still undelivered and queues it again.
 */
async function enqueueFirstAttempt(env: Bindings, eventId: string) {
  try {
    await enqueueAttempt(env, firstAttempt(eventId));
  } catch (error) {
    logger({ webhook: eventId }).warn({ error: `queue send failed; the outbox sweep will retry: ${String(error)}` });
  }
}

/** Queues a carrier call for a stored task; a failed send is left to the outbox sweep. */
async function queueCarrierCall(env: Bindings, message: CarrierMessage) {
  try {
    await env.PICKUPS.send(message);
  } catch (error) {
    logger({ task: message.taskId }).warn({ error: `queue send failed; the outbox sweep will retry: ${String(error)}` });
  }
}

/** Records the notification of the task's current state and queues its first attempt. */
async function notify(db: Database, env: Bindings, task: PickupTask): Promise<string> {
  const id = newEventId();
  await db
    .insert(webhookEvents)
    .values({ id, taskId: task.id, type: "pickup.process_changed", payload: eventPayload(task), createdAt: new Date().toISOString() });
  await enqueueFirstAttempt(env, id);
  return id;
}

/**
 * Moves a task on, if it is still in one of the states it is expected in. The move and its
 * notification are one batch (an outbox): the event row exists exactly when the move happened,
 * and the queue send comes after. `current` is the task as the caller last read it: the update
 * itself checks the state, and a task changes only through moves, so it is not read again.
 */
export async function moveTask(
  db: Database,
  env: Bindings,
  current: PickupTask,
  from: Process[],
  changes: Partial<Pick<PickupTask, "process" | "state" | "carrierOrderId" | "failureReason">>,
): Promise<PickupTask | undefined> {
  if (!from.includes(current.process)) return undefined;
  const taskId = current.id;
  const updatedAt = new Date().toISOString();
  const eventId = newEventId();
  const payload = eventPayload({ ...current, ...changes, updatedAt });
  const [moved] = await db.batch([
    db
      .update(pickupTasks)
      .set({ ...changes, updatedAt })
      .where(and(eq(pickupTasks.id, taskId), inArray(pickupTasks.process, from)))
      .returning(),
    // changes() is the row count of the UPDATE just before it in the same transaction. The
    // columns are the table's, in its order: id, task_id, type, payload, created_at, outcome, replays, replayed_at.
    db
      .insert(webhookEvents)
      .select(sql`SELECT ${eventId}, ${taskId}, 'pickup.process_changed', ${payload}, ${updatedAt}, 'pending', 0, NULL WHERE changes() > 0`),
  ]);
  const task = moved[0];
  if (task) await enqueueFirstAttempt(env, eventId);
  return task;
}

export type Submission = z.output<typeof submissionSchema>;

/** P1: checked, stored, answered; the carrier is called by the queue consumer. */
export async function submitTask(db: Database, env: Bindings, app: { id: number; hasHotApiKey: boolean }, input: Submission): Promise<PickupTask> {
  const appId = app.id;
  if (!app.hasHotApiKey) throw new ApiError(412, "please configure hot api key first");
  if (!carrierFor(env, input.service_code)) throw new ApiError(400, `body.service_code: ${input.service_code} is not an available carrier service`);
  const addressFields = ["sender_address", "loading_address", "consignee_address"] as const;
  const known = await existingCountryCodes(
    db,
    addressFields.map((field) => input[field].country_code),
  );
  for (const field of addressFields) {
    const code = input[field].country_code;
    if (!known.has(code)) throw new ApiError(400, `body.${field}.country_code: ${code} is not an ISO 3166-1 country`);
  }
  await assertPublicWebhookUrl(env, input.webhook_url);

  const now = new Date().toISOString();
  const [task] = await db
    .insert(pickupTasks)
    .values({
      appId,
      requestId: input.request_id,
      referenceOrderNumber: input.reference_order_number,
      activeReference: input.reference_order_number,
      serviceCode: input.service_code,
      authorizeId: input.authorize_id,
      senderAddress: input.sender_address,
      loadingAddress: input.loading_address,
      consigneeAddress: input.consignee_address,
      loadingTime: input.loading_time,
      deliveryTime: input.delivery_time,
      itemLines: input.item_lines,
      webhookUrl: input.webhook_url,
      signString: input.sign_string,
      metaData: input.meta_data ?? null,
      createdAt: now,
      updatedAt: now,
    })
    // The unique indexes decide, so that simultaneous submissions cannot both pass.
    .onConflictDoNothing()
    .returning();
  if (!task) {
    const [sameRequest] = await db
      .select({ id: pickupTasks.id })
      .from(pickupTasks)
      .where(and(eq(pickupTasks.appId, appId), eq(pickupTasks.requestId, input.request_id)))
      .limit(1);
    throw new ApiError(409, sameRequest ? "request_id must be unique" : "please do not repeat submit the same order");
  }
  await queueCarrierCall(env, { taskId: task.id, action: "create" });
  return task;
}

export async function listTasks(db: Database, appId: number, query: z.output<typeof listSchema>) {
  const where = and(eq(pickupTasks.appId, appId), query.process ? eq(pickupTasks.process, query.process) : undefined);
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(pickupTasks)
      .where(where)
      .orderBy(desc(pickupTasks.id))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize),
    db.select({ total: count() }).from(pickupTasks).where(where),
  ]);
  return { total: total?.total ?? 0, rows };
}

/** Another app's task is as unknown as a task that does not exist. */
export async function ownTask(db: Database, appId: number, taskId: number): Promise<PickupTask> {
  const [task] = await db
    .select()
    .from(pickupTasks)
    .where(and(eq(pickupTasks.id, taskId), eq(pickupTasks.appId, appId)))
    .limit(1);
  if (!task) throw new ApiError(404, TASK_ID_UNKNOWN);
  return task;
}

/** P3: the last notification again, as a fresh series of attempts with the same id. */
export async function resendNotification(db: Database, env: Bindings, appId: number, taskId: number) {
  const task = await ownTask(db, appId, taskId);
  const [last] = await db.select().from(webhookEvents).where(eq(webhookEvents.taskId, task.id)).orderBy(desc(webhookEvents.createdAt)).limit(1);
  if (!last) return { task_id: task.id, event_id: await notify(db, env, task) };
  await db.update(webhookEvents).set({ outcome: "pending" }).where(eq(webhookEvents.id, last.id));
  await enqueueFirstAttempt(env, last.id);
  return { task_id: task.id, event_id: last.id };
}

/** P4: only a failed task ("the pickup state" of the interface) is created again. */
export async function recreateOrder(db: Database, env: Bindings, appId: number, taskId: number) {
  const task = await ownTask(db, appId, taskId);
  if (task.process === "processing") throw new ApiError(409, "the task is in the processing");
  // A carrier cannot come in a window that is over: the caller submits a new task with a new one.
  if (task.process === "failed" && windowEnded(task.loadingTime)) {
    throw new ApiError(409, "the task's loading_time has ended: submit a new task with a window to come");
  }
  const moved = await moveTask(db, env, task, ["failed"], { process: "pending", state: true, failureReason: null });
  if (!moved) throw new ApiError(409, "the task is not in the pickup state");
  await queueCarrierCall(env, { taskId: task.id, action: "create" });
  return { task_id: task.id, process: moved.process };
}

/** P5: asks the carrier to refresh the authorization, in the background. */
export async function refreshAuthorization(db: Database, env: Bindings, appId: number, taskId: number) {
  const task = await ownTask(db, appId, taskId);
  if (task.process === "processing") throw new ApiError(409, "the task is in the processing");
  await env.PICKUPS.send({ taskId: task.id, action: "refresh" } satisfies CarrierMessage);
  return { task_id: task.id };
}

export async function deliveriesOf(db: Database, appId: number, taskId: number) {
  const task = await ownTask(db, appId, taskId);
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.taskId, task.id)).orderBy(webhookDeliveries.id);
}
