/** O3/O4 subdivisions are ISO 3166-2 as Debian's iso-codes 4.20.0 publishes it (seed/data). */
import { beforeAll, describe, expect, it } from "vitest";
import iso from "../../seed/data/iso_3166-2.json";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { call, envelope, secretHeaders } from "../helpers/requests";

type Zone = { id: number; code: string; name: string; nameEN: string; parsent: number; type: string | null };

let key: TestKey;
beforeAll(async () => {
  key = await createTestKey({ scopes: ["reference:read"] });
});

async function zones(bizContent: object) {
  const res = await call("/std/open/zone/query", {
    method: "POST",
    headers: { ...secretHeaders(key), "Content-Type": "application/json" },
    body: JSON.stringify({ bizContent }),
  });
  return (await envelope<{ total: number; items: Zone[] }>(res)).data;
}

const zone = async (code: string) => (await zones({ code })).items.find((z) => z.code === code);

describe("ISO 3166-2 subdivisions", () => {
  it("serves every subdivision of iso-codes 4.20.0 under its ISO name, and nothing else", async () => {
    const served: Zone[] = [];
    for (let page = 1; ; page++) {
      const { items } = await zones({ size: 1000, page });
      served.push(...items.filter((z) => z.parsent !== 0));
      if (items.length < 1000) break;
    }
    const expected = new Map(iso["3166-2"].map((s) => [s.code, s.name]));
    expect(served).toHaveLength(expected.size);
    expect(served.filter((z) => expected.get(z.code) !== z.name)).toEqual([]);
  });

  it.each([
    ["DZ-49", "Timimoun"],
    ["DZ-50", "Bordj Badji Mokhtar"],
    ["DZ-58", "El Meniaa"],
    ["EE-430", "Lääneranna"],
    ["EE-431", "Lääne-Harju"],
    ["DK-84", "Hovedstaden"],
    ["VE-W", "Dependencias Federales"],
    ["RU-MOS", "Moskovskaya oblast'"],
    ["IT-23", "Valle d'Aosta"],
    ["ES-OR", "Ourense [Orense]"],
    ["MT-06", "Bormla"],
  ])("names %s %s, as ISO does", async (code, name) => {
    expect(await zone(code)).toMatchObject({ code, name });
  });

  it("gives the English name iso-codes confirms, and ISO's category", async () => {
    expect(await zone("DE-BY")).toMatchObject({ name: "Bayern", nameEN: "Bavaria", type: "Land" });
  });

  it("puts a province under its region, the region under its country", async () => {
    const galicia = (await zone("ES-GA"))!;
    const spain = (await zones({ code: "ES" })).items.find((z) => z.code === "ES")!;
    expect(galicia.parsent).toBe(spain.id);
    expect((await zone("ES-OR"))!.parsent).toBe(galicia.id);
  });

  it("serves Vietnam's provinces and municipalities", async () => {
    const vietnam = (await zones({ code: "VN" })).items.find((z) => z.code === "VN")!;
    const { items } = await zones({ parsent: vietnam.id, size: 100 });
    expect(items.map((z) => z.code)).toEqual(expect.arrayContaining(["VN-01", "VN-HN", "VN-SG", "VN-DN", "VN-CT", "VN-HP"]));
    expect(items).toHaveLength(iso["3166-2"].filter((s) => s.code.startsWith("VN-")).length);
  });

  it.each(["PR-001", "PR-127", "HK-HK", "AX-01"])("does not serve %s, which is not an ISO 3166-2 code", async (code) => {
    expect(await zone(code)).toBeUndefined();
  });
});
