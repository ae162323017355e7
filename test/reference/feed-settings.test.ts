import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import { sourceUrls } from "../../src/platform/jobs/runner";
import { REFERENCE_JOBS } from "../../src/reference/jobs";

const app = createApp(GROUPS, FALLBACK_SURFACES);

/** A fresh env object: the settings are checked and parsed once per env, as once per isolate in production. */
const withSettings = (overrides: Record<string, unknown>) => ({ ...env, ...overrides });
const job = (name: string) => REFERENCE_JOBS.find((j) => j.name === name)!;

describe("O's feed settings, declared by the group", () => {
  it.each([
    ["REFERENCE_FEED_URL", "http://feeds.test/reference.json"],
    ["HS_FEED_URL", "not a url"],
    ["HS_SECTIONS_FEED_URL", "ftp://feeds.test/sections.csv"],
    ["UNITS_FEED_URL", "http://feeds.test/units.csv"],
  ])("a %s that is not an https URL (%s) answers 503 naming it", async (name, value) => {
    const res = await app.request("https://gateway.test/std/open/country/list", {}, withSettings({ [name]: value }), createExecutionContext());
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ code: 503, msg: `service misconfigured: ${name}`, data: null });
  });

  it("points each job at its setting's parsed value, and at the public default when it is unset", () => {
    const configured = withSettings({ HS_FEED_URL: "https://mirror.test/hs.csv", UNITS_FEED_URL: undefined });
    expect(sourceUrls(job("hs"), configured)).toEqual({
      codes: "https://mirror.test/hs.csv",
      sections: "https://raw.githubusercontent.com/datasets/harmonized-system/master/data/sections.csv",
    });
    expect(sourceUrls(job("units"), configured)).toEqual({
      units: "https://raw.githubusercontent.com/datasets/unece-units-of-measure/master/data/units-of-measure.csv",
    });
    expect(sourceUrls(job("reference"), withSettings({ REFERENCE_FEED_URL: undefined }))).toEqual({ reference: undefined });
  });
});
