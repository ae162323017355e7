import { and, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../platform/database";
import { contents } from "./schema";

/** The tags with letters beyond ASCII compared in one look-up, at most: a bound on its work. */
const MAX_COMPARED = 1000;

/** What makes two spellings one tag: case, and a space or a dash between words (`River festival`, `river-festival`). */
export const tagKey = (tag: string) => tag.toLowerCase().replaceAll(" ", "-");

/** A tag in its page's address: a dash for each space (`/tag/river-festival`), the rest escaped. */
export const tagInAddress = (tag: string) => encodeURIComponent(tag.replaceAll(" ", "-"));

/**
 * How the contents that `where` selects spell each of `tags`, by its `tagKey` (`waterfront` →
 * `Waterfront`, `öffnungszeiten` → `Öffnungszeiten`, `river-festival` → `river festival`), the first in
 * binary order where they spell a tag several ways. SQLite's lower() folds ASCII alone: tags with
 * other letters are fetched by their length, at most a thousand, and compared here.
 */
export async function tagSpellings(db: Database, where: SQL | undefined, tags: string[]): Promise<Map<string, string>> {
  const tag = sql<string>`tag.value`;
  const ofContents = sql`${contents}, json_each(${contents.tags}) as tag`;
  const [ascii, otherLetters] = await db.batch([
    db
      .selectDistinct({ tag })
      .from(ofContents)
      .where(
        and(
          where,
          inArray(
            sql`lower(replace(${tag}, ' ', '-'))`,
            tags.map((t) => tagKey(t)),
          ),
        ),
      ),
    db
      .selectDistinct({ tag })
      .from(ofContents)
      .where(and(where, inArray(sql`length(${tag})`, [...new Set(tags.map((t) => [...t].length))]), sql`${tag} GLOB '*[^ -~]*'`))
      .orderBy(tag)
      .limit(MAX_COMPARED),
  ]);
  const spelling = new Map<string, string>();
  for (const { tag: existing } of [...ascii, ...otherLetters].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))) {
    const key = tagKey(existing);
    if (!spelling.has(key)) spelling.set(key, existing);
  }
  return spelling;
}
