import { z } from "@hono/zod-openapi";
import { Hono, type Context } from "hono";
import { accepts } from "hono/accepts";
import type { AppEnv } from "../../platform/env";
import { ApiError, handleError } from "../../platform/errors";
import { mediaKeyOf } from "../media/addresses";
import { servedMedia } from "../media/service";
import { siteOrigin } from "../tenancy/domains";
import { type ReaderSite, siteById } from "../tenancy/scope";
import { recordClick } from "./ads";
import { siteFavicon } from "./favicon";
import { atomFeed, categorySitemap, contentSitemap, robotsTxt, rssFeed, sitemapIndex } from "./feeds";
import { isOtherLanguage, languagePrefix } from "./languages";
import { contentMarkdown, llmsTxt } from "./markdown-pages";
import { cachedDocument, cachedMarkdown, cachedPage, keptPage, notFoundIn, type Page } from "./page-render";
import { contentAddress, redirectOf } from "./page-queries";
import { tagAsSpelled } from "../delivery/service";
import { tagInAddress } from "../tag-spellings";
import { categoryPage, contentPage, homePage, searchPage, tagPage } from "./pages";
import { endPreviews, keepContentPreview, type Preview, previewedContent, previewOf } from "./previews";
import { loadTheme, themeAsset } from "./themes";

const adClickTarget = z.string().max(2000).optional();

/** A request to a tenant's site: the site its host named, and the request's context as the platform made it. */
interface Visit {
  siteId: number;
  parent: Context<AppEnv>;
}

/** The visit of each request being served, by its Request (the platform hands the same one on to the site's router). */
const visits = new WeakMap<Request, Visit>();

function visitOf(c: { req: { raw: Request } }): Visit {
  const visit = visits.get(c.req.raw);
  if (!visit) throw new Error("a site's page was asked for without its visit");
  return visit;
}

// From the isolate's cache of sites (10 s; a change made here forgets it at once).
const siteOf = async (c: Context<AppEnv>) => (await siteById(c.get("db"), visitOf(c).siteId))!;
const now = () => new Date().toISOString();

/**
 * A page in the site's theme, or as a preview shows it (a content not public yet, a theme not
 * active yet) to whoever opened its link.
 */
async function withTheme(c: Context<AppEnv>, build: (site: ReaderSite, preview?: Preview) => Promise<Page>) {
  const stored = await siteOf(c);
  const asked = await previewOf(c, stored);
  const previewed = asked?.theme ? await loadTheme(c.env.THEMES, stored, asked.theme) : undefined;
  // A theme previewed and deleted since: the reader is shown the site's own theme, out of its preview.
  const preview = asked?.theme && !previewed ? (asked.contentId === undefined ? undefined : { contentId: asked.contentId }) : asked;
  const site = previewed && asked?.theme ? { ...stored, theme: asked.theme } : stored;
  const theme = previewed ?? (await loadTheme(c.env.THEMES, site, site.theme));
  if (!theme)
    return c.text(`The site ${site.slug} has no theme yet: its owner uploads one, or copies another site's, under Themes in the console`, 503);
  return cachedPage(c, site, theme, () => build(site, preview), preview);
}

const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };

/** A content's preview link: checked once, kept in a cookie of the site's host, then the content's own address. */
async function openPreview(c: Context<AppEnv>) {
  const site = await siteOf(c);
  const valid = await previewedContent(c.env.JWT_SECRET, site, c.req.query("token") ?? "");
  const address = valid && (await contentAddress(c.get("db"), site, valid.contentId));
  if (!valid || !address) return c.text("This preview link has expired or is not valid: ask for a new one in the console.", 403, PRIVATE);
  keepContentPreview(c, c.req.query("token")!, valid.expires);
  return c.redirect(address, 302);
}

const siteDocument = (c: Context<AppEnv>, type: string, build: (site: ReaderSite, origin: string) => Promise<string>) =>
  siteOf(c).then((site) => cachedDocument(c, site, `${type}; charset=utf-8`, () => build(site, siteOrigin(c.env, site))));

/**
 * A content's or category's address as readers may type or paste it: in capitals, or with a
 * slash at its end (`/Harbour-Reopens/`, `/de/c/Sport`). Its one address (slugs are lower-case
 * words and digits joined by dashes, at most 80 characters), or undefined for any other path: a
 * language's region (`pt-BR`) and a tag's words (`/tag/…`, answered there) keep their case.
 */
function pageAddressOf(path: string): string | undefined {
  // `/de/` is a language's home, already as written.
  if (/^\/[a-z]{2}(?:-[A-Z]{2})?\/$/.test(path)) return undefined;
  const page = /^(\/[a-z]{2}(?:-[A-Z]{2})?)?(\/c)?\/([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)\/?$/.exec(path);
  if (!page || page[3]!.length > 80) return undefined;
  const address = `${page[1] ?? ""}${page[2] ?? ""}/${page[3]!.toLowerCase()}`;
  return address === path ? undefined : address;
}

/** A content page's address asked for as Markdown: `Accept` prefers `text/markdown` to HTML, as a browser never asks. */
const wantsMarkdown = (c: Context<AppEnv>) =>
  accepts(c, { header: "Accept", supports: ["text/html", "text/markdown"], default: "text/html" }) === "text/markdown";

/** The routes every tenant site answers: home, category pages, content pages, feeds and the theme's assets. */
function buildSiteRouter() {
  const app = new Hono<AppEnv>();
  // The request's database and log, as the platform made them for it, and its error handling:
  // an unexpected failure is logged with the request id and answered as an HTML error page.
  app.use("*", async (c, next) => {
    const { parent } = visitOf(c);
    c.set("db", parent.get("db"));
    c.set("log", parent.get("log"));
    c.set("envelope", "html");
    await next();
  });
  app.onError(handleError);
  // An asset of this site's theme only: another site's path is a 404 here.
  app.get("/themes/:siteId/:theme/*", async (c) => {
    const { siteId } = visitOf(c);
    if (Number(c.req.param("siteId")) !== siteId) return c.text("Not found", 404);
    const path = c.req.path.split("/").slice(4).join("/");
    return (await themeAsset(c.env.THEMES, await siteOf(c), c.req.param("theme"), path, c.req.query("v"))) ?? c.text("Not found", 404);
  });
  // The site's own images and files, at the address the console shows them (media/addresses.ts):
  // another site's, another tenant's above all, are a 404 here.
  app.get("/media/:tenantId/:siteId/:file", async (c) => {
    const key = mediaKeyOf(c.req.path, await siteOf(c));
    const served = key ? await servedMedia(c.env.MEDIA, key, c.req.raw) : undefined;
    return served ?? c.text("Not found", 404);
  });
  // A redirect of the site wins over its pages.
  app.use("*", async (c, next) => {
    const redirect = await redirectOf(c.get("db"), (await siteById(c.get("db"), visitOf(c).siteId))!, c.req.path);
    // The column holds what redirectWrite allowed: 301 or 302.
    if (redirect) return c.redirect(redirect.toUrl, redirect.status as 301 | 302);
    await next();
  });
  // `?to=`: which of an HTML ad's links was followed (the frame's links name it); an image ad's click has none.
  app.get("/ads/:id{[0-9]{1,15}}/click", async (c) => {
    const to = adClickTarget.safeParse(c.req.query("to"));
    if (!to.success) throw new ApiError(400, "This ad does not link to that address.");
    const link = await recordClick(c.get("db"), await siteOf(c), Number(c.req.param("id")), to.data);
    return link ? c.redirect(link, 302) : c.text("Not found", 404);
  });
  app.get("/favicon.ico", async (c) => {
    return siteFavicon(c.env, await siteOf(c), c.req.raw);
  });
  app.get("/robots.txt", async (c) => c.text(robotsTxt(siteOrigin(c.env, await siteOf(c)))));
  app.get("/sitemap.xml", (c) => siteDocument(c, "application/xml", async (site, origin) => sitemapIndex(origin, site.updatedAt.slice(0, 10))));
  app.get("/sitemap-contents.xml", (c) => siteDocument(c, "application/xml", (site, origin) => contentSitemap(c.get("db"), site, origin, now())));
  app.get("/sitemap-categories.xml", (c) => siteDocument(c, "application/xml", (site, origin) => categorySitemap(c.get("db"), site, origin, now())));
  app.get("/llms.txt", (c) => siteDocument(c, "text/plain", (site, origin) => llmsTxt(c.get("db"), site, origin, now())));
  app.get("/_preview", openPreview);
  app.get("/_preview/end", (c) => {
    endPreviews(c);
    return c.redirect("/", 302);
  });
  // A page's address in capitals or with a slash at its end leads to its one address.
  app.on(["GET", "HEAD"], "*", async (c, next) => {
    const address = pageAddressOf(c.req.path);
    if (address === undefined) return next();
    return c.redirect(`${address}${new URL(c.req.url).search}`, 301);
  });
  // `/de` is the German home's address without its slash: one canonical address, `/de/`.
  app.get("/:lang{[a-z]{2}(?:-[A-Z]{2})?}", async (c, next) => {
    if (!isOtherLanguage(await siteOf(c), c.req.param("lang"))) return next();
    const query = new URL(c.req.url).search;
    return c.redirect(`/${c.req.param("lang")}/${query}`, 301);
  });
  // Each language's pages: the default language's at the root, another's under `/<lang>/`.
  for (const prefix of ["", "/:lang{[a-z]{2}(?:-[A-Z]{2})?}"]) {
    /** The page's language: the default at the root; under a prefix, one of the site's other languages (else the page is not found). */
    const languageOf = (c: Context<AppEnv>, site: ReaderSite) => {
      const lang = prefix ? c.req.param("lang") : site.defaultLanguage;
      return lang !== undefined && (!prefix || isOtherLanguage(site, lang)) ? lang : undefined;
    };
    const inLanguage = (c: Context<AppEnv>, build: (site: ReaderSite, language: string, preview?: Preview) => Promise<Page>) =>
      withTheme(c, async (site, preview) => {
        const language = languageOf(c, site);
        return language === undefined ? notFoundIn() : build(site, language, preview);
      });
    const feed = (write: typeof rssFeed, type: string) => async (c: Context<AppEnv>) => {
      const site = await siteOf(c);
      const language = languageOf(c, site);
      if (language === undefined) return withTheme(c, async () => notFoundIn());
      return cachedDocument(c, site, `${type}; charset=utf-8`, () => write(c.get("db"), site, siteOrigin(c.env, site), now(), language));
    };
    app.get(`${prefix}/feed.xml`, feed(rssFeed, "application/rss+xml"));
    app.get(`${prefix}/atom.xml`, feed(atomFeed, "application/atom+xml"));
    app.get(`${prefix}/`, (c) => inLanguage(c, (site, language) => homePage(c, site, language)));
    // A tag's address typed in another case than the site's (`/tag/bibliothek`), or with a space where
    // the address has a dash (`/tag/river%20festival`, the address before), leads to its page.
    app.get(`${prefix}/tag/:tag`, async (c) => {
      const asked = c.req.param("tag");
      const page = () => inLanguage(c, (site, language) => tagPage(c, site, asked, language));
      const answer = asked.includes(" ") ? undefined : await page();
      if (answer && answer.status !== 404) return answer;
      const site = await siteOf(c);
      const language = languageOf(c, site);
      if (language === undefined) return answer ?? page();
      const spelled = await tagAsSpelled(c.get("db"), site, asked, language, now());
      if (spelled === undefined || tagInAddress(spelled) === encodeURIComponent(asked)) return answer ?? page();
      return c.redirect(`${languagePrefix(site, language)}/tag/${tagInAddress(spelled)}${new URL(c.req.url).search}`, 301);
    });
    app.get(`${prefix}/search`, (c) => inLanguage(c, (site, language) => searchPage(c, site, language)));
    app.get(`${prefix}/c/:slug`, (c) => inLanguage(c, (site, language) => categoryPage(c, site, c.req.param("slug"), language)));
    // A content's Markdown version shows its public text only: a preview link opens its HTML page.
    const markdown = async (c: Context<AppEnv>, slug: string) => {
      const site = await siteOf(c);
      const language = languageOf(c, site);
      // A slug is at most 80 characters (admin/params.ts): a longer path is no content, asked of no one.
      const found = () =>
        language === undefined || slug.length > 80
          ? Promise.resolve(undefined)
          : contentMarkdown(c.get("db"), site, siteOrigin(c.env, site), slug, language, now());
      return cachedMarkdown(c, site, found);
    };
    // No slug has a dot (admin/params.ts): `<slug>.md` is always the Markdown of `<slug>`.
    app.get(`${prefix}/:file{[a-z0-9]+(?:-[a-z0-9]+)*\\.md}`, (c) => markdown(c, c.req.param("file").slice(0, -".md".length)));
    app.get(`${prefix}/:slug`, async (c) => {
      const slug = c.req.param("slug");
      const answer = wantsMarkdown(c)
        ? await markdown(c, slug)
        : await inLanguage(c, async (site, language, preview) => ({
            ...(await contentPage(c, site, slug, language, preview?.contentId)),
            vary: "Accept",
          }));
      // One address, two answers: a shared cache must tell them apart by what was asked for (a kept page says so itself).
      if (!answer.headers.get("Vary")?.includes("Accept")) answer.headers.append("Vary", "Accept");
      return answer;
    });
  }
  app.notFound((c) => withTheme(c, async () => notFoundIn()));
  return app;
}

let siteRouter: Hono<AppEnv> | undefined;

/**
 * A tenant's web site, chosen by Host: a page this isolate keeps at once, anything else through
 * the one router of every site (built once per isolate), told which site this request is for.
 */
export async function serveSite(siteId: number, parent: Context<AppEnv>): Promise<Response> {
  const kept = await keptPage(parent, siteId);
  if (kept) return kept;
  visits.set(parent.req.raw, { siteId, parent });
  return (siteRouter ??= buildSiteRouter()).fetch(parent.req.raw, parent.env, parent.executionCtx);
}
