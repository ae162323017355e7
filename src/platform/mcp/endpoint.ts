import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { SchemaObject } from "openapi3-ts/oas31";
import type { AppEnv } from "../env";
import type { Router } from "../openapi";
import { defineRoutes, type Envelope, Prebuilt, type RouteGroup } from "../route";
import type { McpService } from "./server";

/**
 * An MCP endpoint (Streamable HTTP, stateless) declared through the route core: `POST` takes
 * JSON-RPC messages and answers JSON; `GET` and `DELETE` are 405, as the transport's specification
 * asks of a server that opens no stream and keeps no session. The SDK loads on the first POST only.
 */

/** The messages of a POST body, read once (the access policy's `counts` and the handler share Hono's cached text). */
async function messagesOf(c: Context<AppEnv>): Promise<unknown[] | undefined> {
  try {
    const parsed: unknown = JSON.parse(await c.req.text());
    return Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
  } catch {
    return undefined;
  }
}

/**
 * The access rule's `counts`: a POST holding only tool calls is not counted itself, since each call is
 * counted as the route it stands for; any other request (initialize, a list, a resource read) counts once.
 */
export async function countsAsRequest(c: Context<AppEnv>): Promise<boolean> {
  // GET and DELETE are answered 405 at once.
  if (c.req.method !== "POST") return false;
  const messages = await messagesOf(c);
  const isToolCall = (m: unknown) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "tools/call";
  return !messages || messages.length === 0 || !messages.every(isToolCall);
}

const jsonRpcBody = (example: unknown): SchemaObject => ({
  description: "A JSON-RPC 2.0 message of the Model Context Protocol (an array of them for protocol revisions before 2025-06-18)",
  type: "object",
  required: ["jsonrpc", "method"],
  properties: {
    jsonrpc: { type: "string", const: "2.0" },
    id: { type: ["string", "integer"], description: "Absent in a notification" },
    method: { type: "string", description: "initialize, tools/list, tools/call, resources/list, resources/read, …" },
    params: { type: "object" },
  },
  example,
});

const jsonRpcAnswer = (example: unknown) =>
  z
    .object({
      jsonrpc: z.literal("2.0"),
      id: z.union([z.string(), z.number().int()]).nullable(),
      result: z.record(z.string(), z.unknown()).optional().openapi({ description: "The method's result (a tool's answer, a list)" }),
      error: z
        .object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() })
        .optional()
        .openapi({ description: "A protocol error: unknown method, invalid parameters, unknown resource" }),
    })
    .openapi({ example });

export interface McpEndpointSpec<S extends number> {
  path: string;
  group: RouteGroup<S>;
  /** The group's envelope, for the errors the access policy answers before MCP is reached (401, 429). */
  envelope: Envelope<S>;
  summary: string;
  description: string;
  example: { request: unknown; answer: unknown };
  /** What the endpoint serves; built per request, loaded with the SDK. */
  service: (c: Context<AppEnv>) => McpService;
}

export function mcpEndpoint<S extends number>(router: Router, spec: McpEndpointSpec<S>) {
  // The answer is JSON-RPC itself, not the group's envelope; errors before MCP keep the envelope.
  const route = defineRoutes(router, { ...spec.envelope, wrap: (data) => data, schema: (data) => data }, spec.group);
  route({
    method: "post",
    path: spec.path,
    summary: spec.summary,
    description: spec.description,
    // A plain schema: documented, not validated by the router, so that a broken message gets the protocol's own error.
    request: { body: { required: true, content: { "application/json": { schema: jsonRpcBody(spec.example.request) } } } },
    data: jsonRpcAnswer(spec.example.answer),
    answer: "The JSON-RPC answer",
    // The transport's own answers: the protocol's, not the group's envelope.
    more: {
      202: { description: "A notification or a client's answer was taken: no body" },
      400: { description: "Not a JSON-RPC message: a JSON-RPC error, code -32700 (parse error) or -32600" },
      415: { description: "The body is not application/json: a JSON-RPC error, code -32000" },
    },
    handle: async (c) => {
      const { serveMcp } = await import("./server");
      return new Prebuilt(await serveMcp(c, spec.service(c), await c.req.text()));
    },
  });
  router.on(["GET", "DELETE"], spec.path, (c) =>
    c.json(
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: "Method not allowed: this endpoint keeps no session and opens no stream; POST messages" },
      },
      405,
      {
        Allow: "POST",
      },
    ),
  );
}
