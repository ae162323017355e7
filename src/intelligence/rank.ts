/** Weighted PageRank over an undirected similarity graph: the ranking step of TextRank. */
export function pageRank(weights: number[][], damping = 0.85, iterations = 40, tolerance = 1e-6): number[] {
  const n = weights.length;
  if (n === 0) return [];
  const outWeight = weights.map((row) => row.reduce((sum, w) => sum + w, 0));
  let scores = new Array<number>(n).fill(1 / n);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const next = scores.map((_, i) => {
      let incoming = 0;
      for (let j = 0; j < n; j++) if (weights[j]![i]! > 0 && outWeight[j]! > 0) incoming += (weights[j]![i]! / outWeight[j]!) * scores[j]!;
      return (1 - damping) / n + damping * incoming;
    });
    const change = next.reduce((sum, value, i) => sum + Math.abs(value - scores[i]!), 0);
    scores = next;
    if (change < tolerance) break;
  }
  return scores;
}
