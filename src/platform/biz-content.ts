import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./env";
import { ApiError, badRequest, validationError } from "./errors";

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function parseBizContentValue(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null || value === "") throw badRequest("bizContent is required");
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest("bizContent is not valid JSON");
    }
  }
  if (!isPlainObject(parsed)) throw badRequest("bizContent must be a JSON object");
  return parsed;
}

/**
 * Style F: the business parameters arrive as a form field `bizContent` holding JSON, or as a JSON
 * body `{ bizContent: {...} }` or `{ bizContent: "<json>" }`. Read once per request and kept.
 */
export async function readBizContent(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const cached = c.get("businessParams");
  if (cached) return cached;
  const contentType = c.req.header("Content-Type") ?? "";
  let field: unknown;
  if (contentType.includes("application/json")) {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw badRequest("Request body is not valid JSON");
    }
    field = isPlainObject(body) ? body.bizContent : undefined;
  } else if (contentType.includes("application/x-www-form-urlencoded") || contentType.includes("multipart/form-data")) {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      // The runtime's form parser throws on a body that does not match its Content-Type.
      throw badRequest(`Request body is not valid ${contentType.includes("multipart") ? "multipart/form-data" : "form data"}`);
    }
    field = form.bizContent;
    if (field !== undefined && typeof field !== "string") throw badRequest("bizContent must be a form field holding JSON, not a file");
    // `curl -d '{"bizContent":…}'` without a Content-Type sends JSON labelled as a form: one field named by the whole body.
    if (field === undefined && Object.keys(form).some((name) => name.trimStart().startsWith("{")))
      throw badRequest(`The body is JSON sent as ${contentType.split(";")[0]}: send it with Content-Type: application/json`);
  } else if ((await c.req.raw.clone().text()) !== "") {
    throw new ApiError(
      415,
      `A body of type ${contentType.split(";")[0] || "(none given)"} is not read: send {"bizContent": {…}} as application/json, or bizContent as a form field`,
    );
  }
  const params = parseBizContentValue(field);
  c.set("businessParams", params);
  return params;
}

/** The business parameters validated by the route's schema; a failure names the bizContent key. */
export async function parseBizContent<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const result = schema.safeParse(await readBizContent(c));
  if (!result.success) throw validationError(c, result.error, "bizContent");
  return result.data;
}
