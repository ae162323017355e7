import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";

/**
 * Values of fields whose name means the same thing in every group (ids, paging, dates, tenancy).
 * A field that means something of its own carries its example on its shape (`.openapi({ example })`).
 */
const EXAMPLE_OF_NAME: Record<string, unknown> = {
  id: 12,
  tenantId: 1,
  siteId: 1,
  userId: 1,
  user_id: 1,
  authorId: 1,
  uploadedBy: 1,
  createdBy: 1,
  savedBy: 1,
  contentId: 42,
  categoryId: 3,
  parentId: 2,
  mediaId: 7,
  page: 1,
  size: 20,
  total: 1,
  version: 3,
  position: 0,
  slug: "museum-night",
  title: "Museum night at the harbour gallery",
  intro: "The harbour gallery opens until midnight on Saturday, with guided tours every hour.",
  bodyMarkdown: "# Museum night\n\nThe harbour gallery opens until **midnight** on Saturday.",
  bodyHtml: "<h1>Museum night</h1>\n<p>The harbour gallery opens until <strong>midnight</strong> on Saturday.</p>",
  language: "en",
  defaultLanguage: "en",
  languages: ["en", "de"],
  timezone: "Europe/Berlin",
  seoTitle: "Museum night · City Gazette",
  seoDescription: "Guided tours until midnight at the harbour gallery.",
  seoTitlePattern: "{title} · {site}",
  seoImage: "https://example.com/media/1/1/og-cover.jpg",
  canonical: "https://news.example.com/en/museum-night",
  email: "editor@example.com",
  full_name: "Ada Editor",
  fullName: "Ada Editor",
  username: "ada",
  tags: ["culture", "events"],
  categoryIds: [3],
  siteIds: [1],
  coverImages: ["https://example.com/media/1/1/cover.jpg"],
  createdAt: "2026-11-20T09:30:00.000Z",
  updatedAt: "2026-11-26T08:15:00.000Z",
  publishAt: "2026-11-27T07:00:00.000Z",
  startsAt: "2026-12-01T00:00:00.000Z",
  endsAt: "2026-12-31T23:59:59.000Z",
  expiresAt: "2026-11-27T10:30:00.000Z",
  savedAt: "2026-11-26T08:15:00.000Z",
  purgeAt: "2026-12-26T08:15:00.000Z",
  at: "2026-11-26T08:15:00.000Z",
  maskedToken: "svc_tk_AbCd…wxyz",
  masked_token: "svc_sk_AbCd…wxyz",
  errcode: 0,
  errmsg: "ok",
  task_id: 42,
  taskId: 42,
  request_id: "order-20261126-0042",
  reference_order_number: "SO-10042",
  event_id: "msg_2KpQ7vX9cL4mN8bR",
  attempt: 1,
  currPage: 1,
  totalElements: 1,
  totalPages: 1,
  number: 0,
  scopes: ["taxrate:read", "reference:read"],
  url: "https://example.com/",
  key: "1/1/Hb7Qx2Lp9Vb4Nc8Rt1Yz.jpg",
  host: "news.example.com",
  csrfToken: "c5f1d2a8e9b74c3f",
  day: "2026-11-26",
  ids: [3, 4, 2],
  fromPath: "/old-museum-night",
  toUrl: "/en/museum-night",
  slot: "sidebar",
  action: "publish",
  job: "eu-vat",
  level: 4,
  normalized: "DE136695976",
  website: "https://www.example.com",
  aliases: ["www.news.example.com"],
  theme: "default",
  titlePattern: "{title} · {site}",
  contentVersion: 18,
  impressions: 1840,
  clicks: 37,
};

const EXAMPLE_OF_FORMAT: Record<string, unknown> = {
  "date-time": "2026-11-26T08:15:00.000Z",
  date: "2026-11-26",
  email: "editor@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "0b6f2a8e-3c1d-4e5f-9a7b-2c3d4e5f6a7b",
};

/** What an example could not be made of: a required field with no example, for the test that keeps every operation's examples whole. */
class MissingExample extends Error {}

/** An example that its schema contradicts (a required field left out, a field it does not have). */
class WrongExample extends Error {}

type Schema = SchemaObject | ReferenceObject;

/** The document's types let a schema carry `$ref` too, so `in` does not tell them apart. */
export const isReference = (value: object): value is ReferenceObject => typeof (value as ReferenceObject).$ref === "string";

function typeMatches(schema: SchemaObject, value: unknown): boolean {
  const types = ([] as string[]).concat(schema.type ?? []);
  if (types.length === 0) return true;
  if (Array.isArray(value)) return types.includes("array");
  if (value === null) return types.includes("null");
  const kind = typeof value;
  if (kind === "number") return types.includes("number") || (types.includes("integer") && Number.isInteger(value));
  return types.includes(kind);
}

const isNullable = (schema: SchemaObject) =>
  ([] as string[]).concat(schema.type ?? []).includes("null") || (schema.anyOf ?? []).some((s) => !isReference(s) && s.type === "null");

/**
 * An example value of a schema, made only of what the document says: the schema's own example,
 * const, default or first enum value, a name that means the same everywhere, a format. Throws
 * MissingExample naming the field where none is known (never a "string" or 0 placeholder).
 */
export function exampleOf(schema: Schema, document: OpenAPIObject, name = "", pointer = "", depth = 0): unknown {
  if (depth > 12) throw new MissingExample(`${pointer}: nested too deep`);
  if (isReference(schema)) {
    const target = document.components?.schemas?.[schema.$ref.split("/").pop()!];
    if (!target) throw new MissingExample(`${pointer}: unknown ${schema.$ref}`);
    return exampleOf(target, document, name, `${schema.$ref.split("/").pop()}`, depth + 1);
  }
  if (schema.example !== undefined) return checkedExample(schema, schema.example, pointer || name);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    for (const variant of variants.filter((v) => isReference(v) || v.type !== "null")) {
      try {
        return exampleOf(variant, document, name, pointer, depth + 1);
      } catch (error) {
        if (!(error instanceof MissingExample)) throw error;
      }
    }
    if (isNullable(schema)) return null;
    throw new MissingExample(`${pointer || name}: no variant has an example`);
  }
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, document, name, pointer, depth + 1)));
  if (name in EXAMPLE_OF_NAME && typeMatches(schema, EXAMPLE_OF_NAME[name])) return EXAMPLE_OF_NAME[name];
  const types = ([] as string[]).concat(schema.type ?? []);
  if (types.includes("object") || schema.properties) return objectExample(schema, document, pointer, depth);
  if (types.includes("array")) return schema.items ? [exampleOf(schema.items, document, name, `${pointer}[]`, depth + 1)] : [];
  if (types.includes("boolean")) return true;
  if (schema.format && schema.format in EXAMPLE_OF_FORMAT) return EXAMPLE_OF_FORMAT[schema.format];
  if (types.includes("null")) return null;
  throw new MissingExample(pointer || name || "(the body)");
}

/** A whole object's example must hold what its schema requires and nothing it refuses, or it shows a body the service would not give or take. */
function checkedExample(schema: SchemaObject, example: unknown, pointer: string) {
  if (!schema.properties || typeof example !== "object" || example === null || Array.isArray(example)) return example;
  const missing = (schema.required ?? []).filter((field) => !(field in example));
  if (missing.length > 0) throw new WrongExample(`${pointer}: the example lacks ${missing.join(", ")}`);
  const unknown = Object.keys(example).filter((field) => !(field in schema.properties!));
  if (unknown.length > 0) throw new WrongExample(`${pointer}: the example has ${unknown.join(", ")}, which the schema does not`);
  return example;
}

function objectExample(schema: SchemaObject, document: OpenAPIObject, pointer: string, depth: number) {
  const required = new Set(schema.required ?? []);
  const example: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    try {
      example[field] = exampleOf(property, document, field, `${pointer}.${field}`, depth + 1);
    } catch (error) {
      if (!(error instanceof MissingExample)) throw error;
      // An optional field nobody gave an example is left out: the example stays a request or answer the service would take or give.
      if (!required.has(field)) continue;
      if (isReference(property) || !isNullable(property)) throw error;
      example[field] = null;
    }
  }
  return example;
}

const SUCCESS = ["200", "201"];

/** An operation's answers by status: the document's type also lets `x-` extensions in, typed any. */
export const answersOf = (operation: OperationObject) => (operation.responses ?? {}) as Record<string, ResponseObject | ReferenceObject>;

/** The media type of a body or answer an example is shown for: JSON where the operation takes or gives it. */
export function mainMediaType(content: Record<string, unknown> | undefined): string | undefined {
  if (!content) return undefined;
  return "application/json" in content ? "application/json" : Object.keys(content)[0];
}

/** A parameter's example: its own, its schema's, or a name that means the same everywhere (a path's digits are text); undefined where none is known. */
export function parameterExample(parameter: ParameterObject, document: OpenAPIObject): unknown {
  if (parameter.example !== undefined) return parameter.example;
  try {
    return exampleOf(parameter.schema ?? {}, document, parameter.name, `${parameter.in} ${parameter.name}`);
  } catch (error) {
    if (!(error instanceof MissingExample)) throw error;
    return EXAMPLE_OF_NAME[parameter.name];
  }
}

/**
 * Gives every JSON request body and success answer of the document an `example`, made by
 * exampleOf; returns what could not be made, as "METHOD path: field" lines.
 */
export function addExamples(document: OpenAPIObject): string[] {
  const missing: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item) as [string, OperationObject][]) {
      const bodies = [
        operation.requestBody && !isReference(operation.requestBody) ? operation.requestBody.content : undefined,
        ...SUCCESS.map((status) => {
          const answer = answersOf(operation)[status];
          return answer && !isReference(answer) ? answer.content : undefined;
        }),
      ];
      for (const content of bodies) {
        const media = content?.["application/json"];
        if (!media || media.example !== undefined || !media.schema) continue;
        try {
          media.example = exampleOf(media.schema, document);
        } catch (error) {
          if (!(error instanceof MissingExample || error instanceof WrongExample)) throw error;
          missing.push(`${method.toUpperCase()} ${path}: ${error.message}`);
        }
      }
    }
  }
  return missing;
}
