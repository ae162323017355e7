import { createRoute, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { tenantEnvelope } from "../platform/envelope";
import type { AppEnv } from "../platform/env";
import { createRouter, tenantErrorResponses, tenantResponse } from "../platform/openapi";
import { serviceOrigin } from "../platform/service-hosts";
import { byId, codeCommit, miniprogramCreate, miniprogramPage, nameVerify, profileUpdate, templatePage, testerBind } from "./params";
import { STAGES } from "./schema";
import {
  auditState,
  authorizationLink,
  bindTester,
  commitCode,
  createMiniprogram,
  listMiniprograms,
  listTemplates,
  miniprogramOf,
  release,
  stepsOf,
  submitAudit,
  testerInfo,
  updateProfile,
  verifyName,
  type Actor,
} from "./service";
import { upstreamOf } from "./upstream";

export const DEPOSITS_BASE_PATH = "/deposits";

const common = { tags: ["D · Mini-programs"], security: [{ Bearer: [] }] as Record<string, string[]>[] };
const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const errors = tenantErrorResponses(400, 401, 403, 404, 415, 429);
const withWeChat = tenantErrorResponses(409, 502, 503);
const ok = <T extends z.ZodType>(data: T, description: string) => ({ ...tenantResponse(data, description), ...errors });

const weChatAnswer = z.object({
  errcode: z.number().int().openapi({ description: "WeChat's errcode as it gave it: 0 on success" }),
  errmsg: z.string().openapi({ description: "WeChat's errmsg as it gave it" }),
  message: z.string().optional().openapi({ description: "What a non-zero errcode means (docs/miniprograms.md lists them)" }),
});
const page = <T extends z.ZodType>(item: T) => z.object({ Total: z.number().int(), CurrPage: z.number().int(), Data: z.array(item) });

const routes = {
  list: createRoute({
    ...common,
    method: "post",
    path: "/minipram/list",
    summary: "D1 · The caller's mini-program configurations",
    request: { body: { required: false, content: { "application/json": { schema: miniprogramPage } } } },
    responses: ok(
      page(z.object({ Id: z.number().int(), Name: z.string(), ConfigType: z.string(), Stage: z.enum(STAGES), AppId: z.string().nullable() })),
      "A page",
    ),
  }),
  templates: createRoute({
    ...common,
    method: "post",
    path: "/minipram/tpls",
    summary: "D2 · Code templates of the platform's library",
    request: { body: { required: false, content: { "application/json": { schema: templatePage } } } },
    responses: ok(
      page(z.object({ Id: z.number().int(), Name: z.string(), Version: z.string(), Description: z.string(), Created: z.string() })),
      "A page",
    ),
  }),
  create: createRoute({
    ...common,
    method: "post",
    path: "/minipram/create",
    summary: "Create a mini-program configuration (stage configured)",
    request: json(miniprogramCreate),
    responses: ok(z.object({ id: z.number().int(), name: z.string(), stage: z.enum(STAGES) }), "Created"),
  }),
  authorize: createRoute({
    ...common,
    method: "post",
    path: "/minipram/authorize",
    summary: "The link its owner opens to authorize the platform (pre-auth code, 30 minutes)",
    request: json(byId),
    responses: { ...ok(z.object({ authorizeUrl: z.string(), expiresIn: z.number().int() }), "The link"), ...withWeChat },
  }),
  steps: createRoute({
    ...common,
    method: "post",
    path: "/minipram/steps",
    summary: "Every step taken on a configuration: when, which key, the request, WeChat's answer",
    request: json(byId),
    responses: ok(
      z.object({
        id: z.number().int(),
        stage: z.enum(STAGES),
        steps: z.array(
          z.object({ step: z.string(), actorKeyId: z.number().int().nullable(), request: z.unknown(), answer: z.unknown(), at: z.string() }),
        ),
      }),
      "The steps",
    ),
  }),
  nameVerify: createRoute({
    ...common,
    method: "post",
    path: "/wxa/nameverify",
    summary: "D3 · Check a name with WeChat (needs stage authorized)",
    request: json(nameVerify),
    responses: {
      ...ok(weChatAnswer.extend({ hitCondition: z.boolean().optional(), wording: z.string().optional() }), "WeChat's answer"),
      ...withWeChat,
    },
  }),
  update: createRoute({
    ...common,
    method: "post",
    path: "/wxa/update",
    summary: "D4 · Set name (with licence), icon and introduction (needs stage name_verified)",
    request: json(profileUpdate),
    responses: { ...ok(z.object({ code: z.literal(200), msg: z.string() }), "Updated"), ...withWeChat, ...tenantErrorResponses(413) },
  }),
  commit: createRoute({
    ...common,
    method: "post",
    path: "/wxa/codecommit",
    summary: "D5 · Commit a template's code with this configuration as ext_json (needs profile_updated)",
    request: json(codeCommit),
    responses: { ...ok(weChatAnswer, "WeChat's answer"), ...withWeChat },
  }),
  submitAudit: createRoute({
    ...common,
    method: "post",
    path: "/wxa/submitaudit",
    summary: "D6 · Submit the committed code to WeChat's audit (needs code_committed)",
    request: json(byId),
    responses: { ...ok(weChatAnswer.extend({ auditid: z.string().optional() }), "WeChat's answer"), ...withWeChat },
  }),
  testerInfo: createRoute({
    ...common,
    method: "post",
    path: "/wxa/tester/infor",
    summary: "D7 · Testers, the experience QR code and the mini-program code (needs code_committed)",
    request: json(byId),
    responses: {
      ...ok(
        z.object({ testers: z.array(z.string()), members: z.array(z.string()), test_qrcode: z.string(), wxa_code: z.string() }),
        "Testers and codes",
      ),
      ...withWeChat,
    },
  }),
  auditState: createRoute({
    ...common,
    method: "post",
    path: "/wxa/auditstate",
    summary: "D8 · The latest audit's state: 0 passed, 1 rejected, 2 auditing, 3 withdrawn, 4 delayed",
    request: json(byId),
    responses: {
      ...ok(
        z.object({ status: z.number().int(), reason: z.string(), auditid: z.string().nullable(), screenshots: z.array(z.string()) }),
        "The state",
      ),
      ...withWeChat,
    },
  }),
  release: createRoute({
    ...common,
    method: "post",
    path: "/wxa/release",
    summary: "D9 · Release the audited version (needs audit_passed)",
    request: json(byId),
    responses: { ...ok(weChatAnswer, "WeChat's answer"), ...withWeChat },
  }),
  bindTester: createRoute({
    ...common,
    method: "post",
    path: "/wxa/tester/bind",
    summary: "D10 · Bind a tester by WeChat id (needs authorized)",
    request: json(testerBind),
    responses: { ...ok(weChatAnswer.extend({ userstr: z.string().optional() }), "WeChat's answer"), ...withWeChat },
  }),
};

const actorOf = (c: Context<AppEnv>): Actor => ({ userId: c.var.principal.userId, keyId: c.var.principal.keyId });
const contextOf = (c: Context<AppEnv>) => ({ db: c.var.db, env: c.env, upstream: upstreamOf(c.env, (work) => c.executionCtx.waitUntil(work)) });

const emptyBodyAsObject: MiddlewareHandler<AppEnv> = async (c, next) => {
  if ((await c.req.raw.clone().text()).trim() === "") {
    const headers = new Headers(c.req.raw.headers);
    headers.set("Content-Type", "application/json");
    c.req.raw = new Request(c.req.raw.url, { method: c.req.method, headers, body: "{}" });
  }
  await next();
};

/** D1–D10 and the configuration's own routes, `{ success, data }`. */
export function miniprogramRoutes() {
  const r = createRouter();
  const send = <T>(c: Context<AppEnv>, data: T) => c.json(tenantEnvelope(data), 200) as never;
  // D1 and D2 take no body at all too (an empty one, even labelled JSON): the defaults then apply.
  r.use("/minipram/list", emptyBodyAsObject);
  r.use("/minipram/tpls", emptyBodyAsObject);
  r.openapi(routes.list, async (c) => {
    const p = miniprogramPage.parse(c.req.valid("json") ?? {});
    return send(c, await listMiniprograms(c.var.db, actorOf(c), p.pageNumber, p.pageSize));
  });
  r.openapi(routes.templates, async (c) => {
    const p = templatePage.parse(c.req.valid("json") ?? {});
    return send(c, await listTemplates(c.var.db, p.pageNumber, p.pageSize));
  });
  r.openapi(routes.create, async (c) => {
    const created = await createMiniprogram(c.var.db, actorOf(c), c.req.valid("json"));
    return send(c, { id: created.id, name: created.name, stage: created.stage });
  });
  r.openapi(routes.authorize, async (c) => {
    const mp = await miniprogramOf(c.var.db, actorOf(c), c.req.valid("json").id);
    // The links it hands out name the configured origin: a request's Host is the caller's to write.
    return send(c, await authorizationLink(contextOf(c), actorOf(c), mp, serviceOrigin(c.env)));
  });
  r.openapi(routes.steps, async (c) => {
    const mp = await miniprogramOf(c.var.db, actorOf(c), c.req.valid("json").id);
    const steps = await stepsOf(c.var.db, mp);
    return send(c, {
      id: mp.id,
      stage: mp.stage,
      steps: steps.map(({ step, actorKeyId, request, answer, at }) => ({ step, actorKeyId, request, answer, at })),
    });
  });
  r.openapi(routes.nameVerify, async (c) => {
    const p = c.req.valid("json");
    return send(c, await verifyName(contextOf(c), actorOf(c), await miniprogramOf(c.var.db, actorOf(c), p.id), p.name));
  });
  r.openapi(routes.update, async (c) => {
    const { id, ...profile } = c.req.valid("json");
    return send(c, await updateProfile(contextOf(c), actorOf(c), await miniprogramOf(c.var.db, actorOf(c), id), profile));
  });
  r.openapi(routes.commit, async (c) => {
    const p = c.req.valid("json");
    return send(c, await commitCode(contextOf(c), actorOf(c), await miniprogramOf(c.var.db, actorOf(c), p.id), p.tplId));
  });
  r.openapi(routes.submitAudit, async (c) =>
    send(c, await submitAudit(contextOf(c), actorOf(c), await miniprogramOf(c.var.db, actorOf(c), c.req.valid("json").id))),
  );
  r.openapi(routes.testerInfo, async (c) => {
    const mp = await miniprogramOf(c.var.db, actorOf(c), c.req.valid("json").id);
    return send(c, await testerInfo({ ...contextOf(c), bucket: c.env.MEDIA }, mp, serviceOrigin(c.env)));
  });
  r.openapi(routes.auditState, async (c) =>
    send(c, await auditState(contextOf(c), actorOf(c), await miniprogramOf(c.var.db, actorOf(c), c.req.valid("json").id))),
  );
  r.openapi(routes.release, async (c) =>
    send(c, await release(contextOf(c), actorOf(c), await miniprogramOf(c.var.db, actorOf(c), c.req.valid("json").id))),
  );
  r.openapi(routes.bindTester, async (c) => {
    const p = c.req.valid("json");
    return send(c, await bindTester(contextOf(c), actorOf(c), await miniprogramOf(c.var.db, actorOf(c), p.id), p.messengerId));
  });
  return r;
}
