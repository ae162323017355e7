import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../platform/env";
import { createRouter } from "../platform/openapi";
import { tenantRoutes } from "../platform/route";
import { serviceOrigin } from "../platform/service-hosts";
import { byId, codeCommit, miniprogramCreate, miniprogramPage, nameVerify, profileUpdate, templatePage, testerBind } from "./params";
import { STAGES } from "./schema";
import { auditStateAnswer, miniprogramItem, page, stepsAnswer, templateItem, weChatAnswer } from "./answers";
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
  stepLabel,
  stepsOf,
  testerInfo,
  updateProfile,
  verifyName,
  type Actor,
} from "./service";
import { submitChecked } from "./operations";
import { fleetRoutes } from "./fleet-routes";
import { operationRoutes } from "./operation-routes";
import { upstreamOf } from "./upstream";

export const DEPOSITS_BASE_PATH = "/deposits";
/** The same routes for the admin console, whose session cookie is sent to /admin paths only (docs/console.md). */
export const CONSOLE_DEPOSITS_PATH = "/admin/api/deposits";

const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const withWeChat = [409, 502, 503] as const;

const actorOf = (c: Context<AppEnv>): Actor => ({ userId: c.get("principal").userId, keyId: c.get("principal").keyId });
const contextOf = (c: Context<AppEnv>) => ({ db: c.get("db"), env: c.env, upstream: upstreamOf(c.env, (work) => c.executionCtx.waitUntil(work)) });

// A POST's only: a GET or HEAD cannot carry the body, and goes on to its 405.
const emptyBodyAsObject: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "POST" && (await c.req.raw.clone().text()).trim() === "") {
    const headers = new Headers(c.req.raw.headers);
    headers.set("Content-Type", "application/json");
    c.req.raw = new Request(c.req.raw.url, { method: c.req.method, headers, body: "{}" });
  }
  await next();
};

/** D1–D10 and the configuration's own routes, `{ success, data }`: for API keys, or (`console`) for a person's console session. */
export function miniprogramRoutes(mount: "api" | "console" = "api") {
  const r = createRouter();
  const route = tenantRoutes(r, {
    tags: [mount === "api" ? "D · Mini-programs" : "D · Mini-programs in the console"],
    idempotentWrites: true,
    security: mount === "api" ? [{ Bearer: [] }] : [{ Bearer: [] }, { ConsoleSession: [] }],
    errors: [400, 401, 403, 404, 415, 429],
    errorTexts: { 502: "WeChat failed or did not answer in time" },
  });
  // D1 and D2 take no body at all too (an empty one, even labelled JSON): the defaults then apply.
  r.use("/minipram/list", emptyBodyAsObject);
  r.use("/minipram/tpls", emptyBodyAsObject);

  route({
    method: "post",
    path: "/minipram/list",
    summary: "D1 · The caller's mini-program configurations",
    request: { body: { required: false, content: { "application/json": { schema: miniprogramPage } } } },
    data: page(miniprogramItem).openapi({
      example: {
        Total: 1,
        CurrPage: 1,
        Data: [{ Id: 12, Name: "Harbour Tickets", ConfigType: "ticketing", Stage: "authorized", AppId: "wx3f2a9c1b7d5e8a04" }],
      },
    }),
    answer: "A page",
    handle: async (c) => {
      const p = miniprogramPage.parse(c.req.valid("json") ?? {});
      return listMiniprograms(c.get("db"), actorOf(c), p.pageNumber, p.pageSize);
    },
  });
  route({
    method: "post",
    path: "/minipram/tpls",
    summary: "D2 · Code templates of the platform's library",
    request: { body: { required: false, content: { "application/json": { schema: templatePage } } } },
    data: page(templateItem).openapi({
      example: {
        Total: 1,
        CurrPage: 1,
        Data: [
          { Id: 3, Name: "Ticket shop", Version: "1.4.0", Description: "Opening hours, tickets and a map", Created: "2026-10-02T10:00:00.000Z" },
        ],
      },
    }),
    answer: "A page",
    handle: async (c) => {
      const p = templatePage.parse(c.req.valid("json") ?? {});
      return listTemplates(c.get("db"), p.pageNumber, p.pageSize);
    },
  });
  route({
    method: "post",
    path: "/minipram/create",
    summary: "Create a mini-program configuration (stage configured)",
    request: json(miniprogramCreate),
    data: z
      .object({ id: z.number().int(), name: z.string(), stage: z.enum(STAGES) })
      .openapi({ example: { id: 12, name: "Harbour Tickets", stage: "configured" } }),
    answer: "Created",
    errors: [409],
    handle: async (c) => {
      const created = await createMiniprogram(c.get("db"), actorOf(c), c.req.valid("json"));
      return { id: created.id, name: created.name, stage: created.stage };
    },
  });
  route({
    method: "post",
    path: "/minipram/authorize",
    summary: "The link its owner opens to authorize the platform (pre-auth code, 30 minutes)",
    request: json(byId),
    data: z.object({ authorizeUrl: z.string(), expiresIn: z.number().int() }).openapi({
      example: {
        authorizeUrl: "https://mp.weixin.qq.com/cgi-bin/componentloginpage?component_appid=wx0c…&pre_auth_code=preauthcode@@@…",
        expiresIn: 1800,
      },
    }),
    answer: "The link",
    errors: [...withWeChat],
    handle: async (c) => {
      const mp = await miniprogramOf(c.get("db"), actorOf(c), c.req.valid("json").id);
      // The links it hands out name the configured origin: a request's Host is the caller's to write.
      return authorizationLink(contextOf(c), actorOf(c), mp, serviceOrigin(c.env));
    },
  });
  route({
    method: "post",
    path: "/minipram/steps",
    summary: "Every step taken on a configuration: when, which key, the request, WeChat's answer",
    request: json(byId),
    data: stepsAnswer,
    answer: "The steps",
    handle: async (c) => {
      const mp = await miniprogramOf(c.get("db"), actorOf(c), c.req.valid("json").id);
      const steps = await stepsOf(c.get("db"), mp);
      return {
        id: mp.id,
        name: mp.name,
        stage: mp.stage,
        appId: mp.authorizerAppId,
        steps: steps.map(({ step, actorKeyId, request, answer, at }) => ({ step, label: stepLabel(step), actorKeyId, request, answer, at })),
      };
    },
  });
  route({
    method: "post",
    path: "/wxa/nameverify",
    summary: "D3 · Check a name with WeChat (needs stage authorized)",
    request: json(nameVerify),
    data: weChatAnswer.extend({ hitCondition: z.boolean().optional(), wording: z.string().optional() }),
    answer: "WeChat's answer",
    errors: [...withWeChat],
    handle: async (c) => {
      const p = c.req.valid("json");
      return verifyName(contextOf(c), actorOf(c), await miniprogramOf(c.get("db"), actorOf(c), p.id), p.name);
    },
  });
  route({
    method: "post",
    path: "/wxa/update",
    summary: "D4 · Set name (with licence), icon and introduction (needs stage name_verified)",
    request: json(profileUpdate),
    data: z.object({ code: z.literal(200), msg: z.string().openapi({ example: "success" }) }),
    answer: "Updated",
    errors: [...withWeChat, 413],
    handle: async (c) => {
      const { id, ...profile } = c.req.valid("json");
      return updateProfile(contextOf(c), actorOf(c), await miniprogramOf(c.get("db"), actorOf(c), id), profile);
    },
  });
  route({
    method: "post",
    path: "/wxa/codecommit",
    summary: "D5 · Commit a template's code with this configuration as ext_json (needs profile_updated)",
    request: json(codeCommit),
    data: weChatAnswer,
    answer: "WeChat's answer",
    errors: [...withWeChat],
    handle: async (c) => {
      const p = c.req.valid("json");
      return commitCode(contextOf(c), actorOf(c), await miniprogramOf(c.get("db"), actorOf(c), p.id), p.tplId);
    },
  });
  route({
    method: "post",
    path: "/wxa/submitaudit",
    summary: "D6 · Submit the committed code to WeChat's audit (needs code_committed; the preflight's blocking problems are a 409 first)",
    request: json(byId),
    data: weChatAnswer.extend({ auditid: z.string().optional() }),
    answer: "WeChat's answer",
    errors: [...withWeChat],
    handle: async (c) => submitChecked(contextOf(c), actorOf(c), await miniprogramOf(c.get("db"), actorOf(c), c.req.valid("json").id)),
  });
  route({
    method: "post",
    path: "/wxa/tester/infor",
    summary: "D7 · Testers, the experience QR code and the mini-program code (needs code_committed)",
    request: json(byId),
    data: z.object({ testers: z.array(z.string()), members: z.array(z.string()), test_qrcode: z.string(), wxa_code: z.string() }).openapi({
      example: {
        testers: ["harbour_tester"],
        members: ["harbour_tester"],
        test_qrcode: "/deposits/codes/12/test.png",
        wxa_code: "/deposits/codes/12/wxa.png",
      },
    }),
    answer: "Testers and codes",
    errors: [...withWeChat],
    handle: async (c) => {
      const mp = await miniprogramOf(c.get("db"), actorOf(c), c.req.valid("json").id);
      return testerInfo({ ...contextOf(c), bucket: c.env.MEDIA }, mp, serviceOrigin(c.env));
    },
  });
  route({
    method: "post",
    path: "/wxa/auditstate",
    summary: "D8 · The latest audit's state: 0 passed, 1 rejected, 2 auditing, 3 withdrawn, 4 delayed",
    request: json(byId),
    data: auditStateAnswer,
    answer: "The state",
    errors: [...withWeChat],
    handle: async (c) => auditState(contextOf(c), actorOf(c), await miniprogramOf(c.get("db"), actorOf(c), c.req.valid("json").id)),
  });
  route({
    method: "post",
    path: "/wxa/release",
    summary: "D9 · Release the audited version (needs audit_passed)",
    request: json(byId),
    data: weChatAnswer,
    answer: "WeChat's answer",
    errors: [...withWeChat],
    handle: async (c) => release(contextOf(c), actorOf(c), await miniprogramOf(c.get("db"), actorOf(c), c.req.valid("json").id)),
  });
  route({
    method: "post",
    path: "/wxa/tester/bind",
    summary: "D10 · Bind a tester by WeChat id (needs authorized)",
    request: json(testerBind),
    data: weChatAnswer.extend({ userstr: z.string().optional() }),
    answer: "WeChat's answer",
    errors: [...withWeChat],
    handle: async (c) => {
      const p = c.req.valid("json");
      return bindTester(contextOf(c), actorOf(c), await miniprogramOf(c.get("db"), actorOf(c), p.id), p.messengerId);
    },
  });
  operationRoutes(route, contextOf, actorOf);
  fleetRoutes(route, actorOf);
  return r;
}
