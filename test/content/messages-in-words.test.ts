import { env } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, createTestTenant, headless, type TestTenant } from "../helpers/content";
import { call } from "../helpers/requests";

type Failure = { success: false; error: { code: string; message: string; fields?: { field: string; message: string }[] } };

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTestTenant();
});

async function refused(method: string, path: string, body: unknown) {
  const res = await admin(method, `/tenants/${tenant.tenantId}${path}`, tenant.session, body);
  expect(res.status).toBe(400);
  return (await res.json<Failure>()).error;
}

describe("a refused form says what is wrong in a person's words, at its field", () => {
  it("words a schema's own rule as a sentence, and keeps the field's path for the form", async () => {
    const error = await refused("PUT", "/redirects", { siteId: tenant.siteId, fromPath: "old-page", toUrl: "/new" });
    expect(error).toEqual({
      code: "invalid_request",
      message: "The path must start with / and hold no spaces, ? or #",
      fields: [{ field: "body.fromPath", message: "The path must start with / and hold no spaces, ? or #" }],
    });
  });

  it("says a missing field is required, naming it as a form labels it, never zod's 'expected string, received undefined'", async () => {
    const error = await refused("PUT", "/redirects", { fromPath: "/old", toUrl: "/new" });
    expect(error.message).toBe("Site id is required");
    expect(error.fields).toEqual([{ field: "body.siteId", message: "Site id is required" }]);
  });

  it("words zod's own findings: a wrong type, a length, an empty text, an unknown field", async () => {
    const cases: [unknown, string][] = [
      [{ siteId: "one", name: "Nav" }, "Site id must be a number"],
      [{ siteId: tenant.siteId, name: "Nav", description: "x".repeat(501) }, "Description must have at most 500 characters"],
      [{ siteId: tenant.siteId, name: "Nav", position: -1 }, "Position must be at least 0"],
      [{ siteId: tenant.siteId, name: "" }, "Name must not be empty"],
      [{ siteId: tenant.siteId, name: "Nav", colour: "red" }, "The body does not take the field colour"],
    ];
    for (const [body, message] of cases)
      expect((await refused("POST", "/categories", { slug: "nav", ...(body as object) })).message, message).toBe(message);
  });

  it("says a body that is not JSON in the words every group uses", async () => {
    const res = await call(`/admin/api/tenants/${tenant.tenantId}/contents`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tenant.session}`, "Content-Type": "application/json" },
      body: "{title:",
    });
    expect(res.status).toBe(400);
    expect((await res.json<Failure>()).error.message).toBe("Request body is not valid JSON");
  });

  it("lists every failing field, each as its own sentence", async () => {
    const error = await refused("POST", "/contents", { siteId: tenant.siteId, title: "", slug: "Not A Slug", language: "en" });
    expect(error.message).toBe("Title must not be empty");
    expect(error.fields).toEqual([
      { field: "body.title", message: "Title must not be empty" },
      { field: "body.slug", message: "The slug must be lower-case letters and digits joined by single dashes, like museum-night" },
    ]);
  });

  it("names a query parameter as the address spells it, for the developer who typed it", async () => {
    const missing = await headless("/api/mcp/contents", tenant.token);
    expect(missing.status).toBe(400);
    expect((await missing.json<Failure>()).error.message).toBe("siteId is required");
    const unknown = await headless(`/api/mcp/contents?siteId=${tenant.siteId}&limit=5`, tenant.token);
    const failure = await unknown.json<Failure & { error: { fields: { field: string }[] } }>();
    expect(failure.error.message).toBe("The request does not take the parameter limit");
    expect(failure.error.fields.map((f) => f.field)).toEqual(["limit"]);
  });
});

describe("a theme's template that does not parse", () => {
  it("is named by file and line, with the lines around it to show in a monospaced block, without the engine's rulers", async () => {
    const files = { ...env.TEST_DEFAULT_THEME, "templates/index.html.j2": "<main>\n{% if %}\n</main>" };
    const zip = zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])));
    const res = await call(`/admin/api/tenants/${tenant.tenantId}/sites/${tenant.siteId}/themes?name=broken`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tenant.session}`, "Content-Type": "application/zip" },
      body: zip,
    });
    expect(res.status).toBe(400);
    expect((await res.json<Failure>()).error.message).toBe(
      [
        "The theme was not stored: a template does not parse: templates/index.html.j2, line 2: syntax error: unexpected end of block",
        "   1 | <main>",
        "   2 > {% if %}",
        "     i       ^^ syntax error",
        "   3 | </main>",
      ].join("\n"),
    );
  });
});
