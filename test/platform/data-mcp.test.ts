import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { callTool as call, connectMcp, toolText as text } from "../helpers/mcp";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { secretHeaders, signedHeaders } from "../helpers/requests";

const connect = (headers: Record<string, string>, settings?: Record<string, string>) => connectMcp("/std/mcp", headers, settings);

let key: TestKey;
let client: Client;
beforeAll(async () => {
  key = await createTestKey();
  client = await connect(secretHeaders(key));
  // The first request compiles the Worker in this runtime.
}, 60_000);

describe("the data services' MCP endpoint", () => {
  it("offers T, O and I as tools made from their operations, one per path", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(["taxrate_country", "taxrate_taxnumber", "open_country_list", "open_country_special", "ai_summarize"]),
    );
    expect(names.some((name) => name.startsWith("api_") || name.includes("mcp") || name.startsWith("scheduler"))).toBe(false);
    // Registering a webhook endpoint answers its secret: an account's setting, not a tool for agents.
    expect(names.filter((name) => name.startsWith("taxrate_webhooks"))).toEqual([]);
    const country = tools.find((t) => t.name === "taxrate_country")!;
    expect(country.title).toMatch(/^T2 · /);
    expect(country.inputSchema).toMatchObject({ required: expect.arrayContaining(["countryCode"]) });
    expect(country.annotations).toMatchObject({ readOnlyHint: true });
    // Style F: the tool's arguments are the bizContent.
    expect(tools.find((t) => t.name === "open_country_special")!.inputSchema.properties).toHaveProperty("ccode");
  });

  it("answers a tax-rate call as T2 does, the second from the cache", async () => {
    const first = await call(client, "taxrate_country", { countryCode: "DE" });
    const rates = (first.structuredContent as { result: { taxType: string; rateLevel: string; rateValue: number }[] }).result;
    expect(rates.find((r) => r.taxType === "VAT" && r.rateLevel === "standard")?.rateValue).toBe(19);
    expect((await call(client, "taxrate_country", { countryCode: "DE" }))._meta).toMatchObject({ cache: "HIT" });
    expect(text(await call(client, "taxrate_country", { countryCode: "de" }))).toBe(
      "400: countryCode must be an upper-case ISO 3166-1 alpha-2 code, e.g. DE",
    );
    expect(text(await call(client, "taxrate_country", { countryCode: "XX" }))).toBe("404: No country with code XX");
  });

  it("gives the operation's answer whatever encodings the agent accepts (a kept answer is also kept gzipped)", async () => {
    const gzipping = await connect({ ...secretHeaders(key), "Accept-Encoding": "gzip" });
    for (const _ of [1, 2]) {
      const germany = await call(gzipping, "taxrate_country", { countryCode: "DE" });
      expect(germany.isError).toBeFalsy();
      expect(JSON.stringify(germany.structuredContent).length).toBeGreaterThan(1024);
      expect((germany.structuredContent as { result: { rateValue: number }[] }).result.some((rate) => rate.rateValue === 19)).toBe(true);
    }
  });

  it("answers a style F call with the arguments as its bizContent", async () => {
    const japan = await call(client, "open_country_special", { ccode: "JP" });
    expect(japan.isError).toBeFalsy();
    expect(JSON.stringify(japan.structuredContent)).toContain("JP");
    expect((await call(client, "open_country_special", { ccode: 5 })).isError).toBe(true);
    // An argument misspelt is named before the call, as the GET tools name theirs; the operation's findings name arguments, not bizContent.
    expect(text(await call(client, "open_country_special", { ccode: "JP", lnag: "fr" }))).toMatch(
      /^Unknown argument lnag; open_country_special takes .*\blang\b/,
    );
    expect(text(await call(client, "open_country_special", { code: "JP" }))).toMatch(
      /^Unknown argument code; open_country_special takes .*\bccode\b/,
    );
    expect(text(await call(client, "open_country_special", { ccode: 5 }))).toMatch(/^400: ccode/);
  });

  it("refuses a tool the key's scope does not allow, a wrong secret, a signature, and calls past the plan's limit", async () => {
    const taxOnly = await connect(secretHeaders(await createTestKey({ scopes: ["taxrate:read"] })));
    expect(text(await call(taxOnly, "open_country_list", {}))).toBe("403: Insufficient permission: requires scope reference:read");
    await expect(connect({ ...secretHeaders(await createTestKey()), "X-API-Secret": "svc_ss_wrong" })).rejects.toMatchObject({ code: 401 });
    const signed = await connect(await signedHeaders(key)).catch((error: unknown) => error);
    expect(signed).toMatchObject({ code: 401, message: expect.stringContaining("the MCP endpoint does not take signed requests") });
    // No key, or a tenant's, is told what the REST API tells it, not to add a secret.
    await expect(connect({})).rejects.toMatchObject({ code: 401, message: expect.stringContaining("X-API-Key header required") });
    await expect(connect({ "X-API-Key": "svc_tk_0123456789abcdefghij" })).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining("Not a data-service key"),
    });

    const limited = await connect(secretHeaders(await createTestKey({ plan: "free" })), {
      RATE_LIMITS: JSON.stringify({ perHour: { reference: 1 } }),
    });
    expect((await call(limited, "open_country_list", {})).isError).toBeFalsy();
    expect(text(await call(limited, "open_country_list", {})).slice(0, 80)).toMatch(/^429: Rate limit exceeded for the \w+ plan; retry after \d+ s$/);
  });
});
