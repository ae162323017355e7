import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { errorBody, errorPage, type EnvelopeKind, type FieldError } from "./envelope";
import type { AppEnv } from "./env";
import { describeFailure, isStorageFailure } from "./failures";

/** The one error type that routes and services throw; `onError` shapes it into the group's envelope. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    message: string,
    readonly fields?: FieldError[],
    /** A 503 is answered with Retry-After unless a retry cannot help (a setting is missing). */
    readonly retryHelps = true,
  ) {
    super(status, { message });
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
/**
 * A refusal of one field of a request's body: its name leads the message, and a form shows the
 * message beside the field as a sentence ("must be …" after the field's name in words).
 */
export const fieldRefused = (field: string, message: string) =>
  new ApiError(400, `${field}: ${message}`, [{ field: `body.${field}`, message: besideTheField(field, message) }]);

/** A service's finding about a field ("the ad must end after it starts") as a sentence read beside it. */
function besideTheField(field: string, message: string): string {
  if (/^(must|is|are|may|cannot|has|needs)\b/.test(message)) return `${inWords(field)} ${message}`;
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
}
/** A 503 for a provider or setting the operator has not configured: no Retry-After, since waiting changes nothing. */
export const notConfigured = (message: string) => new ApiError(503, message, undefined, false);
export const notFound = (message = "Not found") => new ApiError(404, message);

function fieldErrors(error: ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => ({
    // A query's own fault (a parameter it does not take) is named by that parameter.
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || (issue.code === "unrecognized_keys" ? issue.keys.join(", ") : "request"),
    message: issue.message,
  }));
}

type Issue = ZodError["issues"][number];

/** zod's own texts ("Invalid input: expected string, received undefined"); a schema's own message is its author's words. */
const ZOD_OWN_TEXT = /^(Invalid|Too (small|big)|Unrecognized key)/;
const KIND_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  array: "a list",
  set: "a list",
  object: "an object",
  date: "a date",
};
const UNITS: Record<string, string> = { string: "characters", array: "items", set: "items", file: "bytes" };

/** `fromPath` → "From path": a body field named as a form labels it. */
const inWords = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** What zod found wrong, as the end of a sentence about the field ("is required", "must be at most 80 characters"). */
function predicateOf(issue: Issue, asTyped: boolean): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.message.endsWith("received undefined") ? "is required" : `must be ${KIND_WORDS[issue.expected] ?? issue.expected}`;
    case "too_small":
    case "too_big": {
      const small = issue.code === "too_small";
      const bound = Number(small ? issue.minimum : issue.maximum);
      const unit = UNITS[issue.origin];
      if (small && unit === "characters" && bound === 1) return "must not be empty";
      const side = small ? (issue.inclusive ? "at least" : "more than") : issue.inclusive ? "at most" : "less than";
      return unit ? `must have ${side} ${bound} ${unit}` : `must be ${side} ${bound}`;
    }
    case "invalid_value":
      return `must be ${issue.values.length === 1 ? String(issue.values[0]) : `one of ${issue.values.map(String).join(", ")}`}`;
    case "unrecognized_keys":
      return `does not take the ${asTyped ? "parameter" : "field"}${issue.keys.length === 1 ? "" : "s"} ${issue.keys.join(", ")}`;
    default:
      return "is not valid";
  }
}

/**
 * An issue as a sentence a person reads beside the field: the schema's own message when it has one
 * (made to start with the field's name if it does not), else zod's finding said in words. A query
 * or path parameter keeps its name as the address spells it (`siteId is required`).
 */
function sentenceOf(issue: Issue, asTyped: boolean): string {
  const key = issue.path.filter((part) => typeof part === "string").at(-1);
  const label = key === undefined ? (asTyped ? "The request" : "The body") : asTyped ? key : inWords(key);
  if (ZOD_OWN_TEXT.test(issue.message)) return `${label} ${predicateOf(issue, asTyped)}`;
  // "mediaId: an image ad needs its image": the field is in `fields`, the sentence is what follows it.
  const message = issue.message.replace(/^[A-Za-z.]+: (?=.)/, (named) => (named.startsWith(`${key}:`) ? "" : named));
  if (/^[A-Z]/.test(message)) return message;
  if (message !== issue.message) return `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
  // "slug must be…": the message names its field; a person reads the field's name in words.
  // A message with a subject of its own ("xx is not a language code we know") is a sentence already.
  const subject = /^([^\s:]+) (?:must|is|are|may|cannot)\b/.exec(message)?.[1];
  if (subject !== undefined && subject === key) return `${asTyped ? subject : inWords(subject)}${message.slice(subject.length)}`;
  if (subject) return message;
  // "must not be empty": what is said of the field, after its name; any other text ("each language only once") is the sentence.
  if (/^(must|is|are|may|cannot|has|needs)\b/.test(message)) return `${label} ${message}`;
  return asTyped ? message : `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
}

/** The envelope of the request's surface, set by the app from the groups' declarations. */
export const envelopeOf = (c: Context<AppEnv>): EnvelopeKind => c.get("envelope") ?? "data";

/**
 * A zod failure as the group expects it: 422 with every field for group A; for groups C and D
 * (the console's forms) a 400 whose message and fields are sentences in words; else a 400 naming the first field.
 */
export function validationError(c: Context<AppEnv>, error: ZodError, prefix?: string): ApiError {
  const fields = fieldErrors(error, prefix);
  // zod's own texts said as the schemas' messages are, what is true of the field its `loc` names ("is required").
  if (envelopeOf(c) === "account")
    return new ApiError(
      422,
      "Validation failed",
      fields.map((field, i) => (ZOD_OWN_TEXT.test(field.message) ? { ...field, message: predicateOf(error.issues[i]!, false) } : field)),
    );
  if (envelopeOf(c) === "tenant") {
    const asTyped = prefix === undefined;
    // A field's first finding alone (1e308 is past the safe integers and past the bound): one thing to correct, said once.
    const said = fields
      .map((field, i) => ({ field: field.field, message: sentenceOf(error.issues[i]!, asTyped) }))
      .filter((field, i, all) => all.findIndex((other) => other.field === field.field) === i);
    return new ApiError(400, said[0]!.message, said);
  }
  const sayIssue = (index: number) => {
    const field = fields[index]!;
    const issue = error.issues[index]!;
    // A parameter the request does not take, named in words as the tenant envelope names it; zod's own texts said as predicates.
    if (prefix === undefined && issue.path.length === 0) return sentenceOf(issue, true);
    const said = ZOD_OWN_TEXT.test(field.message) ? predicateOf(issue, prefix === undefined) : field.message;
    // "size must be at most 100", not "size: size must…": a message that names its field is not prefixed with it again.
    const leaf = field.field.split(".").at(-1)!;
    return said.startsWith(`${leaf} `) ? `${field.field}${said.slice(leaf.length)}` : `${field.field}: ${said}`;
  };
  // A misspelt field is both missing and not taken: the spelling sent is named beside the field that is missing.
  const unknown = error.issues.findIndex((issue, index) => index > 0 && issue.code === "unrecognized_keys");
  return new ApiError(400, unknown > 0 ? `${sayIssue(0)}; ${sayIssue(unknown)}` : sayIssue(0));
}

export function respondWithError(c: Context<AppEnv>, status: ContentfulStatusCode, message: string, fields?: FieldError[]) {
  const kind = envelopeOf(c);
  if (kind === "html") return c.html(errorPage(status, message), status);
  if (kind === "text") return c.text(message, status);
  return c.json(errorBody(kind, status, message, fields), status);
}

/** Seconds a caller waits before retrying after a storage failure: these pass in seconds. */
export const RETRY_AFTER_SECONDS = 5;
export const UNAVAILABLE_MESSAGE = "The service is temporarily unavailable; retry in a few seconds";

/** Hono's validator's own texts, said as the rest of the service says them (biz-content.ts). */
const HONO_TEXTS: Record<string, string> = {
  "Malformed JSON in request body": "Request body is not valid JSON",
  "Malformed FormData request.": "Request body is not a valid form",
};

export const handleError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) {
    if (err.status === 503 && err.retryHelps) c.header("Retry-After", String(RETRY_AFTER_SECONDS));
    return respondWithError(c, err.status, err.message, err.fields);
  }
  if (err instanceof HTTPException && err.status < 500) {
    return respondWithError(c, err.status, HONO_TEXTS[err.message] ?? (err.message || "Bad request"));
  }
  // The stack stays in the log, tied to the request id the caller sees; the body says nothing of it.
  const transient = isStorageFailure(err);
  c.get("log").error({ path: c.req.path, ...describeFailure(err), ...(transient ? { unavailable: true } : {}) });
  if (!transient) return respondWithError(c, 500, "Internal server error");
  c.header("Retry-After", String(RETRY_AFTER_SECONDS));
  return respondWithError(c, 503, UNAVAILABLE_MESSAGE);
};

export const handleNotFound: NotFoundHandler<AppEnv> = (c) => respondWithError(c, 404, "Not found");

/** A path the service has, asked for with a method it does not take: a 405 naming, in `Allow` too, the ones it does. */
export function methodNotAllowed(c: Context<AppEnv>, allowed: string[]) {
  c.header("Allow", allowed.join(", "));
  const methods = allowed.length === 1 ? `${allowed[0]} only` : `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`;
  return respondWithError(c, 405, `${c.req.method} is not a method of ${c.req.path}: it takes ${methods}`);
}
