import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { SchemaObject } from "openapi3-ts/oas31";
import type { AppEnv } from "./env";
import { validationError } from "./errors";

/** A group's router: every zod failure becomes the group's own error envelope through `onError`. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const bodyTarget = result.target === "json" || result.target === "form";
        throw validationError(c, result.error, bodyTarget ? "body" : undefined);
      }
    },
  });
}

export type Router = ReturnType<typeof createRouter>;

/** T, I and O take the key with its secret, or the key with a signature. */
export const DATA_SECURITY: Record<string, string[]>[] = [
  { DataKey: [], DataSecret: [] },
  { DataKey: [], SignatureTimestamp: [], SignatureNonce: [], Signature: [] },
];

export function dataEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int().openapi({ example: 200 }), msg: z.string().openapi({ example: "success" }), data });
}

export function aiEnvelopeSchema<T extends z.ZodType>(data: T) {
  return dataEnvelopeSchema(data).extend({ timestamp: z.number().int().openapi({ example: 1795000000, description: "Server time, epoch seconds" }) });
}

const dataErrorSchema = z
  .object({
    code: z.number().int().openapi({ example: 400 }),
    msg: z.string().openapi({ example: "page: must be 0 or greater" }),
    data: z.null(),
  })
  .openapi("DataError");

/** Every status a `{ code, msg, data }` route may document; a status missing here does not compile. */
const DATA_ERROR_TEXT = {
  400: "Invalid request parameters; `msg` names the field and the rule",
  401: "Authentication failed",
  403: "The key lacks the scope this endpoint needs",
  404: "No such record",
  409: "The request conflicts with the record's state or with an earlier request; `msg` says which",
  412: "A precondition of the account is missing; `msg` says which",
  413: "Payload too large",
  415: "The body is not of a media type the endpoint reads: application/json, or for bizContent a form too",
  429: "Rate limited",
  502: "The translation provider failed or did not answer in time",
  503: "A provider this endpoint needs is not configured or not reachable",
} as const satisfies Record<number, string>;

/** A path parameter holding a record id: digits only, no leading zero, within a safe integer. */
export function idParam(name: string) {
  return z
    .string()
    .regex(/^[1-9]\d{0,14}$/, { error: `${name} must be a positive integer` })
    .transform(Number)
    .openapi({ param: { name, in: "path" }, example: "1", type: "integer" });
}

export type DataErrorStatus = keyof typeof DATA_ERROR_TEXT;

/** The error responses of a `{ code, msg, data }` route, for the OpenAPI document. */
export function dataErrorResponses(...statuses: DataErrorStatus[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: DATA_ERROR_TEXT[status], content: { "application/json": { schema: dataErrorSchema } } }]),
  );
}

/** Style F documents bizContent as a JSON object and as a form field holding JSON; the route parses it itself. */
export function bizContentBody(params: z.ZodType, example: unknown) {
  let bizContent: SchemaObject | undefined;
  return {
    required: true,
    content: {
      "application/json": {
        schema: {
          type: "object" as const,
          required: ["bizContent"],
          properties: {
            // Converted when /openapi.json is built rather than when the route is, which is on every isolate's first request.
            // As the caller writes it (io: input): a parameter with a default is optional, its default shown.
            get bizContent(): SchemaObject {
              return (bizContent ??= { ...(z.toJSONSchema(params, { unrepresentable: "any", io: "input" }) as SchemaObject), example });
            },
          },
        },
      },
      "application/x-www-form-urlencoded": {
        schema: {
          type: "object" as const,
          required: ["bizContent"],
          properties: { bizContent: { type: "string" as const, description: "The parameters as a JSON string" } },
        },
      },
    },
  };
}

const tenantErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z
        .array(z.object({ field: z.string(), message: z.string(), suggestion: z.string().optional() }))
        .optional()
        .openapi({
          description:
            "On a validation failure or a taken value: every failing field (a dotted path), its rule, and a value that would pass where one is known",
        }),
    }),
  })
  .openapi("TenantError");

// 403, 404, 409 and 502 still say group C's words, which D documents until it gives its own (C gives them itself: content/error-texts.ts).
const TENANT_ERROR_TEXT = {
  400: "Bad parameters: `message` names the field and the rule",
  401: "Missing or invalid credentials",
  403: "The credential lacks what this endpoint needs",
  404: "Not found, or not the caller's",
  409: "Conflict: the request clashes with the record's state; `message` says how",
  413: "Payload too large",
  415: "The body is not application/json",
  429: "Rate limited",
  502: "An upstream service failed or did not answer in time",
  503: "A provider this endpoint needs is not configured or not reachable",
} as const satisfies Record<number, string>;

export type TenantErrorStatus = keyof typeof TENANT_ERROR_TEXT;

/** The error responses of a `{ success, data }` route (groups C and D). */
export const tenantErrorResponses = (...statuses: TenantErrorStatus[]) => describedTenantErrors(statuses);

/** The same, in a group's own words where it gives them. */
export function describedTenantErrors(statuses: readonly TenantErrorStatus[], texts: Partial<Record<TenantErrorStatus, string>> = {}) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: texts[status] ?? TENANT_ERROR_TEXT[status], content: { "application/json": { schema: tenantErrorSchema } } },
    ]),
  );
}

/** The success body of a `{ success, data }` route. */
export function tenantResponseSchema(data: z.ZodType) {
  return z.object({ success: z.literal(true), data });
}
