import { describe, expect, it } from "vitest";
import type { TaxNumberCheck } from "../../src/tax/schema";
import { getTax } from "./fixtures";

const check = (number: string, country?: string) =>
  getTax<TaxNumberCheck>(`/taxnumber/${encodeURIComponent(number)}${country ? `?country=${country}` : ""}`);

describe("T8 tax numbers", () => {
  it("confirms a valid German VAT number and returns Germany's rates", async () => {
    const { res, body } = await check("DE136695976");
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ valid: true, countryCode: "DE", normalized: "DE136695976", checkDigitVerified: true });
    expect(body.data.rates.find((r) => r.rateLevel === "standard" && r.taxType === "VAT")?.rateValue).toBe(19);
  });

  it("says a German number with a wrong check digit is invalid", async () => {
    const { res, body } = await check("DE136695977");
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ valid: false, countryCode: "DE", checkDigitVerified: false });
  });

  it("ignores spaces, dots and dashes and reads the EL prefix as Greece", async () => {
    const { body } = await check("el 094.259-216");
    expect(body.data).toMatchObject({ valid: true, countryCode: "GR", normalized: "EL094259216" });
  });

  it("recognises a Swiss UID with its suffix", async () => {
    const { body } = await check("CHE-116.281.710 MWST");
    expect(body.data).toMatchObject({ valid: true, countryCode: "CH", checkDigitVerified: true });
  });

  it("finds the country of a number without a prefix by its check digits", async () => {
    const { body } = await check("51 824 753 556");
    expect(body.data).toMatchObject({ valid: true, countryCode: "AU", checkDigitVerified: true });
  });

  it("reads a Northern Ireland XI number as a UK VAT number, check digits included", async () => {
    const { res, body } = await check("XI432525179");
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ valid: true, countryCode: "GB", normalized: "XI432525179", checkDigitVerified: true });
    expect(body.data.rates.find((r) => r.taxType === "VAT" && r.rateLevel === "standard")?.rateValue).toBe(20);
    expect((await check("XI432525178")).body.data).toMatchObject({ valid: false, countryCode: "GB" });
  });

  it("refuses a Dutch number with the branch suffix B00, and takes B01", async () => {
    const { res, body } = await check("NL004495445B00");
    expect(res.status).toBe(404);
    expect(body.msg).toBe("NL004495445B00 fits no country's tax number format");
    expect((await check("NL004495445B01")).body.data).toMatchObject({ valid: true, countryCode: "NL", checkDigitVerified: true });
  });

  it("does not guess the country of a bare nine digits that several countries' formats fit", async () => {
    const { res, body } = await check("123456789");
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ valid: true, countryCode: null, checkDigitVerified: false, rates: [] });
    expect(body.data.alternatives).toEqual(expect.arrayContaining(["PH", "PY"]));
    expect(body.data.alternatives).not.toContain("NO");
  });

  it("takes the caller's country hint", async () => {
    const { body } = await check("123456789", "PY");
    expect(body.data).toMatchObject({ valid: true, countryCode: "PY", checkDigitVerified: true, alternatives: [] });
    expect(body.data.rates.length).toBeGreaterThan(0);
    const other = await check("123456789", "DE");
    expect(other.res.status).toBe(404);
    expect(other.body.msg).toBe("123456789 fits no tax number format of DE");
    const malformed = await check("123456789", "py");
    expect(malformed.res.status).toBe(400);
    expect(malformed.body.msg).toBe("country must be an upper-case ISO 3166-1 alpha-2 code, e.g. PY");
  });

  it("answers 404 for a number that fits no country's format", async () => {
    const { res, body } = await check("QQ12");
    expect(res.status).toBe(404);
    expect(body.msg).toBe("QQ12 fits no country's tax number format");
  });

  it.each([["DE13669597$"], ["abc"], ["x".repeat(41)], ["DEß136695976"]])("refuses %j with a 400", async (number) => {
    const { res, body } = await check(number);
    expect(res.status).toBe(400);
    expect(body.msg).toBe("taxNumber must be 4 to 40 of A–Z, 0–9, spaces, dots, dashes or slashes");
  });
});
