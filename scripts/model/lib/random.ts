/**
 * A seeded generator of numbers in [0, 1), so that training and resampling give the same result
 * on every run. A linear congruential generator read from its high bits: its low bits repeat
 * with short periods (the lowest alternates), which left a shuffle taken modulo n far from random.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
