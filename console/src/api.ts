/** The admin API (/admin/api), with the console's session cookie and its CSRF token on writes. */

const BASE = "/admin/api";

/** A failed call: the API's message, and each failing field's message by its dotted path. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    /** A value that would pass, by field, where the service found one (a free slug). */
    readonly suggestions: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface FailureBody {
  success: false;
  error: { code: string; message: string; fields?: { field: string; message: string; suggestion?: string }[] };
}

let csrfToken: string | null = null;
/** D1's bookmark of the last answer: sent back, so that a read after a write sees it from any replica. */
let bookmark: string | null = null;

export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

type Body = unknown;

/** A 429 is waited out and tried again this many times before it reaches the screen. */
const MAX_RETRIES_AFTER_429 = 2;
const MAX_WAIT_SECONDS = 60;
/** The event the console's status line listens to: `detail` is the seconds being waited, 0 when done. */
export const WAITING_EVENT = "console:waiting";
const notifyWaiting = (seconds: number) => window.dispatchEvent(new CustomEvent<number>(WAITING_EVENT, { detail: seconds }));

/** Calls the admin API; a Blob or File is sent as itself (uploads), anything else as JSON. */
export async function api<T>(method: string, path: string, body?: Body, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, headers: { Accept: "application/json", ...headers }, credentials: "same-origin" };
  const sent = init.headers as Record<string, string>;
  if (method !== "GET" && csrfToken) sent["X-CSRF-Token"] = csrfToken;
  if (bookmark) sent["X-D1-Bookmark"] = bookmark;
  if (body instanceof Blob) {
    init.body = body;
    sent["Content-Type"] ??= body.type || "application/octet-stream";
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    sent["Content-Type"] = "application/json";
  }
  let response: Response;
  for (let attempt = 1; ; attempt++) {
    try {
      response = await fetch(`${BASE}${path}`, init);
    } catch {
      throw new ApiFailure(0, "The service did not answer: check the connection and try again");
    }
    if (response.status !== 429 || attempt > MAX_RETRIES_AFTER_429) break;
    // Too many calls in a minute: wait as long as the service says, telling the person why, then try again.
    const seconds = Math.min(Math.max(Number(response.headers.get("Retry-After")) || 1, 1), MAX_WAIT_SECONDS);
    notifyWaiting(seconds);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    notifyWaiting(0);
  }
  bookmark = response.headers.get("X-D1-Bookmark") ?? bookmark;
  const parsed = (await response.json().catch(() => null)) as { success: true; data: T } | FailureBody | null;
  if (!parsed) throw new ApiFailure(response.status, `The service answered ${response.status} without a readable body`);
  if (!parsed.success) {
    // Fields are named as the form names them: a body's "body.slug" is the form's "slug".
    const named = (parsed.error.fields ?? []).map((f) => ({ ...f, field: f.field.replace(/^body\./, "") }));
    const fields = Object.fromEntries(named.map((f) => [f.field, f.message]));
    const suggestions = Object.fromEntries(named.flatMap((f) => (f.suggestion ? [[f.field, f.suggestion]] : [])));
    throw new ApiFailure(response.status, parsed.error.message, fields, suggestions);
  }
  return parsed.data;
}

export const get = <T>(path: string) => api<T>("GET", path);

// The shapes of the admin API's answers: the tables' own rows (a column added is a field here too) and the answers its routes define.
import type {
  Ad,
  Category,
  Content as ContentRow,
  ContentTag,
  Media as MediaRow,
  Redirect,
  SiteView as Site,
  TenantKey as TenantKeyRow,
} from "../../src/content/schema";
import type { TenantMembership } from "../../src/content/admin/answers";
import type { MemberRole } from "../../src/content/roles";
import { isMediaType, keptFileName, MAX_MEDIA_BYTES, MEDIA_TYPES_IN_WORDS, storageSize } from "../../src/content/media/limits";
export type { Ad, Category, ContentTag, Redirect, Site };
export type {
  AdDay,
  AuditAnswer as AuditEntry,
  Invitation,
  LinkTargets,
  Member,
  Page,
  Storage,
  Themes,
  Version,
  VersionText,
} from "../../src/content/admin/answers";
export type Tenant = TenantMembership;
export type Role = MemberRole;
export type Content = ContentRow & { categoryIds?: number[] };
export type ContentStatus = Content["status"];
export type TagType = ContentTag["type"];
export type Media = MediaRow & { url: string };
export type TenantKey = Omit<TenantKeyRow, "tokenHash">;

/** Whether a member's role reaches the one an action needs (the API checks it again). */
export { roleReaches as reaches } from "../../src/content/roles";

/**
 * Uploads a file to a site's media; one over the service's limit, or of a type it does not take, is
 * refused here at once, in words a person can act on, rather than after sending megabytes for a
 * 413; a name past what is kept is cut, its extension kept.
 */
export function uploadMedia<T>(tenantId: number, siteId: number, file: File): Promise<T> {
  if (file.size > MAX_MEDIA_BYTES) {
    const said = `${file.name} is ${storageSize(file.size)}, and a site's media takes files of at most ${storageSize(MAX_MEDIA_BYTES)}: save it smaller (fewer pixels or a lower quality) and upload it again.`;
    return Promise.reject(new ApiFailure(413, said));
  }
  if (!isMediaType(file.type))
    return Promise.reject(new ApiFailure(415, `${file.name} is not one of the files a site's media takes: ${MEDIA_TYPES_IN_WORDS}.`));
  return api<T>("POST", `/tenants/${tenantId}/media?siteId=${siteId}&filename=${encodeURIComponent(keptFileName(file.name))}`, file);
}

// Group D's routes for the console: /admin/api/deposits answers as /deposits does for API keys, for the person's own mini-programs.
export type {
  AllCategories,
  AuditState,
  Categories,
  Domains,
  FleetProgress,
  FleetRolloutSummary,
  History,
  MiniprogramItem as Miniprogram,
  PhasedPlan,
  Preflight,
  Privacy,
  Quota,
  Steps,
  TemplateItem as Template,
  WeChatAnswer,
} from "../../src/miniprograms/answers";
export type { FleetState, Stage } from "../../src/miniprograms/schema";
export type { FleetRolloutBody } from "../../src/miniprograms/params";
import type { WeChatAnswer } from "../../src/miniprograms/answers";

/** A group D call (every one a POST with a JSON body). */
export const deposits = <T>(path: string, body: Record<string, unknown> = {}) => api<T>("POST", `/deposits${path}`, body);

/** A group D write that WeChat answers: a non-zero errcode (a 200, as WeChat gives it) is a failure too, in its words. */
export async function weChat(path: string, body: Record<string, unknown>): Promise<WeChatAnswer> {
  const answer = await deposits<WeChatAnswer>(path, body);
  if (answer.errcode !== 0) throw new ApiFailure(200, `WeChat refused (${answer.errcode}): ${answer.message ?? answer.errmsg}`);
  return answer;
}
