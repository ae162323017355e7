import { SELF } from "cloudflare:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { callTool as call, connectMcp, toolText as text } from "../helpers/mcp";
import { createTestTenant, seedContent, tenantKey, type TestTenant } from "../helpers/content";

const connect = (headers: Record<string, string>, settings?: Record<string, string>) => connectMcp("/api/mcp", headers, settings);

let tenant: TestTenant;
let client: Client;
let storyId: number;
const title = `Harbour lights ${crypto.randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  tenant = await createTestTenant();
  storyId = await seedContent(tenant, { title, bodyMarkdown: "The harbour is lit **all night**.", tags: ["night"] });
  client = await connect({ "X-API-Key": tenant.token });
  // The first request compiles the Worker in this runtime.
}, 60_000);
afterEach(() => vi.restoreAllMocks());

describe("the tenant MCP endpoint", () => {
  it("initializes on the current protocol revision, and lists C1–C7 as tools with schemas and annotations", async () => {
    expect(client.getServerVersion()?.name).toBe("gateway-content");
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["category_tree", "generate_article", "get_content", "list_contents", "site_info", "summarize", "translate"].sort(),
    );
    const list = tools.find((t) => t.name === "list_contents")!;
    expect(list.inputSchema).toMatchObject({ type: "object", required: ["siteId"], properties: { siteId: { type: "integer" }, q: {} } });
    expect(list.outputSchema?.properties).toHaveProperty("items");
    expect(list.annotations).toMatchObject({ readOnlyHint: true });
    const article = tools.find((t) => t.name === "generate_article")!;
    expect(article.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(article.inputSchema.properties).toHaveProperty("topic");
  });

  it("negotiates an earlier protocol revision the client asks for", async () => {
    const res = await SELF.fetch("https://gateway.test/api/mcp", {
      method: "POST",
      headers: { "X-API-Key": tenant.token, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "old", version: "1" } },
      }),
    });
    expect(res.status).toBe(200);
    expect((await res.json<{ result: { protocolVersion: string } }>()).result.protocolVersion).toBe("2025-03-26");
  });

  it("lists, searches and reads contents, the second call served from the cache", async () => {
    const first = await call(client, "list_contents", { siteId: tenant.siteId, q: "harbour" });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ total: 1, page: 1, size: 20, items: [{ id: storyId, title, tags: ["night"] }] });
    expect(first._meta).toMatchObject({ cache: "MISS" });
    expect((await call(client, "list_contents", { siteId: tenant.siteId, q: "harbour" }))._meta).toMatchObject({ cache: "HIT" });
    const one = await call(client, "get_content", { id: storyId });
    expect(one.structuredContent).toMatchObject({ id: storyId, bodyHtml: expect.stringContaining("<strong>all night</strong>") });
    expect(JSON.parse(text(one))).toMatchObject({ id: storyId });
    expect((await call(client, "category_tree", { siteId: tenant.siteId })).structuredContent).toEqual({ result: [] });
    expect((await call(client, "site_info", { siteId: tenant.siteId })).structuredContent).toMatchObject({
      id: tenant.siteId,
      languages: ["en", "de"],
    });
  });

  it("answers bad input as tool errors in the REST route's words", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["list_contents", {}, "400: "],
      ["list_contents", { siteId: tenant.siteId, size: 500 }, "400: size must be from 1 to 100"],
      ["list_contents", { siteId: tenant.siteId, colour: "red" }, "Unknown argument colour"],
      ["get_content", { id: "abc" }, "400: "],
      ["summarize", { content: "" }, "400: Content must not be empty"],
      ["translate", { content: "Hello", targetLang: "German" }, "400: language must be an ISO 639-1 code"],
      ["generate_article", { siteId: tenant.siteId, topic: "ab" }, "400: "],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(text(result), name).toContain(message);
    }
    // A tool nobody offers is a protocol error, not a tool's.
    // The client writes "MCP error <code>:" before the server's words once: the server does not write it too.
    await expect(call(client, "drop_tables", {})).rejects.toThrow(/^MCP error -32602: Unknown tool drop_tables; tools\/list names them$/);
  });

  it("summarizes, translates and writes a draft through group I, as C5–C7 do", async () => {
    const summary = await call(client, "summarize", {
      content: "The harbour gallery opens until midnight on Saturday. Guides lead tours every hour. Tickets cost twelve euros at the door.",
      maxLength: 80,
    });
    expect(summary.structuredContent).toMatchObject({ maxLength: 80, language: "en" });
    // Unconfigured providers answer as on REST: 503 with the settings to set.
    expect(text(await call(client, "translate", { content: "Hello", targetLang: "de" }))).toMatch(/^503: Translation is not configured/);
    expect(text(await call(client, "generate_article", { siteId: tenant.siteId, topic: "night trains" }))).toMatch(
      /^503: Text generation is not configured/,
    );

    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({ choices: [{ message: { content: "# Night trains are back\n\nSleeper trains link the city to three capitals again." } }] }),
    );
    const withModel = await connect({ Authorization: `Bearer ${tenant.token}` }, { OPENAI_BASE_URL: "https://llm.example/v1", OPENAI_API_KEY: "k" });
    const draft = await call(withModel, "generate_article", { siteId: tenant.siteId, topic: "night trains" });
    expect(draft.structuredContent).toMatchObject({ status: "draft", title: "Night trains are back", engine: "openai" });
    // Group I's summariser and language detector load on first use (ai-skills.test.ts pays it too when both run).
  }, 60_000);

  it("lists and reads the published contents as Markdown resources, with a template", async () => {
    const { resources } = await client.listResources();
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const uri = resources.find((r) => r.title === title)?.uri;
    expect(uri).toMatch(new RegExp(`^content://s-[a-z0-9-]+/en/${slug}$`));
    const read = await client.readResource({ uri: uri! });
    expect(read.contents[0]).toEqual({ uri, mimeType: "text/markdown", text: `# ${title}\n\nThe harbour is lit **all night**.\n` });
    expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe("content://{site}/{language}/{slug}");
    await expect(client.readResource({ uri: uri!.replace(slug, "nothing-here") })).rejects.toThrow(/No published content at/);
    await expect(client.readResource({ uri: "file:///etc/passwd" })).rejects.toThrow(/is not a content address/);
  });
});

describe("the tenant MCP endpoint refuses", () => {
  it("a wrong key before MCP is reached, with the REST status", async () => {
    await expect(connect({ "X-API-Key": `svc_tk_${"0".repeat(40)}` })).rejects.toMatchObject({
      code: 401,
      message: /Invalid authentication credentials/,
    });
    await expect(connect({ Authorization: "Bearer svc_tk_nope" })).rejects.toMatchObject({ code: 401 });
  });

  it("a tool call the key's scope does not allow, and resources to a key without content:read", async () => {
    const reader = await connect({ "X-API-Key": await tenantKey(tenant, { scopes: ["content:read"] }) });
    expect(text(await call(reader, "generate_article", { siteId: tenant.siteId, topic: "night trains" }))).toBe(
      "403: Insufficient permission: requires scope content:write",
    );
    const stranger = await connect({ "X-API-Key": await tenantKey(tenant, { scopes: ["miniprogram:read"] }) });
    expect(text(await call(stranger, "list_contents", { siteId: tenant.siteId }))).toBe("403: Insufficient permission: requires scope content:read");
    await expect(stranger.listResources()).rejects.toThrow(/requires scope content:read/);
  });

  it("another tenant's site and content: not found, as on REST", async () => {
    const other = await createTestTenant();
    const theirs = await connect({ "X-API-Key": other.token });
    expect(text(await call(theirs, "site_info", { siteId: tenant.siteId }))).toBe(`404: No site with id ${tenant.siteId}`);
    expect(text(await call(theirs, "get_content", { id: storyId }))).toBe(`404: No published content with id ${storyId}`);
    expect((await theirs.listResources()).resources.map((r) => r.title)).not.toContain(title);
    // A key bound to one site reads no other, even of its own tenant.
    const bound = await connect({ "X-API-Key": await tenantKey(other, { siteIds: [other.siteId] }) });
    expect(text(await call(bound, "list_contents", { siteId: tenant.siteId }))).toBe(`404: No site with id ${tenant.siteId}`);
  });

  it("a tool call past the plan's limit, counted as one request of its route (and the session's other messages as one each)", async () => {
    const limited = await createTestTenant();
    const settings = { RATE_LIMITS: JSON.stringify({ perMinute: { basic: 5 } }) };
    // initialize and its notification count 2 of the 5 (the client's GET for a stream, answered 405, counts none); each tool call counts once, as C1 does.
    const mcp = await connect({ "X-API-Key": limited.token }, settings);
    for (let i = 0; i < 3; i++) expect((await call(mcp, "list_contents", { siteId: limited.siteId })).isError).toBeFalsy();
    const refused = await call(mcp, "list_contents", { siteId: limited.siteId });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^429: Rate limit exceeded for the basic plan; retry after \d+ s$/);
    expect(refused._meta).toMatchObject({ status: 429, retryAfter: expect.any(Number) });
  });

  it("GET and DELETE with 405 (no stream, no session), and a broken message with a JSON-RPC error", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await SELF.fetch("https://gateway.test/api/mcp", { method, headers: { "X-API-Key": tenant.token } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
    }
    const broken = await SELF.fetch("https://gateway.test/api/mcp", {
      method: "POST",
      headers: { "X-API-Key": tenant.token, "Content-Type": "application/json" },
      body: "{",
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
  });
});
