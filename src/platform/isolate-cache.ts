/**
 * A bounded map kept for the life of an isolate: at most `size` entries, the least recently used
 * dropped first, each trusted for `ttlMs` (none: until dropped). What the hot path would otherwise
 * ask D1 for on every request (verified keys, sites, cached answers).
 */
export class IsolateCache<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly size: number,
    private readonly ttlMs = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.until <= Date.now()) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, until: Date.now() + this.ttlMs });
    if (this.#entries.size > this.size) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** Drops every entry the test picks (a revoked key, a changed site). */
  forget(test: (value: V) => boolean): void {
    for (const [key, entry] of this.#entries) if (test(entry.value)) this.#entries.delete(key);
  }
}
