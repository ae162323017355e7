import { createExecutionContext, env, SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import worker from "../../src/index";

/** The official SDK client over Streamable HTTP, to the Worker in workerd (SELF), or with deployment settings. */
export async function connectMcp(path: "/api/mcp" | "/std/mcp", headers: Record<string, string>, settings?: Record<string, string>) {
  const client = new Client({ name: "mcp-test", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  const fetch = settings
    ? (url: string | URL, init?: RequestInit) => worker.fetch(new Request(url, init), { ...env, ...settings }, createExecutionContext())
    : (url: string | URL, init?: RequestInit) => SELF.fetch(new Request(url, init));
  await client.connect(new StreamableHTTPClientTransport(new URL(`https://gateway.test${path}`), { requestInit: { headers }, fetch }));
  return client;
}

export const callTool = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** The text of a tool result's first content. */
export const toolText = (result: CallToolResult) => (result.content[0] as { text: string }).text;
