import { and, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { errorPage } from "../../platform/envelope";
import { handleError } from "../../platform/errors";
import type { AppEnv } from "../../platform/env";
import { isPublic, listPublished, publishedContent } from "../delivery/service";
import { categories, contents, redirects, type Site } from "../schema";
import { adsForPage, countImpressions, recordClick, type ShownAd } from "./ads";
import { atomFeed, categorySitemap, contentSitemap, robotsTxt, rssFeed, sitemapIndex } from "./feeds";
import { type Fresh, versionedAnswer } from "../../platform/answer-cache";
import { memberScope, type ReaderSite, scheduleMark, siteById } from "../tenancy/scope";
import { siteOrigin } from "../tenancy/domains";
import { resolvedMenus, resolvedTags } from "./template-tags";
import { type LoadedTheme, loadTheme, themeAsset, themeFailed } from "./themes";
import { TemplateError, TemplateLimitError } from "./templates";
import { previewToken } from "./theme-upload";
import { constantTimeEqual } from "../../platform/crypto";
import { settingsOf } from "../../platform/settings";
import { contentSettings } from "../settings";

type Page = {
  template: string;
  status: 200 | 404;
  title: string;
  description?: string | null;
  noindex?: boolean;
  /** JSON-LD and a canonical URL of the content's own, where it has them. */
  seo?: { jsonld?: object[]; canonical?: string; image?: string };
  /** The page's language; the site's default when not set. */
  language?: string;
  data: Record<string, unknown>;
};

const absoluteUrl = (origin: string, url: string | null | undefined) => (url ? new URL(url, origin).href : null);

async function renderPage(c: Context<AppEnv>, site: ReaderSite, theme: LoadedTheme, page: Page, shownAds: Record<string, ShownAd>): Promise<string> {
  const origin = siteOrigin(c.env, site);
  const language = page.language ?? site.defaultLanguage;
  const locale = theme.locale(language);
  const title = site.seoTitlePattern.replace("{title}", page.title).replace("{site}", site.name);
  return theme.render(`templates/${page.template}.html.j2`, {
    site: { id: site.id, name: site.name, slug: site.slug, languages: site.languages, defaultLanguage: site.defaultLanguage },
    page: { language, path: new URL(c.req.url).pathname },
    menus: await resolvedMenus(c.var.db, site),
    tags: await resolvedTags(c.var.db, site, new Date().toISOString(), theme.tagNames),
    ads: shownAds,
    seo: {
      title,
      description: page.description ?? site.seoDescription,
      canonical: `${origin}${new URL(c.req.url).pathname}`,
      noindex: page.noindex ?? false,
      ...page.seo,
      // Open Graph and Twitter cards want an absolute address: the content's cover, else the site's image.
      image: absoluteUrl(origin, page.seo?.image ?? site.seoImage),
    },
    t: (key: string) => locale[key] ?? key,
    asset: (path: string) => `/themes/${site.id}/${site.theme}/${path}?v=${theme.version}`,
    url_for: (name: string, slug?: string) => (name === "home" ? "/" : name === "category" ? `/c/${slug}` : `/${slug ?? ""}`),
    ...page.data,
  });
}

/**
 * A page through the answer cache, under the site's content version, the moment its newest
 * scheduled content went live and the theme's version; a preview is neither looked up nor kept.
 * A kept page notes the ads it showed: they are counted on every view of it.
 */
async function cachedPage(c: Context<AppEnv>, site: ReaderSite, theme: LoadedTheme, build: () => Promise<Page>, preview = false): Promise<Response> {
  const flushSeconds = settingsOf(c.env, contentSettings).AD_FLUSH_SECONDS;
  const count = (adIds: number[]) => countImpressions(c.var.db, site.tenantId, adIds, flushSeconds, (work) => c.executionCtx.waitUntil(work));
  const spec = {
    namespace: `page/${site.id}`,
    version: `v${site.contentVersion}${scheduleMark(site)}t${theme.version}`,
    kind: "page",
    bypass: preview,
  } as const;
  const render = async (): Promise<Fresh | Response> => {
    const page = await build();
    const shownAds = await adsForPage(c.var.db, site, new Date().toISOString());
    const adIds = Object.values(shownAds).map((ad) => ad.id);
    let html: string;
    try {
      html = await renderPage(c, site, theme, page, shownAds);
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      c.get("log").warn({ event: "theme-render", siteId: site.id, error: error.message });
      // A live theme that outgrows its bounds is retired after a few renders; a preview is no one's page.
      if (error instanceof TemplateLimitError && !preview) await themeFailed(c.var.db, site, theme.version, error.message);
      // The template's own fault, named in development; the theme's 404 page would hide a broken theme.
      const message = c.env.ENVIRONMENT === "development" ? error.message : "This page could not be shown.";
      return c.html(errorPage(500, `Template error: ${message}`), 500);
    }
    if (!preview) count(adIds);
    return {
      body: html,
      contentType: "text/html; charset=utf-8",
      status: page.status,
      keep: page.status === 200,
      note: adIds.join(","),
      headers: preview ? { "X-Robots-Tag": "noindex" } : {},
    };
  };
  return versionedAnswer(c, spec, render, (note) => count(note.split(",").filter(Boolean).map(Number)));
}

const notFound: Page = { template: "404", status: 404, title: "Not found", noindex: true, data: {} };

/** A tenant's web site, chosen by Host: home, category pages, content pages and the theme's assets. */
export function sitePages(siteId: number, parent: Context<AppEnv>) {
  const app = new Hono<AppEnv>();
  // The request's database and log, as the platform made them for it, and its error handling:
  // an unexpected failure is logged with the request id and answered as an HTML error page.
  app.use("*", async (c, next) => {
    c.set("db", parent.var.db);
    c.set("log", parent.var.log);
    c.set("envelope", "html");
    await next();
  });
  app.onError(handleError);
  // From the isolate's cache of sites (10 s; a change made here forgets it at once).
  const siteOf = async (c: Context<AppEnv>) => (await siteById(c.var.db, siteId))!;
  const withTheme = async (c: Context<AppEnv>, build: (site: ReaderSite) => Promise<Page>) => {
    const stored = await siteOf(c);
    siteLanguage.set(stored.id, stored.defaultLanguage);
    // An uploaded theme that is not active yet, shown to whoever has its preview link.
    const wanted = c.req.query("theme_preview");
    const preview =
      wanted !== undefined &&
      /^[a-z0-9-]{1,40}$/.test(wanted) &&
      constantTimeEqual(c.req.query("token") ?? "", await previewToken(c.env.JWT_SECRET, stored.id, wanted));
    const site = preview ? { ...stored, theme: wanted } : stored;
    const theme = await loadTheme(c.env.THEMES, site.id, site.theme);
    if (!theme) return c.text(`The site ${site.slug} has no theme yet`, 503);
    return cachedPage(c, site, theme, () => build(site), preview);
  };
  const now = () => new Date().toISOString();
  const siteLanguage = new Map<number, string>();
  /** A content's URL: `/<slug>` in the site's default language, `/<lang>/<slug>` in another. */
  const item = <T extends { slug: string; language: string }>(i: T) => ({
    ...i,
    url: i.language === siteLanguage.get(siteId) ? `/${i.slug}` : `/${i.language}/${i.slug}`,
  });

  // An asset of this site's theme only: another site's path is a 404 here.
  app.get("/themes/:siteId/:theme/*", async (c) => {
    if (Number(c.req.param("siteId")) !== siteId) return c.text("Not found", 404);
    const path = c.req.path.split("/").slice(4).join("/");
    return (await themeAsset(c.env.THEMES, siteId, c.req.param("theme"), path)) ?? c.text("Not found", 404);
  });
  // A redirect of the site wins over its pages.
  app.use("*", async (c, next) => {
    const [redirect] = await c.var.db
      .select({ toUrl: redirects.toUrl, status: redirects.status })
      .from(redirects)
      .where(and(eq(redirects.siteId, siteId), eq(redirects.fromPath, c.req.path)))
      .limit(1);
    if (redirect) return c.redirect(redirect.toUrl, redirect.status as 301 | 302);
    await next();
  });
  const xmlAnswer = (body: string, type: string) =>
    new Response(body, { headers: { "Content-Type": `${type}; charset=utf-8`, "Cache-Control": "public, max-age=300" } });
  const originOf = async (c: Context<AppEnv>) => siteOrigin(c.env, await siteOf(c));
  app.get("/ads/:id{[0-9]+}/click", async (c) => {
    const link = await recordClick(c.var.db, await siteOf(c), Number(c.req.param("id")));
    return link ? c.redirect(link, 302) : c.text("Not found", 404);
  });
  app.get("/robots.txt", async (c) => c.text(robotsTxt(await originOf(c))));
  app.get("/sitemap.xml", async (c) => xmlAnswer(sitemapIndex(await originOf(c), (await siteOf(c)).updatedAt.slice(0, 10)), "application/xml"));
  app.get("/sitemap-contents.xml", async (c) =>
    xmlAnswer(await contentSitemap(c.var.db, await siteOf(c), await originOf(c), now()), "application/xml"),
  );
  app.get("/sitemap-categories.xml", async (c) => xmlAnswer(await categorySitemap(c.var.db, await siteOf(c), await originOf(c)), "application/xml"));
  app.get("/feed.xml", async (c) => xmlAnswer(await rssFeed(c.var.db, await siteOf(c), await originOf(c), now()), "application/rss+xml"));
  app.get("/atom.xml", async (c) => xmlAnswer(await atomFeed(c.var.db, await siteOf(c), await originOf(c), now()), "application/atom+xml"));
  const PAGE_SIZE = 10;
  /** `?page=` from 1; anything else is the first page. */
  const pageOf = (c: Context<AppEnv>) => Math.max(1, Math.min(10_000, Number.parseInt(c.req.query("page") ?? "1", 10) || 1));
  const pagination = (page: number, total: number) => {
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    return { page, pages, total, prev: page > 1 ? page - 1 : null, next: page < pages ? page + 1 : null };
  };
  const home = async (c: Context<AppEnv>, site: Site, language: string): Promise<Page> => {
    const page = pageOf(c);
    const list = await listPublished(c.var.db, memberScope(site.tenantId), site, { language, page, size: PAGE_SIZE }, now());
    const base = language === site.defaultLanguage ? "/" : `/${language}/`;
    return {
      template: "index",
      status: 200,
      title: site.name,
      language,
      data: { contents: list.items.map(item), pagination: pagination(page, list.total), page_base: `${base}?page=` },
    };
  };
  app.get("/", (c) => withTheme(c, (site) => home(c, site, site.defaultLanguage)));
  app.get("/tag/:tag", (c) =>
    withTheme(c, async (site) => {
      const page = pageOf(c);
      // Hono has decoded the path once; decoding again would read `%25` as a broken escape.
      const tag = c.req.param("tag").slice(0, 60);
      const list = await listPublished(c.var.db, memberScope(site.tenantId), site, { tag, page, size: PAGE_SIZE }, now());
      if (list.total === 0) return notFound;
      return {
        template: "tag",
        status: 200,
        title: `#${tag}`,
        data: { tag, contents: list.items.map(item), pagination: pagination(page, list.total) },
      };
    }),
  );
  app.get("/search", (c) =>
    withTheme(c, async (site) => {
      const page = pageOf(c);
      const query = (c.req.query("q") ?? "").slice(0, 200);
      const words = query.match(/[\p{L}\p{N}]+/gu) ?? [];
      const list = words.length
        ? await listPublished(c.var.db, memberScope(site.tenantId), site, { q: query, page, size: PAGE_SIZE }, now())
        : { items: [], total: 0 };
      // Result pages are not for search engines.
      return {
        template: "search",
        status: 200,
        title: query || "Search",
        noindex: true,
        data: {
          query,
          contents: list.items.map(item),
          pagination: pagination(page, list.total),
          page_base: `/search?q=${encodeURIComponent(query)}&page=`,
        },
      };
    }),
  );
  app.get("/c/:slug", (c) =>
    withTheme(c, async (site) => {
      const [category] = await c.var.db
        .select()
        .from(categories)
        .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id), eq(categories.slug, c.req.param("slug"))))
        .limit(1);
      if (!category) return notFound;
      const page = pageOf(c);
      const list = await listPublished(c.var.db, memberScope(site.tenantId), site, { categoryId: category.id, page, size: PAGE_SIZE }, now());
      return {
        template: "category",
        status: 200,
        title: category.seoTitle ?? category.name,
        description: category.seoDescription ?? category.description,
        data: { category, contents: list.items.map(item), pagination: pagination(page, list.total) },
      };
    }),
  );
  const contentPage = async (c: Context<AppEnv>, site: ReaderSite, slug: string, language: string): Promise<Page> => {
    const [found] = await c.var.db
      .select({ id: contents.id })
      .from(contents)
      .where(
        and(
          eq(contents.tenantId, site.tenantId),
          eq(contents.siteId, site.id),
          eq(contents.slug, slug),
          eq(contents.language, language),
          isPublic(now()),
        ),
      )
      .limit(1);
    if (!found) return notFound;
    const content = await publishedContent(c.var.db, memberScope(site.tenantId), found.id, now());
    const origin = siteOrigin(c.env, site);
    const own = `${origin}${item(content).url}`;
    const image = absoluteUrl(origin, content.coverImages);
    const article = {
      "@context": "https://schema.org",
      "@type": "Article",
      headline: content.title,
      datePublished: content.publishAt,
      description: content.intro,
      inLanguage: language,
      url: own,
      ...(image ? { image } : {}),
    };
    const crumbs = [
      { name: site.name, url: `${origin}/` },
      ...content.categories.slice(0, 1).map((cat) => ({ name: cat.name, url: `${origin}/c/${cat.slug}` })),
      { name: content.title, url: own },
    ];
    const breadcrumbs = {
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: crumbs.map((crumb, i) => ({ "@type": "ListItem", position: i + 1, name: crumb.name, item: crumb.url })),
    };
    return {
      template: "content",
      status: 200,
      title: content.seo.title,
      description: content.seo.description,
      noindex: content.seo.noindex,
      language,
      seo: { jsonld: [article, breadcrumbs], ...(content.seo.canonical ? { canonical: content.seo.canonical } : {}), ...(image ? { image } : {}) },
      data: {
        content: {
          ...content,
          categories: content.categories.map((cat) => ({ ...cat, url: `/c/${cat.slug}` })),
          translations: content.translations.map(item),
        },
      },
    };
  };
  /** Another language of the site: `/<lang>/` its home, `/<lang>/<slug>` its contents. */
  const otherLanguage = (site: Site, lang: string) => lang !== site.defaultLanguage && site.languages.includes(lang);
  app.get("/:slug", (c) =>
    withTheme(c, (site) =>
      otherLanguage(site, c.req.param("slug")) ? home(c, site, c.req.param("slug")) : contentPage(c, site, c.req.param("slug"), site.defaultLanguage),
    ),
  );
  app.get("/:lang/:slug", (c) =>
    withTheme(c, async (site) =>
      otherLanguage(site, c.req.param("lang")) ? contentPage(c, site, c.req.param("slug"), c.req.param("lang")) : notFound,
    ),
  );
  app.notFound((c) => withTheme(c, async () => notFound));
  return app;
}
