import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { createRouter, tenantErrorResponses } from "../platform/openapi";
import { receiveComponentPush, receiveMiniprogramPush } from "./push";
import { CODES_PATH, completeAuthorization } from "./service";
import { SANDBOX_PATH, sandboxRoutes, upstreamOf } from "./upstream";

export const PUSH_PATH = "/wechat";

const tags = ["D · Mini-programs"];
const text = (description: string) => ({ description, content: { "text/plain": { schema: z.string() } } });
/** WeChat's push query: its two signatures and what they cover besides the body. */
const pushQuery = z.object({
  timestamp: z.string().max(20).optional(),
  nonce: z.string().max(64).optional(),
  msg_signature: z.string().max(64).optional(),
  encrypt_type: z.string().max(16).optional(),
  signature: z.string().max(64).optional(),
});
const pushBody = {
  required: true,
  content: { "text/xml": { schema: { type: "string" as const, description: "<xml><AppId>…</AppId><Encrypt>…</Encrypt></xml>" } } },
};
const pushResponses = {
  200: text('The plain text "success" (anything else makes WeChat push again)'),
  400: text("No Encrypt element, or no timestamp, nonce, signature and msg_signature; or a parameter too long"),
  401: text(
    "The timestamp is more than 300 s away, a signature does not match, the push was received before, or the message does not open with the platform's key and app id",
  ),
  413: text("A body over 64 KiB"),
};

/**
 * What WeChat and browsers reach without an API key: the push receivers (their signature is their
 * credential), the owner's redirect after authorizing, the D7 code images (under random keys) and,
 * outside production, the sandbox (not in the API document: it is WeChat's API, not ours).
 * Not the route core (platform/route.ts): none answers in an envelope, but WeChat's plain text, a
 * text page or a PNG; each definition is still written beside its handler.
 */
export function miniprogramPublicRoutes() {
  const router = createRouter();
  const waitUntilOf = (c: Context<AppEnv>) => (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  const contextOf = (c: Context<AppEnv>) => ({ db: c.get("db"), env: c.env, upstream: upstreamOf(c.env, waitUntilOf(c)) });

  // WeChat wants the plain text "success"; anything else makes it retry.
  router.openapi(
    createRoute({
      tags,
      method: "post",
      path: `${PUSH_PATH}/component/events`,
      summary: "WeChat's pushes to the platform: verify tickets, authorizations (signed, encrypted)",
      request: { query: pushQuery, body: pushBody },
      responses: pushResponses,
    }),
    async (c) => {
      await receiveComponentPush(contextOf(c), c.req.valid("query"), await c.req.text());
      return c.text("success", 200);
    },
  );

  router.openapi(
    createRoute({
      tags,
      method: "post",
      path: `${PUSH_PATH}/miniprogram/events/{appid}`,
      summary: "WeChat's pushes for one mini-program: audit results (signed, encrypted)",
      request: { params: z.object({ appid: z.string().max(40).openapi({ example: "wx3f2a9c1b7d5e8a04" }) }), query: pushQuery, body: pushBody },
      responses: pushResponses,
    }),
    async (c) => {
      await receiveMiniprogramPush(contextOf(c), c.req.valid("param").appid, c.req.valid("query"), await c.req.text());
      return c.text("success", 200);
    },
  );

  router.openapi(
    createRoute({
      tags,
      method: "get",
      path: `${PUSH_PATH}/authorized/{id}/{state}`,
      summary: "Where WeChat sends the mini-program's owner after authorizing the platform (the link of /deposits/minipram/authorize)",
      request: {
        params: z.object({
          id: z.string().regex(/^\d{1,12}$/, { error: "id must be a configuration id" }),
          state: z
            .string()
            .regex(/^[0-9a-f]{64}$/, { error: "state must be the link's" })
            .openapi({ example: "3f9c2a7e1b5d8c4f6a0e9b2d7c1f5a8e3b6d9c2f7a1e4b8d5c0f3a6e9b2d7c1f" }),
        }),
        query: z.object({
          auth_code: z.string().min(1, { error: "auth_code is required" }).max(512).openapi({ example: "queryauthcode@@@Hb7Qx2Lp9Vb4" }),
          expires_in: z.string().max(10).optional(),
        }),
      },
      responses: {
        200: text("Authorized: a page the owner can close"),
        400: text("A missing or malformed auth_code, id or state"),
        404: text("No configuration waits for this authorization, or the state is not that of the link the platform made"),
        502: text("WeChat refused the code or did not answer"),
      },
    }),
    async (c) => {
      const { id, state } = c.req.valid("param");
      const mp = await completeAuthorization(contextOf(c), { miniprogramId: Number(id), state }, c.req.valid("query").auth_code, "redirect");
      return c.text(`Mini-program configuration ${mp.id} is authorized (app id ${mp.authorizerAppId}). You can close this page.`, 200);
    },
  );

  router.openapi(
    createRoute({
      tags,
      method: "get",
      path: `${CODES_PATH}/{miniprogram}/{file}`,
      summary: "A D7 code image (public; the name is random, a new commit makes new ones)",
      request: {
        params: z.object({
          miniprogram: z
            .string()
            .regex(/^\d{1,12}$/, { error: "not a configuration id" })
            .openapi({ example: "1" }),
          file: z
            .string()
            .regex(/^[a-z]+-[A-Za-z0-9]{20}\.png$/, { error: "not a code image's name" })
            .openapi({ example: "test-Qm7Kx2Lp9Vb4Nc8Rt1Yz.png" }),
        }),
      },
      responses: {
        200: {
          description: "The PNG, `Cache-Control: immutable`",
          content: { "image/png": { schema: { type: "string" as const, format: "binary" } } },
        },
        ...tenantErrorResponses(400, 404),
      },
    }),
    async (c) => {
      const { miniprogram, file } = c.req.valid("param");
      const object = await c.env.MEDIA.get(`miniprogram-codes/${miniprogram}/${file}`);
      if (!object) throw new ApiError(404, "No such code");
      return new Response(object.body, {
        headers: { "Content-Type": "image/png", ETag: object.httpEtag, "Cache-Control": "public, max-age=31536000, immutable" },
      });
    },
  );

  router.all(`${SANDBOX_PATH}/*`, (c) => sandboxRoutes(c.req.raw, c.env, c.executionCtx));
  return router;
}
