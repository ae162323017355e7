import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { constantTimeEqual, hmacSha256Hex } from "../../platform/crypto";
import type { AppEnv } from "../../platform/env";
import type { Site } from "../schema";
import { isPublicNow } from "./page-queries";
import { previewToken } from "./theme-upload";

/**
 * Previews on a site's own host, for whoever holds a link: a content that is not public yet (a
 * draft, a scheduled post), or a theme that is not active yet. The link's token is checked once and
 * moved into a cookie of the site's host, so that the reader stays in preview from page to page;
 * each request checks the cookie again (an HMAC under the server's secret, compared in constant
 * time). A preview is never cached for anyone (`private, no-store`) and never indexed.
 */

/** How long a content's preview link works. */
export const PREVIEW_LINK_SECONDS = 24 * 3600;
/** How long a theme's preview lasts in the reader's browser once its link was opened. */
const THEME_PREVIEW_SECONDS = 3600;
const CONTENT_COOKIE = "gw_preview";
const THEME_COOKIE = "gw_theme_preview";
const CONTENT_TOKEN = /^(\d{1,12})\.(\d{1,12})\.([0-9a-f]{64})$/;
const THEME_VALUE = /^([a-z0-9-]{1,40})\.([0-9a-f]{64})$/;

/** What a preview shows: one content that is not public yet, another theme, or both. */
export interface Preview {
  contentId?: number;
  theme?: string;
}

const signed = (secret: string, site: Pick<Site, "id" | "tenantId">, contentId: number, expires: number) =>
  hmacSha256Hex(secret, `content-preview:${site.tenantId}:${site.id}:${contentId}:${expires}`);

/** A content's preview token, bound to its tenant, site, id and an expiry (epoch seconds): `<id>.<expires>.<hmac>`. */
export async function contentPreviewToken(secret: string, site: Pick<Site, "id" | "tenantId">, contentId: number, expires: number): Promise<string> {
  return `${contentId}.${expires}.${await signed(secret, site, contentId, expires)}`;
}

/** The content id a token previews on this site, or undefined when it is expired, malformed or not signed for this site. */
export async function previewedContent(secret: string, site: Pick<Site, "id" | "tenantId">, token: string, nowMs = Date.now()) {
  const parts = CONTENT_TOKEN.exec(token);
  if (!parts) return undefined;
  const contentId = Number(parts[1]);
  const expires = Number(parts[2]);
  if (expires * 1000 <= nowMs) return undefined;
  return constantTimeEqual(parts[3]!, await signed(secret, site, contentId, expires)) ? { contentId, expires } : undefined;
}

const cookieOptions = (c: Context<AppEnv>, maxAge: number) =>
  ({ path: "/", httpOnly: true, sameSite: "Lax", secure: c.env.ENVIRONMENT !== "development", maxAge }) as const;

/** Keeps a content's preview in the reader's browser until its token expires. */
export function keepContentPreview(c: Context<AppEnv>, token: string, expires: number) {
  setCookie(c, CONTENT_COOKIE, token, cookieOptions(c, Math.max(1, expires - Math.floor(Date.now() / 1000))));
}

/** Ends both kinds of preview in the reader's browser. */
export function endPreviews(c: Context<AppEnv>) {
  for (const name of [CONTENT_COOKIE, THEME_COOKIE]) setCookie(c, name, "", cookieOptions(c, 0));
}

const themeTokenFits = async (secret: string, siteId: number, theme: string, token: string) =>
  constantTimeEqual(token, await previewToken(secret, siteId, theme));

/**
 * Whether the request may open a preview (a preview's cookie, a theme preview's link): such a
 * request goes through previewOf, never straight to a page this isolate keeps.
 */
export function mayOpenPreview(c: Context<AppEnv>): boolean {
  const cookies = c.req.header("Cookie") ?? "";
  return cookies.includes(`${CONTENT_COOKIE}=`) || cookies.includes(`${THEME_COOKIE}=`) || c.req.url.includes("theme_preview=");
}

/**
 * The preview this request is in, from its cookies or, for a theme, from the link itself
 * (`?theme_preview=<name>&token=<hmac>`, which is then kept in a cookie). Undefined: an ordinary reader.
 * A content's preview ends once the content is public: its banner would tell of an unpublished
 * content on every page the reader opens for the rest of the link's day.
 */
export async function previewOf(c: Context<AppEnv>, site: Site): Promise<Preview | undefined> {
  const secret = c.env.JWT_SECRET;
  const preview: Preview = {};
  const contentToken = getCookie(c, CONTENT_COOKIE);
  const contentId = contentToken ? (await previewedContent(secret, site, contentToken))?.contentId : undefined;
  if (contentId !== undefined && (await isPublicNow(c.get("db"), site, contentId, new Date().toISOString()))) {
    setCookie(c, CONTENT_COOKIE, "", cookieOptions(c, 0));
  } else preview.contentId = contentId;
  const linked = c.req.query("theme_preview");
  if (linked !== undefined && /^[a-z0-9-]{1,40}$/.test(linked) && (await themeTokenFits(secret, site.id, linked, c.req.query("token") ?? ""))) {
    preview.theme = linked;
    setCookie(c, THEME_COOKIE, `${linked}.${c.req.query("token")}`, cookieOptions(c, THEME_PREVIEW_SECONDS));
  } else {
    const kept = THEME_VALUE.exec(getCookie(c, THEME_COOKIE) ?? "");
    if (kept && (await themeTokenFits(secret, site.id, kept[1]!, kept[2]!))) preview.theme = kept[1];
  }
  return preview.contentId !== undefined || preview.theme !== undefined ? preview : undefined;
}

/** The notice at the top of a previewed page: what is shown, and the way out. */
export function previewBanner(preview: Preview): string {
  const what = [preview.contentId !== undefined ? "unpublished content" : "", preview.theme ? `the theme “${preview.theme}”` : ""]
    .filter(Boolean)
    .join(" and ");
  return (
    `<div role="status" data-preview style="background:#fff3bf;color:#1a1a1a;padding:.5rem 1rem;font:14px/1.4 system-ui,sans-serif;border-bottom:1px solid #c9a400">` +
    `Preview of ${what}: only people with the link see this page, and search engines do not index it. ` +
    `<a href="/_preview/end" style="color:#1a1a1a">Leave the preview</a></div>`
  );
}

/** The page with the preview's notice right after `<body …>` (or first, for a template without one). */
export function withPreviewBanner(html: string, preview: Preview): string {
  const body = /<body\b[^>]*>/i.exec(html);
  const at = body ? body.index + body[0].length : 0;
  return html.slice(0, at) + previewBanner(preview) + html.slice(at);
}
