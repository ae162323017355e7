import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type Gateway, gatewayReady, ownerAdmin } from "./gateway";

// An AI agent as it connects: the official SDK client in Node, over HTTP, to `wrangler dev`.
let gateway: Gateway;
let token: string;
// Its own content: the other browser files publish and take back theirs while this one lists and reads.
let resourceUri: string;

const connect = async (key: string) => {
  const client = new Client({ name: "agent-under-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.base}/api/mcp`), { requestInit: { headers: { "X-API-Key": key } } }));
  return client;
};

beforeAll(async () => {
  gateway = await gatewayReady();
  const stamp = Date.now();
  ({ token } = await ownerAdmin<{ token: string }>(gateway, "POST", "/keys", { name: `agent ${stamp}` }));
  const slug = `agent-notes-${stamp}`;
  const post = await ownerAdmin<{ id: number }>(gateway, "POST", "/contents", {
    siteId: gateway.siteId,
    title: "Notes for agents",
    slug,
    language: "en",
  });
  await ownerAdmin(gateway, "POST", `/contents/${post.id}/publish`, {});
  resourceUri = `content://demo/en/${slug}`;
});

describe("an MCP client against wrangler dev", () => {
  it("initializes, lists the tools, calls one and reads a content as a Markdown resource", async () => {
    const client = await connect(token);
    expect(client.getServerVersion()?.name).toBeTruthy();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["list_contents", "get_content", "site_info"]));
    const listed = (await client.callTool({ name: "list_contents", arguments: { siteId: gateway.siteId } })) as CallToolResult;
    expect(listed.isError ?? false).toBe(false);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources[0]!.uri).toMatch(/^content:\/\/demo\/[a-z]{2}\//);
    const read = await client.readResource({ uri: resourceUri });
    const first = read.contents[0] as { mimeType?: string; text: string };
    expect(first.mimeType).toBe("text/markdown");
    expect(first.text).toMatch(/^# Notes for agents$/m);
    await client.close();
  });

  it("refuses a wrong key before any tool is listed", async () => {
    await expect(connect("svc_tk_not-a-real-key")).rejects.toThrow(/401|Authentication|API key/i);
  });
});
