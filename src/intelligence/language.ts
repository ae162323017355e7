import { eld } from "eld/extrasmall";
import { roundScore } from "./scores";

export interface LanguageCandidate {
  code: string;
  name: string;
  confidence: number;
}

export interface DetectedLanguage extends LanguageCandidate {
  /** eld's own judgement: enough n-grams and a clear margin over the runner-up. */
  reliable: boolean;
  topCandidates: LanguageCandidate[];
}

const names = new Intl.DisplayNames(["en"], { type: "language" });
export const languageName = (code: string) => names.of(code) ?? code;

/** The 60 languages eld's smallest database knows; docs/intelligence.md lists them. */
export const DETECTABLE_LANGUAGES: readonly string[] = Object.values(eld.info().Languages);

// eld scores each language on its own (0..1); a softmax at this temperature turns the margins
// between them into confidences that add up to 1 over the candidates shown.
const TEMPERATURE = 0.1;

/** Trigram language identification (eld). */
export function detectLanguage(text: string, candidates = 5): DetectedLanguage | undefined {
  const result = eld.detect(text);
  if (!result.language) return undefined;
  const scores = Object.entries(result.getScores()).sort((a, b) => b[1] - a[1]).slice(0, Math.max(candidates, 5));
  const top = scores[0]?.[1] ?? 0;
  const weights = scores.map(([code, score]) => [code, Math.exp((score - top) / TEMPERATURE)] as const);
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0) || 1;
  const topCandidates = weights.slice(0, candidates).map(([code, weight]) => ({ code, name: languageName(code), confidence: roundScore(weight / total) }));
  const best = topCandidates.find((c) => c.code === result.language) ?? { code: result.language, name: languageName(result.language), confidence: 0 };
  return { ...best, reliable: result.isReliable(), topCandidates };
}

/** Below this confidence the winner is not trusted to refuse a text. */
const UNSURE_BELOW = 0.6;
/** English this close to the winner (its softmax share) is taken as the text's language. */
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
  // Unsure (a weak winner, or English close behind it, as in short sentences): English is tried, not refused.
  if (!detected.reliable || detected.confidence < UNSURE_BELOW || english >= ENGLISH_CLOSE) return "en";
  return detected.code;
}
