import type { Context } from "hono";
import { type Fresh, keptAnswer, versionedAnswer } from "../../platform/answer-cache";
import { errorPage } from "../../platform/envelope";
import type { AppEnv } from "../../platform/env";
import { settingsOf } from "../../platform/settings";
import { contentSettings } from "../settings";
import { siteOrigin } from "../tenancy/domains";
import { nextScheduled, type ReaderSite, scheduleMark, siteById } from "../tenancy/scope";
import { type AdDraw, countImpressions, drawAds, type ShownAd, shownAds } from "./ads";
import { alternates, dateFormat, inLanguage, isOtherLanguage, pageLanguages, urlFor } from "./languages";
import { imageGlobal } from "./images";
import { mayOpenPreview, type Preview, withPreviewBanner } from "./previews";
import { perSiteVersion } from "./site-data";
import { resolvedMenus, resolvedTags } from "./template-tags";
import { TemplateError, TemplateLimitError } from "./templates";
import { type LoadedTheme, loadTheme, themeFailed } from "./themes";

/** What a page builder answers: the template that renders it, its status, its head, and what its template reads. */
export type Page = {
  template: string;
  status: 200 | 404;
  /** What the site's title pattern puts for `{title}`; null on a home page, titled by the site's name alone. */
  title: string | null;
  /** The theme's locale key that gives the title in the page's language, where the theme has it (`title` otherwise). */
  titleKey?: string;
  description?: string | null;
  noindex?: boolean;
  /** JSON-LD and a canonical URL of the content's own, where it has them. */
  /** `imageAlt`: what the page's own image shows, in the editor's words (the site's image has none). */
  seo?: { jsonld?: object[]; canonical?: string; image?: string; imageAlt?: string | null };
  /** The page's language; the site's default when not set. */
  language?: string;
  /** The path of this page in each language it exists in, itself included: the switcher's and hreflang's addresses. */
  versions?: Record<string, string>;
  /** A request header its address also answers by: a content's address answers Markdown to a caller that prefers it. */
  vary?: "Accept";
  data: Record<string, unknown>;
};

/** The page's `<title>`: the site's pattern ("{title} · {site}") filled in once, or the site's name alone on its home. */
const seoTitle = (site: ReaderSite, title: string | null) =>
  title === null ? site.name : site.seoTitlePattern.replace(/\{(title|site)\}/g, (_, name) => (name === "title" ? title : site.name));

export const absoluteUrl = (origin: string, url: string | null | undefined) => (url ? new URL(url, origin).href : null);

async function renderPage(c: Context<AppEnv>, site: ReaderSite, theme: LoadedTheme, page: Page, ads: Record<string, ShownAd>): Promise<string> {
  const origin = siteOrigin(c.env, site);
  const language = page.language ?? site.defaultLanguage;
  const locale = theme.locale(language);
  const versions = page.versions ?? {};
  const tags = await perSiteVersion(site, `tags:${language}:${theme.tagNames === "all" ? "*" : [...theme.tagNames].join(",")}`, () =>
    resolvedTags(c.get("db"), site, new Date().toISOString(), theme.tagNames, language),
  );
  const image = await imageGlobal(c.get("db"), site, [page.data, tags, ads, site.seoImage]);
  return theme.render(`templates/${page.template}.html.j2`, {
    site: {
      id: site.id,
      name: site.name,
      slug: site.slug,
      description: inLanguage(site.seoDescriptions, language, site.seoDescription),
      languages: site.languages,
      defaultLanguage: site.defaultLanguage,
    },
    page: { language, path: new URL(c.req.url).pathname, languages: pageLanguages(site, language, versions) },
    menus: await perSiteVersion(site, `menus:${language}`, () => resolvedMenus(c.get("db"), site, new Date().toISOString(), language)),
    tags,
    ads,
    seo: {
      title: seoTitle(site, page.titleKey ? (locale[page.titleKey]?.replace("{q}", () => page.title ?? "") ?? page.title) : page.title),
      description: page.description ?? inLanguage(site.seoDescriptions, language, site.seoDescription),
      canonical: `${origin}${new URL(c.req.url).pathname}`,
      noindex: page.noindex ?? false,
      // What search engines are told of the page's other languages; a page they should not index tells them none.
      alternates: page.noindex ? [] : alternates(site, origin, versions),
      ...page.seo,
      // Open Graph and Twitter cards want an absolute address: the content's cover, else the site's image.
      image: absoluteUrl(origin, page.seo?.image ?? site.seoImage),
      imageAlt: page.seo?.imageAlt || null,
    },
    t: (key: string) => locale[key] ?? key,
    image,
    asset: (path: string) => `/themes/${site.id}/${site.theme}/${path}?v=${theme.version}`,
    url_for: urlFor(site, language),
    format_date: dateFormat(language, site.timezone),
    ...page.data,
  });
}

/**
 * The answer cache's spec of a site's pages (feeds and sitemaps included): the site's content
 * version and its schedule, and for a page the ads drawn for this view (its `variant`).
 */
function pageSpec(site: ReaderSite, themeVersion: string, preview: Preview | undefined, adVariant = "") {
  const now = new Date().toISOString();
  return {
    namespace: `page/${site.id}`,
    version: `v${site.contentVersion}${scheduleMark(site, now)}t${themeVersion}`,
    kind: "page",
    // A hit from the isolate's memory skips the Cache API's round trip: a page costs what a C1 answer does.
    inIsolate: true,
    until: nextScheduled(site, now),
    bypass: preview !== undefined,
    ...(adVariant ? { vary: adVariant } : {}),
  } as const;
}

/** The language of the pages at this address as the site's router reads it: a prefix of one of the site's other languages, else the default. */
function addressLanguage(c: Context<AppEnv>, site: ReaderSite): string {
  // Hono reads the path from the address without parsing a URL: this runs before every kept page.
  const prefix = c.req.path.split("/")[1] ?? "";
  return isOtherLanguage(site, prefix) ? prefix : site.defaultLanguage;
}

const drawsOfViews = new WeakMap<Request, Promise<AdDraw>>();

/**
 * This view's ads, drawn before the page is looked up: each draw among several ads is a page of
 * its own in the cache, so that a kept page shows its ads as often as their weights ask, not one
 * ad for as long as the page is kept.
 */
function drawForView(c: Context<AppEnv>, site: ReaderSite): Promise<AdDraw> {
  // One draw a view: the page looked up before the router (keptPage) is the one it renders after.
  let draw = drawsOfViews.get(c.req.raw);
  if (!draw) drawsOfViews.set(c.req.raw, (draw = drawAds(c.get("db"), site, addressLanguage(c, site), new Date().toISOString())));
  return draw;
}

/**
 * A page through the answer cache, under the site's content version, the moment its newest
 * scheduled content went live and the theme's version, kept no longer than the site's next
 * scheduled moment; a preview is neither looked up nor kept, and says so at its top.
 * A kept page notes the ads it showed: they are counted on every view of it.
 */
export async function cachedPage(
  c: Context<AppEnv>,
  site: ReaderSite,
  theme: LoadedTheme,
  build: () => Promise<Page>,
  preview?: Preview,
): Promise<Response> {
  const { count, countNoted } = adCounter(c, site);
  const draw = await drawForView(c, site);
  const render = async (): Promise<Fresh | Response> => {
    const built = await build();
    const page = preview ? { ...built, noindex: true } : built;
    const language = page.language ?? site.defaultLanguage;
    // A page whose language is not its address's (a 404 under an unknown prefix) draws among its own language's ads.
    const ads = await shownAds(language === addressLanguage(c, site) ? draw : await drawAds(c.get("db"), site, language, new Date().toISOString()));
    const adIds = Object.values(ads).map((ad) => ad.id);
    let html: string;
    try {
      html = await renderPage(c, site, theme, page, ads);
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      c.get("log").warn({ event: "theme-render", siteId: site.id, error: error.message });
      // A live theme that outgrows its bounds is retired after a few renders; a preview is no one's page.
      if (error instanceof TemplateLimitError && !preview?.theme) await themeFailed(c.get("db"), site, theme.version, error.message);
      // The template's own fault, named in development; the theme's 404 page would hide a broken theme.
      const message = c.env.ENVIRONMENT === "development" ? error.message : "This page could not be shown.";
      return c.html(errorPage(500, `Template error: ${message}`), 500);
    }
    if (!preview) count(adIds);
    return {
      body: preview ? withPreviewBanner(html, preview) : html,
      contentType: "text/html; charset=utf-8",
      status: page.status,
      keep: page.status === 200,
      note: adIds.join(","),
      vary: page.vary,
      headers: preview ? { "X-Robots-Tag": "noindex" } : {},
    };
  };
  return versionedAnswer(c, pageSpec(site, theme.version, preview, draw.variant), render, countNoted);
}

/** Counts the ads a page showed at each view of it, rendered (their ids) or kept (the note kept with it). */
function adCounter(c: Context<AppEnv>, site: ReaderSite) {
  const flushSeconds = settingsOf(c.env, contentSettings).AD_FLUSH_SECONDS;
  const count = (adIds: number[]) => countImpressions(c.get("db"), site.tenantId, adIds, flushSeconds, (work) => c.executionCtx.waitUntil(work));
  return { count, countNoted: (note: string) => count(note.split(",").filter(Boolean).map(Number)) };
}

/**
 * The page this isolate keeps for the request, answered before the site's router runs, so that a
 * reader's most frequent request costs what a cached API answer does; undefined where the router
 * must decide: a request that may open a preview, one that may prefer Markdown, a method other
 * than GET or HEAD, a page not kept. Redirects need no look: a redirect's write moves the site's version.
 */
export async function keptPage(c: Context<AppEnv>, siteId: number): Promise<Response | undefined> {
  if ((c.req.method !== "GET" && c.req.method !== "HEAD") || mayOpenPreview(c) || c.req.header("Accept")?.includes("markdown")) return undefined;
  const site = await siteById(c.get("db"), siteId);
  const theme = site && (await loadTheme(c.env.THEMES, site, site.theme));
  if (!site || !theme) return undefined;
  const { variant } = await drawForView(c, site);
  return keptAnswer(c, pageSpec(site, theme.version, undefined, variant), adCounter(c, site).countNoted);
}

/** A feed or sitemap through the answer cache, under the same version and schedule as the site's pages. */
export function cachedDocument(c: Context<AppEnv>, site: ReaderSite, contentType: string, build: () => Promise<string>): Promise<Response> {
  return versionedAnswer(c, pageSpec(site, "-", undefined), async () => ({ body: await build(), contentType, status: 200, keep: true }));
}

/**
 * A content's Markdown version through the answer cache, under the same version and schedule as
 * the site's pages, kept apart from the HTML answered at the same address; none is a 404.
 */
export function cachedMarkdown(c: Context<AppEnv>, site: ReaderSite, build: () => Promise<string | undefined>): Promise<Response> {
  return versionedAnswer(c, { ...pageSpec(site, "-", undefined), vary: "text/markdown" }, async () => {
    const markdown = await build();
    const contentType = "text/markdown; charset=utf-8";
    if (markdown === undefined) return { body: "# Not found\n\nNo content is published at this address.\n", contentType, status: 404, keep: false };
    return { body: markdown, contentType, status: 200, keep: true };
  });
}

/** The theme's 404 page, in the language the path asked for. */
export const notFoundIn = (language?: string): Page => ({
  template: "404",
  status: 404,
  title: "Not found",
  titleKey: "not_found",
  noindex: true,
  language,
  data: {},
});
