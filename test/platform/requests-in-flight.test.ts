import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RequestsInFlight } from "../../src/platform/in-flight";

// A count of its own per test: the shared isolate's holds whatever the other files left answering.
let inFlight: RequestsInFlight;
const othersInFlight = () => inFlight.othersWaiting();
beforeEach(() => {
  inFlight = new RequestsInFlight();
});
afterEach(() => vi.useRealTimers());

/** A request being answered until `finish` is called. */
function answering() {
  let finish!: () => void;
  const done = inFlight.countWhileAnswered(new Request("https://gateway.test/std/ai/ner"), () => new Promise<void>((resolve) => (finish = resolve)));
  return { finish, done };
}

describe("requests in flight, as the long computations see them", () => {
  it("tells a computation when another request waits, and not when it is alone", async () => {
    expect(othersInFlight()).toBe(false);
    const own = answering();
    expect(othersInFlight()).toBe(false);
    const other = answering();
    expect(othersInFlight()).toBe(true);
    other.finish();
    await other.done;
    expect(othersInFlight()).toBe(false);
    own.finish();
    await own.done;
  });

  it("stops counting a request that failed, and one whose end never came after a minute", async () => {
    await expect(inFlight.countWhileAnswered(new Request("https://gateway.test/"), () => Promise.reject(new Error("D1 is down")))).rejects.toThrow();
    vi.useFakeTimers({ toFake: ["Date"] });
    answering(); // a client that went away: its `finally` never runs
    const own = answering();
    expect(othersInFlight()).toBe(true);
    vi.setSystemTime(Date.now() + 61_000);
    // A minute on, the abandoned one no longer holds computations back.
    const fresh = answering();
    expect(othersInFlight()).toBe(false);
    own.finish();
    fresh.finish();
    await Promise.all([own.done, fresh.done]);
  });
});
