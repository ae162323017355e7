import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../platform/database";
import type { AppEnv, Bindings } from "../platform/env";
import type { GroupModule } from "../platform/group";
import { createRouter } from "../platform/openapi";
import { miniprogramPublicRoutes, PUSH_PATH } from "./public-routes";
import { READ_OPERATIONS } from "./operation-routes";
import { PUSH_BODY_BYTES } from "./push";
import { advanceRollouts, consumeFleet, FLEET_QUEUE } from "./fleet";
import { CONSOLE_DEPOSITS_PATH, DEPOSITS_BASE_PATH, miniprogramRoutes } from "./routes";
import { CODES_PATH, pollAudits, syncTemplates } from "./service";
import { miniprogramSettings } from "./settings";
import { authorizerAccessToken, componentAccessToken, credentialsDue } from "./tokens";
import { pushSandboxTicket, SANDBOX_PATH, upstreamOf } from "./upstream";

const base = DEPOSITS_BASE_PATH;
// Scheduled work runs outside a request: nothing it starts needs to outlive it.
const inline = (work: Promise<unknown>) => void work.catch(() => undefined);
const contextFor = (env: Bindings) => ({ db: database(env), env, upstream: upstreamOf(env, inline) });

/** D · Hosted mini-programs: the service as a WeChat third-party platform (open platform component). */
export const miniprograms: GroupModule = {
  name: "miniprograms",
  title: "D hosted mini-programs",
  surfaces: [
    { prefix: DEPOSITS_BASE_PATH, envelope: "tenant" },
    { prefix: CONSOLE_DEPOSITS_PATH, envelope: "tenant" },
    { prefix: PUSH_PATH, envelope: "text" },
    { prefix: SANDBOX_PATH, envelope: "text" },
  ],
  scopes: ["miniprogram"],
  access: [
    // Reads (D1, D2, D7, D8) need miniprogram:read, though the interface makes every call a POST.
    { prefix: `${base}/minipram/list`, credential: "bearer", resource: "miniprogram", readOnly: true },
    { prefix: `${base}/minipram/tpls`, credential: "bearer", resource: "miniprogram", readOnly: true },
    { prefix: `${base}/minipram/steps`, credential: "bearer", resource: "miniprogram", readOnly: true },
    { prefix: `${base}/wxa/tester/infor`, credential: "bearer", resource: "miniprogram", readOnly: true },
    { prefix: `${base}/wxa/auditstate`, credential: "bearer", resource: "miniprogram", readOnly: true },
    ...READ_OPERATIONS.map((path) => ({ prefix: `${base}${path}`, credential: "bearer", resource: "miniprogram", readOnly: true })),
    { prefix: `${base}/minipram`, credential: "bearer", resource: "miniprogram" },
    { prefix: `${base}/wxa`, credential: "bearer", resource: "miniprogram" },
    // Starting a rollout writes (miniprogram:write); reading its progress is a GET (miniprogram:read).
    { prefix: `${base}/fleet`, credential: "bearer", resource: "miniprogram" },
    // The admin console: a tenant member's session (cookie with CSRF token on writes, limits sized for people), reaching their own configurations (a session has no scopes to narrow it).
    { prefix: CONSOLE_DEPOSITS_PATH, credential: "member" },
    // The code images live under random keys, like the sites' media.
    { prefix: CODES_PATH, credential: "public" },
    // WeChat's pushes carry their own proof (msg_signature over the encrypted message).
    { prefix: PUSH_PATH, credential: "public" },
    // Answers only outside production (upstream.ts loads sandbox.ts there).
    { prefix: SANDBOX_PATH, credential: "public" },
  ],
  // WeChat's pushes are small; their receivers read the body before its signature can be checked.
  bodyLimits: { [`${PUSH_PATH}/component/events`]: PUSH_BODY_BYTES, [`${PUSH_PATH}/miniprogram/events/*`]: PUSH_BODY_BYTES },
  mount: "/",
  router: (): OpenAPIHono<AppEnv> => {
    const router = createRouter();
    router.route(DEPOSITS_BASE_PATH, miniprogramRoutes());
    router.route(CONSOLE_DEPOSITS_PATH, miniprogramRoutes("console"));
    router.route("/", miniprogramPublicRoutes());
    return router;
  },
  tasks: [
    {
      // Tokens are refreshed before they lapse (a quarter of an hour ahead), one worker at a time.
      name: "wechat-credentials",
      cron: "*/5 * * * *",
      run: async (env) => {
        const ctx = contextFor(env);
        if (ctx.upstream.sandbox) await pushSandboxTicket(env, inline);
        const due = await credentialsDue(ctx.db);
        if (due.component) await componentAccessToken(ctx, true);
        for (const mp of due.authorizers) await authorizerAccessToken(ctx, mp, true);
        return { component: due.component, authorizers: due.authorizers.length };
      },
    },
    { name: "wechat-audits", cron: "*/5 * * * *", run: (env) => pollAudits(contextFor(env)) },
    { name: "wechat-templates", cron: "15 2 * * *", run: (env) => syncTemplates(contextFor(env)) },
    // Fleet rollouts: the steps due go to the queue, submissions paced by the platform's audit quota.
    { name: "wechat-fleet", cron: "*/5 * * * *", run: (env) => advanceRollouts(contextFor(env), env.MINIPROGRAM_FLEET) },
  ],
  consumers: [{ queue: FLEET_QUEUE, consume: (batch, env, log) => consumeFleet(contextFor(env), batch, log) }],
  settings: miniprogramSettings,
};
