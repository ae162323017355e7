import { ApiError } from "../platform/errors";
import { requestsInFlight } from "../platform/in-flight";

/**
 * The embedded engines are CPU work, and an isolate runs one piece of JavaScript at a time. Run
 * side by side, eight large texts interleave and every other request of the isolate (a tax
 * lookup, `/health`) waits behind all of them; run one after another, it waits behind at most the
 * current one's next step (the long engines pause between steps). Requests beyond MAX_WAITING
 * waiting are refused with 503 rather than held in memory.
 *
 * Waiters poll: the runtime cancels a request that waits on a promise only another request can
 * resolve (it takes it for hung), and drops a request whose client went away without running its
 * `finally`, so the turn is a lease that lapses rather than a lock that must be released.
 */
const MAX_WAITING = 32;
const LEASE_MS = 10_000;
const POLL_MS = 10;

let heldSince: number | undefined;
let waiting = 0;

const isHeld = () => heldSince !== undefined && Date.now() - heldSince < LEASE_MS;

export async function oneAtATime<T>(work: () => T | Promise<T>): Promise<T> {
  if (isHeld()) {
    if (waiting >= MAX_WAITING) throw new ApiError(503, "The text engines are busy; retry in a few seconds");
    waiting++;
    try {
      while (isHeld()) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    } finally {
      waiting--;
    }
  }
  heldSince = Date.now();
  try {
    return await work();
  } finally {
    heldSince = undefined;
  }
}

/**
 * How long a step boundary gives way while other requests are in flight. One turn of the event
 * loop (a 0 ms timer) lets each waiting request run only up to its next await, so a request that
 * reads D1 four times waited four steps; a few milliseconds let their answers arrive and run.
 */
const GIVE_WAY_MS = 10;

/** A step boundary of a long computation: the isolate answers whatever else has arrived, then goes on. */
export const pauseForOtherRequests = () => new Promise<void>((resolve) => setTimeout(resolve, requestsInFlight.othersWaiting() ? GIVE_WAY_MS : 0));
