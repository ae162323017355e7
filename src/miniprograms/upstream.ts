import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { type WeChatTransport, WECHAT_API } from "./wechat/client";
import { sandboxComponent, sandboxFetch, SANDBOX_BASE } from "./sandbox";

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

/**
 * Where group D's WeChat calls go (DECISIONS.md): `WECHAT_API_BASE` when set; unset, the
 * built-in sandbox outside production (its own credentials unless set) and WeChat's API in
 * production, which then needs all four component settings.
 */
export function upstreamOf(env: Bindings, waitUntil: (work: Promise<unknown>) => void): Upstream {
  const sandbox = !env.WECHAT_API_BASE && env.ENVIRONMENT !== "production";
  const given = {
    appId: env.WECHAT_COMPONENT_APPID,
    secret: env.WECHAT_COMPONENT_SECRET,
    messageToken: env.WECHAT_MESSAGE_TOKEN,
    encodingAesKey: env.WECHAT_ENCODING_AES_KEY,
  };
  if (sandbox) {
    return {
      sandbox,
      component: sandboxComponent(env),
      transport: { base: SANDBOX_BASE, fetch: (request) => sandboxFetch(request, env, waitUntil) },
    };
  }
  const missing = Object.entries(given).filter(([, value]) => !value);
  if (missing.length)
    throw new ApiError(
      503,
      "Mini-program management is not configured: set WECHAT_COMPONENT_APPID, WECHAT_COMPONENT_SECRET, WECHAT_MESSAGE_TOKEN and WECHAT_ENCODING_AES_KEY",
    );
  return {
    sandbox,
    component: given as ComponentCredentials,
    transport: { base: env.WECHAT_API_BASE ?? WECHAT_API, fetch: (request) => fetch(request) },
  };
}
