import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EU_VAT_URL, euVatFeedFromDatabase, runJobNow, serveFeeds, yesterday } from "../helpers/feeds";

afterEach(() => vi.restoreAllMocks());

const currentRate = (country: string, level = "standard") =>
  env.DB.prepare(
    "SELECT id, rate_value_scaled / 10000.0 AS rate, effective_from, effective_to, last_sync_time, version_date, tax_name_local FROM tax_rates WHERE country_code = ? AND tax_type = 'VAT' AND rate_level = ? AND region_code IS NULL AND effective_to IS NULL",
  )
    .bind(country, level)
    .first<{ id: number; rate: number; effective_from: string; last_sync_time: string; version_date: string; tax_name_local: string }>();

const snapshot = async () => (await env.DB.prepare("SELECT * FROM tax_rates ORDER BY id").all()).results;

describe("the EU VAT job", () => {
  it("changes nothing when the feed says what the records say", async () => {
    const before = await snapshot();
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(await euVatFeedFromDatabase()) });
    const run = await runJobNow("eu-vat");
    expect(run).toMatchObject({ status: "succeeded", trigger: "manual", source: EU_VAT_URL, error: null });
    expect(run.counts).toMatchObject({ inserted: 0, updated: 0, closed: 0 });
    expect(run.counts!.unchanged).toBeGreaterThan(80);
    expect(await snapshot()).toEqual(before);
  });

  it("closes a changed rate and inserts its successor, keeping the history", async () => {
    const old = await currentRate("DE");
    const feed = await euVatFeedFromDatabase();
    feed.items.DE = [{ effective_from: "2026-07-01", rates: { standard: 20, reduced: 7 } }, ...feed.items.DE!];
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    const run = await runJobNow("eu-vat");
    expect(run.counts).toMatchObject({ inserted: 1, closed: 1 });

    const now = await currentRate("DE");
    expect(now).toMatchObject({ rate: 20, effective_from: "2026-07-01T00:00:00", tax_name_local: "Umsatzsteuer" });
    const closed = await env.DB.prepare("SELECT effective_to FROM tax_rates WHERE id = ?").bind(old!.id).first<{ effective_to: string }>();
    expect(closed!.effective_to).toBe("2026-06-30T23:59:59");
    expect((await currentRate("DE", "reduced"))!.rate).toBe(7);
  });

  it("closes a level the feed no longer has and adds a new one", async () => {
    const feed = await euVatFeedFromDatabase();
    const { parking: _gone, ...rates } = feed.items.BE![0]!.rates;
    feed.items.BE = [{ effective_from: "2026-01-01", rates: { ...rates, super_reduced: 3 } }];
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    const run = await runJobNow("eu-vat");
    expect(run.counts).toMatchObject({ inserted: 1, closed: 1 });
    expect(await currentRate("BE", "parking")).toBeNull();
    expect((await currentRate("BE", "super_reduced"))!.rate).toBe(3);
  });

  it.each([
    ["a feed that is not JSON", () => "<html>", "the EU VAT feed is not JSON"],
    ["a feed of the wrong shape", () => JSON.stringify({ items: { DE: "19%" } }), "the EU VAT feed is malformed at items.DE"],
    [
      "a rate that is no number",
      () => JSON.stringify({ items: { DE: [{ effective_from: "2020-01-01", rates: { standard: "19" } }] } }),
      "the EU VAT feed is malformed at items.DE.0.rates.standard",
    ],
  ])("records %s as failed and changes nothing", async (_, body, error) => {
    const before = await snapshot();
    serveFeeds({ [EU_VAT_URL]: body() });
    const run = await runJobNow("eu-vat");
    expect(run.status).toBe("failed");
    expect(run.error).toContain(error);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a partial feed", async () => {
    const feed = await euVatFeedFromDatabase();
    delete feed.items.FR;
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    const run = await runJobNow("eu-vat");
    expect(run).toMatchObject({ status: "failed", error: "the EU VAT feed is partial: no FR" });
  });

  it("records an HTTP error and a timeout", async () => {
    serveFeeds({ [EU_VAT_URL]: { status: 500, body: "down" } });
    expect(await runJobNow("eu-vat")).toMatchObject({ status: "failed", error: `${EU_VAT_URL}: HTTP 500` });
    serveFeeds({ [EU_VAT_URL]: new DOMException("The operation timed out.", "TimeoutError") });
    expect(await runJobNow("eu-vat")).toMatchObject({ status: "failed", error: `${EU_VAT_URL}: timed out` });
  });

  it("refuses a run that would change more than a quarter of the records", async () => {
    const before = await snapshot();
    const feed = await euVatFeedFromDatabase();
    for (const periods of Object.values(feed.items)) periods.unshift({ effective_from: yesterday(), rates: { ...periods[0]!.rates, standard: 30 } });
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    const run = await runJobNow("eu-vat");
    expect(run.status).toBe("refused");
    expect(run.error).toMatch(/^would change or retire 27 of \d+ records \(\d+%\), more than 25%$/);
    expect(await snapshot()).toEqual(before);
  });
});
