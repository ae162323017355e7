import { describe, expect, it } from "vitest";
import type { TaxNumberCheck } from "../../src/tax/tax-numbers";
import { getTax } from "./fixtures";

const check = (number: string) => getTax<TaxNumberCheck>(`/taxnumber/${encodeURIComponent(number)}`);

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

  it("answers 404 for a number that fits no country's format", async () => {
    const { res, body } = await check("QQ12");
    expect(res.status).toBe(404);
    expect(body.msg).toBe("QQ12 fits no country's tax number format");
  });

  it.each([["DE13669597$"], ["abc"], ["x".repeat(41)]])("refuses %j with a 400", async (number) => {
    const { res, body } = await check(number);
    expect(res.status).toBe(400);
    expect(body.msg).toBe("taxNumber: taxNumber must be 4 to 40 letters, digits, spaces, dots or dashes");
  });
});
