import { DETECTABLE_LANGUAGES, languageScores, softmaxShares, winnerEvidence, type LanguageCalibration } from "../../../src/intelligence/language";
import type { LanguageSentence } from "./corpora";
import { plattScaled } from "../../../src/intelligence/linear-model";
import { fitCalibration, logLoss } from "./logistic-regression";

/** Of the answers marked reliable on the calibration sentences, at least this share must be right. */
export const RELIABLE_PRECISION = 0.98;
const TEMPERATURES = Array.from({ length: 40 }, (_, i) => 0.01 * (i + 1));
const TOP_SCORE_WEIGHTS = [0, 0.25, 0.5, 1, 2];
const THRESHOLDS = Array.from({ length: 99 }, (_, i) => 0.01 * (i + 1));

/**
 * Fits `LanguageCalibration` on labelled sentences, sentences in languages eld does not know
 * included (their answers are always wrong, as they would be for such a caller): the runners-up's
 * temperature by the log loss of the right language among the known ones, the winner's chance by
 * Platt scaling of its evidence (the weight of its own score chosen by log loss), and the lowest
 * confidence from which answers are right at least `RELIABLE_PRECISION` of the time.
 */
export function calibrateLanguage(sentences: LanguageSentence[], source: string): LanguageCalibration {
  const scored = sentences.map((s) => {
    const scores = languageScores(s.text);
    return { language: s.language, scores, right: scores[0]?.[0] === s.language ? 1 : 0 };
  });
  const known = scored.filter((s) => DETECTABLE_LANGUAGES.includes(s.language));
  const temperatureLoss = (temperature: number) =>
    known.reduce((sum, s) => sum - Math.log(Math.max(softmaxShares(s.scores, temperature).find(([code]) => code === s.language)?.[1] ?? 0, 1e-6)), 0);
  const losses = TEMPERATURES.map(temperatureLoss);
  const temperature = TEMPERATURES[losses.indexOf(Math.min(...losses))]!;
  const ys = scored.map((s) => s.right);
  const fits = TOP_SCORE_WEIGHTS.map((topScoreWeight) => {
    const evidence = scored.map((s) => winnerEvidence(s.scores, topScoreWeight));
    const { a, b } = fitCalibration(evidence, ys);
    const chances = evidence.map((e) => plattScaled({ a, b }, e));
    return { topScoreWeight, a, b, chances, loss: logLoss(chances, ys) };
  });
  const best = fits.reduce((x, y) => (y.loss < x.loss ? y : x));
  const precisionFrom = (threshold: number) => {
    const above = best.chances.flatMap((p, i) => (p >= threshold ? [ys[i]!] : []));
    return above.length ? above.reduce((sum, y) => sum + y, 0) / above.length : 1;
  };
  const reliableAbove = THRESHOLDS.find((t) => precisionFrom(t) >= RELIABLE_PRECISION) ?? 1;
  const round = (n: number) => Number(n.toFixed(4));
  return {
    temperature: round(temperature),
    topScoreWeight: best.topScoreWeight,
    a: round(best.a),
    b: round(best.b),
    reliableAbove: round(reliableAbove),
    source,
  };
}
