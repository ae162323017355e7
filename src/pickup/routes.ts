import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { createRouter, idParam } from "../platform/openapi";
import { DATA_ENVELOPE, defineRoutes } from "../platform/route";
import { endpointSchema, listSchema, replayOneSchema, replaySinceSchema, submissionSchema, taskIdSchema } from "./params";
import { enableEndpoint, replayOne, replaySince } from "./replay";
import { PROCESSES, type PickupTask, type WebhookDelivery } from "./schema";
import { deliveriesOf, listTasks, recreateOrder, refreshAuthorization, resendNotification, submitTask } from "./service";

export const PICKUP_BASE_PATH = "/api/v1";

const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });

const listItem = (t: PickupTask) => ({
  id: t.id,
  request_id: t.requestId,
  reference_order_number: t.referenceOrderNumber,
  process: t.process,
  state: t.state,
  loading_time: t.loadingTime,
  delivery_time: t.deliveryTime,
  carrier_order_id: t.carrierOrderId,
  failure_reason: t.failureReason,
});

const delivery = (d: WebhookDelivery) => ({
  attempt: d.attempt,
  event_id: d.eventId,
  url: d.url,
  status: d.status,
  latency_ms: d.latencyMs,
  error: d.error,
  attempted_at: d.attemptedAt,
  next_attempt_at: d.nextAttemptAt,
  replay: d.replay,
});

const windowSchema = z.object({ start_date: z.string(), start_time: z.string(), end_date: z.string(), end_time: z.string() });
const listItemSchema = z
  .object({
    id: z.number().int(),
    request_id: z.string(),
    reference_order_number: z.string(),
    process: z.enum(PROCESSES),
    state: z.boolean(),
    loading_time: windowSchema,
    delivery_time: windowSchema,
    // Beyond the interface's fields: what the webhook says, for a caller without a receiver yet.
    carrier_order_id: z
      .string()
      .nullable()
      .openapi({ description: "The carrier's order, once `process` is create", example: "SBX-42-order-20261126-0042" }),
    failure_reason: z.string().nullable().openapi({ description: "Why the carrier refused, once `process` is failed", example: null }),
  })
  .openapi("PickupListItem", {
    example: {
      id: 42,
      request_id: "order-20261126-0042",
      reference_order_number: "SO-10042",
      process: "create",
      state: true,
      loading_time: { start_date: "2027-01-12", start_time: "09:00", end_date: "2027-01-12", end_time: "12:00" },
      delivery_time: { start_date: "2027-01-13", start_time: "09:00", end_date: "2027-01-13", end_time: "17:00" },
      carrier_order_id: "SBX-42-order-20261126-0042",
      failure_reason: null,
    },
  });
const deliverySchema = z
  .object({
    attempt: z.number().int(),
    event_id: z.string(),
    url: z.string(),
    status: z.number().int().nullable(),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    attempted_at: z.string(),
    next_attempt_at: z.string().nullable(),
    replay: z.number().int().openapi({ description: "0 for the first series of attempts, n for the attempts of the notification's n-th replay" }),
  })
  .openapi("WebhookDelivery", {
    example: {
      attempt: 1,
      event_id: "msg_2KpQ7vX9cL4mN8bR",
      url: "https://shop.example.com/hooks/pickup",
      status: 200,
      latency_ms: 184,
      error: null,
      attempted_at: "2026-11-26T08:15:02.000Z",
      next_attempt_at: null,
      replay: 0,
    },
  });

/** The calling app; every route here is behind the app-token rule, which sets it. */
function appId(c: Context<AppEnv>): number {
  const { appId } = c.get("principal");
  if (appId === undefined) throw new ApiError(401, "App token required");
  return appId;
}

/** P3–P5 answer a missing or malformed taskId with the interface's own text. */
const TASK_ID_REQUIRED = "the task id is required";

export function pickupRoutes() {
  const router = createRouter();
  const route = defineRoutes(router, DATA_ENVELOPE, {
    tags: ["P · Pickup tasks"],
    idempotentWrites: true,
    security: [{ PickupAppToken: [] }],
    errors: [400, 401, 403, 404, 415, 429],
  });

  route({
    method: "post",
    path: "/carrier/pickup/submit",
    summary: "P1 · Submit a pickup task; the carrier is called in the background",
    request: json(submissionSchema),
    data: z.object({ task_id: z.number().int(), request_id: z.string(), process: z.enum(PROCESSES) }),
    answer: "Stored; process pending",
    errors: [409, 412],
    handle: async (c) => {
      const task = await submitTask(
        c.get("db"),
        c.env,
        { id: appId(c), hasHotApiKey: c.get("principal").appHasHotApiKey === true },
        c.req.valid("json"),
      );
      return { task_id: task.id, request_id: task.requestId, process: task.process };
    },
  });
  route({
    method: "post",
    path: "/pickup/list",
    summary: "P2 · The app's tasks, newest first",
    request: json(listSchema),
    data: z.object({ total: z.number().int(), currPage: z.number().int(), data: z.array(listItemSchema) }),
    answer: "A page",
    handle: async (c) => {
      const query = c.req.valid("json");
      const { total, rows } = await listTasks(c.get("db"), appId(c), query);
      return { total, currPage: query.pageNumber, data: rows.map(listItem) };
    },
  });
  const taskAction = { method: "post", request: json(taskIdSchema), answer: "Done", errors: [409], invalid: TASK_ID_REQUIRED } as const;
  route({
    ...taskAction,
    path: "/pickup/re-send",
    summary: "P3 · Send the task's last notification again",
    data: z.object({ task_id: z.number().int(), event_id: z.string() }),
    handle: (c) => resendNotification(c.get("db"), c.env, appId(c), c.req.valid("json").taskId),
  });
  route({
    ...taskAction,
    path: "/pickup/re-create",
    summary: "P4 · Create the pickup order again (failed tasks only)",
    data: z.object({ task_id: z.number().int(), process: z.enum(PROCESSES) }),
    handle: (c) => recreateOrder(c.get("db"), c.env, appId(c), c.req.valid("json").taskId),
  });
  route({
    ...taskAction,
    path: "/pickup/authorize/refresh",
    summary: "P5 · Refresh the task's carrier authorization",
    data: z.object({ task_id: z.number().int() }),
    handle: (c) => refreshAuthorization(c.get("db"), c.env, appId(c), c.req.valid("json").taskId),
  });
  route({
    method: "get",
    path: "/pickup/{taskId}/deliveries",
    summary: "Every webhook delivery attempt of a task",
    request: { params: z.object({ taskId: idParam("taskId") }) },
    data: z.array(deliverySchema),
    answer: "Attempts, oldest first",
    handle: async (c) => (await deliveriesOf(c.get("db"), appId(c), c.req.valid("param").taskId)).map(delivery),
  });
  route({
    method: "post",
    path: "/pickup/webhooks/replay",
    summary: "Replay one undelivered notification (dead after ten attempts, or dropped while its endpoint was disabled), same webhook-id",
    request: json(replayOneSchema),
    data: z
      .object({ event_id: z.string(), task_id: z.number().int(), queued: z.boolean(), replay: z.number().int() })
      .openapi({ example: { event_id: "msg_5f0c6a4e1d2b4c599b8e2f7d0a6f3c11", task_id: 42, queued: true, replay: 1 } }),
    answer: "Queued (queued false: a replay of it is already pending, nothing more is sent)",
    errors: [409],
    handle: (c) => replayOne(c.get("db"), c.env, appId(c), c.req.valid("json").event_id),
  });
  route({
    method: "post",
    path: "/pickup/webhooks/replay-dead",
    summary: "Replay the app's undelivered notifications written since a time, oldest first, at most 100 per call",
    request: json(replaySinceSchema),
    data: z.object({ queued: z.number().int(), event_ids: z.array(z.string()), skipped_disabled: z.number().int(), more: z.boolean() }).openapi({
      example: {
        queued: 2,
        event_ids: ["msg_5f0c6a4e1d2b4c599b8e2f7d0a6f3c11", "msg_0b7e2d1c9a8f4e3d8c2b1a0f9e8d7c6b"],
        skipped_disabled: 0,
        more: false,
      },
    }),
    answer: "Queued; more true: call again for the next ones",
    handle: (c) => {
      const { since, limit } = c.req.valid("json");
      return replaySince(c.get("db"), c.env, appId(c), since, limit);
    },
  });
  route({
    method: "post",
    path: "/pickup/webhooks/enable",
    summary: "Re-enable a webhook endpoint disabled after it answered 410 Gone",
    request: json(endpointSchema),
    data: z
      .object({ url: z.string(), was_disabled: z.boolean() })
      .openapi({ example: { url: "https://shop.example.com/hooks/pickup", was_disabled: true } }),
    answer: "Enabled",
    handle: (c) => enableEndpoint(c.get("db"), appId(c), c.req.valid("json").url),
  });
  return router;
}
