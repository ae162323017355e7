import { env } from "cloudflare:test";
import { vi } from "vitest";
import { createApp } from "../../src/pickup/apps";
import type { Plan } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { createUser } from "./accounts";
import { call } from "./requests";

export interface TestApp {
  appToken: string;
  webhookSecret: string;
  appId: number;
}

export async function createTestApp(options: { hotApiKey?: string | null; plan?: Plan } = {}): Promise<TestApp> {
  const user = await createUser({ plan: options.plan });
  const issued = await createApp(database(env), env.KEY_ENCRYPTION_KEY, user.id, {
    name: "warehouse",
    hot_api_key: options.hotApiKey === null ? undefined : (options.hotApiKey ?? "carrier-key"),
  });
  return { appToken: issued.appToken, webhookSecret: issued.webhookSecret, appId: issued.app.id };
}

export function pickup(path: string, app: Pick<TestApp, "appToken">, body: unknown) {
  return call(`/api/v1${path}`, {
    method: "POST",
    headers: { Authorization: `appToken ${app.appToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

let serial = 0;
const address = (country = "DE", postal = "10115") => ({
  postal_code: postal,
  country_code: country,
  province: "Berlin",
  city: "Berlin",
  address_1: "Invalidenstraße 1",
});

/** The date `days` after today's (UTC), YYYY-MM-DD: a pickup window that has not ended whenever the suite runs. */
export const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A valid submission; each call has its own request_id and reference_order_number. */
export function submission(overrides: Record<string, unknown> = {}) {
  const n = `${Date.now()}-${++serial}`;
  return {
    request_id: `req-${n}`,
    service_code: "sandbox",
    authorize_id: "auth-1",
    sender_address: address(),
    loading_address: address(),
    consignee_address: address("FR", "75001"),
    reference_order_number: `ORDER-${n}`,
    loading_time: { start_date: dayFromToday(1), start_time: "09:00", end_date: dayFromToday(1), end_time: "12:00" },
    delivery_time: { start_date: dayFromToday(2), start_time: "09:00", end_date: dayFromToday(3), end_time: "18:00" },
    item_lines: [{ weight: 2.5, length: 30, width: 20, height: 10, declare_name: "Books", weight_class: "kg" as const, length_class: "cm" as const }],
    webhook_url: "https://receiver.test/hooks/pickups",
    sign_string: "caller-verification-123",
    ...overrides,
  };
}

export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface FakeNetwork {
  /** Addresses the DNS-over-HTTPS resolver answers for a name; public by default. */
  dns: Record<string, string[]>;
  /** Statuses the receiver answers in turn; the last one repeats. 200 when empty. */
  replies: { status: number; headers?: Record<string, string> }[];
  /** A receiver of the test's own, instead of `replies`: it may answer, throw or take its time. */
  receiver?: (request: Received) => Promise<Response>;
  received: Received[];
}

/** The world outside the Worker: the DNS resolver and the webhook receiver. */
export function fakeNetwork(): FakeNetwork {
  const network: FakeNetwork = { dns: {}, replies: [], received: [] };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname === "cloudflare-dns.com") {
      const name = url.searchParams.get("name")!;
      const type = url.searchParams.get("type");
      const addresses = (network.dns[name] ?? ["93.184.215.14"]).filter((a) => (type === "AAAA" ? a.includes(":") : !a.includes(":")));
      return Response.json({ Status: 0, Answer: addresses.map((data) => ({ name, type: type === "AAAA" ? 28 : 1, data })) });
    }
    const received = { url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() };
    network.received.push(received);
    if (network.receiver) return network.receiver(received);
    const reply = network.replies.length > 1 ? network.replies.shift()! : (network.replies[0] ?? { status: 200 });
    return new Response(`receiver says ${reply.status}`, { status: reply.status, headers: reply.headers });
  });
  return network;
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
