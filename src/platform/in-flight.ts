/**
 * The requests this isolate is answering, by when they began: a long computation gives way while
 * others are waiting for the isolate (intelligence/compute-gate.ts). A request whose client went
 * away may end without its `finally`, so an entry lapses after a minute instead of counting forever.
 */
const answering = new Map<Request, number>();
const LAPSE_MS = 60_000;

export async function countedWhileAnswered<T>(request: Request, answer: () => Promise<T>): Promise<T> {
  answering.set(request, Date.now());
  try {
    return await answer();
  } finally {
    answering.delete(request);
  }
}

/** Whether this isolate is answering more than one request (the caller's own among them). */
export function othersInFlight(): boolean {
  const lapsed = Date.now() - LAPSE_MS;
  for (const [request, began] of answering) if (began < lapsed) answering.delete(request);
  return answering.size > 1;
}
