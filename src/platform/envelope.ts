import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * Each group of the interface answers in its own envelope. The path decides which, so routed
 * answers, validation failures, 404s of unknown routes and unexpected errors all agree.
 */
export type EnvelopeKind = "data" | "ai" | "account" | "tenant";

export function envelopeKindFor(path: string): EnvelopeKind {
  if (path.startsWith("/std/ai/")) return "ai";
  if (path.startsWith("/std/") || path.startsWith("/api/v1/")) return "data";
  if (path.startsWith("/api/mcp/") || path.startsWith("/api/skills/") || path.startsWith("/deposits/")) return "tenant";
  if (path.startsWith("/auth/") || path.startsWith("/api/")) return "account";
  return "data";
}

const SUCCESS_MSG = "success";

/** `{ code, msg, data }` of groups T, O, P and style F. */
export function dataEnvelope<T>(data: T) {
  return { code: 200 as const, msg: SUCCESS_MSG, data };
}

/** Group I: the same envelope with the server time in epoch seconds. */
export function aiEnvelope<T>(data: T) {
  return { ...dataEnvelope(data), timestamp: epochSeconds() };
}

const epochSeconds = () => Math.floor(Date.now() / 1000);

const TENANT_ERROR_CODES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  412: "precondition_failed",
  413: "payload_too_large",
  422: "invalid_request",
  429: "rate_limited",
  503: "unavailable",
};

export interface FieldError {
  field: string;
  message: string;
}

export function errorBody(kind: EnvelopeKind, status: ContentfulStatusCode, message: string, fields?: FieldError[]) {
  switch (kind) {
    case "data":
      return { code: status, msg: message, data: null };
    case "ai":
      return { code: status, msg: message, data: null, timestamp: epochSeconds() };
    case "account":
      // FastAPI's shape: 422 lists the failing fields under `detail`.
      return fields ? { detail: fields.map((f) => ({ loc: f.field.split("."), msg: f.message })) } : { detail: message };
    case "tenant":
      return { success: false, error: { code: TENANT_ERROR_CODES[status] ?? "internal_error", message } };
  }
}
