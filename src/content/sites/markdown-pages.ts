import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { users } from "../../platform/auth/tables";
import type { Database } from "../../platform/database";
import { isPublic, ofSite } from "../delivery/service";
import { categories, contentCategories, contents, type Site } from "../schema";
import { contentPath, inLanguage, languageHome, nativeName, siteLanguages } from "./languages";

/**
 * A site as AI agents read it (https://llmstxt.org): `/llms.txt`, the site's name, summary and
 * sections (its categories, in each language) with a link to the Markdown version of each content,
 * and that Markdown version, `/<slug>.md` (or the page's address asked for with
 * `Accept: text/markdown`): front matter, the title and the body as its authors wrote it, with
 * its links made absolute. Public contents only, as on the site's pages.
 */

/** The most contents `/llms.txt` lists, the newest first: its size, and the work of making it, stay bounded whatever the site holds. */
export const LLMS_TXT_CONTENTS = 500;
/** An intro is cut to this many characters in `/llms.txt`: a line per content, not its text. */
const LLMS_TXT_INTRO_CHARACTERS = 200;

/** Text inside a Markdown link's brackets: brackets, backslashes and line breaks would end or break it. */
const linkText = (text: string) => text.replace(/\s+/g, " ").replace(/[\\[\]]/g, (ch) => `\\${ch}`);

const oneLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
};

/** A content's Markdown version: its page's address with `.md` after the slug. */
export const markdownUrl = (origin: string, site: Site, content: { slug: string; language: string }) => `${origin}${contentPath(site, content)}.md`;

/**
 * The site's sections: its categories in the order of its tree, each named in a language, a
 * subcategory after its parent ("Sport / Football", "Sport / Fußball").
 */
async function sections(db: Database, site: Site): Promise<{ id: number; nameIn: (language: string) => string }[]> {
  const rows = await db
    .select({ id: categories.id, parentId: categories.parentId, name: categories.name, names: categories.names })
    .from(categories)
    .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id)))
    .orderBy(asc(categories.position), asc(categories.id));
  const ordered: { id: number; nameIn: (language: string) => string }[] = [];
  const visit = (parentId: number | null, path: typeof rows, depth: number) => {
    // A tree is a few levels deep; the bound keeps a cycle written into the table from looping.
    if (depth > 10) return;
    for (const row of rows.filter((r) => r.parentId === parentId)) {
      const lineage = [...path, row];
      ordered.push({ id: row.id, nameIn: (language) => lineage.map((category) => inLanguage(category.names, language, category.name)).join(" / ") });
      visit(row.id, lineage, depth + 1);
    }
  };
  visit(null, [], 0);
  return ordered;
}

/** `/llms.txt` of a site: what it is, then its newest LLMS_TXT_CONTENTS public contents by section and language. */
export async function llmsTxt(db: Database, site: Site, origin: string, now: string): Promise<string> {
  const listed = ofSite(site, isPublic(now), eq(contents.noindex, false));
  const newest = db.select({ id: contents.id }).from(contents).where(listed).orderBy(desc(contents.publishAt)).limit(LLMS_TXT_CONTENTS);
  const [rows, links, tree] = await Promise.all([
    db
      .select({ id: contents.id, slug: contents.slug, language: contents.language, title: contents.title, intro: contents.intro })
      .from(contents)
      .where(listed)
      .orderBy(desc(contents.publishAt))
      .limit(LLMS_TXT_CONTENTS + 1),
    db
      .select({ contentId: contentCategories.contentId, categoryId: contentCategories.categoryId })
      .from(contentCategories)
      .where(and(eq(contentCategories.tenantId, site.tenantId), inArray(contentCategories.contentId, newest))),
    sections(db, site),
  ]);
  const shown = rows.slice(0, LLMS_TXT_CONTENTS);
  // A content in several categories is listed once, in the first of them in the tree's order.
  const rank = new Map(tree.map((section, i) => [section.id, i]));
  const sectionOf = new Map<number, number>();
  for (const link of links) {
    const at = rank.get(link.categoryId);
    const before = sectionOf.get(link.contentId);
    if (at !== undefined && (before === undefined || at < before)) sectionOf.set(link.contentId, at);
  }
  const languages = siteLanguages(site);
  const lines = [`# ${site.name}`, "", `> ${oneLine(site.seoDescription ?? `The contents of ${site.name}.`, 500)}`, ""];
  lines.push(
    `The site's home is ${origin}${languageHome(site, site.defaultLanguage)}; it is written in ${languages.map((l) => `${nativeName(l)} (${l})`).join(", ")}.`,
    "Each link below is the Markdown version of a content: its page is the same address without `.md`.",
  );
  if (rows.length > shown.length) lines.push(`This list holds the ${LLMS_TXT_CONTENTS} newest contents; ${origin}/sitemap.xml lists them all.`);
  for (const language of languages) {
    const ofLanguage = shown.filter((r) => r.language === language);
    const suffix = language === site.defaultLanguage ? "" : ` (${nativeName(language)})`;
    const groups = [...tree.map((section) => section.nameIn(language)), "Other contents"].map((name) => ({ name, items: [] as typeof shown }));
    for (const row of ofLanguage) groups[sectionOf.get(row.id) ?? tree.length]!.items.push(row);
    for (const group of groups.filter((g) => g.items.length > 0)) {
      lines.push("", `## ${group.name}${suffix}`, "");
      for (const item of group.items) {
        const intro = oneLine(item.intro, LLMS_TXT_INTRO_CHARACTERS);
        lines.push(`- [${linkText(item.title)}](${markdownUrl(origin, site, item)})${intro ? `: ${intro}` : ""}`);
      }
    }
  }
  lines.push("", "## Optional", "");
  for (const language of languages) {
    const home = `${origin}${languageHome(site, language)}`;
    lines.push(`- [News feed, ${nativeName(language)}](${home}feed.xml): the 20 newest contents in RSS`);
  }
  lines.push(`- [Sitemap](${origin}/sitemap.xml): the address of every page`);
  return `${lines.join("\n")}\n`;
}

/** A YAML value that reads back as the same string: JSON's double-quoted strings are YAML's too. */
const yaml = (value: string) => JSON.stringify(value);

/** `[text](url)` and `![alt](url)`, the URL bare or in `<…>`. */
const INLINE_LINK = /(\]\(\s*)(<[^>\n]*>|[^\s)]+)/g;
/** A reference definition: `[label]: url`. */
const REFERENCE = /^(\s{0,3}\[[^\]\n]+\]:\s*)(<[^>\n]*>|\S+)/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** A URL relative to the page made absolute; one with a scheme (`https:`, `mailto:`) left as it is. */
function absolute(url: string, base: string): string {
  const bracketed = url.startsWith("<") && url.endsWith(">");
  const bare = bracketed ? url.slice(1, -1) : url;
  if (/^[a-z][a-z0-9+.-]*:/i.test(bare)) return url;
  try {
    const resolved = new URL(bare, base).href;
    return bracketed ? `<${resolved}>` : resolved;
  } catch {
    return url;
  }
}

/** A line with `rewrite` applied to its text outside code spans (between runs of as many backticks), the spans kept as written. */
function outsideCodeSpans(line: string, rewrite: (text: string) => string): string {
  let written = "";
  let at = 0;
  for (;;) {
    const open = line.indexOf("`", at);
    if (open < 0) return written + rewrite(line.slice(at));
    let end = open;
    while (line[end] === "`") end++;
    const ticks = end - open;
    // The closing run has exactly as many backticks; a longer or shorter one is part of the span.
    let close = line.indexOf("`", end);
    while (close >= 0) {
      let after = close;
      while (line[after] === "`") after++;
      if (after - close === ticks) break;
      close = line.indexOf("`", after);
    }
    if (close < 0) return written + rewrite(line.slice(at));
    written += rewrite(line.slice(at, open)) + line.slice(open, close + ticks);
    at = close + ticks;
  }
}

/** The body's links and images with their relative addresses made absolute, code blocks and code spans left as written. */
export function withAbsoluteLinks(markdown: string, base: string): string {
  let fence: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const marker = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return line;
      }
      if (marker) {
        fence = marker;
        return line;
      }
      const defined = line.replace(REFERENCE, (_, head: string, url: string) => `${head}${absolute(url, base)}`);
      return outsideCodeSpans(defined, (text) => text.replace(INLINE_LINK, (_, head: string, url: string) => `${head}${absolute(url, base)}`));
    })
    .join("\n");
}

/** The Markdown version of a public content of the site, by its slug and language; undefined when there is none. */
export async function contentMarkdown(db: Database, site: Site, origin: string, slug: string, language: string, now: string) {
  const [content] = await db
    .select({
      id: contents.id,
      slug: contents.slug,
      language: contents.language,
      title: contents.title,
      intro: contents.intro,
      body: contents.bodyMarkdown,
      cover: contents.coverImages,
      coverAlt: contents.coverAlt,
      publishAt: contents.publishAt,
      updatedAt: contents.updatedAt,
      tags: contents.tags,
      description: contents.seoDescription,
      canonical: contents.canonical,
      author: users.fullName,
    })
    .from(contents)
    .leftJoin(users, eq(users.id, contents.authorId))
    .where(ofSite(site, eq(contents.slug, slug), eq(contents.language, language), isPublic(now)))
    .limit(1);
  if (!content) return undefined;
  const filed = await db
    .select({ name: categories.name })
    .from(contentCategories)
    .innerJoin(categories, eq(categories.id, contentCategories.categoryId))
    .where(and(eq(contentCategories.tenantId, site.tenantId), eq(contentCategories.contentId, content.id)));
  const page = `${origin}${contentPath(site, content)}`;
  const front = [
    `title: ${yaml(content.title)}`,
    `description: ${yaml(content.description ?? content.intro)}`,
    `url: ${yaml(content.canonical ? absolute(content.canonical, page) : page)}`,
    `language: ${yaml(content.language)}`,
    `published: ${yaml(content.publishAt!)}`,
    `updated: ${yaml(content.updatedAt > content.publishAt! ? content.updatedAt : content.publishAt!)}`,
    // An author is named only by a name, never by an email address (as on the page).
    ...(content.author && !content.author.includes("@") ? [`author: ${yaml(content.author)}`] : []),
    ...(content.cover ? [`image: ${yaml(absolute(content.cover, page))}`] : []),
    ...(content.cover && content.coverAlt ? [`image_alt: ${yaml(content.coverAlt)}`] : []),
    ...(filed.length ? [`categories: [${filed.map((c) => yaml(c.name)).join(", ")}]`] : []),
    ...(content.tags.length ? [`tags: [${content.tags.map(yaml).join(", ")}]`] : []),
  ];
  const body = withAbsoluteLinks(content.body.trim(), page);
  // A body that opens with a heading of its own keeps it as the title; any other gets the content's title.
  const [first = "", ...rest] = body.split("\n");
  const [heading, text] = /^#\s/.test(first) ? [first, rest.join("\n").trim()] : [`# ${content.title}`, body];
  const intro = content.intro.trim() ? `${content.intro.trim()}\n\n` : "";
  return `---\n${front.join("\n")}\n---\n\n${heading}\n\n${intro}${text}\n`;
}
