import { describe, expect, it } from "vitest";
import { getTax } from "./fixtures";

describe("T6 EU VAT", () => {
  it("returns the current VAT rates of all 27 members and nobody else", async () => {
    const { res, body } = await getTax("/eu/all");
    expect(res.status).toBe(200);
    expect(new Set(body.data.map((r) => r.countryCode)).size).toBe(27);
    expect(body.data.every((r) => r.euMember && r.taxType === "VAT" && r.effectiveTo === null)).toBe(true);
    expect(body.data.filter((r) => r.rateLevel === "standard")).toHaveLength(27);
    expect(body.data.some((r) => r.rateLevel === "super_reduced")).toBe(true);
    expect(body.data.some((r) => r.rateLevel === "parking")).toBe(true);
  });
});

describe("T7 OECD by type", () => {
  it("returns the corporate tax rate of every one of the 38 members", async () => {
    const { body } = await getTax("/oecd/CorporateTax");
    expect(new Set(body.data.map((r) => r.countryCode)).size).toBe(38);
    expect(body.data.every((r) => r.oecdMember && r.dataSource === "OECD")).toBe(true);
    expect(body.data.find((r) => r.countryCode === "GB")?.rateValue).toBe(25);
  });

  it("returns an empty list for a type no member has on record", async () => {
    const { res, body } = await getTax("/oecd/PropertyTax");
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
  });

  it("refuses an unknown tax type", async () => {
    const { res } = await getTax("/oecd/Corporate");
    expect(res.status).toBe(400);
  });
});
