import { eq } from "drizzle-orm";
import { decryptSecret } from "../platform/crypto";
import { database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { describeFailure } from "../platform/failures";
import type { Logger } from "../platform/logging";
import { CarrierRejected, carrierFor } from "./carriers";
import { apps, pickupTasks } from "./schema";
import { type CarrierMessage, moveTask } from "./service";

export const CARRIER_ATTEMPTS = 3;
const CARRIER_RETRY_SECONDS = 30;

/** One carrier call: pending → processing → create, or failed with the carrier's reason. */
async function handleCarrierMessage(env: Bindings, message: Message<CarrierMessage>, log: Logger) {
  const db = database(env);
  const { taskId, action } = message.body;
  const [row] = await db
    .select({ task: pickupTasks, app: apps })
    .from(pickupTasks)
    .innerJoin(apps, eq(apps.id, pickupTasks.appId))
    .where(eq(pickupTasks.id, taskId))
    .limit(1);
  if (!row) return message.ack();
  const carrier = carrierFor(env, row.task.serviceCode);
  const hotApiKey = row.app.encryptedHotApiKey ? await decryptSecret(row.app.encryptedHotApiKey, env.KEY_ENCRYPTION_KEY) : "";

  if (action === "refresh") {
    try {
      await carrier?.refreshAuthorization(row.task, hotApiKey);
    } catch (error) {
      log.warn({ message: message.id, task: taskId, action, error: describeFailure(error).error });
    }
    return message.ack();
  }

  // A retried message finds the task already processing; anything else is a stale message.
  const task = row.task.process === "pending" ? await moveTask(db, env, row.task, ["pending"], { process: "processing" }) : row.task;
  if (!task || task.process !== "processing") return message.ack();
  if (!carrier) {
    await moveTask(db, env, task, ["processing"], { process: "failed", state: false, failureReason: `no carrier for service ${task.serviceCode}` });
    return message.ack();
  }
  // Only the carrier's own failures decide the task's fate; a storage failure after its answer is retried (below).
  let orderId: string;
  try {
    ({ orderId } = await carrier.createPickupOrder(task, hotApiKey));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!(error instanceof CarrierRejected) && message.attempts < CARRIER_ATTEMPTS) {
      return message.retry({ delaySeconds: CARRIER_RETRY_SECONDS });
    }
    await moveTask(db, env, task, ["processing"], { process: "failed", state: false, failureReason: reason });
    return message.ack();
  }
  await moveTask(db, env, task, ["processing"], { process: "create", state: true, carrierOrderId: orderId });
  message.ack();
}

/**
 * A message whose storage failed is retried on its own, the others go on; one the queue gives up
 * on leaves its task pending or processing, which the outbox sweep queues again.
 */
export async function consumePickups(batch: MessageBatch<CarrierMessage>, env: Bindings, log: Logger) {
  for (const message of batch.messages) {
    try {
      await handleCarrierMessage(env, message, log);
    } catch (error) {
      log.error({ message: message.id, task: message.body.taskId, ...describeFailure(error) });
      message.retry({ delaySeconds: CARRIER_RETRY_SECONDS });
    }
  }
}
