import { createSelectSchema } from "../platform/row-answer";
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { currentTimestamp } from "../platform/columns";
import { scopeResources } from "../platform/auth/scopes";
import { parseCidr } from "../platform/ip-ranges";
import { users } from "../platform/auth/tables";
import { zeroBasedPaging } from "../platform/pagination";
import { byColumnName } from "./column-names";

/**
 * Refresh tokens rotate: each use marks the token used and issues its successor in the same
 * family; presenting a used token again revokes the whole family.
 */
export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull(),
    usedAt: text("used_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash").on(t.tokenHash),
    index("refresh_tokens_family").on(t.familyId),
    index("refresh_tokens_user").on(t.userId),
  ],
);

/** A login between A1 and A2: the state the browser's cookie must match, and the PKCE verifier. */
export const loginAttempts = sqliteTable("login_attempts", {
  stateHash: text("state_hash").primaryKey(),
  codeVerifier: text("code_verifier").notNull(),
  expiresAt: text("expires_at").notNull(),
});

export const AUDIT_ACTIONS = ["key.created", "key.rolled", "key.revoked", "key.expired", "user.updated", "user.deactivated"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What happened to an account (a user) and its keys, and who did it: written in the same batch as
 * the change it records, so that neither is there without the other. A key expires once: the
 * partial unique index lets the job that notes expiries run again without writing twice.
 */
export const accountAuditEvents = sqliteTable(
  "account_audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    /** Null when the service itself acted (an expiry). */
    actorUserId: integer("actor_user_id"),
    actorKeyId: integer("actor_key_id"),
    keyId: integer("key_id"),
    detail: text("detail", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  (t) => [
    index("account_audit_events_user").on(t.userId, t.id),
    uniqueIndex("account_audit_events_key_expired")
      .on(t.keyId)
      .where(sql`action = 'key.expired'`),
  ],
);

const isoDateTime = z.string().openapi({ example: "2026-11-22T10:00:00.000Z" });

const userRow = createSelectSchema(users, {
  // A row id, not a count: drizzle-zod's safe-integer bounds say nothing to a caller.
  id: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

/** The user as the table holds it, but for the plan, each field under its column's name. */
export const userSchema = z.object(byColumnName(users, userRow.omit({ plan: true }).shape)).openapi("User", {
  example: {
    id: 1,
    casdoor_id: "built-in/ada",
    username: "ada",
    email: "ada@example.com",
    full_name: "Ada Editor",
    role: "user",
    is_active: true,
    created_at: "2026-11-20T09:30:00.000Z",
    updated_at: "2026-11-26T08:15:00.000Z",
  },
});

export const userUpdateSchema = z
  .strictObject({
    full_name: z.string().trim().min(1, { error: "must not be empty" }).max(200, { error: "must be at most 200 characters" }),
    email: z.email({ error: "must be a valid email address" }).max(254),
  })
  .openapi("UserUpdate", { example: { full_name: "Ada Lovelace", email: "ada@example.com" } });

/** `{ success: true, message }`, the message the operation's own: the document shows each as it is sent. */
export const successSaying = <Message extends string>(message: Message) => z.object({ success: z.literal(true), message: z.literal(message) });

const SCOPE = /^(\*|([a-z][a-z-]*):(\*|read|write))$/;
// The resources are the groups' declarations (GroupModule.scopes), known once the app is built.
const scopeError = () => `must be <resource>:<action> with resource one of ${scopeResources().join(", ")} and action read, write or *; or * alone`;

export const scopeSchema = z
  .string()
  .regex(SCOPE, { error: scopeError, abort: true })
  .refine((scope) => scope === "*" || scopeResources().includes(scope.slice(0, scope.indexOf(":"))), { error: scopeError });

/** How far ahead a key's expiry may be set. */
export const KEY_LIFETIME_MAX_DAYS = 730;
/** How many IP ranges one key may be limited to. */
export const KEY_IP_RANGES_MAX = 20;

const cidrSchema = z
  .string()
  .trim()
  .max(49, { error: "must be an IP address or a CIDR range, e.g. 203.0.113.0/24 or 2001:db8::/32" })
  .refine((range) => parseCidr(range) !== undefined, { error: "must be an IP address or a CIDR range, e.g. 203.0.113.0/24 or 2001:db8::/32" });

export const keyCreateSchema = z
  .strictObject({
    name: z.string().trim().min(1, { error: "must not be empty" }).max(100, { error: "must be at most 100 characters" }),
    description: z.string().max(500, { error: "must be at most 500 characters" }).optional(),
    scopes: z.array(scopeSchema).max(20, { error: "at most 20 scopes" }).optional(),
    expires_at: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2027-01-01T00:00:00Z" })
      .refine((value) => Date.parse(value) > Date.now(), { error: "must be in the future", abort: true })
      .refine((value) => Date.parse(value) <= Date.now() + KEY_LIFETIME_MAX_DAYS * 86_400_000, {
        error: `must be at most ${KEY_LIFETIME_MAX_DAYS} days ahead`,
      })
      .transform((value) => new Date(value).toISOString())
      .optional(),
    allowed_ips: z
      .array(cidrSchema)
      .min(1, { error: "must list at least one range; leave it out for any address" })
      .max(KEY_IP_RANGES_MAX, { error: `at most ${KEY_IP_RANGES_MAX} ranges` })
      .optional()
      .openapi({ description: "The IP ranges (CIDR) the key may be used from; any address when left out" }),
  })
  .openapi("ApiKeyCreate", {
    example: {
      name: "Reporting job",
      scopes: ["taxrate:read", "reference:read"],
      expires_at: "2027-01-01T00:00:00Z",
      allowed_ips: ["203.0.113.0/24"],
    },
  });

/** A roll's overlap outlasts the verified-key cache (10 s), so that no isolate accepts the old pair past its end. */
const ROLL_OVERLAP_MIN_SECONDS = 60;
const ROLL_OVERLAP_MAX_SECONDS = 7 * 86_400;

export const keyRollSchema = z
  .strictObject({
    overlap_seconds: z
      .number({ error: "must be a number of seconds" })
      .min(ROLL_OVERLAP_MIN_SECONDS, { error: `must be at least ${ROLL_OVERLAP_MIN_SECONDS} seconds; revoke the key to stop it at once` })
      .max(ROLL_OVERLAP_MAX_SECONDS, { error: `must be at most ${ROLL_OVERLAP_MAX_SECONDS} seconds (7 days)` })
      .int({ error: "must be a whole number of seconds" })
      .optional()
      .openapi({ description: "How long the replaced token and secret keep working: 60 s to 7 days, 1 day when left out" }),
  })
  .openapi("ApiKeyRoll", { example: { overlap_seconds: 3600 } });

export const keyCreatedSchema = z
  .object({
    id: z.number().int().openapi({ example: 5 }),
    token: z.string().openapi({ description: "The full key, shown only now", example: "svc_sk_4fQ9xK2mLp7RtZ8aWc3VbN6yHd1JgE5sUo0iTkXr" }),
    secret: z
      .string()
      .openapi({ description: "The key's secret for the data services, shown only now", example: "svc_ss_8Hc2Lw5nQe9TzA1kVb7RmY3oXp6JfD4gUs0iNtCq" }),
    name: z.string().openapi({ example: "Reporting job" }),
    user_id: z.number().int(),
    created_at: isoDateTime,
    is_active: z.boolean(),
    masked_token: z.string(),
    scopes: z.array(z.string()),
    expires_at: isoDateTime.nullable(),
    allowed_ips: z
      .array(z.string())
      .nullable()
      .openapi({ example: ["203.0.113.0/24"] }),
  })
  .openapi("ApiKeyCreated");

export const keyRolledSchema = keyCreatedSchema
  .extend({ previous_valid_until: isoDateTime.openapi({ description: "When the replaced token and secret stop working" }) })
  .openapi("ApiKeyRolled");

export const keyListItemSchema = z
  .object({
    id: z.number().int().openapi({ example: 5 }),
    name: z.string().openapi({ example: "Reporting job" }),
    masked_token: z.string().openapi({ example: "svc_sk_4fQ9…TkXr" }),
    created_at: isoDateTime,
    last_used: isoDateTime.nullable(),
    is_active: z.boolean(),
  })
  .openapi("ApiKeyListItem");

export const keyDetailSchema = keyListItemSchema
  .extend({
    description: z.string().nullable(),
    scopes: z.array(z.string()),
    expires_at: isoDateTime.nullable(),
    allowed_ips: z
      .array(z.string())
      .nullable()
      .openapi({ example: ["203.0.113.0/24"] }),
    previous_valid_until: isoDateTime.nullable().openapi({ description: "While a roll's overlap lasts, when the replaced token stops" }),
  })
  .openapi("ApiKeyDetail");

export const keyUsageQuery = z.object({
  days: z.coerce
    .number({ error: "days must be a whole number" })
    .min(1, { error: "days must be at least 1" })
    .max(90, { error: "days must be at most 90" })
    .int({ error: "days must be a whole number" })
    .default(90)
    .openapi({ param: { name: "days", in: "query" }, example: 30, description: "How many days back, today included: 1 to 90 (90 by default)" }),
});

export const keyUsageSchema = z
  .object({
    key_id: z.number().int(),
    since: z.string().openapi({ description: "The first day counted (UTC)" }),
    total_requests: z.number().int(),
    data: z.array(
      z.object({
        day: z.string().openapi({ description: "UTC" }),
        group: z.string().openapi({ description: "The group of the routes called: tax, reference, intelligence, accounts, …" }),
        status: z.number().int(),
        requests: z.number().int(),
      }),
    ),
  })
  .openapi("ApiKeyUsage", {
    example: {
      key_id: 5,
      since: "2026-08-29",
      total_requests: 1289,
      data: [
        { day: "2026-11-26", group: "tax", status: 200, requests: 1240 },
        { day: "2026-11-26", group: "tax", status: 429, requests: 12 },
        { day: "2026-11-25", group: "reference", status: 200, requests: 37 },
      ],
    },
  });

export const auditQuery = zeroBasedPaging(50);

export const auditEventSchema = z.object({
  id: z.number().int(),
  action: z.enum(AUDIT_ACTIONS),
  actor_user_id: z.number().int().nullable().openapi({ description: "Who acted; null when the service did (an expiry)" }),
  actor_key_id: z.number().int().nullable().openapi({ description: "The key they acted with; null for a session" }),
  key_id: z.number().int().nullable(),
  detail: z.record(z.string(), z.unknown()),
  created_at: isoDateTime,
});

export const auditPageSchema = z
  .object({ data: z.array(auditEventSchema), total: z.number().int(), page: z.number().int(), size: z.number().int() })
  .openapi("AccountAuditLog", {
    example: {
      data: [
        {
          id: 42,
          action: "key.rolled",
          actor_user_id: 3,
          actor_key_id: null,
          key_id: 5,
          detail: { name: "Reporting job", previous_valid_until: "2026-11-27T10:00:00.000Z" },
          created_at: "2026-11-26T10:00:00.000Z",
        },
        {
          id: 41,
          action: "key.created",
          actor_user_id: 3,
          actor_key_id: null,
          key_id: 5,
          detail: { name: "Reporting job", scopes: ["taxrate:read"], expires_at: null, allowed_ips: null },
          created_at: "2026-11-20T09:31:00.000Z",
        },
      ],
      total: 2,
      page: 0,
      size: 50,
    },
  });

export const appCreateSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(100, { error: "must be at most 100 characters" })
      .openapi({ example: "Warehouse Rotterdam" }),
    hot_api_key: z.string().min(1).max(500, { error: "must be at most 500 characters" }).optional().openapi({
      description: "The carrier API key the app's pickups use",
      example: "hot_live_3b7e9c1d5f",
    }),
  })
  .openapi("AppCreate");

export const appListItemSchema = z
  .object({
    id: z.number().int().openapi({ example: 2 }),
    name: z.string().openapi({ example: "Warehouse Rotterdam" }),
    masked_token: z.string().openapi({ example: "app_7Kd2…Qw9z" }),
    has_hot_api_key: z.boolean(),
    is_active: z.boolean(),
    created_at: isoDateTime,
  })
  .openapi("App");

export const appCreatedSchema = appListItemSchema
  .extend({
    app_token: z
      .string()
      .openapi({ description: "For `Authorization: appToken …`, shown only now", example: "app_7Kd2mX9pL4vB8nR1tY6cW3qZ5hJ0sF2gQw9z" }),
    webhook_secret: z
      .string()
      .openapi({ description: "Signs the app's webhooks (Standard Webhooks), shown only now", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
  })
  .openapi("AppCreated");

export const sessionSchema = z
  .object({
    access_token: z.string().openapi({ example: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.kJ3v…" }),
    token_type: z.literal("bearer"),
    expires_in: z.number().int().openapi({ example: 1800 }),
    refresh_token: z.string().openapi({ example: "rt_Zp4Xc8Vb2Nm6Lk1Jh5Gf9Ds3Aq7We0Ry" }),
  })
  .openapi("Session");
