import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

/** The service's own pages (docs, console) load scripts and styles from the service alone. */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Style attributes stay allowed for the console's screens; the docs page has none.
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
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.header("X-Content-Type-Options", "nosniff");
  if (c.res.headers.get("Content-Type")?.startsWith("text/html")) {
    c.header("Content-Security-Policy", PAGE_POLICY);
    c.header("X-Frame-Options", "DENY");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
  }
  if (c.get("envelope") === "account" && !c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  if (c.env.ENVIRONMENT === "production") c.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
};
