import type { z } from "@hono/zod-openapi";
import type { keywordSchema } from "./schema";
import { addEdge, emptyGraph, pageRank } from "./rank";
import { STOP_WORDS, stem } from "./text";
import { roundScore } from "./scores";
import { pauseForOtherRequests } from "./compute-gate";

type Keyword = z.output<typeof keywordSchema>;

const TOKEN = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;
const MAX_PHRASE_WORDS = 4;
const WINDOW = 3;

// One collator for the whole sort: localeCompare makes one per call, which was most of a 30,000-character text's time.
const byTerm = new Intl.Collator("en");

const isCandidateWord = (word: string) => !STOP_WORDS.has(word) && word.length > 2 && !/^\d+$/.test(word);

/** Runs of content words between stop words and punctuation: RAKE's candidate phrases. */
function candidatePhrases(text: string): string[][] {
  const phrases: string[][] = [];
  let current: string[] = [];
  for (const token of text.match(TOKEN) ?? []) {
    const word = token.toLowerCase();
    if (isCandidateWord(word)) current.push(word);
    else {
      if (current.length) phrases.push(current);
      current = [];
    }
  }
  if (current.length) phrases.push(current);
  return phrases;
}

/**
 * Keywords by TextRank over a co-occurrence graph of content words (window 3), merged by stem.
 * Key phrases (two to four adjacent content words, seen at least twice or made of strong words)
 * score the mean of their words' ranks plus a bonus per repetition. Scores are scaled to 0..1.
 */
export async function extractKeywords(text: string, maxKeywords: number, includePhrases: boolean): Promise<Keyword[]> {
  const phrases = candidatePhrases(text);
  // Steps of tens of milliseconds each on the largest text: the isolate answers others between them.
  await pauseForOtherRequests();
  const stems = [...new Set(phrases.flat().map(stem))];
  if (stems.length === 0) return [];
  const index = new Map(stems.map((s, i) => [s, i]));
  const graph = emptyGraph(stems.length);
  for (const phrase of phrases) {
    const ids = phrase.map((w) => index.get(stem(w))!);
    ids.forEach((a, i) => {
      for (let j = i + 1; j < Math.min(ids.length, i + WINDOW); j++) {
        const b = ids[j]!;
        if (a !== b) addEdge(graph, a, b, 1);
      }
    });
  }
  await pauseForOtherRequests();
  const ranks = pageRank(graph);
  await pauseForOtherRequests();
  const top = Math.max(...ranks);

  // The surface form shown for a stem is its most frequent spelling in the text.
  const frequency = new Map<string, number>();
  const spelling = new Map<string, Map<string, number>>();
  for (const word of phrases.flat()) {
    const s = stem(word);
    frequency.set(s, (frequency.get(s) ?? 0) + 1);
    const forms = spelling.get(s) ?? new Map<string, number>();
    forms.set(word, (forms.get(word) ?? 0) + 1);
    spelling.set(s, forms);
  }
  const surface = (s: string) => [...spelling.get(s)!.entries()].sort((a, b) => b[1] - a[1])[0]![0];

  const results: Keyword[] = stems.map((s, i) => ({ term: surface(s), score: ranks[i]! / top, frequency: frequency.get(s)! }));
  if (includePhrases) {
    await pauseForOtherRequests();
    const phraseCounts = new Map<string, { words: string[]; count: number }>();
    for (const phrase of phrases) {
      for (let size = 2; size <= MAX_PHRASE_WORDS; size++) {
        for (let start = 0; start + size <= phrase.length; start++) {
          const words = phrase.slice(start, start + size);
          const key = words.map(stem).join(" ");
          const entry = phraseCounts.get(key) ?? { words, count: 0 };
          entry.count++;
          phraseCounts.set(key, entry);
        }
      }
    }
    for (const [key, { words, count }] of phraseCounts) {
      const wordScores = key.split(" ").map((s) => ranks[index.get(s)!]! / top);
      const mean = wordScores.reduce((a, b) => a + b, 0) / wordScores.length;
      // A phrase seen once is only a candidate if every word of it is strong by itself.
      if (count < 2 && Math.min(...wordScores) < 0.4) continue;
      results.push({ term: words.join(" "), score: mean * (1 + 0.25 * (count - 1)) + 0.05 * (words.length - 1), frequency: count });
    }
  }
  await pauseForOtherRequests();
  const best = Math.max(...results.map((r) => r.score));
  return withoutOverlaps(
    results.sort((a, b) => b.score - a.score || b.frequency - a.frequency || byTerm.compare(a.term, b.term)),
    maxKeywords,
  ).map((r) => ({ ...r, score: roundScore(r.score / best) }));
}

/** Whether one run of stems holds the other, in order and adjacent ("ultimate guy" in "annual ultimate guy"). */
function contains(outer: string[], inner: string[]): boolean {
  if (inner.length > outer.length) return false;
  for (let start = 0; start + inner.length <= outer.length; start++) if (inner.every((s, i) => outer[start + i] === s)) return true;
  return false;
}

/**
 * The first `limit` keywords, where a phrase and the phrases inside it or around it count once: the
 * best scored stays. Single words stay beside the phrases that hold them (a word and a phrase name
 * different things). It stops at `limit`: each phrase is compared with those kept, and a text of
 * thousands of phrases compared with all of them held the isolate for a quarter of a second.
 */
function withoutOverlaps(ranked: Keyword[], limit: number): Keyword[] {
  const kept: Keyword[] = [];
  const keptPhrases: string[][] = [];
  for (const keyword of ranked) {
    if (kept.length === limit) break;
    const stems = keyword.term.split(" ").map(stem);
    if (stems.length > 1) {
      if (keptPhrases.some((phrase) => contains(phrase, stems) || contains(stems, phrase))) continue;
      keptPhrases.push(stems);
    }
    kept.push(keyword);
  }
  return kept;
}
