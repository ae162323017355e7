/**
 * Schema-driven fuzzing (`npm run fuzz`, a stage of CI): every operation of /openapi.json gets
 * FUZZ_CASES requests built from its own schemas, each valid or broken in one way (a required
 * field dropped, a wrong type, an oversized or unknown field, a body that does not parse, a body
 * of another media type, a hostile path or query parameter), sent with the credential the
 * operation's `security` names, as its group issues it, and naming real objects of that
 * credential's owner (fixtures.ts). Every answer must be a status the operation documents, and
 * never a 5xx other than a documented 503; and the valid requests to groups C and D must pass
 * authentication, so that the coverage cannot fall back to 401s unnoticed. FUZZ_SEED replays a run.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type Credential, type Fixture, fixtureFor, Fresh, serveAssets } from "./fixtures";
import { fakeNetwork } from "../helpers/pickups";
import { call } from "../helpers/requests";

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
  tags?: string[];
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

const HOSTILE_STRINGS = [
  "",
  " ",
  "../../etc/passwd",
  "%00",
  "'; DROP TABLE users; --",
  "<script>alert(1)</script>",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓",
  "9".repeat(40),
  "-1",
  "NaN",
  "null",
];

function resolve(doc: Document, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  return resolve(doc, doc.components!.schemas![schema.$ref.split("/").at(-1)!]!);
}

/** Values by property or parameter name that name the fixture's real objects (its tenant, site, …). */
type Known = Record<string, unknown>;

/** A value the schema accepts as far as JSON Schema can say (patterns and refinements aside). */
function valueOf(doc: Document, raw: Schema, rnd: Random, depth = 0, known: Known = {}): unknown {
  const schema = resolve(doc, raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.example !== undefined && rnd.next() < 0.7) return schema.example;
  if (schema.enum) return rnd.pick(schema.enum);
  if (schema.default !== undefined && rnd.next() < 0.3) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return valueOf(doc, rnd.pick(variants), rnd, depth, known);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => valueOf(doc, s, rnd, depth, known)));
  const type = Array.isArray(schema.type) ? rnd.pick(schema.type.filter((t) => t !== "null")) : schema.type;
  switch (type) {
    case "integer":
    case "number": {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? Math.max(min, 100);
      return type === "integer"
        ? rnd.int(Math.ceil(min), Math.floor(Math.min(max, min + 1000)))
        : min + rnd.next() * (Math.min(max, min + 1000) - min);
    }
    case "boolean":
      return rnd.next() < 0.5;
    case "array": {
      const count = depth > 3 ? 0 : rnd.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + 3));
      return Array.from({ length: count }, () => valueOf(doc, schema.items ?? {}, rnd, depth + 1, known));
    }
    case "object":
      return objectOf(doc, schema, rnd, depth, known);
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

const knownValue = (value: unknown) => (value instanceof Fresh ? value.make() : structuredClone(value));

function objectOf(doc: Document, schema: Schema, rnd: Random, depth: number, known: Known): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    // A known id is always sent: an image ad without its media, say, would only test the 400.
    if (name in known) out[name] = knownValue(known[name]);
    else if (schema.required?.includes(name) || rnd.next() < 0.5) out[name] = valueOf(doc, property, rnd, depth + 1, known);
  }
  return out;
}

/** Every parameter and body property name an operation's schemas mention (what its fixture may need). */
function namesOf(doc: Document, operation: Operation): Set<string> {
  const names = new Set((operation.parameters ?? []).map((p) => p.name));
  const seen = new Set<Schema>();
  const walk = (raw: Schema | undefined, depth: number) => {
    if (!raw || depth > 6) return;
    const schema = resolve(doc, raw);
    if (seen.has(schema)) return;
    seen.add(schema);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      names.add(name);
      walk(property, depth + 1);
    }
    for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(variant, depth + 1);
    walk(schema.items, depth + 1);
  };
  for (const media of Object.values(operation.requestBody?.content ?? {})) walk(media.schema, 0);
  return names;
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

const SAFE_METHODS = new Set(["get", "head", "options"]);

function buildCase(
  doc: Document,
  template: string,
  method: string,
  operation: Operation,
  rnd: Random,
  fixture: Fixture,
  credential: Credential | undefined,
): Case {
  const mutation = rnd.pick(MUTATIONS);
  const parameters = operation.parameters ?? [];
  const known = fixture.known;
  const hostile = mutation === "hostile-parameter" ? rnd.pick(parameters.filter((p) => p.in !== "header")) : undefined;
  // An empty path segment names another path (a 404 of the router), not this operation.
  const hostileValue = (p: Parameter) => rnd.pick(p.in === "path" ? HOSTILE_STRINGS.filter((s) => s !== "") : HOSTILE_STRINGS);
  const paramValue = (p: Parameter) =>
    p === hostile ? hostileValue(p) : p.name in known ? String(knownValue(known[p.name])) : String(valueOf(doc, p.schema ?? { type: "string" }, rnd));
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(paramValue(parameters.find((p) => p.name === name && p.in === "path") ?? { name, in: "path" })),
  );
  const query = new URLSearchParams();
  for (const p of parameters.filter((p) => p.in === "query"))
    if (p.required || p === hostile || p.name in known || rnd.next() < 0.5) query.set(p.name, paramValue(p));
  const headers: Record<string, string> = { ...credential?.headers, ...(SAFE_METHODS.has(method) ? {} : credential?.writes) };
  const url = query.size ? `${path}?${query.toString()}` : path;
  const media = operation.requestBody ? Object.keys(operation.requestBody.content)[0]! : undefined;
  if (!media) return { mutation, path: url, init: { method: method.toUpperCase(), headers } };

  const binary = fixture.binary[media];
  if (binary && mutation === "valid")
    return { mutation, path: url, init: { method: method.toUpperCase(), headers: { ...headers, "Content-Type": media }, body: binary } };
  const body = valueOf(doc, operation.requestBody!.content[media]!.schema, rnd, 0, known);
  const objects = objectsIn(body);
  const target = objects.length ? rnd.pick(objects) : undefined;
  const keys = target ? Object.keys(target) : [];
  if (target && keys.length) {
    const key = rnd.pick(keys);
    if (mutation === "drop-field") delete target[key];
    if (mutation === "wrong-type") target[key] = rnd.pick([42, "42", true, null, [], {}, -1.5]);
    if (mutation === "oversized") target[key] = rnd.next() < 0.5 ? "x".repeat(rnd.int(10_000, 200_000)) : Array.from({ length: 5000 }, (_, i) => i);
  }
  if (target && mutation === "unknown-field")
    Object.assign(
      target,
      rnd.pick([{ is_admin: true }, JSON.parse('{"__proto__": {"polluted": true}}') as object, { constructor: { prototype: {} } }]),
    );

  if (mutation === "unparsable") {
    headers["Content-Type"] = media;
    return {
      mutation,
      path: url,
      init: {
        method: method.toUpperCase(),
        headers,
        body: rnd.pick(["{", "[1,", "bizContent=%7B", "\u0000\u0001", '{"bizContent": "{\\"text\\": "}']),
      },
    };
  }
  if (mutation === "other-media-type") {
    headers["Content-Type"] = rnd.pick([
      "multipart/form-data; boundary=X",
      "multipart/form-data",
      "text/plain",
      "application/xml",
      "application/x-www-form-urlencoded",
    ]);
    return {
      mutation,
      path: url,
      init: {
        method: method.toUpperCase(),
        headers,
        body: rnd.pick(["a=1&b=2", JSON.stringify(body), '--X\r\nContent-Disposition: form-data; name="bizContent"\r\n\r\n{}\r\n--X--\r\n']),
      },
    };
  }
  headers["Content-Type"] = media;
  const encoded =
    media === "application/x-www-form-urlencoded"
      ? new URLSearchParams(
          Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
        ).toString()
      : JSON.stringify(body);
  return { mutation, path: url, init: { method: method.toUpperCase(), headers, body: encoded } };
}

let doc: Document;

beforeAll(async () => {
  // Carriers, feeds, identity provider and webhook receivers are outside: all answer from here.
  fakeNetwork();
  serveAssets();
  doc = await (await call("/openapi.json")).json<Document>();
  // The first request loads the whole Worker, which on a busy CI machine can take more than 10 s.
}, 60_000);

/** The group an operation belongs to: the letter its tag starts with ("C · Content admin"). */
const groupOf = (operation: Operation) => /^([A-Z]) · /.exec(operation.tags?.[0] ?? "")?.[1] ?? operation.tags?.[0] ?? "untagged";

/**
 * Refused before the handler looked at the request: no or a bad credential (401), a missing scope
 * or CSRF token (403), or, on the admin API, not a member of the tenant named (its 404).
 */
const refusedAtAuthentication = (status: number, text: string) =>
  status === 401 || status === 403 || (status === 404 && text.includes("No tenant with id"));

/** Valid requests to C and D with a credential that may be refused at authentication, at most. */
const MAX_REFUSED_SHARE = 0.05;

interface GroupTally {
  sent: number;
  refused: number;
  valid: number;
  validRefused: number;
}

describe(`API8, API9 · schema-driven fuzzing, seed ${SEED}, ${CASES} requests an operation`, () => {
  it("covers every operation of the document, each with its own group's credentials", async ({ annotate, task }) => {
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBeGreaterThan(50);
    const rnd = random(SEED);
    const findings: string[] = [];
    const refusals: string[] = [];
    let sent = 0;
    const tally = new Map<string, number>();
    const groups = new Map<string, GroupTally>();
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const documented = new Set(Object.keys(operation.responses).map(Number));
        const secured = (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
        const group = groupOf(operation);
        const counts = groups.get(group) ?? { sent: 0, refused: 0, valid: 0, validRefused: 0 };
        groups.set(group, counts);
        const made = await fixtureFor({ template, method, security: operation.security ?? [], names: namesOf(doc, operation) });
        let fixture = made.fixture;
        for (let i = 0; i < CASES; i++) {
          // Where the operation accepts several credentials (the admin API: JWT or console session), each case picks one.
          const credential = fixture.credentials.length ? rnd.pick(fixture.credentials) : undefined;
          const request = buildCase(doc, template, method, operation, rnd, fixture, credential);
          const response = await call(request.path, { ...request.init, redirect: "manual" });
          const text = await response.text();
          sent++;
          const key = `${request.mutation} ${Math.floor(response.status / 100)}xx`;
          tally.set(key, (tally.get(key) ?? 0) + 1);
          const refused = secured && refusedAtAuthentication(response.status, text);
          counts.sent++;
          if (refused) counts.refused++;
          if (request.mutation === "valid") {
            counts.valid++;
            if (refused) {
              counts.validRefused++;
              refusals.push(
                `${method.toUpperCase()} ${template} [${credential?.scheme ?? "no credential"}] ${request.path.slice(0, 80)} → ${response.status} ${text.slice(0, 160)}`,
              );
            }
          }
          const undocumented =
            !documented.has(response.status) &&
            !(response.status >= 300 && response.status < 400 && [...documented].some((s) => s >= 300 && s < 400));
          const serverError = response.status >= 500 && !(response.status === 503 && documented.has(503));
          if (undocumented || serverError) {
            findings.push(
              `${method.toUpperCase()} ${template} [${request.mutation}] ${request.path.slice(0, 80)} → ${response.status} ${text.slice(0, 160)}`,
            );
          }
          // A DELETE that succeeded may have taken the object or the session the next cases name.
          if (method === made.renewsAfter && response.ok) fixture = await made.renew();
        }
      }
    }
    console.log(
      [...tally]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join("\n"),
    );
    const summary = [...groups]
      .map(([group, c]) => `${group}: ${c.refused} of ${c.sent} requests refused at authentication (valid: ${c.validRefused} of ${c.valid})`)
      .join("; ");
    console.log(summary);
    await annotate(summary, "authentication");
    task.meta.fuzzAuthentication = Object.fromEntries(groups);

    const unique = [...new Set(findings.map((f) => f.replace(/ \S+ → /, " → ")))];
    expect(unique, `${findings.length} of ${sent} requests answered an undocumented status or a 5xx`).toEqual([]);
    const watched = ["C", "D"].map((g) => groups.get(g) ?? { sent: 0, refused: 0, valid: 0, validRefused: 0 });
    const valid = watched.reduce((n, c) => n + c.valid, 0);
    const validRefused = watched.reduce((n, c) => n + c.validRefused, 0);
    expect(valid, "valid requests to groups C and D").toBeGreaterThan(0);
    expect(
      validRefused / valid,
      `${validRefused} of ${valid} valid requests to C and D were refused at authentication (${summary}):\n${refusals.join("\n")}`,
    ).toBeLessThanOrEqual(MAX_REFUSED_SHARE);
  });
});

declare module "vitest" {
  interface TaskMeta {
    /** Per group: requests sent and refused at authentication, in all and among the valid ones (JSON report). */
    fuzzAuthentication?: Record<string, GroupTally>;
  }
}
