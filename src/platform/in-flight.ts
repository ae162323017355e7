const LAPSE_MS = 60_000;

/**
 * The requests an isolate is answering, by when they began: a long computation gives way while
 * others are waiting for the isolate (intelligence/compute-gate.ts). A request whose client went
 * away may end without its `finally`, so an entry lapses after a minute instead of counting forever.
 */
export class RequestsInFlight {
  readonly #answering = new Map<Request, number>();

  async countWhileAnswered<T>(request: Request, answer: () => Promise<T>): Promise<T> {
    this.#answering.set(request, Date.now());
    try {
      return await answer();
    } finally {
      this.#answering.delete(request);
    }
  }

  /** Whether more than one request is being answered (the caller's own among them). */
  othersWaiting(): boolean {
    const lapsed = Date.now() - LAPSE_MS;
    for (const [request, began] of this.#answering) if (began < lapsed) this.#answering.delete(request);
    return this.#answering.size > 1;
  }
}

/** This isolate's requests. */
export const requestsInFlight = new RequestsInFlight();
