import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TaxRate } from "../../src/tax/schema";
import { getTax } from "./fixtures";

type Page = { content: TaxRate[]; totalElements: number; totalPages: number; number: number; size: number };

describe("T1 list", () => {
  it("pages from 0 with 20 records by default, history included", async () => {
    const total = (await env.DB.prepare("SELECT count(*) AS n FROM tax_rates").first<{ n: number }>())!.n;
    const { res, body } = await getTax<Page>("/list");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ code: 200, msg: "success" });
    expect(body.data).toMatchObject({ number: 0, size: 20, totalElements: total, totalPages: Math.ceil(total / 20) });
    expect(body.data.content).toHaveLength(20);
    expect(total).toBeGreaterThan(400);
  });

  it("returns the next records on the next page", async () => {
    const first = (await getTax<Page>("/list?page=0&size=5")).body.data.content.map((r) => r.id);
    const second = (await getTax<Page>("/list?page=1&size=5")).body.data.content.map((r) => r.id);
    expect(second).toHaveLength(5);
    expect(Math.min(...second)).toBeGreaterThan(Math.max(...first));
  });

  it("returns an empty page past the end", async () => {
    const { body } = await getTax<Page>("/list?page=100000&size=100");
    expect(body.data.content).toEqual([]);
  });

  it("serialises a record with every interface field", async () => {
    const [rate] = (await getTax<Page>("/list?size=1")).body.data.content;
    expect(Object.keys(rate!).sort()).toEqual(
      [
        "id",
        "countryCode",
        "regionCode",
        "countryName",
        "regionName",
        "taxType",
        "taxNameLocal",
        "taxNameEn",
        "taxAbbr",
        "rateLevel",
        "rateLevelName",
        "rateValue",
        "rateDefinition",
        "effectiveFrom",
        "effectiveTo",
        "currencyCode",
        "euMember",
        "oecdMember",
        "taxIdFormat",
        "taxIdPattern",
        "filingFrequency",
        "applicableScope",
        "excludedScope",
        "dataSource",
        "sourceUrl",
        "versionDate",
        "lastSyncTime",
        "enabled",
      ].sort(),
    );
    expect(rate!.effectiveFrom).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it.each([
    ["page=-1", "page must be 0 or greater"],
    ["page=abc", "page must be an integer"],
    ["page=1.5", "page must be an integer"],
    ["page=100001", "page must be at most 100000"],
    ["size=0", "size must be at least 1"],
    ["size=101", "size must be at most 100"],
    ["size=1000000", "size must be at most 100"],
    ["size=99999999999999999999", "size must be at most 100"],
    ["page=-99999999999999999999", "page must be 0 or greater"],
  ])("refuses %s with a 400 naming the field", async (query, msg) => {
    const { res, body } = await getTax(`/list?${query}`);
    expect(res.status).toBe(400);
    expect(body).toEqual({ code: 400, msg, data: null });
  });
});
