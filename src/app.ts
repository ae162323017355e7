import { OpenAPIHono, z } from "@hono/zod-openapi";
import { accountRoutes } from "./accounts/routes";
import { sessionRoutes } from "./accounts/session-routes";
import { Scalar } from "@scalar/hono-api-reference";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./platform/env";
import { enforceAccessPolicy } from "./platform/auth/access-policy";
import { ApiError, handleError, handleNotFound } from "./platform/errors";
import { requestContext } from "./platform/logging";
import { INTELLIGENCE_BASE_PATH, intelligenceRoutes } from "./intelligence/routes";
import { PICKUP_BASE_PATH, pickupRoutes } from "./pickup/routes";
import { REFERENCE_BASE_PATH, referenceRoutes } from "./reference/routes";
import { SCHEDULER_BASE_PATH, schedulerRoutes } from "./scheduler/routes";
import { TAX_BASE_PATH, taxRoutes } from "./tax/routes";

/** 1 MiB: no JSON or form request of the interface comes near it, except a document to translate. */
const MAX_BODY_BYTES = 1024 * 1024;
/** A 10 MB document in base64 inside bizContent. */
const MAX_DOCUMENT_BODY_BYTES = 15 * 1024 * 1024;

export function createApp() {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", requestContext);
  const limitBody = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, `Request body is larger than ${maxSize} bytes`);
      },
    });
  const documentLimit = limitBody(MAX_DOCUMENT_BODY_BYTES);
  const defaultLimit = limitBody(MAX_BODY_BYTES);
  app.use("*", (c, next) => (c.req.path === `${INTELLIGENCE_BASE_PATH}/translate/document` ? documentLimit : defaultLimit)(c, next));
  app.use("*", enforceAccessPolicy);
  app.onError(handleError);
  app.notFound(handleNotFound);

  app.openapi(
    {
      method: "get",
      path: "/health",
      tags: ["Service"],
      summary: "Liveness and build version (no authentication)",
      responses: {
        200: {
          description: "The service is up",
          content: { "application/json": { schema: z.object({ status: z.literal("ok"), version: z.string() }) } },
        },
      },
    },
    (c) => c.json({ status: "ok" as const, version: c.env.BUILD_VERSION }, 200),
  );

  app.route("/", sessionRoutes());
  app.route("/", accountRoutes());
  app.route(TAX_BASE_PATH, taxRoutes());
  app.route(INTELLIGENCE_BASE_PATH, intelligenceRoutes());
  app.route(REFERENCE_BASE_PATH, referenceRoutes());
  app.route(SCHEDULER_BASE_PATH, schedulerRoutes());
  app.route(PICKUP_BASE_PATH, pickupRoutes());

  registerSecuritySchemes(app);
  app.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Edge gateway",
      version: c.env.BUILD_VERSION,
      description: "Tax rates, accounts, intelligence utilities, reference data, content, mini-programs and pickups.",
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
  app.get("/docs", Scalar({ url: "/openapi.json", pageTitle: "Edge gateway API" }));
  return app;
}

function registerSecuritySchemes(app: OpenAPIHono<AppEnv>) {
  const header = (name: string, description: string) => ({ type: "apiKey" as const, in: "header" as const, name, description });
  const schemes = {
    ApiKey: header("X-API-Key", "The API key token, svc_sk_…"),
    ApiSecret: header("X-API-Secret", "The key's secret, svc_ss_… (or sign the request instead)"),
    Timestamp: header("X-Timestamp", "Signed requests: epoch milliseconds, within 300 s of server time"),
    Nonce: header("X-Nonce", "Signed requests: a fresh random string, accepted once"),
    Signature: header("X-Signature", "Signed requests: lowercase hex HMAC-SHA256 of the signing string"),
  };
  for (const [name, scheme] of Object.entries(schemes)) app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  app.openAPIRegistry.registerComponent("securitySchemes", "AppToken", {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "appToken <app token>, for the pickup API",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "Bearer", {
    type: "http",
    scheme: "bearer",
    description: "An API key (svc_sk_…) or the service's JWT from the login",
  });
}
