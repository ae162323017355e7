/** ROUGE-1 and ROUGE-L F1 (Lin 2004) over lower-cased words, no stemming, stop words kept. */

function counts(words: readonly string[]): Map<string, number> {
  const table = new Map<string, number>();
  for (const word of words) table.set(word, (table.get(word) ?? 0) + 1);
  return table;
}

const f1 = (overlap: number, candidate: number, reference: number) => (overlap === 0 ? 0 : (2 * overlap) / (candidate + reference));

/** Unigram overlap, each word counted at most as often as the reference has it. */
export function rouge1(candidate: readonly string[], reference: readonly string[]): number {
  const wanted = counts(reference);
  let overlap = 0;
  for (const [word, n] of counts(candidate)) overlap += Math.min(n, wanted.get(word) ?? 0);
  return f1(overlap, candidate.length, reference.length);
}

/** The longest common subsequence of words, over both lengths. */
export function rougeL(candidate: readonly string[], reference: readonly string[]): number {
  const row = new Array<number>(reference.length + 1).fill(0);
  for (let i = 1; i <= candidate.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= reference.length; j++) {
      const above = row[j]!;
      row[j] = candidate[i - 1] === reference[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return f1(row[reference.length]!, candidate.length, reference.length);
}
