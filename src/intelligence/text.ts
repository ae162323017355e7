/** Text primitives shared by the embedded engine: sentences, words, stop words. */

export interface Span {
  text: string;
  start: number;
  end: number;
}

// The `$` alternative means a run of sentence text is never rejected, so no start is tried twice
// (100,000 characters without an ending: about 1 ms; test/intelligence/input-bounds.test.ts).
// eslint-disable-next-line regexp/no-super-linear-move
const SENTENCE_END = /[^.!?。！？\n]+(?:[.!?。！？]+["'”’)\]]*|\n+|$)/gu;
const ABBREVIATION = /\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|Inc|Ltd|Corp|Co|vs|etc|e\.g|i\.e|U\.S|No)\.$/i;

/** Sentences with their offsets; a full stop after a common abbreviation does not end one. */
export function sentences(text: string): Span[] {
  const spans: Span[] = [];
  let pending: Span | undefined;
  for (const match of text.matchAll(SENTENCE_END)) {
    const raw = match[0];
    const start = match.index + (raw.length - raw.trimStart().length);
    const body = raw.trim();
    if (!body) continue;
    const span = pending
      ? { text: text.slice(pending.start, start + body.length), start: pending.start, end: start + body.length }
      : { text: body, start, end: start + body.length };
    if (ABBREVIATION.test(body) && !raw.includes("\n")) {
      pending = span;
      continue;
    }
    pending = undefined;
    spans.push(span);
  }
  if (pending) spans.push(pending);
  return spans;
}

/** Sentences back into a text: a space after each, but after a full-width ending (。！？), where Chinese and Japanese put none. */
export const joinSentences = (picked: string[]) =>
  picked.reduce((text, sentence) => (text === "" ? sentence : `${text}${/[。！？][」』”）]*$/u.test(text) ? "" : " "}${sentence}`), "");

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase().replace(/’/g, "'"));
}

export const wordCount = (text: string) => (text.match(WORD) ?? []).length;

/** A light suffix stripper: enough to let "markets" and "market" meet; not a full stemmer. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) return word.slice(0, -1);
  return word;
}

// The common English function words (the SMART and NLTK lists agree on these).
export const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below between both but by
  can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't
  have haven't having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into is
  isn't it it's its itself just let's me more most mustn't my myself no nor not now of off on once only or other ought our ours
  ourselves out over own same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them
  themselves then there there's these they they'd they'll they're they've this those through to too under until up upon us very was
  wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom why why's will with
  won't would wouldn't you you'd you'll you're you've your yours yourself yourselves said says say one two new many much may might
  must shall also yet still however within without via per onto among amid let lets use uses used make makes made get gets got
  like just well even back way take takes`.split(/\s+/),
);
