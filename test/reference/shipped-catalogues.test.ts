/** The HS codes and units the seed ships (as `npm run dev` loads them), and O6's search over them. */
import { beforeAll, describe, expect, it } from "vitest";
import { loadCatalogues } from "../helpers/catalogues";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { call, envelope, secretHeaders } from "../helpers/requests";

type Page = { total: number; items: { code: string; level: number; description: string }[] };

let key: TestKey;
beforeAll(async () => {
  await loadCatalogues();
  key = await createTestKey({ scopes: ["reference:read"] });
});

async function search(bizContent: object) {
  const res = await call("/std/open/hs-code/list", {
    method: "POST",
    headers: { ...secretHeaders(key), "Content-Type": "application/json" },
    body: JSON.stringify({ bizContent }),
  });
  return { status: res.status, body: await envelope<Page>(res) };
}

const topCodes = async (keywords: string, n = 3) => (await search({ keywords, size: 10 })).body.data.items.slice(0, n).map((h) => h.code);

describe("O6 search in everyday words", () => {
  it.each([
    ["laptop", "8471"],
    ["laptops", "8471"],
    ["sneakers", "6404"],
    ["solar panel", "8541"],
    ["solar panels", "8541"],
    ["smartphone", "8517"],
    ["t-shirt", "6109"],
    ["refrigerator", "8418"],
    ["bicycle", "8712"],
    ["drone", "8806"],
    ["red wine", "2204"],
    ["chocolate", "1806"],
    ["printer", "8443"],
    ["vacuum cleaner", "8508"],
    ["headphones", "8518"],
    ["handbag", "4202"],
    ["sunglasses", "9004"],
    ["diapers", "9619"],
    ["perfume", "3303"],
    ["shampoo", "3305"],
    ["toothpaste", "3306"],
    ["car tyres", "4011"],
    ["cement", "2523"],
    ["olive oil", "1509"],
    ["honey", "0409"],
    ["frozen shrimp", "0306"],
    ["umbrella", "6601"],
    ["electric guitar", "9202"],
    ["camping tent", "6306"],
    ["wheelchair", "8713"],
    ["mattress", "9404"],
    ["coffee beans", "0901"],
    ["kitchen knives", "8211"],
    ["wrist watch", "9102"],
  ])("%s finds heading %s in the top three", async (keywords, heading) => {
    expect(await topCodes(keywords)).toContain(heading);
  });

  it("lithium battery finds both primary cells (8506) and accumulators (8507)", async () => {
    expect(await topCodes("lithium battery")).toEqual(expect.arrayContaining(["8506", "8507"]));
  });

  it("toys puts 9503 first, not toilet articles", async () => {
    const codes = await topCodes("toys", 10);
    expect(codes[0]).toBe("9503");
    const { body } = await search({ keywords: "toys", size: 50 });
    expect(body.data.items.some((h) => /toilet/i.test(h.description))).toBe(false);
  });

  it("screws puts 7318 first", async () => {
    expect((await topCodes("screws", 1))[0]).toBe("7318");
  });

  it("ranks by relevance, not by code: a description with every word before one with some", async () => {
    const { body } = await search({ keywords: "roasted decaffeinated coffee", size: 5 });
    expect(body.data.items[0]!.code).toBe("0901");
    expect(body.data.items[1]!.description).toMatch(/roasted/i);
    expect(body.data.items[1]!.description).toMatch(/decaffeinated/i);
  });

  it("keeps the level filter: subheadings of a search only", async () => {
    const { body } = await search({ keywords: "laptop", level: 6 });
    expect(body.data.items[0]!.code).toBe("847130");
    expect(body.data.items.every((h) => h.level === 6)).toBe(true);
  });

  it("pages a search, the total counting every match", async () => {
    const first = await search({ keywords: "cotton", size: 5, page: 1 });
    const second = await search({ keywords: "cotton", size: 5, page: 2 });
    expect(first.body.data.total).toBeGreaterThan(10);
    expect(second.body.data.total).toBe(first.body.data.total);
    const overlap = second.body.data.items.filter((h) => first.body.data.items.some((f) => f.code === h.code));
    expect(overlap).toEqual([]);
  });
});

describe("the shipped catalogues", () => {
  it("hold the units of measure in use, the commerce units linked to their reference unit", async () => {
    const res = await call("/std/open/unit/list", {
      method: "POST",
      headers: { ...secretHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify({ bizContent: { code: "LBR" } }),
    });
    const { data } = await envelope<{ total: number; items: { code: string; refUnit: number | null; factor: string }[] }>(res);
    expect(data.items[0]).toMatchObject({ code: "LBR", factor: "0.45359237" });
    expect(data.items[0]!.refUnit).not.toBeNull();
    const all = await call("/std/open/unit/list", {
      method: "POST",
      headers: { ...secretHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify({ bizContent: { origin: "unece", size: 1 } }),
    });
    expect((await envelope<{ total: number }>(all)).data.total).toBeGreaterThan(1600);
  });

  it("holds every chapter, heading and subheading of HS 2022, and no 99/9999/999999 placeholder", async () => {
    const level = async (n: number) => (await search({ level: n, size: 1 })).body.data.total;
    expect(await level(0)).toBe(21);
    expect(await level(2)).toBe(96);
    expect(await level(4)).toBeGreaterThan(1200);
    expect(await level(6)).toBeGreaterThan(5400);
    const placeholder = await search({ keywords: "commodities not specified according to kind", size: 100 });
    expect(placeholder.body.data.items.filter((h) => ["99", "9999", "999999"].includes(h.code))).toEqual([]);
  });
});
