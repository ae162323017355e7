import { createRoute, z } from "@hono/zod-openapi";
import { dataEnvelope } from "../platform/envelope";
import { ApiError } from "../platform/errors";
import { createRouter, dataErrorResponses, dataResponse, idParam } from "../platform/openapi";
import { listSchema, submissionSchema, taskIdSchema } from "./params";
import { PROCESSES, type PickupTask, type WebhookDelivery } from "./schema";
import { deliveriesOf, listTasks, recreateOrder, refreshAuthorization, resendNotification, submitTask } from "./service";

export const PICKUP_BASE_PATH = "/api/v1";

const common = { tags: ["P · Pickup tasks"], security: [{ AppToken: [] }] };
const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const errors = dataErrorResponses(400, 401, 403, 404, 415, 429);

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
  .openapi("PickupListItem");
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
  .openapi("WebhookDelivery");

const taskAction = (path: string, summary: string, data: z.ZodType) =>
  createRoute({
    ...common,
    method: "post",
    path,
    summary,
    request: json(taskIdSchema),
    responses: { ...dataResponse(data, "Done"), ...errors, ...dataErrorResponses(409) },
  });

const routes = {
  submit: createRoute({
    ...common,
    method: "post",
    path: "/carrier/pickup/submit",
    summary: "P1 · Submit a pickup task; the carrier is called in the background",
    request: json(submissionSchema),
    responses: {
      ...dataResponse(z.object({ task_id: z.number().int(), request_id: z.string(), process: z.enum(PROCESSES) }), "Stored; process pending"),
      ...errors,
      ...dataErrorResponses(409, 412),
    },
  }),
  list: createRoute({
    ...common,
    method: "post",
    path: "/pickup/list",
    summary: "P2 · The app's tasks, newest first",
    request: json(listSchema),
    responses: {
      ...dataResponse(z.object({ total: z.number().int(), currPage: z.number().int(), data: z.array(listItemSchema) }), "A page"),
      ...errors,
    },
  }),
  resend: taskAction(
    "/pickup/re-send",
    "P3 · Send the task's last notification again",
    z.object({ task_id: z.number().int(), event_id: z.string() }),
  ),
  recreate: taskAction(
    "/pickup/re-create",
    "P4 · Create the pickup order again (failed tasks only)",
    z.object({ task_id: z.number().int(), process: z.enum(PROCESSES) }),
  ),
  refresh: taskAction("/pickup/authorize/refresh", "P5 · Refresh the task's carrier authorization", z.object({ task_id: z.number().int() })),
  deliveries: createRoute({
    ...common,
    method: "get",
    path: "/pickup/{taskId}/deliveries",
    summary: "Every webhook delivery attempt of a task",
    request: { params: z.object({ taskId: idParam("taskId") }) },
    responses: { ...dataResponse(z.array(deliverySchema), "Attempts, oldest first"), ...errors },
  }),
};

/** P3–P5 answer a missing or malformed taskId with the interface's own text. */
const taskIdHook = (result: { success: boolean }): undefined => {
  if (!result.success) throw new ApiError(400, "the task id is required");
  return undefined;
};

export function pickupRoutes() {
  const router = createRouter();
  const appId = (c: { get(key: "principal"): { appId: number | null } }) => c.get("principal").appId!;

  router.openapi(routes.submit, async (c) => {
    const task = await submitTask(c.var.db, c.env, appId(c), c.req.valid("json"));
    return c.json(dataEnvelope({ task_id: task.id, request_id: task.requestId, process: task.process }), 200);
  });
  router.openapi(routes.list, async (c) => {
    const query = c.req.valid("json");
    const { total, rows } = await listTasks(c.var.db, appId(c), query);
    return c.json(dataEnvelope({ total, currPage: query.pageNumber, data: rows.map(listItem) }), 200);
  });
  router.openapi(
    routes.resend,
    async (c) => c.json(dataEnvelope(await resendNotification(c.var.db, c.env, appId(c), c.req.valid("json").taskId)), 200),
    taskIdHook,
  );
  router.openapi(
    routes.recreate,
    async (c) => c.json(dataEnvelope(await recreateOrder(c.var.db, c.env, appId(c), c.req.valid("json").taskId)), 200),
    taskIdHook,
  );
  router.openapi(
    routes.refresh,
    async (c) => c.json(dataEnvelope(await refreshAuthorization(c.var.db, c.env, appId(c), c.req.valid("json").taskId)), 200),
    taskIdHook,
  );
  router.openapi(routes.deliveries, async (c) => {
    const rows = await deliveriesOf(c.var.db, appId(c), c.req.valid("param").taskId);
    return c.json(dataEnvelope(rows.map(delivery)), 200);
  });
  return router;
}
