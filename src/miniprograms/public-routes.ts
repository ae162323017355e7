import { Hono, type Context } from "hono";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { receiveComponentPush, receiveMiniprogramPush } from "./push";
import { sandboxApp, SANDBOX_PATH } from "./sandbox";
import { CODES_PATH, completeAuthorization } from "./service";
import { upstreamOf } from "./upstream";

export const PUSH_PATH = "/wechat";

/**
 * What WeChat and browsers reach without an API key: the push receivers (their signature is their
 * credential), the owner's redirect after authorizing, the D7 code images (under random keys) and,
 * outside production, the sandbox.
 */
export function miniprogramPublicRoutes() {
  const router = new Hono<AppEnv>();
  const waitUntilOf = (c: Context<AppEnv>) => (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  // WeChat wants the plain text "success"; anything else makes it retry.
  router.post(`${PUSH_PATH}/component/events`, async (c) => {
    await receiveComponentPush(c.var.db, c.env, waitUntilOf(c), c.req.query(), await c.req.text());
    return c.text("success");
  });
  router.post(`${PUSH_PATH}/miniprogram/events/:appid`, async (c) => {
    await receiveMiniprogramPush(c.var.db, c.env, waitUntilOf(c), c.req.param("appid"), c.req.query(), await c.req.text());
    return c.text("success");
  });
  router.get(`${PUSH_PATH}/authorized/:id/:state`, async (c) => {
    const code = c.req.query("auth_code");
    const id = Number(c.req.param("id"));
    if (!code || !Number.isSafeInteger(id)) throw new ApiError(400, "auth_code is required");
    const ctx = { db: c.var.db, env: c.env, upstream: upstreamOf(c.env, waitUntilOf(c)) };
    const mp = await completeAuthorization(ctx, { miniprogramId: id, state: c.req.param("state") }, code, "redirect");
    return c.text(`Mini-program configuration ${mp.id} is authorized (app id ${mp.authorizerAppId}). You can close this page.`);
  });
  router.get(`${CODES_PATH}/:miniprogram/:file`, async (c) => {
    const file = c.req.param("file");
    if (!/^[a-z]+-[A-Za-z0-9]{20}\.png$/.test(file) || !/^\d+$/.test(c.req.param("miniprogram"))) throw new ApiError(404, "No such code");
    const object = await c.env.MEDIA.get(`miniprogram-codes/${c.req.param("miniprogram")}/${file}`);
    if (!object) throw new ApiError(404, "No such code");
    return new Response(object.body, { headers: { "Content-Type": "image/png", ETag: object.httpEtag, "Cache-Control": "public, max-age=31536000, immutable" } });
  });
  router.all(`${SANDBOX_PATH}/*`, (c) => sandboxApp().fetch(c.req.raw, c.env, c.executionCtx));
  return router;
}
