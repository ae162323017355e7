import type { Context, MiddlewareHandler } from "hono";
import { database } from "./database";
import type { AppEnv } from "./env";

type Level = "info" | "warn" | "error";

/** One JSON object per line, so Workers Logs can filter on any field. */
export function logEvent(level: Level, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** A log bound to what it serves (a request id, a queue message, a job run): every line carries it. */
export interface Logger {
  info(fields: Record<string, unknown>): void;
  warn(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

export function logger(bound: Record<string, unknown>): Logger {
  return {
    info: (fields) => logEvent("info", { ...bound, ...fields }),
    warn: (fields) => logEvent("warn", { ...bound, ...fields }),
    error: (fields) => logEvent("error", { ...bound, ...fields }),
  };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The service's own pages (docs, console) load scripts and styles from the service alone. */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Swagger UI sets style attributes from its script.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/**
 * Headers every answer carries: no content sniffing; pages under a strict policy and never in a
 * frame; account answers (keys, tokens, personal data) never stored by a cache; HSTS in production.
 */
function applySecurityHeaders(c: Context<AppEnv>) {
  c.header("X-Content-Type-Options", "nosniff");
  if (c.res.headers.get("Content-Type")?.startsWith("text/html")) {
    c.header("Content-Security-Policy", PAGE_POLICY);
    c.header("X-Frame-Options", "DENY");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
  }
  if (c.get("envelope") === "account" && !c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  if (c.env.ENVIRONMENT === "production") c.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}

/**
 * Takes the caller's X-Request-Id when it is sane, else makes one; puts the request's services
 * (database, bound log) on the context; echoes the id and logs the request.
 */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header("X-Request-Id");
  const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  const log = logger({ requestId });
  c.set("requestId", requestId);
  c.set("log", log);
  c.set("db", database(c.env));
  const started = Date.now();
  await next();
  c.header("X-Request-Id", requestId);
  applySecurityHeaders(c);
  log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started, keyId: c.get("principal")?.keyId });
};
