/** `?date=` on T1–T7: the records of the seed's history in force on a day, and what a bad day answers. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TaxRate } from "../../src/tax/schema";
import { call } from "../helpers/requests";
import { TAX, getTax } from "./fixtures";

const levels = (rates: TaxRate[]) => Object.fromEntries(rates.map((r) => [r.rateLevel, r.rateValue]));

afterEach(() => vi.useRealTimers());

describe("rates in force on a day", () => {
  it("an undated answer is today's: the District of Columbia's 7 % is not current before 2026-10-01, and is from that day", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-09-30T23:59:00Z"));
    const before = await getTax("/country/US/region/US-DC");
    expect(before.body.data.map((r) => r.rateValue)).toEqual([6.5]);
    expect(before.res.headers.get("Tax-Rates-In-Force-On")).toBe("2026-09-30");
    vi.setSystemTime(new Date("2026-10-01T00:00:01Z"));
    const after = await getTax("/country/US/region/US-DC");
    expect(after.body.data.map((r) => r.rateValue)).toEqual([7]);
    expect(after.res.headers.get("Tax-Rates-In-Force-On")).toBe("2026-10-01");
  });

  it("T5 answers Russia's 20 % on the last day of 2025 and 22 % from 2026-01-01, and says the day in a header", async () => {
    const before = await getTax<TaxRate>("/country/RU/standard?date=2025-12-31");
    expect(before.body.data).toMatchObject({ rateValue: 20, effectiveFrom: "2020-01-01T00:00:00", effectiveTo: "2025-12-31T23:59:59" });
    expect(before.res.headers.get("Tax-Rates-In-Force-On")).toBe("2025-12-31");
    const after = await getTax<TaxRate>("/country/RU/standard?date=2026-01-01");
    expect(after.body.data).toMatchObject({ rateValue: 22, effectiveFrom: "2026-01-01T00:00:00", effectiveTo: null });
  });

  it("T3 follows the District of Columbia through 6, 6.5 and 7 %", async () => {
    for (const [date, rate] of [
      ["2025-09-30", 6],
      ["2025-10-01", 6.5],
      ["2026-09-30", 6.5],
      ["2026-10-01", 7],
    ] as const) {
      const { body } = await getTax(`/country/US/region/US-DC?date=${date}`);
      expect(
        body.data.map((r) => r.rateValue),
        date,
      ).toEqual([rate]);
    }
  });

  it("T2 and T4 give Estonia's levels of 2024, not today's", async () => {
    expect(levels((await getTax("/country/EE/type/VAT?date=2024-06-15")).body.data)).toEqual({ standard: 22, reduced2: 9, reduced1: 5 });
    const country = (await getTax("/country/EE?date=2024-06-15")).body.data;
    expect(country.find((r) => r.taxType === "CorporateTax")!.rateValue).toBe(20);
    expect(levels((await getTax("/country/EE/type/VAT")).body.data)).toEqual({ standard: 24, reduced2: 13, reduced1: 9 });
  });

  it("T6 gives Finland's 24 % in 2023 and T7 France's 28.41 % corporate rate of 2021", async () => {
    const eu = (await getTax("/eu/all?date=2023-03-01")).body.data;
    expect(eu.find((r) => r.countryCode === "FI" && r.rateLevel === "standard")!.rateValue).toBe(24);
    expect(new Set(eu.map((r) => r.countryCode)).size).toBe(27);
    const oecd = (await getTax("/oecd/CorporateTax?date=2021-06-01")).body.data;
    expect(oecd.find((r) => r.countryCode === "FR")!.rateValue).toBe(28.41);
    expect(oecd).toHaveLength(38);
  });

  it("T1 with a date pages through the records in force that day only", async () => {
    type Page = { content: TaxRate[]; totalElements: number };
    const all = (await getTax<Page>("/list?size=100")).body.data;
    const dated = await getTax<Page>("/list?size=100&date=2025-12-31");
    expect(dated.res.headers.get("Tax-Rates-In-Force-On")).toBe("2025-12-31");
    expect(dated.body.data.totalElements).toBeLessThan(all.totalElements);
    for (const r of dated.body.data.content) {
      expect(r.effectiveFrom <= "2025-12-31T00:00:00").toBe(true);
      expect(r.effectiveTo === null || r.effectiveTo >= "2025-12-31T00:00:00").toBe(true);
    }
  });

  it("answers 404 with the day when nothing was in force then (history starts in 2020)", async () => {
    const { res, body } = await getTax("/country/DE?date=2019-06-01");
    expect(res.status).toBe(404);
    expect(body.msg).toBe("No tax rates for DE in force on 2019-06-01");
  });

  it.each([
    ["a day that is no date", "yesterday", "date must be a day as YYYY-MM-DD, e.g. 2026-01-01"],
    ["a time", "2026-01-01T00:00:00", "date must be a day as YYYY-MM-DD, e.g. 2026-01-01"],
    ["a 13th month", "2026-13-01", "date must be a real day of the calendar, e.g. 2026-01-01"],
    ["the 30th of February", "2026-02-30", "date must be a real day of the calendar, e.g. 2026-01-01"],
    ["a day long past", "1850-01-01", "date must be between 1990-01-01 and 2099-12-31"],
    ["a day far ahead", "2150-01-01", "date must be between 1990-01-01 and 2099-12-31"],
  ])("refuses %s with a 400 in the data envelope", async (_, date, message) => {
    for (const path of ["/list", "/country/DE", "/country/US/region/US-CA", "/country/DE/type/VAT", "/country/DE/standard", "/eu/all", "/oecd/VAT"]) {
      const { res, body } = await getTax(`${path}?date=${encodeURIComponent(date)}`);
      expect(res.status, path).toBe(400);
      expect(body).toMatchObject({ code: 400, data: null });
      expect(body.msg, path).toContain(message);
    }
  });

  it("refuses a misspelt or unknown parameter rather than answering today's rate in silence", async () => {
    for (const [path, parameter] of [
      ["/country/DE/standard?dat=2019-01-01", "dat"],
      ["/list?sise=5", "sise"],
      ["/types?date=2024-01-01", "date"],
      ["/taxnumber/DE136695976?county=DE", "county"],
    ]) {
      const { res, body } = await getTax(path!);
      expect(res.status, path).toBe(400);
      expect(body, path).toEqual({ code: 400, msg: `The request does not take the parameter ${parameter}`, data: null });
    }
  });

  it("documents `date` with an example on T1–T7", async () => {
    const doc = await (
      await call("/openapi.json")
    ).json<{ paths: Record<string, { get: { parameters: { name: string; example?: unknown; schema?: { example?: unknown } }[] } }> }>();
    const dated = Object.entries(doc.paths)
      .filter(([, item]) => item.get?.parameters?.some((p) => p.name === "date" && (p.example ?? p.schema?.example) === "2026-01-01"))
      .map(([path]) => path.slice(TAX.length))
      .sort();
    expect(dated).toEqual(
      [
        "/country/{countryCode}",
        "/country/{countryCode}/region/{regionCode}",
        "/country/{countryCode}/standard",
        "/country/{countryCode}/type/{taxType}",
        "/eu/all",
        "/list",
        "/oecd/{taxType}",
      ].sort(),
    );
  });
});
