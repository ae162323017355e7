import { describe, expect, it } from "vitest";
import { call } from "../helpers/requests";

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
  components: { securitySchemes: Record<string, unknown> };
}

const TAX_PATHS = [
  "/list",
  "/country/{countryCode}",
  "/country/{countryCode}/region/{regionCode}",
  "/country/{countryCode}/type/{taxType}",
  "/country/{countryCode}/standard",
  "/eu/all",
  "/oecd/{taxType}",
  "/taxnumber/{taxNumber}",
  "/types",
  "/levels",
  "/{id}",
].map((p) => `/std/api/bigdata/taxrate${p}`);

describe("API9 · OpenAPI document", () => {
  it("lists every T endpoint with its security and error responses", async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json<OpenApiDocument>();
    expect(doc.openapi).toBe("3.1.0");
    for (const path of TAX_PATHS) {
      const get = doc.paths[path]?.get;
      expect(get, path).toBeDefined();
      expect(get!.security).toHaveLength(2);
      expect(Object.keys(get!.responses)).toEqual(expect.arrayContaining(["200", "401"]));
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining(["DataKey", "DataSecret", "SignatureTimestamp", "SignatureNonce", "Signature"]),
    );
  });

  it("lists every A endpoint with its methods", async () => {
    const doc = await (await call("/openapi.json")).json<OpenApiDocument>();
    const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
    expect(methods("/auth/login")).toEqual(["get"]);
    expect(methods("/auth/callback")).toEqual(["get"]);
    expect(methods("/auth/logout")).toEqual(["post"]);
    expect(methods("/auth/refresh")).toEqual(["post"]);
    expect(methods("/api/tokens")).toEqual(["get", "post"]);
    expect(methods("/api/tokens/{id}")).toEqual(["delete", "get"]);
    expect(methods("/api/users/me")).toEqual(["get"]);
    expect(methods("/api/users/{id}")).toEqual(["delete", "get", "put"]);
    expect(methods("/api/apps")).toEqual(["get", "post"]);
    expect(methods("/api/apps/{id}")).toEqual(["delete"]);
    expect(Object.keys(doc.components.securitySchemes)).toContain("Bearer");
  });

  it("lists every P endpoint and every O endpoint", async () => {
    const doc = await (await call("/openapi.json")).json<OpenApiDocument>();
    for (const path of ["/carrier/pickup/submit", "/pickup/list", "/pickup/re-send", "/pickup/re-create", "/pickup/authorize/refresh"]) {
      expect(Object.keys(doc.paths[`/api/v1${path}`] ?? {}), path).toEqual(["post"]);
    }
    expect(Object.keys(doc.paths["/api/v1/pickup/{taskId}/deliveries"] ?? {})).toEqual(["get"]);
    const open = Object.keys(doc.paths).filter((p) => p.startsWith("/std/open/"));
    expect(open).toHaveLength(13);
    expect(Object.keys(doc.components.securitySchemes)).toContain("PickupAppToken");
  });

  it("lists the eight I endpoints, each POST with the timestamped envelope", async () => {
    const doc = await (
      await call("/openapi.json")
    ).json<{
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }> }>
      >;
    }>();
    const paths = ["/translate/document", "/summarize", "/sentiment", "/ner", "/qrcode/custom", "/language/detect", "/classify", "/keywords"];
    for (const path of paths) {
      const post = doc.paths[`/std/ai${path}`]?.post;
      expect(Object.keys(doc.paths[`/std/ai${path}`] ?? {}), path).toEqual(["post"]);
      expect(Object.keys(post!.responses[200]!.content!["application/json"]!.schema.properties ?? {}), path).toContain("timestamp");
    }
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/std/ai/"))).toHaveLength(8);
  });

  it("documents both bizContent forms of the style F route", async () => {
    const doc = await (
      await call("/openapi.json")
    ).json<{
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    }>();
    const content = doc.paths["/std/open/country/list"]?.post?.requestBody?.content ?? {};
    expect(Object.keys(content)).toEqual(["application/json", "application/x-www-form-urlencoded"]);
  });

  it("names only the groups that exist in its description", async () => {
    const doc = await (await call("/openapi.json")).json<{ info: { description: string } }>();
    expect(doc.info.description).toContain("T tax rates");
    expect(doc.info.description).toContain("C content delivery");
    expect(doc.info.description).toContain("D hosted mini-programs");
  });

  it("marks a parameter with a default as optional, its default shown, as the service treats it", async () => {
    type BizSchema = { required?: string[]; properties: Record<string, { default?: unknown }> };
    const doc = await (
      await call("/openapi.json")
    ).json<{
      paths: Record<string, { post?: { requestBody: { content: { "application/json": { schema: { properties: { bizContent: BizSchema } } } } } } }>;
    }>();
    const bizContent = (path: string) => doc.paths[path]!.post!.requestBody.content["application/json"].schema.properties.bizContent;
    const cases: [string, string, unknown][] = [
      ["/std/ai/keywords", "maxKeywords", 10],
      ["/std/ai/summarize", "style", "paragraph"],
      ["/std/open/hs-code/list", "type", "base"],
    ];
    for (const [path, field, fallback] of cases) {
      expect(bizContent(path).required ?? [], path).not.toContain(field);
      expect(bizContent(path).properties[field]?.default, path).toEqual(fallback);
    }
    expect(bizContent("/std/ai/keywords").required).toContain("text");
  });

  it("documents the 422 that the login callback and the refresh answer to malformed input", async () => {
    const doc = await (await call("/openapi.json")).json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>();
    expect(Object.keys(doc.paths["/auth/callback"]!.get!.responses)).toContain("422");
    expect(Object.keys(doc.paths["/auth/refresh"]!.post!.responses)).toContain("422");
  });
});
