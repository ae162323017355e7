import type { MiddlewareHandler } from "hono";
import { setAnswerHeaders } from "./answer-headers";
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
  const headers: [string, string][] = [["X-Content-Type-Options", "nosniff"]];
  if (c.res.headers.get("Content-Type")?.startsWith("text/html"))
    headers.push(["Content-Security-Policy", PAGE_POLICY], ["X-Frame-Options", "DENY"], ["Referrer-Policy", "strict-origin-when-cross-origin"]);
  if (c.get("envelope") === "account" && !c.res.headers.has("Cache-Control")) headers.push(["Cache-Control", "no-store"]);
  if (c.env.ENVIRONMENT === "production") headers.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
  setAnswerHeaders(c, headers);
};
