import { describe, expect, it } from "vitest";
import { packWeights, WeightTable } from "../../src/intelligence/linear-model";

describe("a model's weight table", () => {
  // Buckets as the tagger writes them (a feature's row times the tags, plus the tag), dense and sparse, bucket 0 among them.
  const weights: [number, number][] = [];
  for (let i = 0; i < 5000; i++) weights.push([i * 9 + (i % 9), Math.sin(i) * 3]);
  for (let i = 0; i < 500; i++) weights.push([16_000_000 + i * 7919, -Math.cos(i)]);
  const packed = packWeights(weights);
  const table = new WeightTable(packed);

  it("gives back each weight as it was packed (to 1/32767 of the largest)", () => {
    for (const [bucket, weight] of weights) expect(Math.abs(table.weightOf(bucket) - weight)).toBeLessThanOrEqual(packed.scale / 2);
  });

  it("gives 0 for a bucket the model has no weight for, near or far from those it has", () => {
    const known = new Set(weights.map(([bucket]) => bucket));
    for (const bucket of [1, 2, 11, 44_999, 45_001, 15_999_999, 16_000_001, 2 ** 31]) {
      expect(known.has(bucket)).toBe(false);
      expect(table.weightOf(bucket)).toBe(0);
    }
  });
});
