import type { z } from "@hono/zod-openapi";
import { eld } from "eld/small";
import calibration from "./models/language.json";
import { plattScaled } from "./linear-model";
import type { languageCandidateSchema } from "./schema";
import { roundScore } from "./scores";

type LanguageCandidate = z.output<typeof languageCandidateSchema>;

export interface DetectedLanguage extends LanguageCandidate {
  /** The confidence is at or above the threshold chosen on held-out sentences (`npm run train`). */
  reliable: boolean;
  topCandidates: LanguageCandidate[];
}

/**
 * How eld's scores become confidences, fitted by `npm run train`: the winner's is the chance that
 * it is right, σ(a·(margin over the runner-up + topScoreWeight·its score) + b); the runners-up
 * share the rest as a softmax of their scores at `temperature`. Reliable from `reliableAbove`.
 */
export interface LanguageCalibration {
  temperature: number;
  topScoreWeight: number;
  a: number;
  b: number;
  reliableAbove: number;
  source: string;
}

const names = new Intl.DisplayNames(["en"], { type: "language" });
export const languageName = (code: string) => names.of(code) ?? code;

/** The 60 languages eld's small database knows; docs/intelligence.md lists them. */
export const DETECTABLE_LANGUAGES: readonly string[] = Object.values(eld.info().Languages);

/**
 * Scripts that, of the 60 languages, only one writes: a text mostly in one of them is that
 * language whatever its n-grams say (eld misses short Korean sentences). Kana marks Japanese,
 * whose kanji count with it.
 */
const SCRIPT_LANGUAGES: { code: string; letters: RegExp; marker?: RegExp }[] = [
  { code: "ko", letters: /\p{Script=Hangul}/gu },
  { code: "ja", letters: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/gu, marker: /[\p{Script=Hiragana}\p{Script=Katakana}]/u },
  { code: "th", letters: /\p{Script=Thai}/gu },
  { code: "el", letters: /\p{Script=Greek}/gu },
  { code: "ka", letters: /\p{Script=Georgian}/gu },
  { code: "hy", letters: /\p{Script=Armenian}/gu },
];

function scriptLanguage(text: string): string | undefined {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (!letters) return undefined;
  return SCRIPT_LANGUAGES.find((s) => (!s.marker || s.marker.test(text)) && (text.match(s.letters)?.length ?? 0) * 2 > letters)?.code;
}

/** Each candidate language with eld's score (0..1), best first; a single-script text's language alone. */
export function languageScores(text: string): [code: string, score: number][] {
  const byScript = scriptLanguage(text);
  if (byScript) return [[byScript, 1]];
  const result = eld.detect(text);
  if (!result.language) return [];
  return Object.entries(result.getScores()).sort((a, b) => b[1] - a[1]);
}

/** A softmax of the scores at a temperature: shares that add up to 1 over the candidates. */
export function softmaxShares(scores: [string, number][], temperature: number): [code: string, share: number][] {
  const top = scores[0]?.[1] ?? 0;
  const weights = scores.map(([code, score]) => [code, Math.exp((score - top) / temperature)] as const);
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0) || 1;
  return weights.map(([code, weight]) => [code, weight / total]);
}

/** What the winner's chance of being right is read from: its margin over the runner-up and, weighted, its own score. */
export const winnerEvidence = (scores: [string, number][], topScoreWeight: number) =>
  (scores[0]?.[1] ?? 0) - (scores[1]?.[1] ?? 0) + topScoreWeight * (scores[0]?.[1] ?? 0);

/** Each candidate's confidence, eld's best first: the winner's calibrated chance, the rest shared by the runners-up. */
export function languageConfidences(
  scores: [string, number][],
  fitted: Omit<LanguageCalibration, "reliableAbove" | "source">,
): [code: string, confidence: number][] {
  if (!scores.length) return [];
  const winner = plattScaled(fitted, winnerEvidence(scores, fitted.topScoreWeight));
  const shares = softmaxShares(scores, fitted.temperature);
  const others = 1 - shares[0]![1];
  // None above the winner, which keeps eld's order; what is left is the chance of a language outside the 60.
  return shares.map(([code, share], i) => [code, i === 0 ? winner : others > 0 ? Math.min(winner, ((1 - winner) * share) / others) : 0]);
}

/** Trigram language identification (eld), with confidences calibrated on held-out sentences. */
export function detectLanguage(text: string, candidates = 5): DetectedLanguage | undefined {
  const confidences = languageConfidences(languageScores(text), calibration);
  if (!confidences.length) return undefined;
  const topCandidates = confidences
    .slice(0, candidates)
    .map(([code, confidence]) => ({ code, name: languageName(code), confidence: roundScore(confidence) }));
  const [code, confidence] = confidences[0]!;
  return { code, name: languageName(code), confidence: roundScore(confidence), reliable: confidence >= calibration.reliableAbove, topCandidates };
}

/** English with at least this share is taken as the text's language when the winner is not reliable. */
const ENGLISH_CLOSE = 0.1;

/**
 * The language of a text for the English-only analysers: the caller's word if given, else
 * detection; text too short to tell is taken as English rather than refused.
 */
export function textLanguage(text: string, declared?: string): string {
  if (declared) return declared.toLowerCase().split(/[-_]/)[0]!;
  const detected = detectLanguage(text, 5);
  if (!detected) return "en";
  const english = detected.topCandidates.find((c) => c.code === "en")?.confidence ?? 0;
  // Unsure (not reliable, or English close behind, as in short sentences): English is tried, not refused.
  if (!detected.reliable || english >= ENGLISH_CLOSE) return "en";
  return detected.code;
}
