import { env } from "cloudflare:test";
import { vi } from "vitest";
import type { JobRun } from "../../src/platform/jobs/tables";
import { createTestKey } from "./credentials";
import { oncePerStorage } from "./fresh-storage";
import { call, envelope, secretHeaders } from "./requests";

export const EU_VAT_URL = "https://raw.githubusercontent.com/ibericode/vat-rates/master/vat-rates.json";
export const OECD_URL_PREFIX = "https://sdmx.oecd.org/";
export const HS_URL = "https://raw.githubusercontent.com/datasets/harmonized-system/master/data/harmonized-system.csv";
export const HS_SECTIONS_URL = "https://raw.githubusercontent.com/datasets/harmonized-system/master/data/sections.csv";
export const UNITS_URL = "https://raw.githubusercontent.com/datasets/unece-units-of-measure/master/data/units-of-measure.csv";

/** A body (200), a status with a body, or an error to throw; responses are made per call, in the caller's context. */
type Served = string | { status: number; body: string } | Error;

/** The feeds' servers at the HTTP boundary: each URL (or URL prefix ending in /) answers what is given. */
export function serveFeeds(feeds: Record<string, Served>) {
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const served = feeds[url] ?? Object.entries(feeds).find(([prefix]) => prefix.endsWith("/") && url.startsWith(prefix))?.[1];
    if (served === undefined) return new Response("not found", { status: 404 });
    if (served instanceof Error) throw served;
    return typeof served === "string" ? new Response(served) : new Response(served.body, { status: served.status });
  });
}

export const adminKey = oncePerStorage(() => createTestKey({ role: "admin" }));

export async function runJobNow(job: string): Promise<JobRun> {
  const res = await call(`/std/scheduler/run/${job}`, { method: "POST", headers: secretHeaders(await adminKey()) });
  if (res.status !== 200) throw new Error(`run ${job} answered ${res.status}: ${await res.text()}`);
  return (await envelope<JobRun>(res)).data;
}

/** The EU VAT feed as it would describe the current records, to be changed by each test. */
export async function euVatFeedFromDatabase(): Promise<{ items: Record<string, { effective_from: string; rates: Record<string, number> }[]> }> {
  const { results } = await env.DB.prepare(
    "SELECT country_code, rate_level, rate_value_scaled, effective_from FROM tax_rates WHERE tax_type = 'VAT' AND eu_member = 1 AND region_code IS NULL AND effective_to IS NULL",
  ).all<{ country_code: string; rate_level: string; rate_value_scaled: number; effective_from: string }>();
  // One period a country, starting when its newest current rate did, as the real feed has it.
  const items: Record<string, { effective_from: string; rates: Record<string, number> }[]> = {};
  for (const row of results) {
    const period = (items[row.country_code] ??= [{ effective_from: row.effective_from.slice(0, 10), rates: {} }])[0]!;
    if (row.effective_from.slice(0, 10) > period.effective_from) period.effective_from = row.effective_from.slice(0, 10);
    period.rates[row.rate_level] = row.rate_value_scaled / 10_000;
  }
  return { items };
}

/** Yesterday, as a feed date: a change the job sees as in force. */
export const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** An HS feed in the datasets/harmonized-system shape: every chapter, one heading each, and coffee. */
export function hsCsv(options: { chapters?: number; description?: (code: string) => string } = {}): string {
  const describe = options.description ?? ((code: string) => `Goods of ${code}`);
  const lines = ["section,hscode,description,parent,level", "I,TOTAL,Total,,0"];
  for (let n = 1; n <= (options.chapters ?? 97); n++) {
    const chapter = String(n).padStart(2, "0");
    lines.push(`I,${chapter},"${describe(chapter)}",TOTAL,2`);
    lines.push(`I,${chapter}01,"${chapter === "09" ? "Coffee, whether or not roasted or decaffeinated" : describe(`${chapter}01`)}",${chapter},4`);
  }
  lines.push('II,090111,"Coffee; not roasted, not decaffeinated",0901,6');
  return lines.join("\n");
}

export const HS_SECTIONS_CSV = "\uFEFFsection,name\nI,live animals; animal products\nII,Vegetable products";

/** A Recommendation 20 feed: the commerce units, a withdrawn one, and enough others to be whole. */
export function unitsCsv(extra = 1000): string {
  const lines = ["Status,CommonCode,Name,Description,LevelAndCategory,Symbol,ConversionFactor"];
  lines.push(",KGM,kilogram,A unit of mass equal to one thousand grams.,1,kg,kg");
  lines.push(',LBR,pound,,2,lb,"0,453 592 37 kg"');
  lines.push(",GRM,gram,,1,g,10⁻³ kg");
  lines.push(",MTR,metre,,1,m,m");
  lines.push(",CMT,centimetre,,1,cm,10⁻² m");
  lines.push(",H87,piece,A unit of count.,3.8,,");
  lines.push(",DZN,dozen,,3.8,,");
  lines.push("X,05,lift,,3.9,,");
  for (let i = 0; i < extra; i++) lines.push(`,Z${i.toString(36).toUpperCase().padStart(2, "0")},test unit ${i},,3.9,,`);
  return lines.join("\n");
}
