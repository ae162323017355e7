import { z } from "@hono/zod-openapi";
import { scopeAllows } from "../platform/auth/scopes";
import { ApiError } from "../platform/errors";
import { createRouter, idParam } from "../platform/openapi";
import { defineRoutes, type Guard } from "../platform/route";
import { createApp, deleteApp, listApps } from "../pickup/apps";
import { ACCOUNT_ENVELOPE } from "./envelope";
import { auditEventsOf } from "./audit";
import { createKey, keyUsage, listKeys, ownKey, revokeKey, rollKey } from "./keys";
import {
  appCreateSchema,
  appCreatedSchema,
  appListItemSchema,
  auditPageSchema,
  auditQuery,
  keyCreatedSchema,
  keyCreateSchema,
  keyDetailSchema,
  keyListItemSchema,
  keyRolledSchema,
  keyRollSchema,
  keyUsageQuery,
  keyUsageSchema,
  successSaying,
  userSchema,
  userUpdateSchema,
} from "./schema";
import { appCreated, appListItem, auditEntry, keyCreated, keyDetail, keyListItem, keyRolled, keyUsageAnswer, userRecord } from "./serializers";
import { deactivateUser, updateUser, userById } from "./users";

const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int() });
const body = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const byId = { params: z.object({ id: idParam("id") }) };

const forbidden = () => new ApiError(403, "Insufficient permissions");

/** A9, A11: an admin's call. */
const admin: Guard<undefined> = {
  note: "admin",
  check: async (c) => {
    if (c.get("principal").role !== "admin") throw forbidden();
    return undefined;
  },
};

/** A10: an admin, or the user the path names. */
const adminOrTheUser: Guard<undefined> = {
  note: "admin or the user",
  check: async (c) => {
    if (c.get("principal").role !== "admin" && String(c.get("principal").userId) !== c.req.param("id")) throw forbidden();
    return undefined;
  },
};

/** An app token submits pickups: only a caller who may write pickups may mint one. */
const pickupWriter: Guard<undefined> = {
  note: "pickup:write",
  check: async (c) => {
    if (!scopeAllows(c.get("principal").scopes, "pickup:write")) throw forbidden();
    return undefined;
  },
};

/** A4–A11 and the pickup apps: bare bodies, and 401, 403 and 429 on every route (each authenticates and counts against the caller's plan). */
export function accountRoutes() {
  const router = createRouter();
  const route = defineRoutes(router, ACCOUNT_ENVELOPE, {
    tags: ["A · Accounts and keys"],
    idempotentWrites: true,
    security: [{ Bearer: [] }],
    errors: [401, 403, 429],
  });

  route({
    method: "post",
    path: "/api/tokens",
    summary: "A4 · Create an API key",
    request: body(keyCreateSchema),
    data: keyCreatedSchema,
    answer: "The key, with its token and secret shown once",
    status: 201,
    errors: [400, 409, 415, 422],
    handle: async (c) => keyCreated(await createKey(c.get("db"), c.env.KEY_ENCRYPTION_KEY, c.get("principal"), c.req.valid("json"))),
  });
  route({
    method: "get",
    path: "/api/tokens",
    summary: "A5 · The caller's API keys",
    data: listOf(keyListItemSchema),
    answer: "Keys, newest first, tokens masked",
    handle: async (c) => {
      const keys = await listKeys(c.get("db"), c.get("principal").userId);
      return { data: keys.map(keyListItem), total: keys.length };
    },
  });
  route({
    method: "get",
    path: "/api/tokens/{id}",
    summary: "A6 · One of the caller's API keys",
    request: byId,
    data: keyDetailSchema,
    answer: "The key, token masked",
    errors: [404, 422],
    handle: async (c) => keyDetail(await ownKey(c.get("db"), c.get("principal").userId, c.req.valid("param").id)),
  });
  route({
    method: "delete",
    path: "/api/tokens/{id}",
    summary: "A7 · Revoke an API key, effective on the next request",
    request: byId,
    data: successSaying("API key revoked"),
    answer: "Revoked",
    errors: [404, 422],
    handle: async (c) => {
      await revokeKey(c.get("db"), c.get("principal"), c.req.valid("param").id);
      return { success: true, message: "API key revoked" } as const;
    },
  });
  route({
    method: "post",
    path: "/api/tokens/{id}/roll",
    summary: "Roll an API key: a new token and secret, the old pair working on until the overlap ends",
    request: { ...byId, ...body(keyRollSchema) },
    data: keyRolledSchema,
    answer: "The key with its new token and secret, shown once, and when the old pair stops",
    errors: [400, 404, 409, 415, 422],
    handle: async (c) =>
      keyRolled(await rollKey(c.get("db"), c.env.KEY_ENCRYPTION_KEY, c.get("principal"), c.req.valid("param").id, c.req.valid("json"))),
  });
  route({
    method: "get",
    path: "/api/tokens/{id}/usage",
    summary: "A key's requests by day, group and status, for up to the last 90 days",
    request: { ...byId, query: keyUsageQuery },
    data: keyUsageSchema,
    answer: "Counts, newest day first; the last few seconds may not be counted yet",
    errors: [404, 422],
    handle: async (c) => {
      const { id } = c.req.valid("param");
      const { since, rows } = await keyUsage(c.get("db"), c.get("principal").userId, id, c.req.valid("query").days);
      return keyUsageAnswer(id, since, rows);
    },
  });

  // `/me` is registered before `/{id}`, which would otherwise take it.
  route({
    method: "get",
    path: "/api/users/me",
    summary: "A8 · The caller's user record",
    data: userSchema,
    answer: "The caller",
    handle: async (c) => userRecord(await userById(c.get("db"), c.get("principal").userId)),
  });
  route({
    method: "get",
    path: "/api/users/{id}",
    summary: "A9 · A user record",
    guard: admin,
    request: byId,
    data: userSchema,
    answer: "The user",
    errors: [404, 422],
    handle: async (c) => userRecord(await userById(c.get("db"), c.req.valid("param").id)),
  });
  route({
    method: "put",
    path: "/api/users/{id}",
    summary: "A10 · Change full_name and email",
    guard: adminOrTheUser,
    request: { ...byId, ...body(userUpdateSchema) },
    data: userSchema,
    answer: "The updated user",
    errors: [400, 404, 415, 422],
    handle: async (c) => userRecord(await updateUser(c.get("db"), c.get("principal"), c.req.valid("param").id, c.req.valid("json"))),
  });
  route({
    method: "delete",
    path: "/api/users/{id}",
    summary: "A11 · Deactivate a user",
    guard: admin,
    summaryEnd: "; their keys and tokens stop at once (elsewhere within 10 s)",
    request: byId,
    data: successSaying("User deactivated"),
    answer: "Deactivated",
    errors: [404, 409, 422],
    handle: async (c) => {
      await deactivateUser(c.get("db"), c.get("principal"), c.req.valid("param").id);
      return { success: true, message: "User deactivated" } as const;
    },
  });
  route({
    method: "get",
    path: "/api/users/{id}/audit",
    summary: "An account's audit log: keys created, rolled, revoked and expired, the user changed or deactivated",
    guard: adminOrTheUser,
    request: { ...byId, query: auditQuery },
    data: auditPageSchema,
    answer: "Events, newest first",
    errors: [404, 422],
    handle: async (c) => {
      const { id } = c.req.valid("param");
      const { page, size } = c.req.valid("query");
      await userById(c.get("db"), id);
      const { events, total } = await auditEventsOf(c.get("db"), id, page, size);
      return { data: events.map(auditEntry), total, page, size };
    },
  });

  route({
    method: "post",
    path: "/api/apps",
    summary: "Create an app for group P's pickup API",
    guard: pickupWriter,
    request: body(appCreateSchema),
    data: appCreatedSchema,
    answer: "The app, with its app token and webhook secret shown once",
    status: 201,
    errors: [400, 409, 415, 422],
    handle: async (c) => appCreated(await createApp(c.get("db"), c.env.KEY_ENCRYPTION_KEY, c.get("principal").userId, c.req.valid("json"))),
  });
  route({
    method: "get",
    path: "/api/apps",
    summary: "The caller's apps",
    data: listOf(appListItemSchema),
    answer: "Apps, newest first, tokens masked",
    handle: async (c) => {
      const apps = await listApps(c.get("db"), c.get("principal").userId);
      return { data: apps.map(appListItem), total: apps.length };
    },
  });
  route({
    method: "delete",
    path: "/api/apps/{id}",
    summary: "Revoke an app's token",
    request: byId,
    data: successSaying("App revoked"),
    answer: "Revoked",
    errors: [404, 422],
    handle: async (c) => {
      await deleteApp(c.get("db"), c.get("principal").userId, c.req.valid("param").id);
      return { success: true, message: "App revoked" } as const;
    },
  });

  return router;
}
