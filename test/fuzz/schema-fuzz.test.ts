/**
 * Schema-driven fuzzing (`npm run fuzz`, a stage of CI): every operation of /openapi.json gets
 * FUZZ_CASES requests built from its own schemas, each valid or broken in one way (a required
 * field dropped, a wrong type, an oversized or unknown field, a body that does not parse, a body
 * of another media type, a hostile path or query parameter), sent with a valid credential of the
 * operation's kind. Every answer must be a status the operation documents, and never a 5xx other
 * than a documented 503. FUZZ_SEED replays a run.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createUser, sessionFor } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";
import { createTestTenant } from "../helpers/content";
import { createTestApp, fakeNetwork } from "../helpers/pickups";
import { call, secretHeaders } from "../helpers/requests";

const CASES = inject("fuzzCases");
const SEED = inject("fuzzSeed");

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  default?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
};
interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
  security?: Record<string, string[]>[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** mulberry32: a small seeded generator, so that a failing run can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
  };
}
type Random = ReturnType<typeof random>;

const HOSTILE_STRINGS = ["", " ", "../../etc/passwd", "%00", "'; DROP TABLE users; --", "<script>alert(1)</script>", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓", "9".repeat(40), "-1", "NaN", "null"];

function resolve(doc: Document, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  return resolve(doc, doc.components!.schemas![schema.$ref.split("/").at(-1)!]!);
}

/** A value the schema accepts as far as JSON Schema can say (patterns and refinements aside). */
function valueOf(doc: Document, raw: Schema, rnd: Random, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.example !== undefined && rnd.next() < 0.7) return schema.example;
  if (schema.enum) return rnd.pick(schema.enum);
  if (schema.default !== undefined && rnd.next() < 0.3) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return valueOf(doc, rnd.pick(variants), rnd, depth);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => valueOf(doc, s, rnd, depth)));
  const type = Array.isArray(schema.type) ? rnd.pick(schema.type.filter((t) => t !== "null")) : schema.type;
  switch (type) {
    case "integer":
    case "number": {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? Math.max(min, 100);
      return type === "integer" ? rnd.int(Math.ceil(min), Math.floor(Math.min(max, min + 1000))) : min + rnd.next() * (Math.min(max, min + 1000) - min);
    }
    case "boolean":
      return rnd.next() < 0.5;
    case "array": {
      const count = depth > 3 ? 0 : rnd.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + 3));
      return Array.from({ length: count }, () => valueOf(doc, schema.items ?? {}, rnd, depth + 1));
    }
    case "object":
      return objectOf(doc, schema, rnd, depth);
    case "string": {
      if (schema.format === "date") return "2026-12-01";
      if (schema.format === "date-time") return "2026-12-01T09:00:00Z";
      if (schema.format === "email") return "fuzz@example.com";
      if (schema.format === "uri") return "https://receiver.test/hooks";
      const length = rnd.int(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, (schema.minLength ?? 1) + 12));
      return Array.from({ length }, () => rnd.pick([..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789 -_."])).join("");
    }
    default:
      return depth > 3 ? null : rnd.pick(["text", 1, true, null]);
  }
}

function objectOf(doc: Document, schema: Schema, rnd: Random, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (schema.required?.includes(name) || rnd.next() < 0.5) out[name] = valueOf(doc, property, rnd, depth + 1);
  }
  return out;
}

/** A request body's object whose leaves can be broken: every nested object on the way down. */
function objectsIn(value: unknown): Record<string, unknown>[] {
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  const object = value as Record<string, unknown>;
  return [object, ...Object.values(object).flatMap(objectsIn)];
}

const MUTATIONS = ["valid", "drop-field", "wrong-type", "oversized", "unknown-field", "unparsable", "other-media-type", "hostile-parameter"] as const;
type Mutation = (typeof MUTATIONS)[number];

interface Case {
  mutation: Mutation;
  path: string;
  init: RequestInit & { headers: Record<string, string> };
}

function buildCase(doc: Document, template: string, method: string, operation: Operation, rnd: Random, credential: Record<string, string>): Case {
  const mutation = rnd.pick(MUTATIONS);
  const parameters = operation.parameters ?? [];
  const hostile = mutation === "hostile-parameter" ? rnd.pick(parameters.filter((p) => p.in !== "header")) : undefined;
  // An empty path segment names another path (a 404 of the router), not this operation.
  const hostileValue = (p: Parameter) => rnd.pick(p.in === "path" ? HOSTILE_STRINGS.filter((s) => s !== "") : HOSTILE_STRINGS);
  const paramValue = (p: Parameter) => (p === hostile ? hostileValue(p) : String(valueOf(doc, p.schema ?? { type: "string" }, rnd)));
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(paramValue(parameters.find((p) => p.name === name && p.in === "path") ?? { name, in: "path" })));
  const query = new URLSearchParams();
  for (const p of parameters.filter((p) => p.in === "query")) if (p.required || p === hostile || rnd.next() < 0.5) query.set(p.name, paramValue(p));
  const headers: Record<string, string> = { ...credential };
  const url = query.size ? `${path}?${query}` : path;
  const media = operation.requestBody ? Object.keys(operation.requestBody.content)[0]! : undefined;
  if (!media) return { mutation, path: url, init: { method: method.toUpperCase(), headers } };

  const body = valueOf(doc, operation.requestBody!.content[media]!.schema, rnd);
  const objects = objectsIn(body);
  const target = objects.length ? rnd.pick(objects) : undefined;
  const keys = target ? Object.keys(target) : [];
  if (target && keys.length) {
    const key = rnd.pick(keys);
    if (mutation === "drop-field") delete target[key];
    if (mutation === "wrong-type") target[key] = rnd.pick([42, "42", true, null, [], {}, -1.5]);
    if (mutation === "oversized") target[key] = rnd.next() < 0.5 ? "x".repeat(rnd.int(10_000, 200_000)) : Array.from({ length: 5000 }, (_, i) => i);
  }
  if (target && mutation === "unknown-field") Object.assign(target, rnd.pick([{ is_admin: true }, JSON.parse('{"__proto__": {"polluted": true}}') as object, { constructor: { prototype: {} } }]));

  if (mutation === "unparsable") {
    headers["Content-Type"] = media;
    return { mutation, path: url, init: { method: method.toUpperCase(), headers, body: rnd.pick(["{", "[1,", "bizContent=%7B", "\u0000\u0001", '{"bizContent": "{\\"text\\": "}']) } };
  }
  if (mutation === "other-media-type") {
    headers["Content-Type"] = rnd.pick(["multipart/form-data; boundary=X", "multipart/form-data", "text/plain", "application/xml", "application/x-www-form-urlencoded"]);
    return { mutation, path: url, init: { method: method.toUpperCase(), headers, body: rnd.pick(["a=1&b=2", JSON.stringify(body), "--X\r\nContent-Disposition: form-data; name=\"bizContent\"\r\n\r\n{}\r\n--X--\r\n"]) } };
  }
  headers["Content-Type"] = media;
  const encoded = media === "application/x-www-form-urlencoded" ? new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString() : JSON.stringify(body);
  return { mutation, path: url, init: { method: method.toUpperCase(), headers, body: encoded } };
}

let doc: Document;

beforeAll(async () => {
  // Carriers, feeds, identity provider and webhook receivers are outside: all answer from here.
  fakeNetwork();
  doc = (await (await call("/openapi.json")).json()) as Document;
});

/**
 * Fresh credentials for each operation: the fuzzed DELETEs of keys, apps and users hit small ids,
 * which are the fuzz's own. Unlimited plans, since a 429 would hide what a request meant to test.
 */
async function freshCredentials(): Promise<Record<string, Record<string, string>>> {
  const adminKey = await createTestKey({ role: "admin" });
  const app = await createTestApp({ plan: "internal" });
  const session = await sessionFor(await createUser({ role: "admin", plan: "internal" }));
  const tenant = await createTestTenant();
  return {
    TenantKey: { "X-API-Key": tenant.token },
    ApiKey: secretHeaders(adminKey),
    Bearer: { Authorization: `Bearer ${session}` },
    AppToken: { Authorization: `appToken ${app.appToken}` },
    none: {},
  };
}

/** The credential an operation asks for: its first security requirement that we can satisfy. */
function credentialFor(operation: Operation, credentials: Record<string, Record<string, string>>): Record<string, string> {
  for (const requirement of operation.security ?? [{}]) {
    const names = Object.keys(requirement);
    if (names.length === 0) return credentials.none!;
    for (const name of names) if (credentials[name]) return credentials[name]!;
  }
  return credentials.none!;
}

describe(`API8, API9 · schema-driven fuzzing, seed ${SEED}, ${CASES} requests an operation`, () => {
  it("covers every operation of the document", async () => {
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBeGreaterThan(50);
    const rnd = random(SEED);
    const findings: string[] = [];
    let sent = 0;
    const tally = new Map<string, number>();
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const documented = new Set(Object.keys(operation.responses).map(Number));
        const credential = credentialFor(operation, await freshCredentials());
        for (let i = 0; i < CASES; i++) {
          const request = buildCase(doc, template, method, operation, rnd, credential);
          const response = await call(request.path, { ...request.init, redirect: "manual" });
          const text = await response.text();
          sent++;
          const key = `${request.mutation} ${Math.floor(response.status / 100)}xx`;
          tally.set(key, (tally.get(key) ?? 0) + 1);
          const undocumented = !documented.has(response.status) && !(response.status >= 300 && response.status < 400 && [...documented].some((s) => s >= 300 && s < 400));
          const serverError = response.status >= 500 && !(response.status === 503 && documented.has(503));
          if (undocumented || serverError) {
            findings.push(`${method.toUpperCase()} ${template} [${request.mutation}] ${request.path.slice(0, 80)} → ${response.status} ${text.slice(0, 160)}`);
          }
        }
      }
    }
    console.log([...tally].sort().map(([k, n]) => `${k}: ${n}`).join("\n"));
    const unique = [...new Set(findings.map((f) => f.replace(/ \S+ → /, " → ")))];
    expect(unique, `${findings.length} of ${sent} requests answered an undocumented status or a 5xx`).toEqual([]);
  });
});
