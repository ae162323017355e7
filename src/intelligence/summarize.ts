import type { z } from "@hono/zod-openapi";
import type { summarizeParams } from "./params";
import { addEdge, emptyGraph, pageRank } from "./rank";
import { sentences, STOP_WORDS, stem, wordCount, words } from "./text";

/** Bounds of the summary in words. */
export type SummaryOptions = Pick<z.output<typeof summarizeParams>, "minLength" | "maxLength">;

export interface Summary {
  sentences: string[];
  originalLength: number;
  summaryLength: number;
}

const contentWords = (sentence: string) =>
  new Set(
    words(sentence)
      .filter((w) => !STOP_WORDS.has(w))
      .map(stem),
  );

/** TextRank's sentence similarity: shared content words over the log of both lengths. */
function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size < 2 || b.size < 2) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (Math.log(a.size) + Math.log(b.size));
}

/**
 * A sentence without its asides in round brackets ("the Korean Central News Agency (KCNA)"): a
 * summary spends its words on the statement. Kept because it gained in both ROUGE-1 and ROUGE-L on
 * GUM's non-news documents (0.313/0.237 → 0.327/0.249). A sentence that is all aside stays whole.
 */
function withoutAsides(sentence: string): string {
  if (!sentence.includes("(")) return sentence;
  // Linear patterns only (no run of spaces scanned again from each of its positions): the text may be 20,000 characters.
  const statement = sentence
    .replace(/\([^()]*\)/g, "")
    .replace(/\s+/g, " ")
    .replace(/ (?=[,.;:!?])/g, "")
    .trim();
  return wordCount(statement) > 0 ? statement : sentence;
}

function truncateToWords(sentence: string, limit: number): string {
  const matches = [...sentence.matchAll(/\S+/g)];
  if (matches.length <= limit) return sentence;
  const last = matches[limit - 1]!;
  return `${sentence.slice(0, last.index + last[0].length).replace(/[,;:]$/, "")}…`;
}

/**
 * How fast the restart weight falls with a sentence's place, and the fewest words a candidate has:
 * both chosen on GUM's non-news documents (docs/intelligence.md, `npm run eval`).
 */
const LEAD_DECAY = 1.5;
const CANDIDATE_WORDS = 6;

/** The restart distribution of the walk: candidate i weighs 1/(i+1)^LEAD_DECAY, as writers put the gist first. */
function leadBias(count: number): number[] {
  const weights = Array.from({ length: count }, (_, i) => 1 / (i + 1) ** LEAD_DECAY);
  const total = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w) => w / total);
}

/**
 * Extractive summary (TextRank, Mihalcea & Tarau 2004, with a restart biased to the opening
 * sentences as in PositionRank): sentences ranked by personalised PageRank over their similarity
 * graph, taken best first while they fit within maxLength words, shown in text order, each without
 * its asides in brackets. A sentence of fewer than six words (a dateline, a heading, a byline) is a
 * candidate only when no other is.
 * The best sentence always leads: when it does not fit, it is cut at maxLength words.
 */
export function summarize(text: string, options: SummaryOptions): Summary {
  const spans = sentences(text);
  const originalLength = wordCount(text);
  if (originalLength <= options.minLength) {
    return { sentences: spans.map((s) => s.text), originalLength, summaryLength: originalLength };
  }
  const statements = spans.map((s) => withoutAsides(s.text));
  const sizes = statements.map(wordCount);
  const long = spans.map((_, i) => i).filter((i) => sizes[i]! >= CANDIDATE_WORDS);
  const candidates = long.length > 0 ? long : spans.map((_, i) => i);
  const bags = candidates.map((i) => contentWords(statements[i]!));
  const graph = emptyGraph(bags.length);
  for (let i = 0; i < bags.length; i++) {
    for (let j = i + 1; j < bags.length; j++) {
      const weight = similarity(bags[i]!, bags[j]!);
      if (weight > 0) addEdge(graph, i, j, weight);
    }
  }
  const scores = pageRank(graph, { teleport: leadBias(candidates.length) });
  // Ties (no shared words at all) go to the earlier sentence: leads carry most news.
  const order = candidates
    .map((_, k) => k)
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .map((k) => candidates[k]!);

  const best = order[0]!;
  if (sizes[best]! > options.maxLength) {
    const cut = truncateToWords(statements[best]!, options.maxLength);
    return { sentences: [cut], originalLength, summaryLength: wordCount(cut) };
  }
  const chosen: number[] = [];
  let length = 0;
  for (const index of order) {
    if (length + sizes[index]! > options.maxLength) continue;
    chosen.push(index);
    length += sizes[index]!;
    if (length >= options.minLength && length >= options.maxLength * 0.8) break;
  }
  const picked = chosen.sort((a, b) => a - b).map((i) => statements[i]!);
  return { sentences: picked, originalLength, summaryLength: length };
}
