import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { consumeRateLimit, type RateLimits, rateLimits, windowsFor } from "../rate-limit";
import { authenticateBearer } from "./bearer";
import { authenticateDataClient } from "./data-client";
import { countKeyRequest } from "./key-usage";
import type { Principal } from "./principal";
import { scopeAllows } from "./scopes";

/** Checks a request's credential and says who is calling, or throws the group's 401. */
export type Authenticator = (c: Context<AppEnv>) => Promise<Principal>;

/** The credentials every group may name; a group adds its own kinds (GroupModule.credentials). */
const PLATFORM_CREDENTIALS: Record<string, Authenticator> = {
  /** `X-API-Key` with `X-API-Secret` or a signature: groups T, I, O. */
  "data-key": authenticateDataClient,
  /** `Authorization: Bearer` with an API key or the service's JWT. */
  bearer: (c) => authenticateBearer(c, { keys: true }),
  /** `Authorization: Bearer` with the service's JWT only: a web session. */
  session: (c) => authenticateBearer(c, { keys: false }),
};

export interface AccessRule {
  prefix: string;
  /** `public`, a platform credential, or a kind a group declares. */
  credential: string;
  /** The scope resource; the action is `read` for GET (and for every data query), else `write`. */
  resource?: string;
  readOnly?: boolean;
  /** The per-hour limit group of the interface's Limits table, where one applies: a name of some group's `hourlyLimits`. */
  hourly?: string;
  /** Only for keys and sessions of admin users. */
  adminOnly?: boolean;
  /** The rule covers its path only, not the paths below it (an MCP endpoint above its group's REST paths). */
  exact?: boolean;
  /** Whether the request counts against the limits (default: always): an MCP endpoint's tool calls count as the routes they call instead. */
  counts?: (c: Context<AppEnv>) => Promise<boolean>;
  /** The group that declared the rule: what a key's usage is counted under. */
  group?: string;
}

/** The rule of a path: the longest prefix that contains it. A path no rule covers has none: closed. */
export function accessRuleFinder(rules: AccessRule[]): (path: string) => AccessRule | undefined {
  // At equal length an exact rule goes first: it covers its own path, the other one what lies below.
  const byLength = [...rules].sort((a, b) => b.prefix.length - a.prefix.length || Number(b.exact === true) - Number(a.exact === true));
  return (path) => byLength.find((rule) => path === rule.prefix || (!rule.exact && path.startsWith(`${rule.prefix}/`)));
}

/**
 * The one place that decides who may call what: the rule's credential, its scope, then the rate
 * limits of the caller's plan and of the endpoint group. Built from every group's rules; a path
 * that none covers answers 401, so a route added without a rule is never public.
 */
export function accessPolicy(
  rules: AccessRule[],
  declared: { credentials?: Record<string, Authenticator>; hourlyLimits?: RateLimits["perHour"]; scopes?: readonly string[] } = {},
): MiddlewareHandler<AppEnv> {
  const { credentials: groupCredentials = {}, hourlyLimits = {}, scopes = [] } = declared;
  const ruleFor = accessRuleFinder(rules);
  const credentials = { ...PLATFORM_CREDENTIALS, ...groupCredentials };
  const unknown = rules.filter((rule) => rule.credential !== "public" && !credentials[rule.credential]);
  if (unknown.length > 0) throw new Error(`access rules name unknown credentials: ${unknown.map((r) => `${r.prefix} → ${r.credential}`).join(", ")}`);
  const unlimited = rules.filter((rule) => rule.hourly !== undefined && hourlyLimits[rule.hourly] === undefined);
  if (unlimited.length > 0)
    throw new Error(`access rules name undeclared hourly limits: ${unlimited.map((r) => `${r.prefix} → ${r.hourly}`).join(", ")}`);
  const unscoped = rules.filter((rule) => rule.resource !== undefined && !scopes.includes(rule.resource));
  if (unscoped.length > 0)
    throw new Error(`access rules name undeclared scope resources: ${unscoped.map((r) => `${r.prefix} → ${r.resource}`).join(", ")}`);
  const limitsOf = (env: AppEnv["Bindings"]) => rateLimits(env, hourlyLimits);
  return async (c, next) => {
    const rule = ruleFor(c.req.path);
    // A path no route answers goes on to the 404 of its surface; only routes need a rule.
    if (!rule && !c.req.matchedRoutes.some((route) => route.method !== "ALL")) return next();
    if (!rule) {
      c.get("log").warn({ path: c.req.path, error: "no access rule covers this path; refused" });
      throw new ApiError(401, "Authentication required");
    }
    if (rule.credential === "public") return next();
    let status = 500;
    try {
      await enforceRule(c, rule, credentials[rule.credential]!, limitsOf(c.env));
      await next();
      status = c.res.status;
    } catch (error) {
      if (error instanceof ApiError) status = error.status;
      throw error;
    } finally {
      // Once a key is known (a refusal for its rate limit included): its usage, counted off the request path.
      const keyId = c.get("principal")?.keyId;
      if (keyId) countKeyRequest(c.get("db"), (work) => c.executionCtx.waitUntil(work), keyId, rule.group ?? "other", status);
    }
    const recorded = c.get("recordedBeforeAnswer");
    if (recorded && !(await recorded)) throw new ApiError(503, "The request's nonce could not be recorded; retry with a new nonce");
  };
}

async function enforceRule(c: Context<AppEnv>, rule: AccessRule, authenticate: Authenticator, limits: RateLimits) {
  const principal = await authenticate(c);
  const accountStyle = c.get("envelope") === "account";
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
  if (rule.counts && !(await rule.counts(c))) return;

  const person = principal.personLimit;
  const windows = person ? [{ name: "minute" as const, seconds: 60, limit: person.perMinute }] : windowsFor(limits, principal.plan, rule.hourly);
  // Per user (or the subject the credential names) and plan, not per key: more keys, apps or sessions buy no more requests.
  const subject = person ? `person:${person.subject}` : `${principal.limitSubject ?? `user:${principal.userId}`}:${principal.plan}`;
  const waitUntil = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  const decision = await consumeRateLimit(c.env.KV, waitUntil, subject, windows);
  for (const [name, value] of Object.entries(decision.headers)) c.header(name, value);
  if (!decision.allowed) {
    const retry = decision.headers["Retry-After"];
    throw new ApiError(
      429,
      person
        ? `Too many requests from this session in a minute; the console retries by itself after ${retry} s`
        : `Rate limit exceeded for the ${principal.plan} plan; retry after ${retry} s`,
    );
  }
  // An hourly budget the operator pays for counts per paying account too: more callers of one account buy no more.
  const hourly = windows.filter((window) => window.name === "hour");
  const paying = principal.payingAccount;
  if (paying && rule.hourly && hourly.length) {
    const account = await consumeRateLimit(c.env.KV, waitUntil, `account:${paying.id}`, hourly);
    if (!account.allowed) {
      for (const [name, value] of Object.entries(account.headers)) c.header(name, value);
      throw new ApiError(429, `${paying.spent}; retry after ${account.headers["Retry-After"]} s`);
    }
  }
}
