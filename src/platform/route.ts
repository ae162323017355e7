import { createRoute, type RouteConfig, type RouteHandler, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { aiEnvelope, dataEnvelope, tenantEnvelope } from "./envelope";
import type { AppEnv } from "./env";
import { ApiError, validationError } from "./errors";
import { idempotencyHeaders, idempotently } from "./idempotency";
import {
  aiEnvelopeSchema,
  dataEnvelopeSchema,
  dataErrorResponses,
  tenantErrorResponses,
  tenantResponseSchema,
  type DataErrorStatus,
  type Router,
  type TenantErrorStatus,
} from "./openapi";

type RouteRequest = NonNullable<RouteConfig["request"]>;

/** The context of a route's handler: its path, query and body parameters as the route validated them. */
export type RouteContext<P extends string, Q extends RouteRequest> = Parameters<
  RouteHandler<{ method: RouteConfig["method"]; path: P; request: Q; responses: Record<never, never> }, AppEnv>
>[0];

/** An answer already made elsewhere (a cached one, a file), typed by the data it was made from. */
export class Prebuilt<T> {
  /** Type only, never set: it makes a Prebuilt of other data a type error. */
  declare readonly data?: T;
  constructor(readonly response: Response) {}
}

/** What a route needs of its caller (a scope, a member's role): written into the summary, checked before the handler, its result handed over. */
export interface Guard<G> {
  note: string;
  check: (c: Context<AppEnv>) => Promise<G>;
}

/** How a group answers: the success body around the data, and the error answers it documents. */
export interface Envelope<S extends number> {
  wrap: (data: unknown) => unknown;
  schema: (data: z.ZodType) => z.ZodType;
  errors: (...statuses: S[]) => RouteConfig["responses"];
}

export interface RouteSpec<P extends string, Q extends RouteRequest, D extends z.ZodType, G, S extends number> {
  method: RouteConfig["method"];
  path: P;
  summary: string;
  /** Text after the guard's note in the summary. */
  summaryEnd?: string;
  description?: string;
  /** Instead of the group's (a public route of a group that needs a key). */
  security?: Record<string, string[]>[];
  request?: Q;
  /** The answer's data, as the document shows it and the handler must return it. */
  data: D;
  /** The success answer's description in the document. */
  answer: string;
  /** 302: a redirect, documented without a body; its data is `z.never()` and the handler answers `new Prebuilt(c.redirect(url))`. */
  status?: 200 | 201 | 302;
  /** A file instead of JSON: its media type, documented as binary; its data is `z.never()` and the handler answers a Prebuilt. */
  file?: string;
  /** Headers the success answer documents. */
  headers?: Record<string, { schema: { type: "string" } }>;
  /** Error statuses beyond the group's. */
  errors?: readonly S[];
  /** What an error status means on this route, where the envelope's text says less. */
  errorTexts?: Partial<Record<S, string>>;
  /** Answers beyond the success and the errors (a 304). */
  more?: Record<number, { description: string }>;
  guard?: Guard<G>;
  /** One 400 text for any invalid request, instead of the group's naming the field (an interface that fixes its texts). */
  invalid?: string;
  handle: (c: RouteContext<P, Q>, guarded: G) => Promise<z.input<D> | Prebuilt<z.input<D>>>;
}

/** What each request's guard answered, from the middleware before validation to the handler after it. */
const guardResults = new WeakMap<Request, unknown>();

/** The query of a route that takes none. */
const NO_QUERY = z.strictObject({});

export interface RouteGroup<S extends number> {
  tags: string[];
  /** None: the group's routes are public, unless one names its own. */
  security?: Record<string, string[]>[];
  /** Error statuses every route of the group documents. */
  errors: S[];
  /** What an error status means in this group, where the envelope's generic text says less; a route's own errorTexts win. */
  errorTexts?: Partial<Record<S, string>>;
  /** Its POST routes are writes that take an `Idempotency-Key` (src/platform/idempotency.ts). */
  idempotentWrites?: boolean;
}

/**
 * The one way to write a route: its definition and its handler together. The handler's return is
 * checked against the documented data, a guard runs before it, and the answer goes out in the group's envelope.
 */
export function defineRoutes<S extends number>(router: Router, envelope: Envelope<S>, group: RouteGroup<NoInfer<S>>) {
  return function route<P extends string, D extends z.ZodType, G = undefined, Q extends RouteRequest = Record<never, never>>(
    spec: RouteSpec<P, Q, D, G, S>,
  ) {
    const status = spec.status ?? 200;
    const success =
      status === 302
        ? { description: spec.answer }
        : spec.file
          ? { description: spec.answer, content: { [spec.file]: { schema: { type: "string" as const, format: "binary" } } } }
          : { description: spec.answer, content: { "application/json": { schema: envelope.schema(spec.data) } } };
    const security = spec.security ?? group.security;
    const errors = envelope.errors(...group.errors, ...(spec.errors ?? []));
    for (const [error, description] of Object.entries<string | undefined>({ ...group.errorTexts, ...spec.errorTexts })) {
      if (errors[error] && description) errors[error] = { ...errors[error], description };
    }
    const idempotent = group.idempotentWrites === true && spec.method === "post";
    // A route that declares no query takes none: a parameter sent anyway is a 400 naming it, never ignored.
    const declared = spec.request?.query ? spec.request : { ...spec.request, query: NO_QUERY };
    const request = idempotent ? { ...declared, headers: idempotencyHeaders } : declared;
    const summary = spec.guard ? `${spec.summary} (${spec.guard.note})${spec.summaryEnd ?? ""}` : `${spec.summary}${spec.summaryEnd ?? ""}`;
    // The guard runs before the request is validated: a caller without the role learns that, not what the body lacks.
    const { guard, invalid } = spec;
    const guardFirst: MiddlewareHandler<AppEnv> | undefined = guard
      ? async (c, next) => {
          try {
            guardResults.set(c.req.raw, await guard.check(c));
          } catch (error) {
            // A malformed path parameter the guard reads: the validation names it, then the handler asks again.
            if (!(error instanceof z.ZodError)) throw error;
          }
          await next();
        }
      : undefined;
    // The handler is checked against `data` at the call site; the generic D would defeat zod-openapi's own response typing here.
    const config: RouteConfig = createRoute({
      ...(guardFirst ? { middleware: [guardFirst] } : {}),
      tags: group.tags,
      ...(security ? { security } : {}),
      method: spec.method,
      path: spec.path,
      summary,
      ...(spec.description ? { description: spec.description } : {}),
      ...(request ? { request } : {}),
      responses: {
        [status]: spec.headers ? { ...success, headers: spec.headers } : success,
        ...spec.more,
        ...errors,
      },
    });
    router.openapi(
      config,
      async (c) => {
        const guarded = !guard ? undefined : guardResults.has(c.req.raw) ? guardResults.get(c.req.raw) : await guard.check(c);
        // The router validated this route's request before the handler runs, so its context is the route's; G is undefined exactly when there is no guard.
        const run = async () => {
          const answer = await spec.handle(c, guarded as G);
          return answer instanceof Prebuilt ? answer.response : c.json(envelope.wrap(answer), status);
        };
        return idempotent ? idempotently(c, run) : run();
      },
      // One text for every failure of the body or path (an interface that fixes its texts); a query
      // parameter the route does not take is named as everywhere. Without it the router's default names the field.
      invalid === undefined
        ? undefined
        : (result, c) => {
            if (result.success) return undefined;
            if (result.target === "query") throw validationError(c, result.error);
            throw new ApiError(400, invalid);
          },
    );
  };
}

/** `{ success: true, data }` of groups C and D. */
export const TENANT_ENVELOPE: Envelope<TenantErrorStatus> = { wrap: tenantEnvelope, schema: tenantResponseSchema, errors: tenantErrorResponses };

export type TenantGroup = RouteGroup<TenantErrorStatus>;

/** Routes of groups C and D. */
export const tenantRoutes = (router: Router, group: TenantGroup) => defineRoutes(router, TENANT_ENVELOPE, group);

/** `{ code, msg, data }` of groups T, O and P. */
export const DATA_ENVELOPE: Envelope<DataErrorStatus> = { wrap: dataEnvelope, schema: dataEnvelopeSchema, errors: dataErrorResponses };

/** Group I: `{ code, msg, data, timestamp }`. */
export const AI_ENVELOPE: Envelope<DataErrorStatus> = { wrap: aiEnvelope, schema: aiEnvelopeSchema, errors: dataErrorResponses };
