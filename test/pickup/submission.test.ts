import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestApp, dayFromToday, fakeNetwork, type FakeNetwork, pickup, submission } from "../helpers/pickups";
import { call, envelope } from "../helpers/requests";

let network: FakeNetwork;
beforeEach(() => {
  network = fakeNetwork();
});
afterEach(() => vi.restoreAllMocks());

async function expectMsg(res: Response, status: number, msg: string) {
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual({ code: status, msg, data: null });
}

describe("P1 submit", () => {
  it("stores the task and answers at once with its id, pending", async () => {
    const app = await createTestApp();
    const body = submission();
    const res = await pickup("/carrier/pickup/submit", app, body);
    expect(res.status).toBe(200);
    const { data } = await envelope<{ task_id: number; request_id: string; process: string }>(res);
    expect(data).toMatchObject({ request_id: body.request_id, process: "pending" });
    const row = await env.DB.prepare("SELECT app_id, sign_string, reference_order_number FROM pickup_tasks WHERE id = ?").bind(data.task_id).first();
    expect(row).toEqual({ app_id: app.appId, sign_string: "caller-verification-123", reference_order_number: body.reference_order_number });
  });

  it.each([
    ["a missing request_id", { request_id: undefined }, "body.request_id"],
    [
      "a lower-case country",
      { sender_address: { postal_code: "10115", country_code: "de", city: "Berlin", address_1: "x" } },
      "body.sender_address.country_code",
    ],
    [
      "a postal code not of its country",
      { consignee_address: { postal_code: "ABC", country_code: "US", city: "NYC", address_1: "x" } },
      "body.consignee_address.postal_code: is not a postal code of US",
    ],
    [
      "a date that does not exist",
      { loading_time: { start_date: "2026-02-30", start_time: "09:00", end_date: "2026-03-01", end_time: "10:00" } },
      "body.loading_time.start_date: is not a real date",
    ],
    [
      "a time that does not exist",
      { loading_time: { start_date: dayFromToday(1), start_time: "24:00", end_date: dayFromToday(1), end_time: "10:00" } },
      "body.loading_time.start_time",
    ],
    [
      "a window that ends before it starts",
      { loading_time: { start_date: dayFromToday(1), start_time: "12:00", end_date: dayFromToday(1), end_time: "09:00" } },
      "body.loading_time.end_date: must end after it starts",
    ],
    [
      "a delivery before the pickup",
      { delivery_time: { start_date: dayFromToday(0), start_time: "09:00", end_date: dayFromToday(3), end_time: "18:00" } },
      "body.delivery_time: delivery cannot start before the pickup",
    ],
    [
      "a pickup window that is over",
      { loading_time: { start_date: dayFromToday(-2), start_time: "09:00", end_date: dayFromToday(-2), end_time: "12:00" } },
      "body.loading_time: has already ended, in every time zone",
    ],
    ["no items", { item_lines: [] }, "body.item_lines: must list at least one item"],
    [
      "a zero weight",
      { item_lines: [{ weight: 0, length: 1, width: 1, height: 1, declare_name: "x", weight_class: "kg", length_class: "cm" }] },
      "body.item_lines.0.weight: must be greater than 0",
    ],
    [
      "an unknown weight unit",
      { item_lines: [{ weight: 1, length: 1, width: 1, height: 1, declare_name: "x", weight_class: "stone", length_class: "cm" }] },
      "body.item_lines.0.weight_class: must be one of kg, g, lb, oz",
    ],
    ["an empty sign_string", { sign_string: "" }, "body.sign_string: must not be empty"],
    ["a sign_string over 512 characters", { sign_string: "s".repeat(513) }, "body.sign_string: must be at most 512 characters"],
    ["meta_data over 4 KB", { meta_data: { note: "x".repeat(5000) } }, "body.meta_data: must be at most 4096 bytes as JSON"],
    ["a webhook_url that is no URL", { webhook_url: "not a url" }, "body.webhook_url: must be a URL"],
    ["an unknown field", { priority: "high" }, "body"],
  ])("refuses %s with a 400 naming the field", async (_, overrides, msg) => {
    const res = await pickup("/carrier/pickup/submit", await createTestApp(), submission(overrides));
    expect(res.status).toBe(400);
    expect((await envelope(res)).msg.startsWith(msg)).toBe(true);
  });

  it("takes a window whose end has passed in UTC but not yet at UTC−12, and refuses it once it has passed there too", async () => {
    // The window's times are the loading address's, in a zone the interface does not give.
    const windowEnding = (hoursAgo: number) => {
      const at = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
      const [start, end] = [at(hoursAgo + 1), at(hoursAgo)];
      return { start_date: start.slice(0, 10), start_time: start.slice(11, 16), end_date: end.slice(0, 10), end_time: end.slice(11, 16) };
    };
    const app = await createTestApp();
    expect((await pickup("/carrier/pickup/submit", app, submission({ loading_time: windowEnding(11) }))).status).toBe(200);
    await expectMsg(
      await pickup("/carrier/pickup/submit", app, submission({ loading_time: windowEnding(13) })),
      400,
      "body.loading_time: has already ended, in every time zone",
    );
  });

  it("refuses a country code that is not ISO 3166-1", async () => {
    const body = submission({ consignee_address: { postal_code: "12345", country_code: "XX", city: "x", address_1: "x" } });
    await expectMsg(
      await pickup("/carrier/pickup/submit", await createTestApp(), body),
      400,
      "body.consignee_address.country_code: XX is not an ISO 3166-1 country",
    );
  });

  it("refuses a service without a carrier", async () => {
    await expectMsg(
      await pickup("/carrier/pickup/submit", await createTestApp(), submission({ service_code: "dhl" })),
      400,
      "body.service_code: dhl is not an available carrier service",
    );
  });

  it("answers 412 when the app has no hot api key", async () => {
    await expectMsg(
      await pickup("/carrier/pickup/submit", await createTestApp({ hotApiKey: null }), submission()),
      412,
      "please configure hot api key first",
    );
  });
});

describe("API6 · duplicates", () => {
  it("refuses a request_id used before", async () => {
    const app = await createTestApp();
    const first = submission();
    await pickup("/carrier/pickup/submit", app, first);
    await expectMsg(await pickup("/carrier/pickup/submit", app, submission({ request_id: first.request_id })), 409, "request_id must be unique");
  });

  it("refuses the same order while its task is active", async () => {
    const app = await createTestApp();
    const first = submission();
    await pickup("/carrier/pickup/submit", app, first);
    const again = submission({ reference_order_number: first.reference_order_number });
    await expectMsg(await pickup("/carrier/pickup/submit", app, again), 409, "please do not repeat submit the same order");
  });

  it("lets exactly one of two simultaneous submissions of the same order through", async () => {
    const app = await createTestApp();
    const a = submission();
    const b = submission({ reference_order_number: a.reference_order_number });
    const results = await Promise.all([pickup("/carrier/pickup/submit", app, a), pickup("/carrier/pickup/submit", app, b)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("answers a retry with the same Idempotency-Key as the first time instead of refusing the request_id as used", async () => {
    const app = await createTestApp();
    const body = submission();
    const submit = () =>
      call("/api/v1/carrier/pickup/submit", {
        method: "POST",
        headers: { Authorization: `appToken ${app.appToken}`, "Content-Type": "application/json", "Idempotency-Key": `submit-${body.request_id}` },
        body: JSON.stringify(body),
      });
    const first = await submit();
    expect(first.status).toBe(200);
    const again = await submit();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const tasks = await env.DB.prepare("SELECT count(*) AS n FROM pickup_tasks WHERE app_id = ?").bind(app.appId).first("n");
    expect(tasks).toBe(1);
  });

  it("keeps apps apart: another app may use the same ids", async () => {
    const body = submission();
    expect((await pickup("/carrier/pickup/submit", await createTestApp(), body)).status).toBe(200);
    expect((await pickup("/carrier/pickup/submit", await createTestApp(), body)).status).toBe(200);
  });
});

describe("API7 · webhook targets", () => {
  it.each([
    ["http", "http://receiver.test/hook", "body.webhook_url: must use https"],
    ["loopback", "https://127.0.0.1/hook", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["a private network", "https://10.0.0.8/hook", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["cloud metadata", "https://169.254.169.254/latest/meta-data", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["IPv6 loopback", "https://[::1]/hook", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["localhost", "https://localhost/hook", "body.webhook_url: must not point at a private, loopback or link-local address"],
    [
      "a name with a private address",
      "https://intranet.example.com/hook",
      "body.webhook_url: the host intranet.example.com resolves to a private, loopback or link-local address",
    ],
    [
      "a name with a private IPv6 address",
      "https://v6.example.com/hook",
      "body.webhook_url: the host v6.example.com resolves to a private, loopback or link-local address",
    ],
    // IPv6 spellings of private IPv4 addresses, which the URL parser writes in hex.
    ["IPv4-mapped metadata", "https://[::ffff:169.254.169.254]/", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["IPv4-mapped private", "https://[::ffff:10.0.0.1]/", "body.webhook_url: must not point at a private, loopback or link-local address"],
    [
      "IPv4-mapped, written out",
      "https://[0:0:0:0:0:ffff:a9fe:a9fe]/",
      "body.webhook_url: must not point at a private, loopback or link-local address",
    ],
    ["IPv4-translated", "https://[::ffff:0:a9fe:a9fe]/", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["NAT64", "https://[64:ff9b::a9fe:a9fe]/", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["6to4", "https://[2002:a9fe:a9fe::]/", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["IPv4-compatible", "https://[::a9fe:a9fe]/", "body.webhook_url: must not point at a private, loopback or link-local address"],
    ["IETF protocol assignments", "https://192.0.0.170/", "body.webhook_url: must not point at a private, loopback or link-local address"],
    [
      "a name whose AAAA is mapped metadata",
      "https://mapped.example.com/hook",
      "body.webhook_url: the host mapped.example.com resolves to a private, loopback or link-local address",
    ],
  ])("refuses %s", async (_, url, msg) => {
    network.dns["intranet.example.com"] = ["192.168.1.20"];
    network.dns["v6.example.com"] = ["93.184.215.14", "fd00::1"];
    network.dns["mapped.example.com"] = ["93.184.215.14", "::ffff:a9fe:a9fe"];
    const before = (await env.DB.prepare("SELECT count(*) AS n FROM pickup_tasks").first<{ n: number }>())!.n;
    await expectMsg(await pickup("/carrier/pickup/submit", await createTestApp(), submission({ webhook_url: url })), 400, msg);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM pickup_tasks").first<{ n: number }>())!.n).toBe(before);
  });
});

describe("API2 · app tokens", () => {
  it.each([
    ["no header", {}, "Authorization header required"],
    ["a Bearer token", { Authorization: "Bearer svc_at_x" }, "Authorization must be: appToken <token>"],
    ["an unknown token", { Authorization: "appToken svc_at_unknown" }, "Invalid authentication credentials"],
  ])("refuses %s", async (_, headers, msg) => {
    const res = await call("/api/v1/pickup/list", { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: "{}" });
    await expectMsg(res, 401, msg);
  });

  it("refuses a revoked app", async () => {
    const app = await createTestApp();
    await env.DB.prepare("UPDATE apps SET is_active = 0 WHERE id = ?").bind(app.appId).run();
    await expectMsg(await pickup("/pickup/list", app, {}), 401, "App token has been revoked");
  });
});
