import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../platform/env";
import { type ContentQuery, listPublished, publishedContent, tagAsSpelled } from "../delivery/service";
import type { Site } from "../schema";
import { siteOrigin } from "../tenancy/domains";
import { memberScope, type ReaderSite } from "../tenancy/scope";
import { contentPath, inLanguage, languageHome, languagePrefix, siteLanguages } from "./languages";
import { tagInAddress } from "../tag-spellings";
import { absoluteUrl, notFoundIn, type Page } from "./page-render";
import { categoryBySlug, languagesWithTag, publicContentId, readerFacts, siteCategories } from "./page-queries";
import { perSiteVersion } from "./site-data";

const PAGE_SIZE = 10;
/** The last page a list shows, whatever its length: the work of a page (its OFFSET) stays bounded. */
const MAX_PAGE = 10_000;
const now = () => new Date().toISOString();

const pageNumber = z
  .string()
  .regex(/^[1-9][0-9]{0,4}$/)
  .transform(Number)
  .refine((page) => page <= MAX_PAGE);

/**
 * `?page=`: absent, the first page; a whole number from 1 to MAX_PAGE; anything else (`abc`, `0`,
 * `1.5`) no page of the list, as one past its end is: the theme's 404 page, in the page's language.
 */
function pageOf(c: Context<AppEnv>): number | undefined {
  const given = c.req.query("page");
  if (given === undefined) return 1;
  const parsed = pageNumber.safeParse(given);
  return parsed.success ? parsed.data : undefined;
}

/** A list's pages, or undefined when `page` is past its last one (a 404); an empty list has its first page. */
const pagination = (page: number, total: number) => {
  const pages = Math.min(MAX_PAGE, Math.max(1, Math.ceil(total / PAGE_SIZE)));
  if (page > pages) return undefined;
  return { page, pages, total, prev: page > 1 ? page - 1 : null, next: page < pages ? page + 1 : null };
};

/** A content with its URL: `/<slug>` in the site's default language, `/<lang>/<slug>` in another. */
const linkedIn =
  (site: Site) =>
  <T extends { slug: string; language: string }>(i: T) => ({ ...i, url: contentPath(site, i) });

/** The same path in every language of the site (lists and homes exist in each). */
const inEveryLanguage = (site: Site, path: string) => Object.fromEntries(siteLanguages(site).map((l) => [l, `${languagePrefix(site, l)}${path}`]));

/** A tag's page in the page's language, for the links under a title. */
const tagLinks = (site: Site, language: string, tags: string[]) =>
  tags.map((name) => ({ name, url: `${languagePrefix(site, language)}/tag/${tagInAddress(name)}` }));

/**
 * Categories as a reader's page links them: the name in the page's language where the category has
 * one, the page in that language. The site's categories are read once a site version.
 */
async function categoryLinks(c: Context<AppEnv>, site: ReaderSite, language: string) {
  const all = await perSiteVersion(site, "categories", () => siteCategories(c.get("db"), site));
  const prefix = languagePrefix(site, language);
  return (ids: number[]) =>
    ids.flatMap((id) => {
      const category = all.get(id);
      return category
        ? [{ id, name: inLanguage(category.names, language, category.name), slug: category.slug, url: `${prefix}/c/${category.slug}` }]
        : [];
    });
}

/** A list of contents as templates read it: each with its URL, categories, tag links, author and reading time (one query for the list). */
async function listed<T extends { id: number; slug: string; language: string; tags: string[]; categoryIds: number[] }>(
  c: Context<AppEnv>,
  site: ReaderSite,
  language: string,
  items: T[],
) {
  const [facts, linkCategories] = await Promise.all([
    readerFacts(
      c.get("db"),
      site,
      items.map((i) => i.id),
    ),
    categoryLinks(c, site, language),
  ]);
  return items.map((i) => ({
    ...linkedIn(site)(i),
    categories: linkCategories(i.categoryIds),
    tagLinks: tagLinks(site, language, i.tags),
    ...facts.get(i.id),
  }));
}

/**
 * A page of a site's list (home, category, tag) as templates read it, held per isolate under the
 * site's version like its menus: the same list under another address (`?utm_source=…`) renders
 * without reading D1 again.
 */
const listOf = (c: Context<AppEnv>, site: ReaderSite, query: Omit<ContentQuery, "size"> & { language: string }) =>
  perSiteVersion(site, `list:${JSON.stringify(query)}`, async () => {
    const list = await listPublished(c.get("db"), memberScope(site.tenantId), site, { ...query, size: PAGE_SIZE }, now());
    return { total: list.total, items: await listed(c, site, query.language, list.items) };
  });

/** The home page of a language: its newest public contents, a page at a time. */
export async function homePage(c: Context<AppEnv>, site: ReaderSite, language: string): Promise<Page> {
  const page = pageOf(c);
  if (page === undefined) return notFoundIn(language);
  const list = await listOf(c, site, { language, page });
  const pages = pagination(page, list.total);
  if (!pages) return notFoundIn(language);
  return {
    template: "index",
    status: 200,
    title: null,
    language,
    versions: inEveryLanguage(site, "/"),
    data: {
      contents: list.items,
      pagination: pages,
      page_base: `${languageHome(site, language)}?page=`,
    },
  };
}

/**
 * The contents of a free tag in one language, at the address with a dash for each of its spaces (the
 * page of `river festival` is /tag/river-festival); a tag nothing of that language carries is not found.
 */
export async function tagPage(c: Context<AppEnv>, site: ReaderSite, tagParam: string, language: string): Promise<Page> {
  const page = pageOf(c);
  if (page === undefined) return notFoundIn(language);
  // Hono has decoded the path once; decoding again would read `%25` as a broken escape.
  const asked = tagParam.slice(0, 60);
  let tag = asked;
  let list = await listOf(c, site, { tag, language, page });
  if (list.total === 0) {
    // No tag spelled as asked, but one at this address: `river festival` at /tag/river-festival.
    const spelled = await tagAsSpelled(c.get("db"), site, asked, language, now());
    if (spelled !== undefined && tagInAddress(spelled) === tagInAddress(asked)) {
      tag = spelled;
      list = await listOf(c, site, { tag, language, page });
    }
  }
  const pages = pagination(page, list.total);
  if (list.total === 0 || !pages) return notFoundIn(language);
  const path = `/tag/${tagInAddress(tag)}`;
  const languages = await languagesWithTag(c.get("db"), site, tag, now());
  return {
    template: "tag",
    status: 200,
    title: `#${tag}`,
    language,
    versions: Object.fromEntries(languages.map((l) => [l, `${languagePrefix(site, l)}${path}`])),
    data: {
      tag,
      contents: list.items,
      pagination: pages,
      page_base: `${languagePrefix(site, language)}${path}?page=`,
    },
  };
}

/** How many of the newest contents a search page without words shows. */
const RECENT_ON_SEARCH = 6;

/** The site's search in one language: words of `?q=` through the full-text index. */
export async function searchPage(c: Context<AppEnv>, site: ReaderSite, language: string): Promise<Page> {
  const page = pageOf(c);
  if (page === undefined) return notFoundIn(language);
  const query = (c.req.query("q") ?? "").slice(0, 200);
  const words = query.match(/[\p{L}\p{N}]+/gu) ?? [];
  const list = words.length
    ? await listPublished(c.get("db"), memberScope(site.tenantId), site, { q: query, language, page, size: PAGE_SIZE }, now())
    : { items: [], total: 0 };
  const pages = pagination(page, list.total);
  if (!pages) return notFoundIn(language);
  // A search page without words shows the newest contents under its hint: a start for the reader.
  const recent = words.length
    ? []
    : (await listPublished(c.get("db"), memberScope(site.tenantId), site, { language, page: 1, size: RECENT_ON_SEARCH }, now())).items;
  const path = `/search?q=${encodeURIComponent(query)}`;
  // Result pages are not for search engines.
  return {
    template: "search",
    status: 200,
    title: query || "Search",
    // The theme's words, in the page's language: "Suche", or "Suche: Hafen" with words (the words alone for a theme without them).
    titleKey: query ? "search_for" : "search",
    noindex: true,
    language,
    versions: inEveryLanguage(site, path),
    data: {
      query,
      contents: await listed(c, site, language, list.items),
      recent: await listed(c, site, language, recent),
      pagination: pages,
      page_base: `${languagePrefix(site, language)}${path}&page=`,
    },
  };
}

/** A category's page in one language: its contents and those of its subcategories. */
export async function categoryPage(c: Context<AppEnv>, site: ReaderSite, slug: string, language: string): Promise<Page> {
  const category = await categoryBySlug(c.get("db"), site, slug);
  if (!category) return notFoundIn(language);
  const page = pageOf(c);
  if (page === undefined) return notFoundIn(language);
  const list = await listOf(c, site, { categoryId: category.id, language, page });
  const pages = pagination(page, list.total);
  if (!pages) return notFoundIn(language);
  const path = `/c/${category.slug}`;
  const name = inLanguage(category.names, language, category.name);
  const description = inLanguage(category.descriptions, language, category.description);
  return {
    template: "category",
    status: 200,
    title: category.seoTitle ?? name,
    description: category.seoDescription ?? description,
    language,
    versions: inEveryLanguage(site, path),
    data: {
      category: { ...category, name, description },
      contents: list.items,
      pagination: pages,
      page_base: `${languagePrefix(site, language)}${path}?page=`,
    },
  };
}

/** A content's page, with its article and breadcrumb JSON-LD; `previewId` a content shown before it is public. */
export async function contentPage(c: Context<AppEnv>, site: ReaderSite, slug: string, language: string, previewId?: number): Promise<Page> {
  // A slug is at most 80 characters (admin/params.ts): a longer path is no content, asked of no one.
  const id = slug.length > 80 ? undefined : await publicContentId(c.get("db"), site, slug, language, now(), previewId);
  if (id === undefined) return notFoundIn(language);
  const [content, facts] = await Promise.all([
    publishedContent(c.get("db"), memberScope(site.tenantId), id, now(), previewId),
    readerFacts(c.get("db"), site, [id]),
  ]);
  const item = linkedIn(site);
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
  const prefix = languagePrefix(site, language);
  const linkedCategories = (await categoryLinks(c, site, language))(content.categories.map((cat) => cat.id));
  const crumbs = [
    { name: site.name, url: `${origin}${prefix}/` },
    ...linkedCategories.slice(0, 1).map((cat) => ({ name: cat.name, url: `${origin}${cat.url}` })),
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
    versions: Object.fromEntries([content, ...content.translations].map((version) => [version.language, contentPath(site, version)])),
    seo: {
      jsonld: [article, breadcrumbs],
      ...(content.seo.canonical ? { canonical: content.seo.canonical } : {}),
      ...(image ? { image, imageAlt: content.coverAlt } : {}),
    },
    data: {
      content: {
        ...content,
        ...facts.get(id),
        tagLinks: tagLinks(site, language, content.tags),
        categories: linkedCategories,
        translations: content.translations.map(item),
      },
    },
  };
}
