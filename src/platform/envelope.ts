import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * Each group of the interface answers in its own envelope. A group declares it for its paths
 * (`Surface`), so routed answers, validation failures, 404s of unknown routes and unexpected
 * errors all agree. `html` and `text` are for pages and plain-text answers.
 */
export type EnvelopeKind = "data" | "ai" | "account" | "tenant" | "html" | "text";

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

/** `{ success, data }` of groups C and D. */
export function tenantEnvelope<T>(data: T) {
  return { success: true as const, data };
}

const TENANT_ERROR_CODES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  412: "precondition_failed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "invalid_request",
  429: "rate_limited",
  502: "upstream_failed",
  503: "unavailable",
};

export interface FieldError {
  field: string;
  message: string;
  /** A value that would pass, where the service can find one (a free slug). */
  suggestion?: string;
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
      // `fields` lets a form show each failing field's message beside it (the admin console does).
      return { success: false, error: { code: TENANT_ERROR_CODES[status] ?? "internal_error", message, ...(fields ? { fields } : {}) } };
    case "html":
    case "text":
      return message;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** The error page of an HTML surface: the status and the message, and a link home unless there is none. */
export function errorPage(status: number, message: string, { home = true, title = message } = {}): string {
  const text = escapeHtml(message);
  // Readable on a phone and in either colour scheme, with no stylesheet to fetch: the page may be a theme's that failed.
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><title>${status} ${escapeHtml(title)}</title>` +
    `<style>body{font:1.125rem/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}h1{font-size:2rem;margin:0 0 .5rem}</style>` +
    `</head><body><h1>${status}</h1><p>${text}</p>${home ? `<p><a href="/">Home</a></p>` : ""}</body></html>`
  );
}
