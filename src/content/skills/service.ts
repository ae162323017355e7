import { eq, like } from "drizzle-orm";
import type { Bindings } from "../../platform/env";
import type { Database } from "../../platform/database";
import { generateText, languageOf, summaryOf, translateText } from "../../intelligence/service";
import { createContent } from "../admin/contents";
import { textRoomOf } from "../admin/text-room";
import { slugFrom } from "../slugs";
import { contents, type Site } from "../schema";
import { englishName } from "../sites/languages";
import { inTenant, type TenantScope } from "../tenancy/scope";

export const ARTICLE_STYLES = ["news", "blog", "guide", "formal", "casual"] as const;

/** A slug not yet used in the site and language: the title's, or with -2, -3 … after it. */
async function freeSlug(db: Database, scope: TenantScope, site: Site, language: string, base: string): Promise<string> {
  const taken = new Set(
    (
      await db
        .select({ slug: contents.slug })
        .from(contents)
        .where(inTenant(contents.tenantId, scope, eq(contents.siteId, site.id), eq(contents.language, language), like(contents.slug, `${base}%`)))
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Text without Markdown marks, for an intro. */
const plain = (markdown: string) =>
  markdown
    .replace(/[#>*_`[\]]/g, "")
    .replace(/\(https?:[^)]*\)/g, "")
    .replace(/\s+/g, " ")
    .trim();

/** Cut at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function cutToCharacters(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), Math.floor(max / 2))).replace(/(?<![\s,;:.])[\s,;:.]+$/, "")}…`;
}

/** C5: an article written by the language model, saved as a draft of the site for an editor to review. */
export async function generateArticle(
  env: Bindings,
  db: Database,
  scope: TenantScope,
  site: Site,
  authorId: number,
  input: { topic: string; words: number; style: (typeof ARTICLE_STYLES)[number]; language?: string },
) {
  const language = input.language ?? site.defaultLanguage;
  const { text, engine } = await generateText(
    env,
    "You write articles for a web site. Answer in Markdown only: the first line is '# ' followed by the title, then the article in paragraphs, with subheadings where they help. No preamble.",
    `Write a ${input.style} article in ${englishName(language) ?? language} of about ${input.words} words about: ${input.topic}`,
    Math.min(4096, input.words * 3),
  );
  const heading = /^#[ \t]+(\S.*)$/m.exec(text);
  const title = cutToCharacters((heading?.[1] ?? input.topic).trim(), 200);
  const body = (heading ? text.replace(heading[0], "") : text).trim();
  const intro = cutToCharacters(plain(body.split(/\n{2,}/).find((p) => !p.startsWith("#")) ?? body), 300);
  const slug = await freeSlug(db, scope, site, language, slugFrom(title, language) || "article");
  const draft = await createContent(db, scope, authorId, { siteId: site.id, title, slug, intro, bodyMarkdown: body, language }, textRoomOf(env));
  return {
    contentId: draft.id,
    siteId: site.id,
    status: draft.status,
    title,
    slug,
    language,
    intro,
    bodyMarkdown: body,
    words: body.split(/\s+/).filter(Boolean).length,
    engine,
  };
}

/** Whole sentences that fit `max` when they fill a third of it at least; else the words that fit, then "…". */
function cutToSentences(text: string, max: number): string {
  if (text.length <= max) return text;
  // A full-width ending (。！？) ends a sentence with no space after it.
  const ends = [...text.slice(0, max + 1).matchAll(/[.!?]["')\]]?(?=\s)|[。！？][」』”）]?/gu)].map((end) => end.index + end[0].length);
  const last = ends.filter((end) => end <= max).at(-1);
  return last !== undefined && last >= max / 3 ? text.slice(0, last) : cutToCharacters(text, max);
}

/** C6: an extractive summary of at most `maxLength` characters. */
export async function summarizeContent(content: string, maxLength: number) {
  // About five characters a word: the summariser counts words, the caller characters.
  const summary = cutToSentences(await summaryOf(content, Math.max(5, Math.ceil(maxLength / 5))), maxLength);
  return { summary, length: summary.length, maxLength, language: await languageOf(content) };
}

/** C7: a text in another language, by the translation provider group I uses. */
export async function translateContent(env: Bindings, content: string, targetLang: string, sourceLang?: string) {
  const source = sourceLang ?? (await languageOf(content));
  const { text, provider } = await translateText(env, content, source, targetLang);
  return { content: text, sourceLang: source, targetLang, provider };
}
