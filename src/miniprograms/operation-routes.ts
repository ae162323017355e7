import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import type { tenantRoutes } from "../platform/route";
import {
  allCategoriesAnswer,
  answer,
  categoriesAnswer,
  domainsAnswer,
  historyAnswer,
  phasedPlanAnswer,
  preflightAnswer,
  privacyAnswer,
  quotaAnswer,
} from "./answers";
import * as ops from "./operations";
import {
  byId,
  categoryAdd,
  categoryDelete,
  phasedRelease,
  prefetchDomains,
  privacySet,
  rollbackTo,
  serverDomains,
  visitStatus,
  webviewDomains,
} from "./params";
import { miniprogramOf, type Actor } from "./service";
import type { TokenContext } from "./tokens";

type Route = ReturnType<typeof tenantRoutes>;
const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const withWeChat = [409, 502, 503] as const;
const done = answer({}, {});

/** The audit settings and release control beside D1–D10: each a POST with the configuration's id, answering WeChat's shape. */
export function operationRoutes(route: Route, contextOf: (c: Context<AppEnv>) => TokenContext, actorOf: (c: Context<AppEnv>) => Actor) {
  /** A route whose body has `id`: the caller's configuration found, then `run`. */
  const op = <B extends z.ZodType<{ id: string }>, D extends z.ZodType>(spec: {
    path: string;
    summary: string;
    body: B;
    data: D;
    answer?: string;
    run: (ctx: TokenContext, actor: Actor, mp: Awaited<ReturnType<typeof miniprogramOf>>, body: z.infer<B>) => Promise<z.input<D>>;
  }) => {
    route({
      method: "post",
      path: spec.path,
      summary: spec.summary,
      request: json(spec.body),
      data: spec.data,
      answer: spec.answer ?? "WeChat's answer",
      errors: [...withWeChat],
      handle: async (c) => {
        // The router's inference cannot name the generic B: the body it validated is read through B again (kept parsed by Hono).
        const body = spec.body.parse(await c.req.json());
        return spec.run(contextOf(c), actorOf(c), await miniprogramOf(c.get("db"), actorOf(c), body.id), body);
      },
    });
  };

  op({
    path: "/wxa/privacy/set",
    summary: "Set the privacy guide: a contact, how users are told, and each privacy interface with its purpose (needs authorized)",
    body: privacySet,
    data: done,
    run: (ctx, actor, mp, { ownerSetting, settings }) => ops.setPrivacy(ctx, actor, mp, { ownerSetting, settings }),
  });
  op({
    path: "/wxa/privacy/get",
    summary: "The privacy guide WeChat holds, and the privacy interfaces the committed code uses (privacy_list)",
    body: byId,
    data: privacyAnswer,
    run: ops.getPrivacy,
  });
  op({
    path: "/wxa/privacy/code",
    summary: "The privacy interfaces WeChat found in the committed code (needs code_committed)",
    body: byId,
    data: answer(
      { without_auth_list: z.array(z.string()), with_auth_list: z.array(z.string()) },
      { without_auth_list: [], with_auth_list: ["UserInfo"] },
    ),
    run: ops.codePrivacy,
  });

  op({
    path: "/wxa/domain/server",
    summary: "Add, delete or set the server domains: request and upload/download (https), sockets (wss); host names, no IPs, no wildcards",
    body: serverDomains,
    data: done,
    run: (ctx, actor, mp, { id: _id, ...input }) => ops.setServerDomains(ctx, actor, mp, input),
  });
  op({
    path: "/wxa/domain/webview",
    summary: "Add, delete or set the webview (business) domains, https, at most 100",
    body: webviewDomains,
    data: done,
    run: (ctx, actor, mp, { action, domains }) => ops.setWebviewDomains(ctx, actor, mp, { action, domains }),
  });
  op({
    path: "/wxa/domain/prefetch",
    summary: "Set the domains resolved ahead of the first request (prefetch DNS), https, at most 5",
    body: prefetchDomains,
    data: done,
    run: (ctx, actor, mp, { domains }) => ops.setPrefetchDomains(ctx, actor, mp, domains),
  });
  op({
    path: "/wxa/domain/get",
    summary: "The server, webview and prefetch domains WeChat holds",
    body: byId,
    data: domainsAnswer,
    run: ops.getDomains,
  });

  op({
    path: "/wxa/category/all",
    summary: "The service categories WeChat offers (sensitive_type 1 needs a qualification and is audited)",
    body: byId,
    data: allCategoriesAnswer,
    run: ops.allCategories,
  });
  op({
    path: "/wxa/category/add",
    summary: "Add service categories (at most 5 in all); a sensitive one needs its certificates and is audited",
    body: categoryAdd,
    data: done,
    run: (ctx, actor, mp, { categories }) => ops.addCategories(ctx, actor, mp, categories),
  });
  op({
    path: "/wxa/category/delete",
    summary: "Delete a service category of the mini-program",
    body: categoryDelete,
    data: done,
    run: (ctx, actor, mp, { first, second }) => ops.deleteCategory(ctx, actor, mp, { first, second }),
  });
  op({
    path: "/wxa/category/get",
    summary: "The mini-program's service categories and their audit state",
    body: byId,
    data: categoriesAnswer,
    run: ops.categoriesOf,
  });
  op({
    path: "/wxa/pages",
    summary: "The pages of the committed code, for the audit's item list (needs code_committed)",
    body: byId,
    data: answer({ page_list: z.array(z.string()) }, { page_list: ["pages/index/index", "pages/booking/new"] }),
    run: ops.pagesOf,
  });

  op({
    path: "/wxa/preflight",
    summary: "What WeChat would refuse in a submission now: privacy guide, categories, quota, name, domains (needs code_committed)",
    body: byId,
    data: preflightAnswer,
    answer: "The problems found, blocking or not",
    run: ops.preflight,
  });

  op({
    path: "/wxa/audit/withdraw",
    summary: "Withdraw the audit running (WeChat allows 5 a day, 10 a month); the quota is not given back",
    body: byId,
    data: done,
    run: ops.withdrawAudit,
  });
  op({
    path: "/wxa/audit/quota",
    summary: "The platform's audit quota this month, shared by all its mini-programs, and its expedites",
    body: byId,
    data: quotaAnswer,
    run: ops.auditQuota,
  });
  op({
    path: "/wxa/audit/speedup",
    summary: "Expedite the audit running (uses one of the month's expedites)",
    body: byId,
    data: done,
    run: ops.speedupAudit,
  });

  op({
    path: "/wxa/release/phased",
    summary: "Release the passed version to a percentage of users, or raise the percentage (100 is a full release; needs a version online)",
    body: phasedRelease,
    data: done,
    run: (ctx, actor, mp, { percentage }) => ops.phasedRelease(ctx, actor, mp, percentage),
  });
  op({
    path: "/wxa/release/phased/plan",
    summary: "The phased release: status (0 none, 1 running), its start and percentage",
    body: byId,
    data: phasedPlanAnswer,
    run: ops.phasedPlan,
  });
  op({
    path: "/wxa/release/phased/revert",
    summary: "Stop the phased release: every user keeps the version online before it (back to audit_passed)",
    body: byId,
    data: done,
    run: ops.revertPhased,
  });
  op({
    path: "/wxa/release/rollback",
    summary: "Roll the release back to an earlier version (the latest without appVersion); once per release",
    body: rollbackTo,
    data: done,
    run: (ctx, actor, mp, { appVersion }) => ops.rollback(ctx, actor, mp, appVersion),
  });
  op({
    path: "/wxa/release/history",
    summary: "The versions a rollback can go to, newest first",
    body: byId,
    data: historyAnswer,
    run: ops.rollbackVersions,
  });
  op({
    path: "/wxa/visitstatus",
    summary: "Open or close the released mini-program to its users (needs released)",
    body: visitStatus,
    data: done,
    run: (ctx, actor, mp, { action }) => ops.changeVisitStatus(ctx, actor, mp, action),
  });
}

/** The operations that only read: `miniprogram:read` is enough (index.ts's access rules). */
export const READ_OPERATIONS = [
  "/wxa/privacy/get",
  "/wxa/privacy/code",
  "/wxa/domain/get",
  "/wxa/category/all",
  "/wxa/category/get",
  "/wxa/pages",
  "/wxa/preflight",
  "/wxa/audit/quota",
  "/wxa/release/phased/plan",
  "/wxa/release/history",
];
