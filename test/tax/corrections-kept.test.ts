/** A feed that lags behind a correction of the seed must not undo it; a newer figure still wins. */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RateChange, TaxRate } from "../../src/tax/schema";
import { EU_VAT_URL, OECD_URL_PREFIX, euVatFeedFromDatabase, runJobNow, serveFeeds, yesterday } from "../helpers/feeds";
import { getTax } from "./fixtures";

const secondBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 1000).toISOString().slice(0, 19);

afterEach(() => vi.restoreAllMocks());

const current = (country: string, type: string, level = "standard") =>
  env.DB.prepare(
    "SELECT rate_value_scaled / 10000.0 AS rate, effective_from FROM tax_rates WHERE country_code = ? AND tax_type = ? AND rate_level = ? AND region_code IS NULL AND effective_to IS NULL",
  )
    .bind(country, type, level)
    .first<{ rate: number; effective_from: string }>();

describe("refresh jobs keep corrections a feed has not caught up with", () => {
  it("EU VAT: an older period of Finland and an Austria without its new rate leave both as corrected", async () => {
    const feed = await euVatFeedFromDatabase();
    feed.items.FI = [{ effective_from: "2024-09-01", rates: { standard: 25.5, reduced2: 14, reduced1: 10 } }];
    feed.items.AT = [{ effective_from: "2020-01-01", rates: { standard: 20, reduced2: 13, reduced1: 10, parking: 13 } }];
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    const run = await runJobNow("eu-vat");
    expect(run.status).toBe("succeeded");
    expect(run.counts).toMatchObject({ inserted: 0, closed: 0, outdated: 2 });
    expect(await current("FI", "VAT", "reduced2")).toEqual({ rate: 13.5, effective_from: "2026-01-01T00:00:00" });
    expect(await current("AT", "VAT", "super_reduced")).toEqual({ rate: 4.9, effective_from: "2026-07-01T00:00:00" });
  });

  it("EU VAT: a newer period of Finland replaces the correction", async () => {
    const feed = await euVatFeedFromDatabase();
    feed.items.FI!.unshift({ effective_from: yesterday(), rates: { standard: 25.5, reduced2: 13, reduced1: 10 } });
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    expect((await runJobNow("eu-vat")).counts).toMatchObject({ inserted: 1, closed: 1 });
    expect(await current("FI", "VAT", "reduced2")).toEqual({ rate: 13, effective_from: `${yesterday()}T00:00:00` });
  });

  it("OECD: a 2025 figure for Korea leaves its 2026 rate", async () => {
    const { results } = await env.DB.prepare(
      "SELECT c.iso3, t.country_code, t.rate_value_scaled / 10000.0 AS rate FROM tax_rates t JOIN countries c ON c.code = t.country_code WHERE t.tax_type = 'CorporateTax' AND t.effective_to IS NULL",
    ).all<{ iso3: string; country_code: string; rate: number }>();
    const lines = ["STRUCTURE,STRUCTURE_ID,REF_AREA,MEASURE,TIME_PERIOD,OBS_VALUE"];
    for (const r of results)
      lines.push(`DATAFLOW,OECD.CTP.TPS:DSD_TAX_CIT@DF_CIT(1.0),${r.iso3},CIT_C,2025,${r.country_code === "KR" ? 26.4 : r.rate}`);
    serveFeeds({ [OECD_URL_PREFIX]: lines.join("\n") });
    const run = await runJobNow("oecd");
    expect(run.counts).toMatchObject({ inserted: 0, closed: 0, outdated: 1 });
    expect(await current("KR", "CorporateTax")).toEqual({ rate: 27.5, effective_from: "2026-01-01T00:00:00" });
  });

  it("encyclopedia: an undated figure in a feed dated before the change is kept", async () => {
    const rates = [
      { countryCode: "RU", taxType: "VAT", rateLevel: "standard", rateValue: 20 },
      { countryCode: "RU", taxType: "VAT", rateLevel: "reduced", rateValue: 10 },
      { countryCode: "RU", taxType: "VAT", rateLevel: "zero", rateValue: 0 },
    ];
    serveFeeds({ "https://feeds.test/encyclopedia.json": JSON.stringify({ versionDate: "2025-12-01", rates }) });
    const run = await runJobNow("encyclopedia");
    expect(run.status).toBe("succeeded");
    expect(run.counts).toMatchObject({ inserted: 0, closed: 0, outdated: 1 });
    expect(await current("RU", "VAT")).toEqual({ rate: 22, effective_from: "2026-01-01T00:00:00" });
  });
});

describe("announced changes: stored with their start, served for their day, kept by later runs", () => {
  const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;
  const standardOf = async (country: string, date?: string) =>
    (await getTax<TaxRate>(`/country/${country}/standard${date ? `?date=${date}` : ""}`)).body.data;

  it("EU VAT: a feed period that starts next year is stored, not current before it starts, and answered for its day", async () => {
    const feed = await euVatFeedFromDatabase();
    feed.items.DE!.unshift({ effective_from: nextYear, rates: { standard: 21, reduced: 7 } });
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    expect((await runJobNow("eu-vat")).counts).toMatchObject({ inserted: 1, closed: 1 });
    expect(await standardOf("DE")).toMatchObject({ rateValue: 19, effectiveTo: secondBefore(nextYear) });
    expect(await standardOf("DE", nextYear)).toMatchObject({ rateValue: 21, effectiveFrom: `${nextYear}T00:00:00`, effectiveTo: null });
    const germany = (await getTax(`/country/DE/type/VAT`)).body.data;
    expect(germany.map((r) => r.rateValue).sort()).toEqual([19, 7]);
  });

  it("EU VAT: the next run, its feed without the announcement, keeps it; the one after with it changes nothing", async () => {
    const feed = await euVatFeedFromDatabase();
    feed.items.DE = [{ effective_from: "2020-01-01", rates: { standard: 19, reduced: 7 } }];
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    const run = await runJobNow("eu-vat");
    expect(run.counts).toMatchObject({ inserted: 0, closed: 0 });
    expect(await standardOf("DE", nextYear)).toMatchObject({ rateValue: 21 });
    expect(await standardOf("DE")).toMatchObject({ rateValue: 19, effectiveTo: secondBefore(nextYear) });

    feed.items.DE.unshift({ effective_from: nextYear, rates: { standard: 21, reduced: 7 } });
    vi.restoreAllMocks();
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(feed) });
    expect((await runJobNow("eu-vat")).counts).toMatchObject({ inserted: 0, closed: 0, outdated: 0 });
  });

  it("documented feed: an announced rate stays when a later feed lists only today's figure, undated", async () => {
    const rates = (standard: number, effectiveFrom?: string) => [
      { countryCode: "RU", taxType: "VAT", rateLevel: "standard", rateValue: standard, ...(effectiveFrom ? { effectiveFrom } : {}) },
      { countryCode: "RU", taxType: "VAT", rateLevel: "reduced", rateValue: 10 },
      { countryCode: "RU", taxType: "VAT", rateLevel: "zero", rateValue: 0 },
    ];
    const url = "https://feeds.test/encyclopedia.json";
    serveFeeds({ [url]: JSON.stringify({ versionDate: yesterday(), rates: rates(23, nextYear) }) });
    expect((await runJobNow("encyclopedia")).counts).toMatchObject({ inserted: 1, closed: 1 });
    vi.restoreAllMocks();
    serveFeeds({ [url]: JSON.stringify({ versionDate: yesterday(), rates: rates(22) }) });
    expect((await runJobNow("encyclopedia")).counts).toMatchObject({ inserted: 0, closed: 0 });
    expect(await standardOf("RU")).toMatchObject({ rateValue: 22 });
    expect(await standardOf("RU", nextYear)).toMatchObject({ rateValue: 23 });
  });
});

describe("the change feed (T12) after the jobs and a hand-made fix", () => {
  type Feed = { changes: RateChange[]; next: number | null };
  const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;

  it("shows the announced German rate as added and the current one as ended ahead, with the feed as source", async () => {
    const { changes } = (await getTax<Feed>("/changes?since=2000-01-01T00:00:00&country=DE&size=200")).body.data;
    const announced = changes.find((c) => c.kind === "added" && c.effectiveFrom === `${nextYear}T00:00:00`);
    expect(announced).toMatchObject({ rateLevel: "standard", rateValue: 21, dataSource: "EU_VAT", sourceUrl: EU_VAT_URL });
    expect(changes.find((c) => c.kind === "ended")).toMatchObject({ rateLevel: "standard", rateValue: 19, effectiveTo: secondBefore(nextYear) });
  });

  it("shows a figure corrected in place with the figure before", async () => {
    const { results } = await env.DB.prepare("SELECT MAX(id) AS last FROM tax_rate_changes").all<{ last: number }>();
    await env.DB.prepare(
      "UPDATE tax_rates SET rate_value_scaled = 170000 WHERE country_code = 'XK' AND rate_level = 'standard' AND effective_to IS NULL",
    ).run();
    const { changes } = (await getTax<Feed>(`/changes?since=2000-01-01T00:00:00&after=${results[0]!.last}`)).body.data;
    expect(changes).toEqual([expect.objectContaining({ kind: "corrected", countryCode: "XK", rateValue: 17, previousRateValue: 18 })]);
  });
});
