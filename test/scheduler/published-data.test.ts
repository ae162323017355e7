import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HS_SECTIONS_URL, HS_URL, runJobNow, serveFeeds, UNITS_URL } from "../helpers/feeds";

afterEach(() => vi.restoreAllMocks());

const hsRow = (code: string) => env.DB.prepare("SELECT code, description, parent, level, section FROM hs_codes WHERE code = ?").bind(code).first();

// The published data sets of ../shared/data, loaded into an empty database through the real jobs.
describe("the published data sets", () => {
  it.skipIf(!env.SHARED_HS_CSV)("loads the whole published HS 2022 nomenclature", async () => {
    serveFeeds({ [HS_URL]: env.SHARED_HS_CSV, [HS_SECTIONS_URL]: env.SHARED_HS_SECTIONS_CSV });
    const run = await runJobNow("hs");
    expect(run.status).toBe("succeeded");
    const levels = await env.DB.prepare("SELECT level, count(*) AS n FROM hs_codes GROUP BY level ORDER BY level").all<{
      level: number;
      n: number;
    }>();
    expect(levels.results.map((r) => r.level)).toEqual([0, 2, 4, 6]);
    // Chapter 77 is reserved, and 99 (national use) is left out.
    expect(levels.results.find((r) => r.level === 2)!.n).toBe(96);
    expect(await hsRow("0901")).toMatchObject({ parent: "09", level: 4, section: "II" });
  });

  it.skipIf(!env.SHARED_UNITS_CSV)("loads the whole published Recommendation 20", async () => {
    serveFeeds({ [UNITS_URL]: env.SHARED_UNITS_CSV });
    const run = await runJobNow("units");
    expect(run.status).toBe("succeeded");
    const base = await env.DB.prepare("SELECT count(*) AS n FROM units WHERE origin = 'base' AND ref_unit IS NOT NULL").first<{ n: number }>();
    expect(base!.n).toBe(32);
  });
});
