import type { ExecutionContext } from "hono";
import { database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { notConfigured } from "../platform/errors";
import { settingsOf } from "../platform/settings";
import { receiveComponentPush, receiveMiniprogramPush, type PushQuery } from "./push";
import { miniprogramSettings } from "./settings";
import { type WeChatTransport, WECHAT_API } from "./wechat/client";

/** The platform's credentials at WeChat's open platform (the component). */
export interface ComponentCredentials {
  appId: string;
  secret: string;
  messageToken: string;
  encodingAesKey: string;
}

export interface Upstream {
  transport: WeChatTransport;
  component: ComponentCredentials;
  sandbox: boolean;
}

type WaitUntil = (work: Promise<unknown>) => void;

/** Where the sandbox answers over HTTP, outside production. */
export const SANDBOX_PATH = "/wechat-sandbox";
/** The sandbox's address for the WeChat client: its requests are handed over in-process, never sent. */
export const SANDBOX_BASE = "https://wechat-sandbox.local";
/** The sandbox's own component credentials (development defaults; the WECHAT_* settings win). */
export const SANDBOX_COMPONENT: ComponentCredentials = {
  appId: "wxsandboxcomponent01",
  secret: "sandbox-component-secret",
  messageToken: "sandboxtoken",
  encodingAesKey: "c2FuZGJveC1lbmNvZGluZy1hZXMta2V5LTMyLWJ5dGU",
};

/** A push as WeChat sends it: the query of its POST, and its body (the event encrypted, as XML). */
export interface SignedPush {
  query: Required<PushQuery>;
  body: string;
}

/**
 * What the sandbox (sandbox.ts) is given: the Worker's bindings, its credentials, and the way into
 * the service, which is WeChat's: a signed push to the receivers of push.ts.
 */
export interface SandboxHost {
  env: Bindings;
  waitUntil: WaitUntil;
  component: ComponentCredentials;
  /** The component's push, or with `appId` that mini-program's. */
  deliver(push: SignedPush, appId?: string): Promise<void>;
}

function sandboxComponent(env: Bindings): ComponentCredentials {
  const settings = settingsOf(env, miniprogramSettings);
  return {
    appId: settings.WECHAT_COMPONENT_APPID ?? SANDBOX_COMPONENT.appId,
    secret: settings.WECHAT_COMPONENT_SECRET ?? SANDBOX_COMPONENT.secret,
    messageToken: settings.WECHAT_MESSAGE_TOKEN ?? SANDBOX_COMPONENT.messageToken,
    encodingAesKey: settings.WECHAT_ENCODING_AES_KEY ?? SANDBOX_COMPONENT.encodingAesKey,
  };
}

// Compiled on first use, so a production isolate, where the sandbox never answers, never loads it.
const loadSandbox = () => import("./sandbox");

function sandboxHost(env: Bindings, waitUntil: WaitUntil): SandboxHost {
  return {
    env,
    waitUntil,
    component: sandboxComponent(env),
    deliver: (push, appId) => {
      const ctx = { db: database(env), env, upstream: upstreamOf(env, waitUntil) };
      return appId === undefined ? receiveComponentPush(ctx, push.query, push.body) : receiveMiniprogramPush(ctx, appId, push.query, push.body);
    },
  };
}

/**
 * Where group D's WeChat calls go (DECISIONS.md): `WECHAT_API_BASE` when set; unset, the
 * built-in sandbox outside production (its own credentials unless set) and WeChat's API in
 * production, which then needs all four component settings.
 */
export function upstreamOf(env: Bindings, waitUntil: WaitUntil): Upstream {
  const settings = settingsOf(env, miniprogramSettings);
  if (!settings.WECHAT_API_BASE && env.ENVIRONMENT !== "production") {
    return {
      sandbox: true,
      component: sandboxComponent(env),
      transport: { base: SANDBOX_BASE, fetch: async (request) => (await loadSandbox()).sandboxFetch(request, sandboxHost(env, waitUntil)) },
    };
  }
  const appId = settings.WECHAT_COMPONENT_APPID;
  const secret = settings.WECHAT_COMPONENT_SECRET;
  const messageToken = settings.WECHAT_MESSAGE_TOKEN;
  const encodingAesKey = settings.WECHAT_ENCODING_AES_KEY;
  if (!appId || !secret || !messageToken || !encodingAesKey)
    throw notConfigured(
      "Mini-program management is not configured: set WECHAT_COMPONENT_APPID, WECHAT_COMPONENT_SECRET, WECHAT_MESSAGE_TOKEN and WECHAT_ENCODING_AES_KEY",
    );
  return {
    sandbox: false,
    component: { appId, secret, messageToken, encodingAesKey },
    transport: { base: settings.WECHAT_API_BASE ?? WECHAT_API, fetch: (request) => fetch(request) },
  };
}

/** The sandbox's HTTP routes (/wechat-sandbox/…): outside production only, where they load on first use. */
export async function sandboxRoutes(request: Request, env: Bindings, ctx: ExecutionContext): Promise<Response> {
  if (env.ENVIRONMENT === "production") return new Response("Not found", { status: 404 });
  const { sandboxApp } = await loadSandbox();
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(SANDBOX_PATH.length);
  return sandboxApp(sandboxHost(env, (work) => ctx.waitUntil(work))).fetch(new Request(url, request), env, ctx);
}

/** The sandbox's verify ticket, pushed as WeChat pushes one every 10 minutes (for the scheduled task). */
export async function pushSandboxTicket(env: Bindings, waitUntil: WaitUntil) {
  const { pushVerifyTicket } = await loadSandbox();
  await pushVerifyTicket(sandboxHost(env, waitUntil));
}
