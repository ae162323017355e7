import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ListResourcesResult,
  type ReadResourceResult,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { callOperation, type OperationTool } from "./operations";

/** A resource the caller may not read, or that does not exist: the protocol's own code for it. */
export const RESOURCE_NOT_FOUND = -32002;

export interface McpResources {
  list: (cursor: string | undefined) => Promise<ListResourcesResult>;
  read: (uri: string) => Promise<ReadResourceResult>;
  templates: ResourceTemplate[];
}

/** What one MCP endpoint serves: tools made from the API's operations, and resources where it has them. */
export interface McpService {
  name: string;
  instructions: string;
  tools: () => OperationTool[];
  resources?: McpResources;
}

/**
 * A JSON-RPC error as the SDK sends it (its `code` and `message`). The SDK's McpError writes "MCP
 * error <code>:" into its message, and a client adds the same again when it reads one: ours are
 * sent in their own words only.
 */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** An error of ours as the protocol's error, in the same words as the REST answer; anything else says no more than that it failed. */
function protocolError(c: Context<AppEnv>, error: unknown): Error {
  if (error instanceof McpError || error instanceof ProtocolError) return error;
  if (error instanceof ApiError) return new ProtocolError(error.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidRequest, error.message);
  c.get("log").error({ error: `mcp: ${String(error)}` });
  return new ProtocolError(ErrorCode.InternalError, "Internal error; the request id is in the X-Request-Id header");
}

const guarded =
  <A extends unknown[], R>(c: Context<AppEnv>, work: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await work(...args);
    } catch (error) {
      throw protocolError(c, error);
    }
  };

/**
 * Answers one POST of the Streamable HTTP transport with a fresh server and transport: stateless,
 * no session id, JSON answers (no stream). The SDK negotiates the protocol revision it supports.
 */
export async function serveMcp(c: Context<AppEnv>, service: McpService, body: string): Promise<Response> {
  const server = new Server(
    { name: service.name, version: c.env.BUILD_VERSION },
    {
      capabilities: { tools: {}, ...(service.resources ? { resources: {} } : {}) },
      instructions: service.instructions,
      // The SDK's default (ajv) compiles schemas with new Function, which workerd refuses.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  const tools = service.tools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(({ call: _call, ...tool }) => tool) }));
  server.setRequestHandler(
    CallToolRequestSchema,
    guarded(c, async (request) => {
      const tool = byName.get(request.params.name);
      if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them`);
      return callOperation(c, tool, request.params.arguments ?? {});
    }),
  );
  const resources = service.resources;
  if (resources) {
    server.setRequestHandler(
      ListResourcesRequestSchema,
      guarded(c, async (request) => resources.list(request.params?.cursor)),
    );
    server.setRequestHandler(
      ReadResourceRequestSchema,
      guarded(c, async (request) => resources.read(request.params.uri)),
    );
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: resources.templates }));
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const headers = new Headers(c.req.raw.headers);
  // Every answer here is JSON: a caller that accepts anything (curl) is served as one that names both types.
  const accept = headers.get("Accept");
  if (!accept || accept === "*/*") headers.set("Accept", "application/json, text/event-stream");
  try {
    return await transport.handleRequest(new Request(c.req.url, { method: "POST", headers, body }));
  } finally {
    await server.close();
  }
}
