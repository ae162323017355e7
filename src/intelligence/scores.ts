/** Scores of group I answers: three decimals, shares that add up to 1, the best label. */
export const roundScore = (value: number) => Math.round(value * 1000) / 1000;

/** Each label's weight as a share of the total, rounded. */
export function shares(labels: readonly string[], weights: readonly number[]): Record<string, number> {
  const total = weights.reduce((a, b) => a + b, 0);
  return Object.fromEntries(labels.map((label, i) => [label, roundScore(weights[i]! / total)]));
}

/** The highest-scoring label and its score; on a tie, the first. */
export function topScore<L extends string>(scores: Record<L, number>): [L, number] {
  return (Object.entries(scores) as [L, number][]).reduce((best, entry) => (entry[1] > best[1] ? entry : best));
}

/** English gets every analyser of the embedded engine; other languages only the language-independent ones. */
export const languageSupportFor = (language: string) => (language === "en" ? ("full" as const) : ("partial" as const));
