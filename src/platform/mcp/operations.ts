import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import type { AppEnv } from "../env";

/**
 * MCP tools made from the API's own operations (the OpenAPI document the route core writes from the
 * routes' zod shapes): the input schema is the operation's parameters and body, the output schema its
 * answer's `data`. A call is sent through the whole app as a request of that operation with the
 * caller's credential, so the operation's access rule, scope, limits, cache and audit apply as on REST.
 */

/** How a tool's arguments become the operation's request. */
interface OperationCall {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The arguments are the JSON body, or (style F) its `bizContent`. */
  body?: "json" | "bizContent";
}

export type OperationTool = Tool & { call: OperationCall };

export interface ToolNaming {
  name: string;
  title?: string;
  annotations?: Tool["annotations"];
}

type Schema = SchemaObject | ReferenceObject;
const isRef = (schema: unknown): schema is ReferenceObject => typeof schema === "object" && schema !== null && "$ref" in schema;

/** A schema with the document's `$ref`s written out (a tool's schema stands alone); a cycle ends in `{}`. */
function inlined(document: OpenAPIObject, schema: Schema, seen: string[] = []): SchemaObject {
  if (isRef(schema)) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = document.components?.schemas?.[name];
    return target && !seen.includes(name) ? inlined(document, target, [...seen, name]) : {};
  }
  // Examples are left out: a validator takes an example's `id` field for a schema id (@cfworker/json-schema does).
  const walk = (value: unknown, names = false): unknown => {
    if (Array.isArray(value)) return value.map((inner) => walk(inner));
    if (typeof value !== "object" || value === null) return value;
    if (isRef(value)) return inlined(document, value, seen);
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => names || (key !== "example" && key !== "examples"))
        .map(([key, inner]) => [key, walk(inner, !names && key === "properties")]),
    );
  };
  return walk(schema) as SchemaObject;
}

/** An object schema, with an `allOf` of objects (zod's `extend` of a named shape) merged into one. */
function asObject(schema: SchemaObject): SchemaObject | undefined {
  if (schema.type === "object") return schema;
  const parts = schema.allOf?.map((part) => asObject(part as SchemaObject));
  if (!parts?.length || parts.some((part) => !part)) return undefined;
  return {
    type: "object",
    properties: Object.assign({}, ...parts.map((part) => part!.properties)) as SchemaObject["properties"],
    required: [...new Set(parts.flatMap((part) => part!.required ?? []))],
  };
}

/** The `data` of the operation's success answer, as an object (MCP's structured output is one). */
function outputOf(document: OpenAPIObject, operation: OperationObject): SchemaObject | undefined {
  const responses: Record<string, ResponseObject | ReferenceObject> = operation.responses ?? {};
  const success = responses["200"] ?? responses["201"];
  const answer = success && !isRef(success) ? success.content?.["application/json"]?.schema : undefined;
  if (!answer) return undefined;
  const data = inlined(document, answer).properties?.data;
  if (!data) return undefined;
  const schema = inlined(document, data);
  return asObject(schema) ?? { type: "object", properties: { result: schema }, required: ["result"] };
}

/** The tool of one operation of the document, named and annotated by the group that offers it. */
export function operationTool(document: OpenAPIObject, method: string, path: string, naming: ToolNaming): OperationTool {
  const operation = document.paths?.[path]?.[method as "get" | "post"];
  if (!operation) throw new Error(`MCP tool ${naming.name}: no operation ${method.toUpperCase()} ${path} in the document`);
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  const params = (operation.parameters ?? []).filter((p): p is ParameterObject => !isRef(p) && (p.in === "path" || p.in === "query"));
  for (const param of params) {
    properties[param.name] = { ...inlined(document, param.schema ?? {}), ...(param.description ? { description: param.description } : {}) };
    if (param.required) required.push(param.name);
  }
  const bodySchema = operation.requestBody && !isRef(operation.requestBody) ? operation.requestBody.content["application/json"]?.schema : undefined;
  let body: OperationCall["body"];
  let input: SchemaObject = { type: "object", properties, required, additionalProperties: false };
  if (bodySchema) {
    const schema = inlined(document, bodySchema);
    const bizContent = schema.properties?.bizContent;
    body = bizContent ? "bizContent" : "json";
    input = inlined(document, bizContent ?? schema);
  }
  const output = outputOf(document, operation);
  const description = [operation.summary, operation.description].filter(Boolean).join("\n\n");
  return {
    name: naming.name,
    title: naming.title ?? operation.summary,
    description,
    // The document's schemas are JSON Schema 2020-12, as MCP's; the SDK's type wants `type: "object"` spelt out.
    inputSchema: { ...input, type: "object" },
    ...(output ? { outputSchema: { ...output, type: "object" } } : {}),
    ...(naming.annotations ? { annotations: naming.annotations } : {}),
    call: {
      method: method.toUpperCase(),
      path,
      pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
      queryParams: params.filter((p) => p.in === "query").map((p) => p.name),
      ...(body ? { body } : {}),
    },
  };
}

/** The credential headers a tool call carries on; a signature covers one request and is never replayed. */
const CARRIED_HEADERS = ["X-API-Key", "X-API-Secret", "Authorization", "CF-Connecting-IP"];

const failure = (text: string, meta: Record<string, unknown> = {}): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text }],
  _meta: meta,
});

const scalar = (value: unknown) => typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** What the operation's error answer says, in each envelope's field for it. */
function errorText(answer: unknown, status: number): string {
  const body = (typeof answer === "object" && answer !== null ? answer : {}) as { error?: { message?: unknown }; msg?: unknown; detail?: unknown };
  const text = body.error?.message ?? body.msg ?? body.detail;
  return typeof text === "string" ? text : `The operation answered HTTP ${status}`;
}

/** Calls the tool's operation through the app with the caller's credential, and gives its answer as the tool's result. */
export async function callOperation(c: Context<AppEnv>, tool: OperationTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const { call } = tool;
  // A body's fields are the tool's arguments; a body that takes no others is checked as the parameters are.
  const known = new Set(call.body ? Object.keys(tool.inputSchema.properties ?? {}) : [...call.pathParams, ...call.queryParams]);
  if (!call.body || tool.inputSchema.additionalProperties === false) {
    const unknown = Object.keys(args).filter((name) => !known.has(name));
    if (unknown.length) return failure(`Unknown argument ${unknown.join(", ")}; ${tool.name} takes ${[...known].join(", ") || "none"}`);
  }
  if (!call.body) {
    const nested = Object.keys(args).filter((name) => !scalar(args[name]));
    if (nested.length) return failure(`${nested.join(", ")} must be a number or a string`);
  }
  const url = new URL(c.req.url);
  url.search = "";
  url.pathname = call.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = args[name];
    return typeof value === "string" || typeof value === "number" ? encodeURIComponent(value) : "";
  });
  for (const name of call.queryParams) {
    const value = args[name];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") url.searchParams.set(name, String(value));
  }
  const headers = new Headers({ Accept: "application/json", "X-Request-Id": c.get("requestId") });
  for (const name of CARRIED_HEADERS) {
    const value = c.req.header(name);
    if (value) headers.set(name, value);
  }
  let body: string | undefined;
  if (call.body) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(call.body === "bizContent" ? { bizContent: args } : args);
  }
  const res = await c.get("api").dispatch(new Request(url, { method: call.method, headers, body }));
  const text = await res.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  const cache = res.headers.get("X-Cache");
  if (!res.ok) {
    const retry = res.headers.get("Retry-After");
    // The agent sent arguments, not a bizContent: a field is named as the argument it gave.
    const message = errorText(answer, res.status);
    const said = call.body === "bizContent" ? message.replace(/^bizContent\./, "") : message;
    return failure(`${res.status}: ${said}`, { status: res.status, ...(retry ? { retryAfter: Number(retry) } : {}) });
  }
  const data = (answer as { data?: unknown } | undefined)?.data;
  const structured = typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : { result: data };
  return {
    content: [{ type: "text", text: JSON.stringify(data) }],
    ...(tool.outputSchema ? { structuredContent: structured } : {}),
    _meta: { status: res.status, ...(cache ? { cache } : {}) },
  };
}
