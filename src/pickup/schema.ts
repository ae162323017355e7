import type { z } from "@hono/zod-openapi";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { currentTimestamp } from "../platform/columns";
import { users } from "../platform/auth/tables";
import type { addressSchema, itemLineSchema, timeWindowSchema } from "./params";

/** An app of group P: its token authenticates pickups, its secrets are kept encrypted because they are used. */
export const apps = sqliteTable(
  "apps",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    maskedToken: text("masked_token").notNull(),
    encryptedHotApiKey: text("encrypted_hot_api_key"),
    encryptedWebhookSecret: text("encrypted_webhook_secret").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  (t) => [uniqueIndex("apps_token_hash").on(t.tokenHash), index("apps_user").on(t.userId)],
);

export type App = typeof apps.$inferSelect;

export const PROCESSES = ["pending", "processing", "create", "failed", "cancelled"] as const;
export type Process = (typeof PROCESSES)[number];

// The JSON columns hold what the submission validated.
type Address = z.output<typeof addressSchema>;
type TimeWindow = z.output<typeof timeWindowSchema>;
type ItemLine = z.output<typeof itemLineSchema>;

/**
 * A pickup task. Duplicates are caught by unique indexes, so two submissions at the same moment
 * cannot both pass: `request_id` per app, and `active_reference` (the reference order number while
 * the task is not cancelled) per app.
 */
export const pickupTasks = sqliteTable(
  "pickup_tasks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    requestId: text("request_id").notNull(),
    referenceOrderNumber: text("reference_order_number").notNull(),
    activeReference: text("active_reference"),
    serviceCode: text("service_code").notNull(),
    authorizeId: text("authorize_id").notNull(),
    senderAddress: text("sender_address", { mode: "json" }).$type<Address>().notNull(),
    loadingAddress: text("loading_address", { mode: "json" }).$type<Address>().notNull(),
    consigneeAddress: text("consignee_address", { mode: "json" }).$type<Address>().notNull(),
    loadingTime: text("loading_time", { mode: "json" }).$type<TimeWindow>().notNull(),
    deliveryTime: text("delivery_time", { mode: "json" }).$type<TimeWindow>().notNull(),
    itemLines: text("item_lines", { mode: "json" }).$type<ItemLine[]>().notNull(),
    webhookUrl: text("webhook_url").notNull(),
    signString: text("sign_string").notNull(),
    metaData: text("meta_data", { mode: "json" }).$type<Record<string, unknown>>(),
    process: text("process", { enum: PROCESSES }).notNull().default("pending"),
    state: integer("state", { mode: "boolean" }).notNull().default(true),
    carrierOrderId: text("carrier_order_id"),
    failureReason: text("failure_reason"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("pickup_tasks_request").on(t.appId, t.requestId),
    uniqueIndex("pickup_tasks_active_reference").on(t.appId, t.activeReference),
    index("pickup_tasks_app_process").on(t.appId, t.process, t.id),
    // The outbox sweep looks for tasks left pending.
    index("pickup_tasks_process_updated").on(t.process, t.updatedAt),
  ],
);

/** A notification: its id and body stay the same across every attempt to deliver it. */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    taskId: integer("task_id")
      .notNull()
      .references(() => pickupTasks.id),
    type: text("type").notNull(),
    payload: text("payload").notNull(),
    createdAt: text("created_at").notNull(),
    outcome: text("outcome", { enum: ["pending", "delivered", "retrying", "dead", "disabled"] })
      .notNull()
      .default("pending"),
    /** How many times a person replayed it; the attempts of each replay are told apart by this number. */
    replays: integer("replays").notNull().default(0),
    replayedAt: text("replayed_at"),
  },
  (t) => [
    index("webhook_events_task").on(t.taskId, t.createdAt),
    // The outbox sweep looks for events still waiting for an attempt.
    index("webhook_events_outcome_created").on(t.outcome, t.createdAt),
  ],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id),
    taskId: integer("task_id").notNull(),
    attempt: integer("attempt").notNull(),
    url: text("url").notNull(),
    status: integer("status"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    attemptedAt: text("attempted_at").notNull(),
    nextAttemptAt: text("next_attempt_at"),
    /** 0 for the first series of attempts, n for the attempts of the event's n-th replay. */
    replay: integer("replay").notNull().default(0),
  },
  (t) => [index("webhook_deliveries_task").on(t.taskId, t.id)],
);

/** Endpoints that answered 410 Gone: nothing more is sent to them for that app. */
export const disabledWebhookUrls = sqliteTable(
  "disabled_webhook_urls",
  {
    appId: integer("app_id").notNull(),
    url: text("url").notNull(),
    disabledAt: text("disabled_at").notNull(),
  },
  (t) => [uniqueIndex("disabled_webhook_urls_app_url").on(t.appId, t.url)],
);

export type PickupTask = typeof pickupTasks.$inferSelect;
export type WebhookEvent = typeof webhookEvents.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
