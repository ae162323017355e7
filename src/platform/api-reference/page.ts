import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import { answersOf, isReference, mainMediaType, parameterExample } from "./examples";
import { CURL_CREDENTIALS, GUIDE } from "./guide";

/** Everything taken from the document goes through here: a summary may hold `<app token>`, which must show as text. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** `code` spans of the document's Markdown descriptions, the only Markdown they use; the rest stays text. */
function describe(text: string | undefined): string {
  return text ? escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>") : "";
}

interface Operation {
  method: string;
  path: string;
  tag: string;
  anchor: string;
  operation: OperationObject;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function operationsOf(document: OpenAPIObject): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const anchor = `${method}-${path}`
        .replace(/[{}]/g, "")
        .replace(/[^A-Za-z0-9]+/g, "-")
        .replace(/-$/, "");
      operations.push({ method, path, tag: operation.tags?.[0] ?? "Other", anchor, operation });
    }
  }
  return operations;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function resolved<T extends object>(document: OpenAPIObject, value: T | ReferenceObject): T {
  if (!isReference(value)) return value;
  const [, , kind, name] = value.$ref.split("/");
  return (document.components as Record<string, Record<string, T>>)[kind!]![name!]!;
}

function typeOf(schema: SchemaObject | ReferenceObject | undefined, document: OpenAPIObject): string {
  if (!schema) return "";
  if (isReference(schema)) return schema.$ref.split("/").pop()!;
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  // A literal's value says more than its type: `0 | 2 | 4 | 6`, not `number | number | …`.
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map((s) => typeOf(s, document)).join(" | ");
  const types = ([] as string[]).concat(schema.type ?? "any");
  if (types.includes("array")) return `${typeOf(schema.items, document)}[]`;
  return types.join(" | ");
}

/** Who may call the operation, each alternative a link to its credential in the authentication section. */
function credentialsOf(operation: OperationObject, document: OpenAPIObject): string {
  const security = operation.security ?? document.security ?? [];
  if (security.length === 0) return "none";
  return security
    .map((requirement) => {
      const names = Object.keys(requirement);
      if (names.includes("SignatureTimestamp")) return `<a href="#auth-signed">data-service key, signed</a>`;
      if (names.includes("DataSecret")) return `<a href="#auth-DataKey">data-service key and secret</a>`;
      return names.map((name) => `<a href="#auth-${escapeHtml(name)}">${escapeHtml(LABELS[name] ?? name)}</a>`).join(" + ");
    })
    .join(" or ");
}

const LABELS: Record<string, string> = {
  Bearer: "bearer key or login token",
  TenantKey: "tenant key",
  PickupAppToken: "pickup app token",
  ConsoleSession: "console session",
};

function parametersTable(parameters: ParameterObject[], document: OpenAPIObject): string {
  if (parameters.length === 0) return "";
  const rows = parameters.map((parameter) => {
    const schema = parameter.schema ? resolved<SchemaObject>(document, parameter.schema) : undefined;
    const description = parameter.description ?? schema?.description;
    return `<tr><td><code>${escapeHtml(parameter.name)}</code>${parameter.required ? ' <span class="required">required</span>' : ""}</td><td>${parameter.in}</td><td>${escapeHtml(typeOf(schema, document))}</td><td>${describe(description)}</td></tr>`;
  });
  return `<h4>Parameters</h4><table class="fields"><thead><tr><th>name</th><th>in</th><th>type</th><th>description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The body's fields, one level: bizContent's own for style F. */
/** The fields a body's reader fills in: bizContent's where the body wraps them in it. */
function filledFields(schema: SchemaObject | ReferenceObject, document: OpenAPIObject): { body: SchemaObject; inBizContent: boolean } {
  const body = resolved<SchemaObject>(document, schema);
  const bizContent = body.properties?.bizContent;
  return bizContent ? { body: resolved<SchemaObject>(document, bizContent), inBizContent: true } : { body, inBizContent: false };
}

function bodyFields(schema: SchemaObject | ReferenceObject, document: OpenAPIObject): string {
  const { body, inBizContent: bizContent } = filledFields(schema, document);
  const properties = Object.entries(body.properties ?? {});
  if (properties.length === 0) return "";
  const required = new Set(body.required ?? []);
  const rows = properties.map(([name, property]) => {
    const field = resolved<SchemaObject>(document, property);
    return `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <span class="required">required</span>' : ""}</td><td>${escapeHtml(typeOf(property, document))}</td><td>${describe(field.description)}</td></tr>`;
  });
  const title = bizContent ? "Fields of <code>bizContent</code>" : "Body fields";
  return `<h4>${title}</h4><table class="fields"><thead><tr><th>name</th><th>type</th><th>description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/** The curl line of an operation: its first credential, path parameters filled, the request example as its body. */
function curlOf(entry: Operation, parameters: ParameterObject[], base: string, document: OpenAPIObject): string {
  const { operation } = entry;
  let path = entry.path;
  const query: string[] = [];
  for (const parameter of parameters) {
    const schema = parameter.schema ? resolved<SchemaObject>(document, parameter.schema) : undefined;
    const example = parameterExample(parameter, document);
    // A parameter's example is a string, number or boolean: path and query values are text.
    const known = parameter.example !== undefined || schema?.example !== undefined;
    if (example === undefined) continue;
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(`${example as string}`));
    else if (parameter.in === "query" && (parameter.required || known)) query.push(`${parameter.name}=${encodeURIComponent(`${example as string}`)}`);
  }
  const url = `${base}${path}${query.length ? `?${query.join("&")}` : ""}`;
  const lines = [`curl -s${entry.method === "get" ? "" : ` -X ${entry.method.toUpperCase()}`} ${shellQuote(url)}`];
  for (const name of Object.keys(operation.security?.[0] ?? {})) lines.push(...(CURL_CREDENTIALS[name] ?? []));
  const body = operation.requestBody ? resolved(document, operation.requestBody) : undefined;
  const type = mainMediaType(body?.content);
  if (body && type) {
    const media = body.content[type]!;
    lines.push(`-H "Content-Type: ${type}"`);
    if (type === "application/json" && media.example !== undefined) lines.push(`-d ${shellQuote(JSON.stringify(media.example))}`);
    else lines.push(`--data-binary @${type === "application/zip" ? "theme.zip" : type.startsWith("image/") ? "photo.png" : "body"}`);
  }
  return lines.join(" \\\n  ");
}

function answerOf(operation: OperationObject, document: OpenAPIObject): string {
  const parts: string[] = [];
  for (const [status, value] of Object.entries(answersOf(operation))) {
    if (Number(status) >= 400) continue;
    const answer = resolved<ResponseObject>(document, value);
    const type = mainMediaType(answer.content);
    const example: unknown = type ? answer.content?.[type]?.example : undefined;
    parts.push(
      `<h4>Answer <span class="status">${escapeHtml(status)}</span></h4><p>${describe(answer.description)}${type && example === undefined ? ` (<code>${escapeHtml(type)}</code>)` : ""}</p>`,
    );
    if (example !== undefined) parts.push(`<pre class="example"><code>${escapeHtml(json(example))}</code></pre>`);
  }
  return parts.join("");
}

/** Failures as a list of statuses and their meaning here: the body is the group's error envelope, shown once in the guide. */
function failuresOf(operation: OperationObject, document: OpenAPIObject): string {
  const rows = Object.entries(answersOf(operation))
    .filter(([status]) => Number(status) >= 400)
    .map(
      ([status, value]) =>
        `<li><span class="status">${escapeHtml(status)}</span> ${describe(resolved<ResponseObject>(document, value).description)}</li>`,
    );
  if (rows.length === 0) return "";
  return `<h4>Failures</h4><p class="note">In the <a href="#errors">error envelope</a> of the group.</p><ul class="failures">${rows.join("")}</ul>`;
}

function operationHtml(entry: Operation, base: string, document: OpenAPIObject): string {
  const { operation, method, path } = entry;
  const parameters = (operation.parameters ?? []).map((p) => resolved<ParameterObject>(document, p));
  const body = operation.requestBody ? resolved(document, operation.requestBody) : undefined;
  const bodyType = mainMediaType(body?.content);
  const bodyMedia = bodyType ? body?.content[bodyType] : undefined;
  const request = [
    bodyMedia?.schema ? bodyFields(bodyMedia.schema, document) : "",
    bodyMedia?.example !== undefined
      ? `<h4>Request</h4><pre class="example"><code>${escapeHtml(json(bodyMedia.example))}</code></pre>`
      : bodyType
        ? `<h4>Request</h4><p>A <code>${escapeHtml(bodyType)}</code> body${body?.description ? `: ${describe(body.description)}` : ""}.</p>`
        : "",
  ].join("");
  return `<article class="operation" id="${entry.anchor}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="summary">${describe(operation.summary)}</p>
${operation.description ? `<p>${describe(operation.description)}</p>` : ""}
<p class="credential">Credential: ${credentialsOf(operation, document)}</p>
${parametersTable(parameters, document)}${request}${answerOf(operation, document)}${failuresOf(operation, document)}
<h4>curl</h4><div class="sample"><pre class="curl"><code>${escapeHtml(curlOf(entry, parameters, base, document))}</code></pre><button type="button" class="copy">Copy</button></div>
</article>`;
}

/**
 * What the sidebar's search reads of an operation: beside its method, path, summary and group, its
 * description and the names and values of what a caller sends (`ccode`, `SalesTax`).
 */
function searchText(entry: Operation, document: OpenAPIObject): string {
  const { operation } = entry;
  const sent: (SchemaObject | ReferenceObject)[] = [];
  const names: string[] = [];
  for (const parameter of (operation.parameters ?? []).map((p) => resolved<ParameterObject>(document, p))) {
    names.push(parameter.name);
    if (parameter.schema) sent.push(parameter.schema);
  }
  const body = operation.requestBody ? resolved(document, operation.requestBody) : undefined;
  const media = body?.content[mainMediaType(body.content) ?? ""];
  if (media?.schema) {
    for (const [name, property] of Object.entries(filledFields(media.schema, document).body.properties ?? {})) {
      names.push(name);
      sent.push(property);
    }
  }
  const values = sent.flatMap((schema): unknown[] => resolved<SchemaObject>(document, schema).enum ?? []).map(String);
  return [entry.method, entry.path, operation.summary, operation.description, entry.tag, ...names, ...values].filter(Boolean).join(" ").toLowerCase();
}

/**
 * The API reference as one page made from the document: a sidebar with a search box, the guide,
 * then every operation with its credential, parameters, examples and a curl line. Its script
 * only filters and copies; everything can be read without it.
 */
export function referencePage(document: OpenAPIObject, base: string): string {
  const operations = operationsOf(document);
  const tags = [...new Set(operations.map((o) => o.tag))];
  const guideLinks = GUIDE.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`).join("");
  const sidebar = tags
    .map((tag) => {
      const links = operations
        .filter((o) => o.tag === tag)
        .map(
          (o) =>
            `<li data-search="${escapeHtml(searchText(o, document))}"><a href="#${o.anchor}"><span class="method ${o.method}">${o.method.toUpperCase()}</span> <span>${describe(o.operation.summary ?? o.path)}</span></a></li>`,
        )
        .join("");
      return `<li class="tag"><p class="tag-title">${escapeHtml(tag)}</p><ul>${links}</ul></li>`;
    })
    .join("");
  const sections = tags
    .map((tag) => {
      const anchor = `tag-${tag.replace(/[^A-Za-z0-9]+/g, "-").replace(/-$/, "")}`;
      const body = operations
        .filter((o) => o.tag === tag)
        .map((o) => operationHtml(o, base, document))
        .join("\n");
      return `<section class="tag-section" id="${anchor}"><h2>${escapeHtml(tag)}</h2>\n${body}</section>`;
    })
    .join("\n");
  const guide = GUIDE.map(
    (s) => `<section class="guide" id="${s.id}"><h2>${escapeHtml(s.title)}</h2>${s.html.replaceAll("{base}", escapeHtml(base))}</section>`,
  ).join("\n");
  const title = escapeHtml(document.info.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · API reference</title>
<link rel="stylesheet" href="/docs/reference.css">
<script src="/docs/reference.js" defer></script>
</head>
<body>
<header class="bar"><button type="button" class="menu" aria-controls="sidebar" aria-expanded="false">Menu</button><a class="brand" href="#start">${title} <span>API reference · ${escapeHtml(document.info.version)}</span></a></header>
<div class="layout">
<nav id="sidebar" class="sidebar" aria-label="Reference">
<label class="search"><span>Search operations</span><input type="search" id="search" placeholder="Search: pickup, /contents, POST…" autocomplete="off"></label>
<p class="count" id="count" aria-live="polite">${operations.length} operations</p>
<ul class="guide-links">${guideLinks}</ul>
<ul class="tags">${sidebar}</ul>
</nav>
<main>
<p class="no-match" id="no-match" hidden></p>
${guide}
${sections}
</main>
</div>
</body>
</html>`;
}
