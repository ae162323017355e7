import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

/** One JSON object per line, so Workers Logs can filter on any field. */
export function logEvent(level: "info" | "warn" | "error", fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's X-Request-Id when it is sane, else makes one; echoes it and logs the request. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header("X-Request-Id");
  const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  c.set("requestId", requestId);
  const started = Date.now();
  await next();
  c.header("X-Request-Id", requestId);
  logEvent("info", {
    requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    ms: Date.now() - started,
    keyId: c.get("principal")?.keyId,
  });
};
