import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { database } from "../../src/platform/database";
import { runJob } from "../../src/platform/jobs/runner";
import { JOBS } from "../../src/groups";
import { OECD_URL_PREFIX, runJobNow, serveFeeds } from "../helpers/feeds";

afterEach(() => vi.restoreAllMocks());

const current = (country: string, type: string, level = "standard") =>
  env.DB.prepare(
    "SELECT rate_value_scaled / 10000.0 AS rate, effective_from, data_source FROM tax_rates WHERE country_code = ? AND tax_type = ? AND rate_level = ? AND region_code IS NULL AND effective_to IS NULL",
  )
    .bind(country, type, level)
    .first<{ rate: number; effective_from: string; data_source: string }>();

async function oecdCsv(changes: Record<string, number> = {}) {
  const { results } = await env.DB.prepare(
    "SELECT c.iso3, t.country_code, t.rate_value_scaled / 10000.0 AS rate FROM tax_rates t JOIN countries c ON c.code = t.country_code WHERE t.tax_type = 'CorporateTax' AND t.effective_to IS NULL",
  ).all<{ iso3: string; country_code: string; rate: number }>();
  const lines = ["STRUCTURE,STRUCTURE_ID,REF_AREA,MEASURE,TIME_PERIOD,OBS_VALUE"];
  for (const r of results) {
    lines.push(`DATAFLOW,OECD.CTP.TPS:DSD_TAX_CIT@DF_CIT(1.0),${r.iso3},CIT_C,2024,${r.rate}`);
    lines.push(`DATAFLOW,OECD.CTP.TPS:DSD_TAX_CIT@DF_CIT(1.0),${r.iso3},CIT_C,2025,${changes[r.country_code] ?? r.rate}`);
  }
  return lines.join("\n");
}

describe("the OECD job", () => {
  it("takes each member's newest year, closes a changed rate and leaves the rest", async () => {
    serveFeeds({ [OECD_URL_PREFIX]: await oecdCsv({ JP: 23.4 }) });
    const run = await runJobNow("oecd");
    expect(run.status).toBe("succeeded");
    expect(run.counts).toMatchObject({ inserted: 1, closed: 1, unchanged: 37 });
    expect(await current("JP", "CorporateTax")).toEqual({ rate: 23.4, effective_from: "2025-01-01T00:00:00", data_source: "OECD" });
  });

  it("fails on a CSV without the SDMX columns", async () => {
    serveFeeds({ [OECD_URL_PREFIX]: "country,rate\nJPN,23.2" });
    expect(await runJobNow("oecd")).toMatchObject({
      status: "failed",
      error: "the OECD feed is malformed: it needs the columns REF_AREA, TIME_PERIOD and OBS_VALUE",
    });
  });
});

const rateFeed = (rates: object[]) => JSON.stringify({ versionDate: "2026-10-01", rates });

describe("the encyclopedia and China jobs", () => {
  it("apply the documented JSON to the countries it lists", async () => {
    serveFeeds({
      "https://feeds.test/encyclopedia.json": rateFeed([
        { countryCode: "TH", taxType: "VAT", rateLevel: "standard", rateValue: 10, effectiveFrom: "2026-10-01" },
        { countryCode: "SG", taxType: "GST", rateLevel: "standard", rateValue: 9 },
      ]),
    });
    const run = await runJobNow("encyclopedia");
    expect(run.status).toBe("succeeded");
    expect(run.counts).toMatchObject({ inserted: 1, closed: 1, unchanged: 1 });
    expect(await current("TH", "VAT")).toMatchObject({ rate: 10, effective_from: "2026-10-01T00:00:00", data_source: "ENCYCLOPEDIA" });
  });

  it("keeps China's feed to China", async () => {
    serveFeeds({ "https://feeds.test/china.json": rateFeed([{ countryCode: "JP", taxType: "VAT", rateLevel: "standard", rateValue: 5 }]) });
    expect(await runJobNow("china")).toMatchObject({ status: "failed", error: "the china feed lists JP; it may only list CN" });
  });

  it("updates China's VAT levels", async () => {
    serveFeeds({
      "https://feeds.test/china.json": rateFeed([
        { countryCode: "CN", taxType: "VAT", rateLevel: "standard", rateValue: 13 },
        { countryCode: "CN", taxType: "VAT", rateLevel: "reduced1", rateValue: 9 },
        { countryCode: "CN", taxType: "VAT", rateLevel: "reduced2", rateValue: 6 },
        { countryCode: "CN", taxType: "VAT", rateLevel: "super_reduced", rateValue: 1, effectiveFrom: "2026-01-01" },
        { countryCode: "CN", taxType: "VAT", rateLevel: "zero", rateValue: 0 },
      ]),
    });
    expect(await runJobNow("china")).toMatchObject({ status: "succeeded", counts: { inserted: 1, closed: 1, unchanged: 4 } });
    expect((await current("CN", "VAT", "super_reduced"))!.rate).toBe(1);
  });

  it("fails without a configured source", async () => {
    // T's own setting, which Bindings does not list: the job reads it from the group's parse of this env.
    const withoutChinaFeed = { ...env, CHINA_FEED_URL: undefined };
    const run = await runJob(
      database(env),
      withoutChinaFeed,
      JOBS.find((job) => job.name === "china")!,
      "manual",
    );
    expect(run).toMatchObject({ status: "failed", error: "no source configured: set CHINA_FEED_URL" });
  });

  it("fails on an unknown tax type", async () => {
    serveFeeds({
      "https://feeds.test/encyclopedia.json": rateFeed([{ countryCode: "TH", taxType: "LuxuryTax", rateLevel: "standard", rateValue: 1 }]),
    });
    const run = await runJobNow("encyclopedia");
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/^the encyclopedia feed is malformed at rates\.0\.taxType/);
  });
});
