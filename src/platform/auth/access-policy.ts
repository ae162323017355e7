import type { Context, MiddlewareHandler } from "hono";
import { envelopeKindFor } from "../envelope";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { consumeRateLimit, rateLimits, windowsFor } from "../rate-limit";
import { authenticateAppToken } from "./app-token";
import { authenticateBearer } from "./bearer";
import { authenticateDataClient } from "./data-client";
import type { Principal } from "./principal";
import { scopeAllows, type ScopeResource } from "./scopes";

type Credential =
  /** `X-API-Key` with `X-API-Secret` or a signature: groups T, I, O. */
  | "data-key"
  /** `Authorization: Bearer` with an API key or the service's JWT. */
  | "bearer"
  /** `Authorization: Bearer` with the service's JWT only: a web session. */
  | "session"
  /** `Authorization: appToken …`: group P. */
  | "app-token"
  | "public";

export interface AccessRule {
  prefix: string;
  credential: Credential;
  /** The scope resource; the action is `read` for GET (and for every data query), else `write`. */
  resource?: ScopeResource;
  readOnly?: boolean;
  /** The per-hour limit group of the interface's Limits table, where one applies. */
  hourly?: string;
  /** Only for keys and sessions of admin users. */
  adminOnly?: boolean;
}

/** Every route of the service, by path prefix; the first match decides. The README shows this table. */
export const ACCESS_RULES: AccessRule[] = [
  { prefix: "/std/api/bigdata/taxrate", credential: "data-key", resource: "taxrate", readOnly: true },
  { prefix: "/std/ai/translate/document", credential: "data-key", resource: "ai", readOnly: true, hourly: "ai-translate" },
  { prefix: "/std/ai/qrcode", credential: "data-key", resource: "ai", readOnly: true, hourly: "ai-qrcode" },
  { prefix: "/std/ai", credential: "data-key", resource: "ai", readOnly: true, hourly: "ai" },
  { prefix: "/std/open", credential: "data-key", resource: "reference", readOnly: true, hourly: "reference" },
  { prefix: "/std/scheduler", credential: "data-key", adminOnly: true },
  { prefix: "/api/v1", credential: "app-token", resource: "pickup" },
  { prefix: "/api/tokens", credential: "bearer", resource: "tokens" },
  { prefix: "/api/apps", credential: "bearer", resource: "tokens" },
  { prefix: "/api/users", credential: "bearer", resource: "users" },
  { prefix: "/auth/logout", credential: "session" },
  { prefix: "/auth", credential: "public" },
  { prefix: "/health", credential: "public" },
  { prefix: "/openapi.json", credential: "public" },
  { prefix: "/docs", credential: "public" },
];

const UNLISTED: AccessRule = { prefix: "", credential: "public" };

export function accessRuleFor(path: string): AccessRule {
  return ACCESS_RULES.find((rule) => path === rule.prefix || path.startsWith(`${rule.prefix}/`)) ?? UNLISTED;
}

function authenticate(c: Context<AppEnv>, credential: Exclude<Credential, "public">): Promise<Principal> {
  switch (credential) {
    case "data-key":
      return authenticateDataClient(c);
    case "bearer":
      return authenticateBearer(c, { keys: true });
    case "session":
      return authenticateBearer(c, { keys: false });
    case "app-token":
      return authenticateAppToken(c);
  }
}

/**
 * The one place that decides who may call what: the rule's credential, its scope, then the rate
 * limits of the caller's plan and of the endpoint group.
 */
export const enforceAccessPolicy: MiddlewareHandler<AppEnv> = async (c, next) => {
  const rule = accessRuleFor(c.req.path);
  if (rule.credential === "public") return next();

  const principal = await authenticate(c, rule.credential);
  const accountStyle = envelopeKindFor(c.req.path) === "account";
  if (rule.adminOnly && principal.role !== "admin") {
    throw new ApiError(403, accountStyle ? "Insufficient permissions" : "Insufficient permission: requires an admin key");
  }
  if (rule.resource) {
    const action = rule.readOnly || c.req.method === "GET" ? "read" : "write";
    const scope = `${rule.resource}:${action}` as const;
    if (!scopeAllows(principal.scopes, scope)) {
      throw new ApiError(403, accountStyle ? "Insufficient permissions" : `Insufficient permission: requires scope ${scope}`);
    }
  }
  c.set("principal", principal);

  const windows = windowsFor(rateLimits(c.env), principal.plan, rule.hourly);
  const subject = principal.keyId !== null ? `key:${principal.keyId}` : principal.appId !== null ? `app:${principal.appId}` : `user:${principal.userId}`;
  const decision = await consumeRateLimit(c.env.KV, (work) => c.executionCtx.waitUntil(work), subject, windows);
  for (const [name, value] of Object.entries(decision.headers)) c.header(name, value);
  if (!decision.allowed) throw new ApiError(429, `Rate limit exceeded for the ${principal.plan} plan; retry after ${decision.headers["Retry-After"]} s`);
  await next();
};
