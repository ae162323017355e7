import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { errorBody, errorPage, type EnvelopeKind, type FieldError } from "./envelope";
import type { AppEnv } from "./env";

/** The one error type that routes and services throw; `onError` shapes it into the group's envelope. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    message: string,
    readonly fields?: FieldError[],
  ) {
    super(status, { message });
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message = "Not found") => new ApiError(404, message);

function fieldErrors(error: ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "body",
    message: issue.message,
  }));
}

/** The envelope of the request's surface, set by the app from the groups' declarations. */
export const envelopeOf = (c: Context<AppEnv>): EnvelopeKind => c.get("envelope") ?? "data";

/** A zod failure as the group expects it: 422 with every field for group A, else a 400 naming the first. */
export function validationError(c: Context<AppEnv>, error: ZodError, prefix?: string): ApiError {
  const fields = fieldErrors(error, prefix);
  if (envelopeOf(c) === "account") return new ApiError(422, "Validation failed", fields);
  const first = fields[0]!;
  return new ApiError(400, `${first.field}: ${first.message}`, envelopeOf(c) === "tenant" ? fields : undefined);
}

export function respondWithError(c: Context<AppEnv>, status: ContentfulStatusCode, message: string, fields?: FieldError[]) {
  const kind = envelopeOf(c);
  if (kind === "html") return c.html(errorPage(status, message), status);
  if (kind === "text") return c.text(message, status);
  return c.json(errorBody(kind, status, message, fields), status);
}

export const handleError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) return respondWithError(c, err.status, err.message, err.fields);
  if (err instanceof HTTPException && err.status < 500) {
    return respondWithError(c, err.status, err.message || "Bad request");
  }
  // The stack stays in the log, tied to the request id the caller sees; the body says nothing of it.
  c.get("log").error({
    path: c.req.path,
    error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return respondWithError(c, 500, "Internal server error");
};

export const handleNotFound: NotFoundHandler<AppEnv> = (c) => respondWithError(c, 404, "Not found");
