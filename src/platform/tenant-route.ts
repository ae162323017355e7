import { createRoute, type RouteConfig, type RouteHandler, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { tenantEnvelope } from "./envelope";
import type { AppEnv } from "./env";
import { tenantErrorResponses, tenantResponse, type Router, type TenantErrorStatus } from "./openapi";

type RouteRequest = NonNullable<RouteConfig["request"]>;

/** The context of a route's handler: its path, query and body parameters as the route validated them. */
export type RouteContext<P extends string, Q extends RouteRequest> = Parameters<
  RouteHandler<{ method: RouteConfig["method"]; path: P; request: Q; responses: Record<never, never> }, AppEnv>
>[0];

/** An answer already made elsewhere (a cached one), typed by the data it was made from. */
export class Prebuilt<T> {
  /** Type only, never set: it makes a Prebuilt of other data a type error. */
  declare readonly data?: T;
  constructor(readonly response: Response) {}
}

/** What a route needs of its caller (a member's role): written into the summary, checked before the handler, its result handed over. */
export interface Guard<G> {
  note: string;
  check: (c: Context<AppEnv>) => Promise<G>;
}

export interface TenantRoute<P extends string, Q extends RouteRequest, D extends z.ZodType, G> {
  method: RouteConfig["method"];
  path: P;
  summary: string;
  /** Text after the guard's note in the summary. */
  summaryEnd?: string;
  request?: Q;
  /** The answer's `data`, as the document shows it and the handler must return it. */
  data: D;
  /** The success answer's description in the document. */
  answer: string;
  status?: 200 | 201;
  /** Headers the success answer documents. */
  headers?: Record<string, { schema: { type: "string" } }>;
  /** Error statuses beyond the group's. */
  errors?: TenantErrorStatus[];
  /** Answers beyond the success and the errors (a 304). */
  more?: Record<number, { description: string }>;
  guard?: Guard<G>;
  handle: (c: RouteContext<P, Q>, guarded: G) => Promise<z.input<D> | Prebuilt<z.input<D>>>;
}

export interface TenantGroup {
  tags: string[];
  security: Record<string, string[]>[];
  /** Error statuses every route of the group documents. */
  errors: TenantErrorStatus[];
}

/**
 * Routes that answer `{ success: true, data }` (groups C and D), each defined with its handler:
 * the handler's return is checked against the documented `data`, and a guard runs before it.
 */
export function tenantRoutes(router: Router, group: TenantGroup) {
  return function route<P extends string, D extends z.ZodType, G = undefined, Q extends RouteRequest = Record<never, never>>(
    spec: TenantRoute<P, Q, D, G>,
  ) {
    const status = spec.status ?? 200;
    const success = tenantResponse(spec.data, spec.answer, status)[status];
    const summary = spec.guard ? `${spec.summary} (${spec.guard.note})${spec.summaryEnd ?? ""}` : `${spec.summary}${spec.summaryEnd ?? ""}`;
    // The handler is checked against `data` at the call site; the generic D would defeat zod-openapi's own response typing here.
    const config: RouteConfig = createRoute({
      tags: group.tags,
      security: group.security,
      method: spec.method,
      path: spec.path,
      summary,
      ...(spec.request ? { request: spec.request } : {}),
      responses: {
        [status]: spec.headers ? { ...success, headers: spec.headers } : success,
        ...spec.more,
        ...tenantErrorResponses(...group.errors, ...(spec.errors ?? [])),
      },
    });
    router.openapi(config, async (c) => {
      const guarded = spec.guard ? await spec.guard.check(c) : undefined;
      // The router validated this route's request before the handler runs, so its context is the route's; G is undefined exactly when there is no guard.
      const answer = await spec.handle(c as unknown as RouteContext<P, Q>, guarded as G);
      return answer instanceof Prebuilt ? answer.response : c.json(tenantEnvelope(answer), status);
    });
  };
}
