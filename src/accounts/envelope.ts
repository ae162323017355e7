import { z } from "@hono/zod-openapi";
import type { Envelope } from "../platform/route";

/** FastAPI's error body: a message under `detail`. */
const detailSchema = z.object({ detail: z.string() }).openapi("AccountError");

/** 422: every field that failed, FastAPI's shape. */
const validationErrorSchema = z
  .object({ detail: z.array(z.object({ loc: z.array(z.string()), msg: z.string() })) })
  .openapi("AccountValidationError");

/** Every status an account route may document; a route says more where it knows more (`errorTexts`). */
const ACCOUNT_ERROR_TEXT = {
  400: "The body is not JSON",
  401: "Missing or invalid credentials",
  403: "Insufficient permissions",
  404: "Not found",
  409: "Conflict",
  415: "The body is not application/json",
  422: "Validation failed: `detail` lists the fields",
  429: "Rate limit of the caller's plan exceeded; see Retry-After",
  502: "The provider is unreachable",
} as const satisfies Record<number, string>;

export type AccountErrorStatus = keyof typeof ACCOUNT_ERROR_TEXT;

/** Group A answers bare bodies, as the interface it reproduces does, and errors under `detail` (platform/envelope.ts's "account"). */
export const ACCOUNT_ENVELOPE: Envelope<AccountErrorStatus> = {
  wrap: (data) => data,
  schema: (data) => data,
  errors: (...statuses) =>
    Object.fromEntries(
      statuses.map((status) => [
        status,
        {
          description: ACCOUNT_ERROR_TEXT[status],
          content: { "application/json": { schema: status === 422 ? validationErrorSchema : detailSchema } },
        },
      ]),
    ),
};
