import type { z } from "@hono/zod-openapi";
import nlp from "compromise";
import datesPlugin from "compromise-dates";

import { pauseForOtherRequests } from "./compute-gate";
import { looksFamiliar } from "./familiarity";
import {
  entityTokens,
  taggerKnows,
  tagEntities,
  type EntityLabel,
  type EntityTaggerModel,
  type PersonNames,
  type Token,
  type TokenHints,
} from "./entity-tagger";
import taggerModel from "./models/entities.json";
import personNamesModel from "./models/person-names.json";
import type { entitySchema } from "./schema";
import { roundScore } from "./scores";
import { sentences } from "./text";
import { type EntityType, PATTERN_TYPES } from "./vocabulary";

nlp.plugin(datesPlugin);

type Entity = z.output<typeof entitySchema>;

/** The opening that `reliable` reads: enough words to tell, at a bounded cost. */
const MAX_FAMILIARITY_CHARACTERS = 5_000;

const CURRENCY_SYMBOL = "[$€£¥₹₩₽₺₫₪฿]";
const CURRENCY_CODE = "(?:USD|EUR|GBP|JPY|CNY|RMB|CHF|CAD|AUD|INR|KRW|BRL|MXN|SEK|NOK|DKK|PLN|HKD|SGD)";
const AMOUNT = "\\d{1,3}(?:[,.\\s]\\d{3})*(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)?";
const SCALE = "(?:\\s?(?:thousand|million|billion|trillion|[kKmMbB]n?)\\b)?";
const PATTERNS: { type: EntityType; regex: RegExp; confidence: number }[] = [
  { type: "EMAIL", regex: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b/g, confidence: 0.99 },
  {
    type: "MONEY",
    regex: new RegExp(
      `(?:${CURRENCY_SYMBOL}\\s?(?:${AMOUNT})${SCALE}|\\b${CURRENCY_CODE}\\s?(?:${AMOUNT})${SCALE}|\\b(?:${AMOUNT})${SCALE}\\s?(?:${CURRENCY_CODE}\\b|${CURRENCY_SYMBOL}|(?:dollars|euros|pounds|yen|yuan|rupees)\\b))`,
      "g",
    ),
    confidence: 0.95,
  },
  { type: "PERCENT", regex: /(?:\b\d+(?:[.,]\d+)?\s?(?:%|percent\b|per cent\b))/g, confidence: 0.97 },
  // International or national numbers with separators: at least 7 digits, at most 15 (E.164).
  { type: "PHONE", regex: /(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,8}){1,4}(?![\w-])/g, confidence: 0.85 },
];

const digits = (s: string) => s.replace(/\D/g, "").length;

function patternEntities(text: string): Entity[] {
  const found: Entity[] = [];
  for (const { type, regex, confidence } of PATTERNS) {
    for (const match of text.matchAll(regex)) {
      const value = match[0];
      if (type === "PHONE" && (digits(value) < 7 || digits(value) > 15 || /^\d{4}[-.]\d{2}[-.]\d{2}$/.test(value))) continue;
      found.push({ text: value, type, startOffset: match.index, endOffset: match.index + value.length, confidence });
    }
  }
  return found;
}

// compromise includes punctuation and leading prepositions in its matches; the offsets are narrowed to the name itself.
const LEADING = /^(?:(?:on|in|at|by|from|until|since|before|after|during|the)\s+)+/i;
const TRAILING = /(?<![\s,;:!?"'“”‘’()[\]{}])[\s,;:!?"'“”‘’()[\]{}]+$|(?<!\b(?:Inc|Ltd|Corp|Co|Jr|Sr|St|Dr|Mr|Mrs|Ms|Bros|L\.L\.C|U\.S|U\.K)|\.)\.+$/;

/** What the entity views of compromise have in common. */
interface View {
  json(options: { offset: true }): unknown;
}

interface CompromiseMatch {
  text: string;
  offset: { start: number; length: number };
}

interface CompromiseSentence {
  terms: { tags: string[]; offset: { start: number; length: number } }[];
}

function narrowed(text: string, match: CompromiseMatch, type: EntityType, confidence: number): Entity | undefined {
  let start = match.offset.start;
  let value = text.slice(start, start + match.offset.length);
  const lead = type === "DATE" ? (value.match(LEADING)?.[0].length ?? 0) : 0;
  start += lead;
  value = value.slice(lead);
  let trimmed = value.replace(/^[\s"'“‘(]+/, "");
  start += value.length - trimmed.length;
  for (let previous = ""; previous !== trimmed;) {
    previous = trimmed;
    trimmed = trimmed.replace(TRAILING, "");
  }
  if (!trimmed) return undefined;
  return { text: trimmed, type, startOffset: start, endOffset: start + trimmed.length, confidence };
}

type Document = ReturnType<typeof nlp> & { dates(): View };

/** compromise's readings that the tagger takes as hints. */
const READINGS: [EntityLabel, (doc: Document) => View][] = [
  ["PER", (doc) => doc.people()],
  ["ORG", (doc) => doc.organizations()],
  ["LOC", (doc) => doc.places()],
];

/** compromise's term tags, most telling first: a term's part of speech is the first it has. */
const PARTS_OF_SPEECH = [
  "Honorific",
  "Person",
  "Place",
  "Organization",
  "Demonym",
  "Acronym",
  "ProperNoun",
  "Value",
  "Date",
  "Pronoun",
  "Noun",
  "Verb",
  "Adjective",
  "Adverb",
  "Preposition",
  "Determiner",
  "Conjunction",
];

/** compromise's lexicon tags grouped into the classes the tagger learns from. */
const LEXICON_CLASSES: Record<string, string> = {
  FemaleName: "first",
  MaleName: "first",
  FirstName: "first",
  LastName: "last",
  Person: "person",
  Honorific: "title",
  City: "city",
  Country: "country",
  Place: "place",
  Region: "place",
  Organization: "org",
  SportsTeam: "team",
  Demonym: "demonym",
};

// compromise types its model as `object`; the lexicon (word → tag or tags) is documented in its README.
const lexicon = (nlp.model() as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon;

function lexiconClass(phrase: string): string | undefined {
  const tags = lexicon[phrase];
  if (!tags) return undefined;
  // A word the lexicon knows only as something else (a verb, an adjective) is a cue too.
  return (Array.isArray(tags) ? tags : [tags]).map((t) => LEXICON_CLASSES[t]).find(Boolean) ?? "word";
}

/** The gazetteer of people's names the shipped tagger learned with (written by `npm run train`). */
const PERSON_NAMES: ReadonlySet<string> = new Set((personNamesModel satisfies PersonNames).names.split("\n"));

/**
 * What compromise makes of each token: the reading (person, place, organisation) of the span it
 * is in, its part of speech, and the lexicon class of the longest phrase of up to three words
 * that holds it; and whether the word is in the gazetteer of people's names.
 * `base` is the document's offset in the tokens' text.
 */
export function entityHints(doc: ReturnType<typeof nlp>, text: string, tokens: readonly Token[], base = 0, personNames = PERSON_NAMES): TokenHints[] {
  const hints: TokenHints[] = tokens.map((token) => (personNames.has(token.text) ? { personName: true } : {}));
  for (const [label, view] of READINGS) {
    for (const match of view(doc as Document).json({ offset: true }) as CompromiseMatch[]) {
      const span = narrowed(text, { ...match, offset: { start: base + match.offset.start, length: match.offset.length } }, "PERSON", 0);
      if (!span) continue;
      tokens.forEach((token, i) => {
        if (token.start >= span.startOffset && token.end <= span.endOffset) hints[i]!.reading ??= label;
      });
    }
  }
  const terms = (doc.json({ offset: true, terms: { offset: true } }) as CompromiseSentence[]).flatMap((sentence) => sentence.terms);
  let term = 0;
  tokens.forEach((token, i) => {
    while (term < terms.length && base + terms[term]!.offset.start + terms[term]!.offset.length <= token.start) term++;
    const found = terms[term];
    if (found && base + found.offset.start <= token.start)
      hints[i]!.partOfSpeech = PARTS_OF_SPEECH.find((tag) => found.tags.includes(tag)) ?? "other";
  });
  const lower = tokens.map((t) => t.text.toLowerCase());
  for (const length of [3, 2, 1]) {
    for (let i = 0; i + length <= tokens.length; i++) {
      const found = lexiconClass(lower.slice(i, i + length).join(" "));
      if (!found) continue;
      for (let j = i; j < i + length; j++) hints[j]!.lexicon ??= found;
    }
  }
  return hints;
}

/** compromise's hints for a text parsed on its own (the trainer's sentences, with the gazetteer it is writing). */
export const hintsOfText = (text: string, tokens: readonly Token[], personNames?: ReadonlySet<string>) =>
  entityHints(nlp(text), text, tokens, 0, personNames);

const TAGGER_TYPES: Record<Exclude<EntityLabel, "MISC">, EntityType> = { PER: "PERSON", LOC: "LOCATION", ORG: "ORGANIZATION" };

// compromise-dates' matches are rules, not a model; this is our estimate of how often they are right.
const DATE_CONFIDENCE = 0.85;

/**
 * compromise tags about 20,000 characters a second on the reference machine: the text is tagged
 * a group of sentences at a time, with a pause between groups in which the isolate answers other
 * requests. A group is at most this long (a longer sentence is cut at a space): about 20 ms of
 * tagging, then as long again for the tagger, so that `/health` waits well within its 100 ms.
 */
const MODEL_CHUNK_CHARACTERS = 400;

function* chunks(text: string): Generator<{ start: number; end: number }> {
  let current: { start: number; end: number } | undefined;
  for (const span of sentences(text)) {
    if (current && span.end - current.start > MODEL_CHUNK_CHARACTERS) {
      yield current;
      current = undefined;
    }
    current = current ? { start: current.start, end: span.end } : { start: span.start, end: span.end };
    while (current.end - current.start > MODEL_CHUNK_CHARACTERS) {
      const space = text.lastIndexOf(" ", current.start + MODEL_CHUNK_CHARACTERS);
      const cut: number = space > current.start ? space : current.start + MODEL_CHUNK_CHARACTERS;
      yield { start: current.start, end: cut };
      current = { start: cut, end: current.end };
    }
  }
  if (current) yield current;
}

async function modelEntities(text: string, wanted: Set<EntityType>): Promise<Entity[]> {
  const names = (["PERSON", "LOCATION", "ORGANIZATION"] as const).some((type) => wanted.has(type));
  if (!names && !wanted.has("DATE")) return [];
  const found: Entity[] = [];
  for (const chunk of chunks(text)) {
    const doc = nlp<Document>(text.slice(chunk.start, chunk.end));
    if (wanted.has("DATE")) {
      // dates: false keeps compromise-dates from resolving each date, which only its value needs.
      for (const match of doc.dates().json({ offset: true, dates: false } as { offset: true }) as CompromiseMatch[]) {
        const entity = narrowed(
          text,
          { ...match, offset: { start: chunk.start + match.offset.start, length: match.offset.length } },
          "DATE",
          DATE_CONFIDENCE,
        );
        if (entity) found.push(entity);
      }
    }
    if (names) {
      // The tagger's step is as long as compromise's: the isolate answers other requests between the two.
      await pauseForOtherRequests();
      const tokens = entityTokens(text.slice(chunk.start, chunk.end), chunk.start);
      for (const entity of tagEntities(taggerModel satisfies EntityTaggerModel, tokens, entityHints(doc, text, tokens, chunk.start))) {
        if (entity.label === "MISC") continue;
        const startOffset = tokens[entity.first]!.start;
        const endOffset = tokens[entity.last]!.end;
        found.push({
          text: text.slice(startOffset, endOffset),
          type: TAGGER_TYPES[entity.label],
          startOffset,
          endOffset,
          confidence: roundScore(entity.confidence),
        });
      }
    }
    await pauseForOtherRequests();
  }
  return found;
}

/**
 * Entities of the requested types, in text order. Where two overlap, the pattern types win
 * (an email is not also a person), then the longer match.
 */
export async function extractEntities(text: string, types: readonly EntityType[], options: { patternsOnly: boolean }): Promise<Entity[]> {
  const wanted = new Set(types);
  const candidates = [...patternEntities(text), ...(options.patternsOnly ? [] : await modelEntities(text, wanted))];
  const rank = (e: Entity) => (PATTERN_TYPES.includes(e.type) ? 1 : 0) * 1e6 + (e.endOffset - e.startOffset);
  const kept: Entity[] = [];
  for (const entity of candidates.sort((a, b) => rank(b) - rank(a))) {
    if (kept.some((k) => entity.startOffset < k.endOffset && k.startOffset < entity.endOffset)) continue;
    kept.push(entity);
  }
  return kept.filter((e) => wanted.has(e.type)).sort((a, b) => a.startOffset - b.startOffset);
}

/**
 * Whether a text looks like what the name tagger learned from (script, length, and the share of
 * its distinct words the tagger has weights for); the answer's `reliable`.
 */
export function entityTextLooksFamiliar(text: string): boolean {
  const distinct = new Set(
    entityTokens(text.slice(0, MAX_FAMILIARITY_CHARACTERS))
      .map((t) => t.text.toLowerCase())
      .filter((w) => /\p{L}/u.test(w)),
  );
  const known = [...distinct].filter((word) => taggerKnows(taggerModel satisfies EntityTaggerModel, word)).length;
  return looksFamiliar("entities", text, distinct.size ? known / distinct.size : 0);
}
