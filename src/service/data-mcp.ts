import type { Context } from "hono";
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { authenticateDataClient } from "../platform/auth/data-client";
import { API_KEY_PREFIX } from "../platform/auth/api-keys";
import type { Principal } from "../platform/auth/principal";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { mcpEndpoint } from "../platform/mcp/endpoint";
import { operationTool, type OperationTool } from "../platform/mcp/operations";
import type { McpService } from "../platform/mcp/server";
import { DATA_SECURITY, type Router } from "../platform/openapi";
import { DATA_ENVELOPE } from "../platform/route";
import { SCHEDULER_BASE_PATH } from "../scheduler/routes";
import { TAX_BASE_PATH } from "../tax/routes";
import { WEBHOOKS_PATH } from "../tax/webhook-routes";

export const DATA_MCP_PATH = "/std/mcp";

/** `/std/api/bigdata/taxrate/country` → `taxrate_country`: the path's words after the ones every data path shares. */
export const toolName = (path: string) =>
  path
    .replace(/^\/std\/(api\/bigdata\/)?/, "")
    .replace(/\{\w*\}/g, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_|_$/g, "")
    .slice(0, 64);

/**
 * Every operation a data key may call (groups T, O and I: their routes name DataKey), as a tool, made
 * from the document: a path answering both POST and GET (O1, O9) is offered once, as its POST.
 */
function dataTools(document: OpenAPIObject): OperationTool[] {
  const tools: OperationTool[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    // The data services live under /std; the scheduler's routes there are for admins, and the tax webhook
    // endpoints are an account's settings whose answers carry signing secrets: neither is for agents.
    if (path === DATA_MCP_PATH || !path.startsWith("/std/") || path.startsWith(SCHEDULER_BASE_PATH)) continue;
    if (path.startsWith(`${TAX_BASE_PATH}${WEBHOOKS_PATH}`)) continue;
    const method = item.post ? "post" : "get";
    const operation = item[method];
    if (!operation?.security?.some((scheme) => "DataKey" in scheme)) continue;
    tools.push(
      operationTool(document, method, path, {
        name: toolName(path),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      }),
    );
  }
  return tools;
}

// Made once per document (per isolate and origin).
const toolsOf = new WeakMap<OpenAPIObject, OperationTool[]>();

/** The data key with its secret: each tool call is a request of its own, and a signature covers one request only. */
export async function authenticateDataKeyWithSecret(c: Context<AppEnv>): Promise<Principal> {
  // Only a data key can lack its secret here: no key, or a key of another kind, is said as the REST API says it.
  if (c.req.header("X-API-Key")?.startsWith(API_KEY_PREFIX) && !c.req.header("X-API-Secret"))
    throw new ApiError(401, "X-API-Secret header required: the MCP endpoint does not take signed requests");
  return authenticateDataClient(c);
}

function service(c: Context<AppEnv>): McpService {
  return {
    name: "gateway-data",
    instructions:
      "Tax rates and tax-number checks (T), reference data: countries, currencies, languages, zones, units, HS codes (O), and text, image and translation utilities (I). Each tool is one operation of the REST API, with its limits.",
    tools: () => {
      const document = c.get("api").document();
      let tools = toolsOf.get(document);
      if (!tools) toolsOf.set(document, (tools = dataTools(document)));
      return tools;
    },
  };
}

/** The data services' MCP endpoint: T, O and I as tools, for data keys. */
export function dataMcpRoutes(router: Router) {
  mcpEndpoint(router, {
    path: DATA_MCP_PATH,
    group: { tags: ["MCP · Data services"], security: DATA_SECURITY.slice(0, 1), errors: [401, 413, 429] },
    envelope: DATA_ENVELOPE,
    summary: "MCP · The data services' Model Context Protocol server (T, O and I as tools)",
    description:
      "Streamable HTTP, stateless: POST JSON-RPC messages, answers are JSON (GET and DELETE: 405). X-API-Key with X-API-Secret (a signature covers one request only); each tool call is checked and counted as the REST operation it stands for (docs/mcp.md).",
    example: {
      request: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      answer: {
        jsonrpc: "2.0",
        id: 1,
        result: { tools: [{ name: "open_country", title: "O1 · Countries", inputSchema: { type: "object", properties: {} } }] },
      },
    },
    service,
  });
}
