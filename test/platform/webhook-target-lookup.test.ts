import { afterEach, describe, expect, it, vi } from "vitest";
import { callerUrlProblem } from "../../src/platform/outbound-url";

/** The resolver unreachable, as on a laptop without network running `npm run dev`. */
const resolverDown = () => vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("fetch failed"));
const RESOLVER = { DOH_RESOLVER_URL: undefined };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a webhook target whose host cannot be looked up", () => {
  it("is refused in production in plain words, the lookup's failure not shown", async () => {
    resolverDown();
    expect(await callerUrlProblem({ ...RESOLVER, ENVIRONMENT: "production" }, "https://shop.example.com/hooks/tax")).toBe(
      "the host shop.example.com could not be resolved",
    );
  });

  it("says in development what works without a lookup, and takes a receiver on 127.0.0.1 without asking the resolver", async () => {
    const lookups = resolverDown();
    expect(await callerUrlProblem({ ...RESOLVER, ENVIRONMENT: "development" }, "https://shop.example.com/hooks/tax")).toBe(
      "the host shop.example.com could not be resolved (in development, a receiver on localhost or 127.0.0.1 needs no lookup)",
    );
    lookups.mockClear();
    expect(await callerUrlProblem({ ...RESOLVER, ENVIRONMENT: "development" }, "http://127.0.0.1:9999/hooks/tax")).toBeUndefined();
    expect(lookups).not.toHaveBeenCalled();
  });
});
