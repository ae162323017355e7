import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { createRouter, idParam } from "../platform/openapi";
import { DATA_ENVELOPE, defineRoutes } from "../platform/route";
import { listSchema, submissionSchema, taskIdSchema } from "./params";
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
  })
  .openapi("PickupListItem", {
    example: {
      id: 42,
      request_id: "order-20261126-0042",
      reference_order_number: "SO-10042",
      process: "create",
      state: true,
      loading_time: { start_date: "2026-12-01", start_time: "09:00", end_date: "2026-12-01", end_time: "12:00" },
      delivery_time: { start_date: "2026-12-02", start_time: "09:00", end_date: "2026-12-02", end_time: "17:00" },
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
      const task = await submitTask(c.var.db, c.env, appId(c), c.req.valid("json"));
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
      const { total, rows } = await listTasks(c.var.db, appId(c), query);
      return { total, currPage: query.pageNumber, data: rows.map(listItem) };
    },
  });
  const taskAction = { method: "post", request: json(taskIdSchema), answer: "Done", errors: [409], invalid: TASK_ID_REQUIRED } as const;
  route({
    ...taskAction,
    path: "/pickup/re-send",
    summary: "P3 · Send the task's last notification again",
    data: z.object({ task_id: z.number().int(), event_id: z.string() }),
    handle: (c) => resendNotification(c.var.db, c.env, appId(c), c.req.valid("json").taskId),
  });
  route({
    ...taskAction,
    path: "/pickup/re-create",
    summary: "P4 · Create the pickup order again (failed tasks only)",
    data: z.object({ task_id: z.number().int(), process: z.enum(PROCESSES) }),
    handle: (c) => recreateOrder(c.var.db, c.env, appId(c), c.req.valid("json").taskId),
  });
  route({
    ...taskAction,
    path: "/pickup/authorize/refresh",
    summary: "P5 · Refresh the task's carrier authorization",
    data: z.object({ task_id: z.number().int() }),
    handle: (c) => refreshAuthorization(c.var.db, c.env, appId(c), c.req.valid("json").taskId),
  });
  route({
    method: "get",
    path: "/pickup/{taskId}/deliveries",
    summary: "Every webhook delivery attempt of a task",
    request: { params: z.object({ taskId: idParam("taskId") }) },
    data: z.array(deliverySchema),
    answer: "Attempts, oldest first",
    handle: async (c) => (await deliveriesOf(c.var.db, appId(c), c.req.valid("param").taskId)).map(delivery),
  });
  return router;
}
