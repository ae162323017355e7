/** T12, the change feed, over the seed's records: paging with its cursor, filters, and what a bad query answers. */
import { describe, expect, it } from "vitest";
import type { RateChange } from "../../src/tax/schema";
import { getTax } from "./fixtures";

type Feed = { changes: RateChange[]; next: number | null };

describe("T12 the change feed", () => {
  it("lists the seed's Kosovo records as added, one page at a time, with their source", async () => {
    const first = (await getTax<Feed>("/changes?since=2000-01-01T00:00:00&country=XK&size=1")).body.data;
    expect(first.changes).toHaveLength(1);
    expect(first.changes[0]).toMatchObject({ kind: "added", countryCode: "XK", taxType: "VAT", sourceUrl: "https://www.atk-ks.org/en/" });
    expect(first.next).toBe(first.changes[0]!.id);
    const second = (await getTax<Feed>(`/changes?since=2000-01-01T00:00:00&country=XK&size=1&after=${first.next}`)).body.data;
    expect(second.changes[0]!.id).toBeGreaterThan(first.next!);
    const rest = (await getTax<Feed>(`/changes?since=2000-01-01T00:00:00&country=XK&after=${first.next}`)).body.data;
    expect(rest.next).toBeNull();
    expect(rest.changes.map((c) => [c.rateLevel, c.rateValue]).sort()).toEqual(
      [
        ["reduced", 8],
        ["standard", 18],
      ].filter(([level]) => level !== first.changes[0]!.rateLevel),
    );
  });

  it("answers an empty page for a time still to come", async () => {
    const { body } = await getTax<Feed>("/changes?since=2099-01-01T00:00:00Z");
    expect(body.data).toEqual({ changes: [], next: null });
  });

  it("records the seed's history as it was added: Russia's 20 % with its end, then 22 %", async () => {
    const { changes } = (await getTax<Feed>("/changes?since=2000-01-01T00:00:00&country=RU&size=200")).body.data;
    const standard = changes.filter((c) => c.rateLevel === "standard" && c.kind === "added");
    expect(standard.map((c) => [c.rateValue, c.effectiveTo])).toEqual([
      [20, "2025-12-31T23:59:59"],
      [22, null],
    ]);
    expect(standard[1]!.sourceUrl).toContain("nalog.gov.ru");
  });

  it.each([
    ["no since", "", "since is required"],
    ["a since that is a day", "?since=2026-11-01", "since must be a UTC time as YYYY-MM-DDTHH:mm:ss"],
    ["a since that is no time", "?since=2026-11-01T25:99:00", "since must be a real time"],
    ["a cursor that is no id", "?since=2026-11-01T00:00:00&after=-1", "after must be 0 or greater"],
    ["a page too large", "?since=2026-11-01T00:00:00&size=201", "size must be at most 200"],
    ["a country in lower case", "?since=2026-11-01T00:00:00&country=de", "country must be an upper-case ISO 3166-1 alpha-2 code"],
  ])("refuses %s with a 400", async (_, query, message) => {
    const { res, body } = await getTax(`/changes${query}`);
    expect(res.status).toBe(400);
    expect(body.msg).toContain(message);
  });
});
