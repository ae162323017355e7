import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import type { AccessRule, Authenticator } from "./auth/access-policy";
import type { EnvelopeKind } from "./envelope";
import type { AppEnv, Bindings } from "./env";
import type { JobDefinition } from "./jobs/runner";
import type { Logger } from "./logging";
import type { WebhookSender } from "./webhooks";

/** A path prefix a group answers under, and the envelope every answer there uses, errors included. */
export interface Surface {
  prefix: string;
  envelope: EnvelopeKind;
}

export interface QueueConsumer {
  /** The queue's name as in wrangler.toml; a name with a suffix (`-staging`) is the same queue. */
  queue: string;
  consume(batch: MessageBatch, env: Bindings, log: Logger): Promise<void>;
}

/** How the API document describes a credential (an OpenAPI security scheme). */
export type SecurityScheme =
  { type: "apiKey"; in: "header" | "cookie"; name: string; description: string } | { type: "http"; scheme: "bearer"; description: string };

/** Upkeep on a cron trigger that is not a data refresh (those are `jobs`, with run records). */
export interface ScheduledTask {
  name: string;
  cron: string;
  run(env: Bindings, log: Logger): Promise<unknown>;
}

/**
 * What a group of the interface brings to the service. `src/groups.ts` lists them; the app, the
 * access policy, the error handler, the queue dispatch and the scheduler read that list and never
 * name a group.
 */
export interface GroupModule {
  name: string;
  /** How the API document names the group. */
  title: string;
  surfaces: Surface[];
  /** Who may call what, by path prefix; a route that no rule covers is closed. */
  access: AccessRule[];
  /** The scope resources its rules name (`AccessRule.resource`): keys are granted `<resource>:read`, `:write` or `:*`. */
  scopes?: string[];
  /** Requests per key and hour, by the limit group its access rules name (`hourly`); `RATE_LIMITS` may override them. */
  hourlyLimits?: Record<string, number>;
  /** Credential kinds the group brings (its own tokens), by the name its rules use. */
  credentials?: Record<string, Authenticator>;
  /** The API document's security schemes for those credentials, by the name its routes' `security` uses. */
  securitySchemes?: Record<string, SecurityScheme>;
  /** Larger request bodies than the service's 1 MiB, by path (`*` stands for one segment). */
  bodyLimits?: Record<string, number>;
  /** Where the router is mounted, and the router itself (paths relative to the mount). */
  mount: string;
  router: () => OpenAPIHono<AppEnv>;
  consumers?: QueueConsumer[];
  /** Its Standard Webhooks, delivered through the shared `gateway-webhooks` queue (src/platform/webhooks.ts). */
  webhookSenders?: WebhookSender[];
  jobs?: JobDefinition[];
  tasks?: ScheduledTask[];
  /**
   * Web sites chosen by the Host header (group C's tenant sites): a request whose host names a site
   * goes to that site's pages instead of the API. `siteFor` is asked for every request: keep it cheap.
   * `unclaimed` answers a host that no site has and that is not the service's, when it should not
   * reach the API (a browser's page on a domain not yet added, say); undefined lets the API answer.
   */
  hostSites?: {
    siteFor(c: Context<AppEnv>): Promise<number | null>;
    serve(siteId: number, parent: Context<AppEnv>): Promise<Response>;
    unclaimed?(c: Context<AppEnv>): Response | undefined;
  };
  /** The settings the group reads, checked once per isolate before any request is answered. */
  settings?: z.ZodObject;
}

/** The surface of a path: the longest prefix that contains it, else the fallback. */
export function surfaceResolver(surfaces: Surface[], fallback: EnvelopeKind): (path: string) => EnvelopeKind {
  // Each prefix with its closing slash written once: this runs for every request.
  const byLength = [...surfaces]
    .sort((a, b) => b.prefix.length - a.prefix.length)
    .map((s) => ({ ...s, folder: s.prefix.endsWith("/") ? s.prefix : `${s.prefix}/` }));
  return (path) => byLength.find((s) => path === s.prefix || path.startsWith(s.folder))?.envelope ?? fallback;
}
