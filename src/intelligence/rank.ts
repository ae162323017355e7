/** An undirected weighted graph as adjacency maps: `graph[a].get(b)` is the weight of edge a–b. */
export type WeightedGraph = Map<number, number>[];

/** Adds `weight` to the edge a–b, both ways. */
export function addEdge(graph: WeightedGraph, a: number, b: number, weight: number): void {
  graph[a]!.set(b, (graph[a]!.get(b) ?? 0) + weight);
  graph[b]!.set(a, (graph[b]!.get(a) ?? 0) + weight);
}

export const emptyGraph = (nodes: number): WeightedGraph => Array.from({ length: nodes }, () => new Map<number, number>());

/**
 * Weighted PageRank: the ranking step of TextRank. Adjacency lists, not a matrix: the work and
 * memory follow the edges, so a text of 15,000 distinct words is a sparse graph, not 225 million
 * cells.
 */
export function pageRank(
  graph: WeightedGraph,
  {
    damping = 0.85,
    teleport,
    iterations = 40,
    tolerance = 1e-6,
  }: { damping?: number; teleport?: readonly number[]; iterations?: number; tolerance?: number } = {},
): number[] {
  const n = graph.length;
  if (n === 0) return [];
  // Where a random walk restarts: everywhere alike, or as `teleport` says (personalised PageRank).
  const restart = teleport ? Float64Array.from(teleport, (t) => (1 - damping) * t) : new Float64Array(n).fill((1 - damping) / n);
  // For each node, its neighbours and the share of its weight that flows to each.
  const flows = graph.map((edges) => {
    let out = 0;
    for (const weight of edges.values()) out += weight;
    return { to: Int32Array.from(edges.keys()), share: Float64Array.from(edges.values(), (weight) => weight / out) };
  });
  let scores = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < iterations; iteration++) {
    next.set(restart);
    for (let j = 0; j < n; j++) {
      const { to, share } = flows[j]!;
      const flowing = damping * scores[j]!;
      for (let k = 0; k < to.length; k++) next[to[k]!]! += share[k]! * flowing;
    }
    let change = 0;
    for (let i = 0; i < n; i++) change += Math.abs(next[i]! - scores[i]!);
    [scores, next] = [next, scores];
    if (change < tolerance) break;
  }
  return Array.from(scores);
}
