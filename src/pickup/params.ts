import { z } from "@hono/zod-openapi";
import { PROCESSES } from "./schema";

/** Postal code shapes where they are well known; elsewhere 2 to 12 letters, digits, spaces or dashes. */
const POSTAL_CODES: Record<string, RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  ES: /^\d{5}$/,
  IT: /^\d{5}$/,
  CN: /^\d{6}$/,
  JP: /^\d{3}-?\d{4}$/,
  CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/,
  NL: /^\d{4} ?[A-Z]{2}$/,
  AU: /^\d{4}$/,
  BR: /^\d{5}-?\d{3}$/,
  IN: /^\d{6}$/,
};
const ANY_POSTAL_CODE = /^[A-Z0-9][A-Z0-9 -]{0,10}[A-Z0-9]$/;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });

export const addressSchema = z
  .strictObject({
    postal_code: z.string().trim().toUpperCase(),
    country_code: z.string().regex(/^[A-Z]{2}$/, { error: "must be an upper-case ISO 3166-1 alpha-2 code" }),
    province: text(100).optional(),
    city: text(100),
    address_1: text(200),
  })
  .superRefine((address, ctx) => {
    const shape = POSTAL_CODES[address.country_code] ?? ANY_POSTAL_CODE;
    if (!shape.test(address.postal_code)) {
      ctx.addIssue({ code: "custom", path: ["postal_code"], message: `is not a postal code of ${address.country_code}` });
    }
  });

const realDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be YYYY-MM-DD" })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
    error: "is not a real date",
  });
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "must be HH:MM, 00:00 to 23:59" });

const instant = (date: string, time: string) => `${date}T${time}`;

export const timeWindowSchema = z
  .strictObject({ start_date: realDate, start_time: clockTime, end_date: realDate, end_time: clockTime })
  .refine((w) => instant(w.end_date, w.end_time) > instant(w.start_date, w.start_time), {
    error: "must end after it starts",
    path: ["end_date"],
  });

// A window's dates and times are the loading address's local ones, its zone unknown: the window is
// over for certain once its end has passed in the last zone to reach it, UTC−12.
const LAST_TIME_ZONE_BEHIND_UTC_MS = 12 * 3_600_000;

/** Whether a pickup window has ended wherever its address is. */
export const windowEnded = (window: z.output<typeof timeWindowSchema>, now = Date.now()) =>
  Date.parse(`${instant(window.end_date, window.end_time)}:00Z`) + LAST_TIME_ZONE_BEHIND_UTC_MS < now;

export const WEIGHT_CLASSES = ["kg", "g", "lb", "oz"] as const;
export const LENGTH_CLASSES = ["cm", "m", "mm", "in", "ft"] as const;

const measure = (max: number) =>
  z
    .number({ error: "must be a number" })
    .positive({ error: "must be greater than 0" })
    .max(max, { error: `must be at most ${max}` });

export const itemLineSchema = z.strictObject({
  weight: measure(100_000),
  length: measure(100_000),
  width: measure(100_000),
  height: measure(100_000),
  declare_name: text(200),
  weight_class: z.enum(WEIGHT_CLASSES, { error: `must be one of ${WEIGHT_CLASSES.join(", ")}` }),
  length_class: z.enum(LENGTH_CLASSES, { error: `must be one of ${LENGTH_CLASSES.join(", ")}` }),
});

export const META_DATA_MAX_BYTES = 4096;

export const submissionSchema = z
  .strictObject({
    request_id: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, { error: "must be 1 to 64 letters, digits, '.', '_', ':' or '-'" }),
    service_code: z.string().regex(/^[a-z0-9_-]{1,32}$/, { error: "must be 1 to 32 lower-case letters, digits, '_' or '-'" }),
    authorize_id: text(128),
    sender_address: addressSchema,
    loading_address: addressSchema,
    consignee_address: addressSchema,
    reference_order_number: text(64),
    loading_time: timeWindowSchema,
    delivery_time: timeWindowSchema,
    item_lines: z.array(itemLineSchema).min(1, { error: "must list at least one item" }).max(100, { error: "at most 100 items" }),
    webhook_url: z.url({ error: "must be a URL" }).max(2048),
    sign_string: text(512),
    meta_data: z
      .record(z.string(), z.unknown())
      .refine((m) => new TextEncoder().encode(JSON.stringify(m)).length <= META_DATA_MAX_BYTES, {
        error: `must be at most ${META_DATA_MAX_BYTES} bytes as JSON`,
      })
      .optional(),
  })
  .refine((s) => instant(s.delivery_time.start_date, s.delivery_time.start_time) >= instant(s.loading_time.start_date, s.loading_time.start_time), {
    error: "delivery cannot start before the pickup",
    path: ["delivery_time"],
  })
  .refine((s) => !windowEnded(s.loading_time), { error: "has already ended, in every time zone", path: ["loading_time"] })
  .openapi("PickupSubmission", {
    example: {
      request_id: "order-20261126-0042",
      service_code: "sandbox",
      authorize_id: "auth-7f3c2a",
      sender_address: { postal_code: "20457", country_code: "DE", province: "Hamburg", city: "Hamburg", address_1: "Am Sandtorkai 50" },
      loading_address: { postal_code: "20457", country_code: "DE", city: "Hamburg", address_1: "Am Sandtorkai 50" },
      consignee_address: { postal_code: "3011 AD", country_code: "NL", city: "Rotterdam", address_1: "Wijnhaven 20" },
      reference_order_number: "SO-10042",
      loading_time: { start_date: "2027-01-12", start_time: "09:00", end_date: "2027-01-12", end_time: "12:00" },
      delivery_time: { start_date: "2027-01-13", start_time: "09:00", end_date: "2027-01-13", end_time: "17:00" },
      item_lines: [{ weight: 12.5, length: 60, width: 40, height: 40, declare_name: "Ceramic tiles", weight_class: "kg", length_class: "cm" }],
      webhook_url: "https://shop.example.com/hooks/pickup",
      sign_string: "order-20261126-0042:7b1d",
      meta_data: { warehouse: "HH-1" },
    },
  });

const positiveInt = (name: string, max: number) =>
  z
    .number({ error: `${name} must be an integer` })
    .min(1, { error: `${name} must be at least 1` })
    .max(max, { error: `${name} must be at most ${max}` })
    .int({ error: `${name} must be an integer` });

export const listSchema = z
  .strictObject({
    pageNumber: positiveInt("pageNumber", 100_000).default(1),
    pageSize: positiveInt("pageSize", 100).default(20),
    process: z.enum(PROCESSES, { error: `process must be one of ${PROCESSES.join(", ")}` }).optional(),
  })
  .openapi("PickupListQuery");

/** P3–P5: a missing taskId has the interface's own message. */
export const taskIdSchema = z
  .object({
    taskId: z.number({ error: "the task id is required" }).int({ error: "the task id is required" }).positive({ error: "the task id is required" }),
  })
  .openapi("PickupTaskId", { example: { taskId: 42 } });

/** Replay of one undelivered notification, by the `event_id` the deliveries log shows. */
export const replayOneSchema = z
  .strictObject({
    event_id: z
      .string({ error: "event_id is required" })
      .regex(/^msg_[0-9a-f]{32}$/, { error: "event_id must be a notification id as the deliveries log shows it (msg_ and 32 hex digits)" }),
  })
  .openapi("WebhookReplayOne", { example: { event_id: "msg_5f0c6a4e1d2b4c599b8e2f7d0a6f3c11" } });

/** Replay of the app's undelivered notifications written since a time, a bounded number per call. */
export const replaySinceSchema = z
  .strictObject({
    since: z.iso
      .datetime({ error: "since must be a date and time in ISO 8601, e.g. 2026-11-26T00:00:00Z" })
      .transform((t) => new Date(t).toISOString()),
    limit: positiveInt("limit", 100).default(100),
  })
  .openapi("WebhookReplaySince", { example: { since: "2026-11-24T00:00:00Z", limit: 100 } });

/** An endpoint to re-enable after it answered 410 Gone. */
export const endpointSchema = z
  .strictObject({
    url: z.url({ error: "url must be the webhook_url of the disabled endpoint" }).max(2048, { error: "url must be at most 2048 characters" }),
  })
  .openapi("WebhookEndpoint", { example: { url: "https://shop.example.com/hooks/pickup" } });
