import { describe, expect, it } from "vitest";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { call, envelope, secretHeaders } from "../helpers/requests";

type Country = Record<string, unknown> & { code: string };

let shared: Promise<TestKey> | undefined;
const key = () => (shared ??= createTestKey({ scopes: ["reference:read"] }));

async function ask(path: string, bizContent: Record<string, unknown>) {
  return call(`/std/open/country/${path}`, {
    method: "POST",
    headers: { ...secretHeaders(await key()), "Content-Type": "application/json" },
    body: JSON.stringify({ bizContent }),
  });
}

async function countries(bizContent: Record<string, unknown>): Promise<Country[]> {
  const res = await ask("list", bizContent);
  expect(res.status).toBe(200);
  return (await envelope<Country[]>(res)).data;
}

describe("a country's profile: the fields people expect of restcountries", () => {
  it("answers O2 with capital, regions, languages, currencies, calling codes, time zones, borders, flag, postal pattern, domain and position", async () => {
    const res = await ask("special", { ccode: "DE" });
    const { data } = await envelope<Country>(res);
    expect(data).toMatchObject({
      code: "DE",
      name: "Germany",
      iso3: "DEU",
      capital: ["Berlin"],
      region: "Europe",
      subregion: "Western Europe",
      languages: [{ code: "de", name: "German" }],
      currencies: ["EUR"],
      callingCodes: ["+49"],
      flag: "🇩🇪",
      postalCodePattern: "^[0-9]{5}$",
      topLevelDomains: [".de"],
      latlng: [51, 9],
    });
    expect(data.timezones).toContain("Europe/Berlin");
    expect(data.borders).toEqual(expect.arrayContaining(["AT", "CH", "FR", "PL"]));
    expect(new RegExp(data.postalCodePattern as string).test("10115")).toBe(true);
    expect((data.names as Record<string, string>).ja).toBe("ドイツ");
  });

  it("gives the North American plan's +1 once, not one code per area", async () => {
    const { data } = await envelope<Country>(await ask("special", { ccode: "US" }));
    expect(data.callingCodes).toEqual(["+1"]);
  });

  it("names the country in the language of lang, and answers only the fields asked for (and the code)", async () => {
    const { data } = await envelope<Country>(await ask("special", { ccode: "DE", lang: "fr", fields: ["translatedName", "capital"] }));
    expect(data).toEqual({ code: "DE", translatedName: "Allemagne", capital: ["Berlin"] });
    // lang names it with fields that leave it out, as docs/reference.md's example asks.
    const named = await envelope<Country>(await ask("special", { ccode: "DE", lang: "fr", fields: ["name"] }));
    expect(named.data).toEqual({ code: "DE", name: "Germany", translatedName: "Allemagne" });
  });

  it("filters O1 by region or subregion, by a currency in use and by an official language", async () => {
    const western = (await countries({ region: "western europe", fields: ["name"] })).map((c) => c.code);
    expect(western).toEqual(expect.arrayContaining(["DE", "FR", "NL"]));
    expect(western).not.toContain("JP");
    expect((await countries({ region: "Oceania" })).map((c) => c.code)).toContain("NZ");
    const euro = (await countries({ currency: "EUR" })).map((c) => c.code);
    expect(euro).toEqual(expect.arrayContaining(["DE", "FR", "ME"]));
    expect(euro).not.toContain("GB");
    const german = (await countries({ language: "de" })).map((c) => c.code);
    // As world-countries records them: Austria's is Austro-Bavarian (bar), Switzerland's Swiss German (gsw).
    expect(german).toEqual(expect.arrayContaining(["BE", "DE", "LI", "LU"]));
    expect(german).not.toContain("FR");
    expect(await countries({ region: "Atlantis" })).toEqual([]);
  });

  it("answers O1 with the interface's fields unless fields asks for more, so the list stays small", async () => {
    const res = await call("/std/open/country/list", { headers: secretHeaders(await key()) });
    const { data } = await envelope<Country[]>(res);
    expect(data).toHaveLength(249);
    expect(Object.keys(data.find((c) => c.code === "DE")!).sort()).toEqual([
      "code",
      "currencyCode",
      "id",
      "iso3",
      "name",
      "numericCode",
      "phoneCode",
    ]);
    const withCapitals = await countries({ fields: ["capital"] });
    expect(withCapitals.filter((c) => c.capital === undefined)).toEqual([]);
    expect((await countries({ lang: "ja" })).find((c) => c.code === "DE")).toMatchObject({ name: "Germany", translatedName: "ドイツ" });
  });

  it.each([
    [{ fields: ["name", "population"] }, "fields"],
    [{ fields: [] }, "must name at least one field"],
    [{ lang: "xx" }, "lang: must be one of en, ar"],
    [{ currency: "eur" }, "currency: must be an upper-case ISO 4217 code"],
    [{ language: "German" }, "language: must be an ISO 639-1 or 639-3 code"],
    [{ region: "x".repeat(51) }, "region: must be at most 50 characters"],
  ])("refuses %j with a 400 that says why", async (bizContent, message) => {
    const res = await ask("list", bizContent);
    expect(res.status).toBe(400);
    expect((await envelope(res)).msg).toContain(message);
  });
});
