import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import type { Bindings } from "../../src/platform/env";
import { logger } from "../../src/platform/logging";
import type { WebhookMessage } from "../../src/platform/webhooks";
import { sweepTaxWebhooks } from "../../src/tax/webhooks";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { runJobNow } from "../helpers/feeds";
import { fakeNetwork, type FakeNetwork, type Received, waitFor } from "../helpers/pickups";
import { call, envelope, secretHeaders, signedHeaders } from "../helpers/requests";
import { TAX } from "./fixtures";

interface Endpoint {
  id: number;
  url: string;
  countries: string[] | null;
  secret?: string;
  previousSecretUntil: string | null;
}
interface Delivery {
  eventId: string;
  changeId: number;
  attempt: number;
  status: number | null;
  error: string | null;
  nextAttemptAt: string | null;
}

const HOOKS = `${TAX}/webhooks`;
const FEED = "https://feeds.test/encyclopedia.json";

function hooks(key: TestKey, method: string, path = "", bizContent?: unknown) {
  return call(`${HOOKS}${path}`, {
    method,
    headers: { ...secretHeaders(key), ...(bizContent === undefined ? {} : { "Content-Type": "application/json" }) },
    body: bizContent === undefined ? undefined : JSON.stringify({ bizContent }),
  });
}

async function register(key: TestKey, bizContent: unknown): Promise<Endpoint> {
  const res = await hooks(key, "POST", "", bizContent);
  const body = await envelope<Endpoint>(res);
  expect(res.status, body.msg).toBe(200);
  return body.data;
}

// Standard Webhooks' verification, written from the specification: HMAC-SHA256 keyed by the base64 bytes after
// `whsec_`, of "<webhook-id>.<webhook-timestamp>.<body>", base64, one of the space-separated `v1,` signatures.
async function signedBy(secret: string, request: Received): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    Uint8Array.from(atob(secret.slice("whsec_".length)), (char) => char.charCodeAt(0)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const content = `${request.headers["webhook-id"]}.${request.headers["webhook-timestamp"]}.${request.body}`;
  const expected = btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(content)))));
  return (request.headers["webhook-signature"] ?? "").split(" ").some((signature) => signature === `v1,${expected}`);
}

let network: FakeNetwork;
let owner: TestKey;
let stranger: TestKey;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([createTestKey(), createTestKey()]);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("registering webhook endpoints", () => {
  it("answers the secret once, lists the endpoint without it, and deletes it", async () => {
    network = fakeNetwork();
    const created = await register(owner, { url: "https://erp.example.com/hooks/tax", countries: ["FR", "DE", "FR"] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.countries).toEqual(["DE", "FR"]);
    const listed = await envelope<Endpoint[]>(await hooks(owner, "GET"));
    expect(listed.data).toEqual([expect.objectContaining({ id: created.id, url: "https://erp.example.com/hooks/tax", countries: ["DE", "FR"] })]);
    expect(JSON.stringify(listed.data)).not.toContain("whsec_");
    // Stored encrypted: the secret is nowhere in the row.
    const row = await env.DB.prepare("SELECT * FROM tax_webhook_endpoints WHERE id = ?").bind(created.id).first();
    expect(JSON.stringify(row)).not.toContain(created.secret!.slice(6));

    const rotated = await envelope<Endpoint>(await hooks(owner, "POST", `/${created.id}/rotate-secret`, {}));
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.data.previousSecretUntil!) - Date.now()).toBeGreaterThan(23 * 3600_000);

    expect(await envelope(await hooks(owner, "DELETE", `/${created.id}`))).toEqual({
      code: 200,
      msg: "success",
      data: { id: created.id, deleted: true },
    });
    expect((await envelope<Endpoint[]>(await hooks(owner, "GET"))).data).toEqual([]);
  });

  it.each([
    ["http", { url: "http://erp.example.com/hook" }, "url: must use https"],
    ["loopback", { url: "https://127.0.0.1/hook" }, "url: must not point at a private, loopback or link-local address"],
    ["cloud metadata", { url: "https://169.254.169.254/latest" }, "url: must not point at a private, loopback or link-local address"],
    ["a name on a private address", { url: "https://intranet.example.com/hook" }, "url: the host intranet.example.com resolves to a private"],
    ["an over-long URL", { url: `https://erp.example.com/${"a".repeat(2048)}` }, "url must be at most 2048 characters"],
    ["no URL", { countries: ["DE"] }, "url is required"],
    ["a lower-case country", { url: "https://erp.example.com/hook", countries: ["de"] }, "countries must hold upper-case"],
    ["a country without rates", { url: "https://erp.example.com/hook", countries: ["AQ"] }, "countries: AQ has no tax rates here"],
    ["an empty country list", { url: "https://erp.example.com/hook", countries: [] }, "countries must name at least one country"],
    ["an unknown field", { url: "https://erp.example.com/hook", secret: "whsec_mine" }, "unknown field secret"],
  ])("refuses %s with a 400 that says why", async (_, bizContent, message) => {
    network = fakeNetwork();
    network.dns["intranet.example.com"] = ["10.0.0.8"];
    const res = await hooks(owner, "POST", "", bizContent);
    const body = await envelope(res);
    expect(res.status).toBe(400);
    expect(body.msg).toContain(message);
  });

  it("keeps each account to its own endpoints: another's are 404 to delete, rotate or read", async () => {
    network = fakeNetwork();
    const mine = await register(owner, { url: "https://erp.example.com/hooks/mine", countries: ["DE"] });
    for (const [method, path, body] of [
      ["DELETE", `/${mine.id}`, undefined],
      ["POST", `/${mine.id}/rotate-secret`, {}],
      ["GET", `/${mine.id}/deliveries`, undefined],
    ] as const) {
      const res = await hooks(stranger, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await envelope(res)).msg).toBe(`No webhook endpoint with id ${mine.id}`);
    }
    expect((await envelope<Endpoint[]>(await hooks(stranger, "GET"))).data).toEqual([]);
    expect((await hooks(owner, "GET", "/abc/deliveries")).status).toBe(400);
    expect((await hooks(owner, "GET", `/${mine.id}/deliveries?limit=101`)).status).toBe(400);
    await hooks(owner, "DELETE", `/${mine.id}`);
  });

  it("takes signed requests as the other data API routes do: a POST signs its bizContent, a DELETE its query", async () => {
    network = fakeNetwork();
    const bizContent = { url: "https://erp.example.com/hooks/signed" };
    const params = { url: bizContent.url };
    const created = await call(HOOKS, {
      method: "POST",
      headers: { ...(await signedHeaders(owner, { params })), "Content-Type": "application/json" },
      body: JSON.stringify({ bizContent }),
    });
    expect(created.status).toBe(200);
    const { id } = (await envelope<Endpoint>(created)).data;
    const deleted = await call(`${HOOKS}/${id}`, { method: "DELETE", headers: await signedHeaders(owner) });
    expect(deleted.status).toBe(200);
  });

  it("needs taxrate:write to register and taxrate:read to list", async () => {
    network = fakeNetwork();
    const reader = await createTestKey({ scopes: ["taxrate:read"] });
    expect((await hooks(reader, "POST", "", { url: "https://erp.example.com/hook" })).status).toBe(403);
    expect((await hooks(reader, "GET")).status).toBe(200);
    expect((await call(HOOKS)).status).toBe(401);
  });

  it("refuses an account's eleventh endpoint, counting its endpoints whatever key registered them", async () => {
    network = fakeNetwork();
    const account = await createTestKey();
    await Promise.all(Array.from({ length: 10 }, (_, i) => register(account, { url: `https://erp.example.com/hooks/${i}`, countries: ["JP"] })));
    const refused = await hooks(account, "POST", "", { url: "https://erp.example.com/hooks/10", countries: ["JP"] });
    expect(refused.status).toBe(409);
    expect((await envelope(refused)).msg).toBe("An account may register at most 10 webhook endpoints; delete one before adding another");
    expect((await envelope<Endpoint[]>(await hooks(account, "GET"))).data).toHaveLength(10);
  });
});

describe("taxrate.changed deliveries", () => {
  it("sends a refresh job's changes, signed, once to each endpoint whose countries match, and nothing to the others", async () => {
    network = fakeNetwork();
    network.receiver = async (request) =>
      request.url === FEED
        ? Response.json({
            versionDate: "2026-10-01",
            rates: [{ countryCode: "TH", taxType: "VAT", rateLevel: "standard", rateValue: 10, effectiveFrom: "2026-10-01" }],
          })
        : new Response(null, { status: 204 });
    const thailand = await register(owner, { url: "https://th.receiver.test/hook", countries: ["TH"] });
    const everything = await register(owner, { url: "https://all.receiver.test/hook" });
    const france = await register(owner, { url: "https://fr.receiver.test/hook", countries: ["FR"] });
    // Rotated: for a day both secrets sign, so a receiver still holding the old one loses nothing.
    const oldSecret = everything.secret!;
    everything.secret = (await envelope<Endpoint>(await hooks(owner, "POST", `/${everything.id}/rotate-secret`, {}))).data.secret;

    expect(await runJobNow("encyclopedia")).toMatchObject({ status: "succeeded", counts: { inserted: 1, closed: 1 } });
    const to = (endpoint: Endpoint) => network.received.filter((request) => request.url === endpoint.url);
    await waitFor(async () => to(thailand).length === 2 && to(everything).length === 2, "two events at each matching endpoint");

    for (const request of to(everything)) expect(await signedBy(oldSecret, request)).toBe(true);
    for (const endpoint of [thailand, everything]) {
      const received = to(endpoint);
      for (const request of received) {
        expect(await signedBy(endpoint.secret!, request)).toBe(true);
        expect(await signedBy(france.secret!, request)).toBe(false);
      }
      const events = received.map(
        (request) => JSON.parse(request.body) as { type: string; data: { kind: string; countryCode: string; rateValue: number } },
      );
      expect(events.map((event) => event.type)).toEqual(["taxrate.changed", "taxrate.changed"]);
      expect(events.map((event) => `${event.data.kind} ${event.data.countryCode} ${event.data.rateValue}`).sort()).toEqual([
        "added TH 10",
        "ended TH 7",
      ]);
      expect(new Set(received.map((request) => request.headers["webhook-id"])).size).toBe(2);
    }
    const delivered = await envelope<Delivery[]>(await hooks(owner, "GET", `/${thailand.id}/deliveries`));
    expect(delivered.data.map((d) => [d.attempt, d.status, d.nextAttemptAt])).toEqual([
      [1, 204, null],
      [1, 204, null],
    ]);
    expect(to(france)).toEqual([]);
    expect((await envelope<Delivery[]>(await hooks(owner, "GET", `/${france.id}/deliveries`))).data).toEqual([]);
    for (const endpoint of [thailand, everything, france]) await hooks(owner, "DELETE", `/${endpoint.id}`);
  });

  it("retries a failing receiver on the schedule and logs each attempt; a fix by hand reaches it through the 5-minute task", async () => {
    network = fakeNetwork();
    network.replies = [{ status: 503 }, { status: 200 }];
    const scheduled: WebhookMessage[] = [];
    const producer = {
      send: async (body: WebhookMessage) => void scheduled.push(body),
      sendBatch: async (messages: { body: WebhookMessage }[]) => void scheduled.push(...messages.map((m) => m.body)),
    } as unknown as Queue;
    const testEnv: Bindings = { ...env, WEBHOOKS: producer, WEBHOOKS_DLQ: producer };
    const endpoint = await register(owner, { url: "https://flaky.receiver.test/hook", countries: ["TH"] });

    // A correction made in the table by hand: the change feed's trigger records it, the task turns it into an event.
    await env.DB.prepare(
      "UPDATE tax_rates SET rate_value_scaled = 105000 WHERE country_code = 'TH' AND tax_type = 'VAT' AND rate_level = 'standard' AND effective_to IS NULL",
    ).run();
    expect(await sweepTaxWebhooks(testEnv, logger({}))).toMatchObject({ dispatched: 1 });
    expect(scheduled).toHaveLength(1);

    vi.useFakeTimers({ toFake: ["Date"] });
    for (let attempt = 0; attempt < 2; attempt++) {
      const message = scheduled.shift()!;
      vi.setSystemTime(Math.max(Date.now(), message.notBefore));
      const batch = createMessageBatch<WebhookMessage>("gateway-webhooks", [
        { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: message },
      ]);
      await worker.queue(batch, testEnv);
      expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toHaveLength(1);
    }
    const log = (await envelope<Delivery[]>(await hooks(owner, "GET", `/${endpoint.id}/deliveries`))).data;
    expect(log.map((d) => [d.attempt, d.status, d.error])).toEqual([
      [2, 200, null],
      [1, 503, "HTTP 503"],
    ]);
    // The second attempt came 5 s (±10%) after the first.
    const wait =
      Date.parse(log[1]!.nextAttemptAt!) -
      Date.parse(
        (await env.DB.prepare("SELECT attempted_at FROM tax_webhook_deliveries WHERE attempt = 1 AND endpoint_id = ?")
          .bind(endpoint.id)
          .first<{ attempted_at: string }>())!.attempted_at,
      );
    expect(wait).toBeGreaterThanOrEqual(4000);
    expect(wait).toBeLessThanOrEqual(6000);
    const [first, second] = network.received;
    expect(first!.headers["webhook-id"]).toBe(second!.headers["webhook-id"]);
    expect(JSON.parse(second!.body)).toMatchObject({
      type: "taxrate.changed",
      data: { kind: "corrected", countryCode: "TH", rateValue: 10.5, previousRateValue: 10 },
    });
    expect(scheduled).toEqual([]);
  });
});
