import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, idParam } from "../platform/openapi";
import { scopeAllows } from "../platform/auth/scopes";
import { ApiError } from "../platform/errors";
import { createApp, deleteApp, listApps } from "../pickup/apps";
import { createKey, listKeys, ownKey, revokeKey } from "./keys";
import {
  appCreateSchema,
  appCreatedSchema,
  appListItemSchema,
  detailSchema,
  validationErrorSchema,
  keyCreatedSchema,
  keyCreateSchema,
  keyDetailSchema,
  keyListItemSchema,
  successSchema,
  userSchema,
  userUpdateSchema,
} from "./schema";
import { appCreated, appListItem, keyCreated, keyDetail, keyListItem, userRecord } from "./serializers";
import { deactivateUser, readUser, updateUser, userById } from "./users";

const common = { tags: ["A · Accounts and keys"], security: [{ Bearer: [] }] };
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
/** Every route here authenticates and counts against the caller's plan: 401, 403 and 429 always. */
const errors = (...statuses: (400 | 404 | 409 | 415 | 422)[]) => {
  const text = {
    400: "The body is not JSON",
    401: "Missing or invalid credentials",
    403: "Insufficient permissions",
    404: "Not found",
    409: "Conflict",
    415: "The body is not application/json",
    422: "Validation failed: `detail` lists the fields",
    429: "Rate limit of the caller's plan exceeded; see Retry-After",
  };
  const all = [401, 403, 429, ...statuses] as const;
  return Object.fromEntries(all.map((s) => [s, json(s === 422 ? validationErrorSchema : detailSchema, text[s])]));
};
const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int() });
const body = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const byId = { params: z.object({ id: idParam("id") }) };

const routes = {
  createKey: createRoute({
    ...common,
    method: "post",
    path: "/api/tokens",
    summary: "A4 · Create an API key",
    request: body(keyCreateSchema),
    responses: { 201: json(keyCreatedSchema, "The key, with its token and secret shown once"), ...errors(400, 409, 415, 422) },
  }),
  listKeys: createRoute({
    ...common,
    method: "get",
    path: "/api/tokens",
    summary: "A5 · The caller's API keys",
    responses: { 200: json(listOf(keyListItemSchema), "Keys, newest first, tokens masked"), ...errors() },
  }),
  keyDetail: createRoute({
    ...common,
    method: "get",
    path: "/api/tokens/{id}",
    summary: "A6 · One of the caller's API keys",
    request: byId,
    responses: { 200: json(keyDetailSchema, "The key, token masked"), ...errors(404, 422) },
  }),
  revokeKey: createRoute({
    ...common,
    method: "delete",
    path: "/api/tokens/{id}",
    summary: "A7 · Revoke an API key, effective on the next request",
    request: byId,
    responses: { 200: json(successSchema, "Revoked"), ...errors(404, 422) },
  }),
  me: createRoute({
    ...common,
    method: "get",
    path: "/api/users/me",
    summary: "A8 · The caller's user record",
    responses: { 200: json(userSchema, "The caller"), ...errors() },
  }),
  readUser: createRoute({
    ...common,
    method: "get",
    path: "/api/users/{id}",
    summary: "A9 · A user record (admin)",
    request: byId,
    responses: { 200: json(userSchema, "The user"), ...errors(404, 422) },
  }),
  updateUser: createRoute({
    ...common,
    method: "put",
    path: "/api/users/{id}",
    summary: "A10 · Change full_name and email (admin or the user)",
    request: { ...byId, ...body(userUpdateSchema) },
    responses: { 200: json(userSchema, "The updated user"), ...errors(400, 404, 415, 422) },
  }),
  deactivateUser: createRoute({
    ...common,
    method: "delete",
    path: "/api/users/{id}",
    summary: "A11 · Deactivate a user (admin); their keys and tokens stop at once (elsewhere within 10 s)",
    request: byId,
    responses: { 200: json(successSchema, "Deactivated"), ...errors(404, 409, 422) },
  }),
  createApp: createRoute({
    ...common,
    method: "post",
    path: "/api/apps",
    summary: "Create an app for the pickup API (group P)",
    request: body(appCreateSchema),
    responses: { 201: json(appCreatedSchema, "The app, with its app token and webhook secret shown once"), ...errors(400, 415, 422) },
  }),
  listApps: createRoute({
    ...common,
    method: "get",
    path: "/api/apps",
    summary: "The caller's apps",
    responses: { 200: json(listOf(appListItemSchema), "Apps, newest first, tokens masked"), ...errors() },
  }),
  deleteApp: createRoute({
    ...common,
    method: "delete",
    path: "/api/apps/{id}",
    summary: "Revoke an app's token",
    request: byId,
    responses: { 200: json(successSchema, "Revoked"), ...errors(404, 422) },
  }),
};

export function accountRoutes() {
  const router = createRouter();

  router.openapi(routes.createKey, async (c) => {
    const issued = await createKey(c.var.db, c.env.KEY_ENCRYPTION_KEY, c.get("principal"), c.req.valid("json"));
    return c.json(keyCreated(issued), 201);
  });
  router.openapi(routes.listKeys, async (c) => {
    const keys = await listKeys(c.var.db, c.get("principal").userId);
    return c.json({ data: keys.map(keyListItem), total: keys.length }, 200);
  });
  router.openapi(routes.keyDetail, async (c) => {
    const key = await ownKey(c.var.db, c.get("principal").userId, c.req.valid("param").id);
    return c.json(keyDetail(key), 200);
  });
  router.openapi(routes.revokeKey, async (c) => {
    await revokeKey(c.var.db, c.get("principal").userId, c.req.valid("param").id);
    return c.json({ success: true, message: "API key revoked" }, 200);
  });

  // `/me` is registered before `/{id}`, which would otherwise take it.
  router.openapi(routes.me, async (c) => c.json(userRecord(await userById(c.var.db, c.get("principal").userId)), 200));
  router.openapi(routes.readUser, async (c) => {
    const user = await readUser(c.var.db, c.get("principal"), c.req.valid("param").id);
    return c.json(userRecord(user), 200);
  });
  router.openapi(routes.updateUser, async (c) => {
    const user = await updateUser(c.var.db, c.get("principal"), c.req.valid("param").id, c.req.valid("json"));
    return c.json(userRecord(user), 200);
  });
  router.openapi(routes.deactivateUser, async (c) => {
    await deactivateUser(c.var.db, c.get("principal"), c.req.valid("param").id);
    return c.json({ success: true, message: "User deactivated" }, 200);
  });

  router.openapi(routes.createApp, async (c) => {
    // An app token submits pickups: only a caller who may write pickups may mint one.
    if (!scopeAllows(c.get("principal").scopes, "pickup:write")) throw new ApiError(403, "Insufficient permissions");
    const issued = await createApp(c.var.db, c.env.KEY_ENCRYPTION_KEY, c.get("principal").userId, c.req.valid("json"));
    return c.json(appCreated(issued), 201);
  });
  router.openapi(routes.listApps, async (c) => {
    const apps = await listApps(c.var.db, c.get("principal").userId);
    return c.json({ data: apps.map(appListItem), total: apps.length }, 200);
  });
  router.openapi(routes.deleteApp, async (c) => {
    await deleteApp(c.var.db, c.get("principal").userId, c.req.valid("param").id);
    return c.json({ success: true, message: "App revoked" }, 200);
  });

  return router;
}
