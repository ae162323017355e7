import { createRoute, type RouteConfig, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { parseBizContent } from "./biz-content";
import { aiEnvelope, dataEnvelope } from "./envelope";
import type { AppEnv } from "./env";
import { aiEnvelopeSchema, bizContentBody, DATA_SECURITY, dataEnvelopeSchema, dataErrorResponses, type Router } from "./openapi";

export interface StyleFRoute<P extends z.ZodType, D extends z.ZodType> {
  path: string;
  summary: string;
  description?: string;
  params: P;
  data: D;
  /** Also answer GET without parameters (O1, O9). */
  get?: boolean;
  handle: (c: Context<AppEnv>, params: z.output<P>) => Promise<z.input<D>>;
}

export interface StyleFGroup {
  tag: string;
  /** Group I adds `timestamp` to the `{ code, msg, data }` envelope. */
  envelope: "data" | "ai";
  errors: Parameters<typeof dataErrorResponses>;
}

/** Style F routes of one group: bizContent parsed and validated, the answer in the group's envelope. */
export function styleFRoutes(router: Router, group: StyleFGroup) {
  const wrap = group.envelope === "ai" ? aiEnvelope : dataEnvelope;
  const schemaOf = group.envelope === "ai" ? aiEnvelopeSchema : dataEnvelopeSchema;
  const common = { tags: [group.tag], security: DATA_SECURITY };

  return function styleF<P extends z.ZodType, D extends z.ZodType>(spec: StyleFRoute<P, D>) {
    const responses = {
      200: { description: "Success", content: { "application/json": { schema: schemaOf(spec.data) } } },
      ...dataErrorResponses(...group.errors),
    };
    const described = { ...common, summary: spec.summary, ...(spec.description ? { description: spec.description } : {}) };
    // Each `handle` is checked against its schema at the call site; the generic D would defeat
    // zod-openapi's response typing here, so the routes are typed as plain route configs.
    const post: RouteConfig = createRoute({
      ...described,
      method: "post",
      path: spec.path,
      request: { body: bizContentBody(spec.params) },
      responses,
    });
    router.openapi(post, async (c) => c.json(wrap(await spec.handle(c, await parseBizContent(c, spec.params))), 200));
    if (spec.get) {
      const get: RouteConfig = createRoute({ ...described, method: "get", path: spec.path, summary: `${spec.summary} (GET)`, responses });
      router.openapi(get, async (c) => c.json(wrap(await spec.handle(c, spec.params.parse({}))), 200));
    }
  };
}
