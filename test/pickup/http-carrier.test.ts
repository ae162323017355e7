import { afterEach, describe, expect, it, vi } from "vitest";
import { CarrierRejected, CarrierUnavailable, httpCarrier } from "../../src/pickup/carriers";
import type { PickupTask } from "../../src/pickup/schema";

const task = { id: 7, serviceCode: "acme", authorizeId: "AUTH-1", requestId: "r-1", referenceOrderNumber: "SO-1" } as PickupTask;
const carrier = httpCarrier("https://carrier.test/api/");

/** The carrier's side of the HTTP boundary: one answer, and the requests it got. */
function carrierAnswers(body: BodyInit | null, status = 200) {
  const requests: Request[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    requests.push(new Request(input, init));
    return new Response(body, { status, headers: { "Content-Type": "application/json" } });
  });
  return requests;
}

afterEach(() => vi.restoreAllMocks());

describe("API10 · the HTTP carrier's answers are read, not trusted", () => {
  it("creates an order with the app's hot api key and reads its id", async () => {
    const requests = carrierAnswers(JSON.stringify({ order_id: "ACME-42", extra: { ignored: true } }));
    await expect(carrier.createPickupOrder(task, "hot-key")).resolves.toEqual({ orderId: "ACME-42" });
    expect(requests[0]!.url).toBe("https://carrier.test/api/pickups");
    expect(requests[0]!.headers.get("Authorization")).toBe("Bearer hot-key");
    // The same key on a retry of the same step, so a carrier that honours it creates one order.
    expect(requests[0]!.headers.get("Idempotency-Key")).toBe(`pickup-${task.id}-${Date.parse(task.updatedAt)}`);
  });

  it.each([
    ["no order id", JSON.stringify({ ok: true })],
    ["an order id that is not a string", JSON.stringify({ order_id: { $gt: "" } })],
    ["an order id of 10,000 characters", JSON.stringify({ order_id: "x".repeat(10_000) })],
    ["a body that is not JSON", "<html>hello</html>"],
  ])("treats a 200 with %s as the carrier being unavailable, to be tried again", async (_, body) => {
    carrierAnswers(body);
    await expect(carrier.createPickupOrder(task, "hot-key")).rejects.toThrow(CarrierUnavailable);
  });

  it("keeps at most 300 characters of a refusal's reason", async () => {
    carrierAnswers(JSON.stringify({ message: "no driver ".repeat(1000) }), 422);
    const refusal = await carrier.createPickupOrder(task, "hot-key").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CarrierRejected);
    expect((refusal as Error).message).toHaveLength(300);
  });

  it("gives its own reason when the carrier's is not text", async () => {
    carrierAnswers(JSON.stringify({ message: ["a", "b"] }), 409);
    await expect(carrier.createPickupOrder(task, "hot-key")).rejects.toThrow("the carrier refused with 409");
  });

  it("treats a 5xx as unavailable", async () => {
    carrierAnswers(JSON.stringify({ message: "maintenance" }), 503);
    await expect(carrier.createPickupOrder(task, "hot-key")).rejects.toThrow(new CarrierUnavailable("the carrier answered 503"));
  });
});
