import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { parseBizContent } from "./biz-content";
import type { AppEnv } from "./env";
import { bizContentBody, DATA_SECURITY, type DataErrorStatus, type Router } from "./openapi";
import { AI_ENVELOPE, DATA_ENVELOPE, defineRoutes } from "./route";

export interface StyleFRoute<P extends z.ZodType, D extends z.ZodType> {
  path: string;
  summary: string;
  description?: string;
  params: P;
  /** The bizContent of the reference's request example and curl sample: checked against the parameters by the compiler. */
  example: z.input<P>;
  data: D;
  /** Also answer GET without parameters (O1, O9). */
  get?: boolean;
  handle: (c: Context<AppEnv>, params: z.output<P>) => Promise<z.input<D>>;
}

export interface StyleFGroup {
  tag: string;
  /** Group I adds `timestamp` to the `{ code, msg, data }` envelope. */
  envelope: "data" | "ai";
  errors: DataErrorStatus[];
}

/** A style F GET answers everything: a filter sent in its query would be ignored, so it is refused, pointing to POST. */
const NO_PARAMETERS = z.strictObject(
  {},
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `GET takes no parameters (${issue.keys.join(", ")}): send them in bizContent with POST` : undefined,
  },
);

/** Style F routes of one group: bizContent parsed and validated, the answer in the group's envelope. */
export function styleFRoutes(router: Router, group: StyleFGroup) {
  const route = defineRoutes(router, group.envelope === "ai" ? AI_ENVELOPE : DATA_ENVELOPE, {
    tags: [group.tag],
    security: DATA_SECURITY,
    // bizContent comes as JSON or a form field: a body of another type is a 415.
    errors: [...group.errors, 415],
  });

  return function styleF<P extends z.ZodType, D extends z.ZodType>(spec: StyleFRoute<P, D>) {
    const described = { path: spec.path, data: spec.data, answer: "Success", ...(spec.description ? { description: spec.description } : {}) };
    route({
      ...described,
      method: "post",
      summary: spec.summary,
      request: { body: bizContentBody(spec.params, spec.example) },
      handle: async (c) => spec.handle(c, await parseBizContent(c, spec.params)),
    });
    if (spec.get)
      route({
        ...described,
        method: "get",
        summary: `${spec.summary} (GET)`,
        request: { query: NO_PARAMETERS },
        handle: async (c) => spec.handle(c, spec.params.parse({})),
      });
  };
}
