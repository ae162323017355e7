import { createSelectSchema } from "../platform/row-answer";
import { z } from "@hono/zod-openapi";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { scopeResources } from "../platform/auth/scopes";
import { users } from "../platform/auth/tables";
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

export const successSchema = z
  .object({ success: z.boolean(), message: z.string().openapi({ example: "API key revoked" }) })
  .openapi("AccountSuccess");

const SCOPE = /^(\*|([a-z][a-z-]*):(\*|read|write))$/;
// The resources are the groups' declarations (GroupModule.scopes), known once the app is built.
const scopeError = () => `must be <resource>:<action> with resource one of ${scopeResources().join(", ")} and action read, write or *; or * alone`;

export const scopeSchema = z
  .string()
  .regex(SCOPE, { error: scopeError, abort: true })
  .refine((scope) => scope === "*" || scopeResources().includes(scope.slice(0, scope.indexOf(":"))), { error: scopeError });

export const keyCreateSchema = z
  .strictObject({
    name: z.string().trim().min(1, { error: "must not be empty" }).max(100, { error: "must be at most 100 characters" }),
    description: z.string().max(500, { error: "must be at most 500 characters" }).optional(),
    scopes: z.array(scopeSchema).max(20, { error: "at most 20 scopes" }).optional(),
    expires_at: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2027-01-01T00:00:00Z" })
      .refine((value) => Date.parse(value) > Date.now(), { error: "must be in the future" })
      .transform((value) => new Date(value).toISOString())
      .optional(),
  })
  .openapi("ApiKeyCreate", { example: { name: "Reporting job", scopes: ["taxrate:read", "reference:read"], expires_at: "2027-01-01T00:00:00Z" } });

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
  })
  .openapi("ApiKeyCreated");

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
  .extend({ description: z.string().nullable(), scopes: z.array(z.string()), expires_at: isoDateTime.nullable() })
  .openapi("ApiKeyDetail");

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
