import { describe, expect, it } from "vitest";
import { call } from "../helpers/requests";

interface Media {
  example?: unknown;
}
interface Operation {
  summary?: string;
  parameters?: { name: string; in: string; example?: unknown; schema?: { example?: unknown } }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
type Paths = Record<string, Record<string, Operation>>;

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

async function operations() {
  const doc = await (await call("/openapi.json")).json<{ paths: Paths }>();
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
}

/** Every string and number of an example, to find the placeholders a generator leaves ("string", 0). */
function leaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
  return [value];
}

describe("the API reference's examples", () => {
  it("gives every operation a request example (when it takes a JSON body) and an answer example, made of real values", async () => {
    const lacking: string[] = [];
    for (const { name, operation } of await operations()) {
      const body = operation.requestBody?.content["application/json"];
      if (body && body.example === undefined) lacking.push(`${name}: request`);
      for (const status of ["200", "201"]) {
        const answer = operation.responses[status]?.content?.["application/json"];
        if (answer && answer.example === undefined) lacking.push(`${name}: answer ${status}`);
        if (answer?.example !== undefined) expect(leaves(answer.example), name).not.toContain("string");
      }
      if (body?.example !== undefined) expect(leaves(body.example), name).not.toContain("string");
    }
    expect(lacking).toEqual([]);
  });

  it("has an example for every path parameter, so that every curl line can be pasted as it is", async () => {
    const page = await (await call("/docs")).text();
    const curls = [...page.matchAll(/<pre class="curl"><code>([^<]*)<\/code>/g)].map((m) => m[1]!);
    expect(curls.length).toBe((await operations()).length);
    for (const curl of curls) expect(curl.split("\n")[0], curl).not.toMatch(/\{[A-Za-z]+\}/);
  });
});

describe("the API reference page", () => {
  it("answers /docs and /docs/ with the same page, its style and script from the service itself", async () => {
    const page = await call("/docs");
    const slashed = await call("/docs/");
    expect(page.status).toBe(200);
    expect(slashed.status).toBe(200);
    expect(page.headers.get("Content-Type")).toContain("text/html");
    const html = await page.text();
    expect(await slashed.text()).toBe(html);
    const linked = [...html.matchAll(/<(?:link|script)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(linked).toEqual(["/docs/reference.css", "/docs/reference.js"]);
  });

  it("shows text from the document as text: <app token> is escaped, never markup", async () => {
    const html = await (await call("/docs")).text();
    expect(html).toContain("appToken &lt;app token&gt;");
    expect(html).not.toContain("<app token>");
  });

  it("has the guide's sections, and names each operation's failures without repeating the error body under each", async () => {
    const html = await (await call("/docs")).text();
    for (const id of ["authentication", "signing", "envelope", "errors", "paging", "limits"]) expect(html).toContain(`id="${id}"`);
    const failures = [...html.matchAll(/<ul class="failures">([\s\S]*?)<\/ul>/g)].map((m) => m[1]!);
    expect(failures.length).toBeGreaterThan(100);
    for (const list of failures) expect(list).not.toContain("<pre");
    expect(html.match(/&quot;success&quot;: false/g) ?? []).toEqual([]);
  });
});
