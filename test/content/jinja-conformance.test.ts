/**
 * The Worker's template engine (minijinja in WebAssembly) against Python's Jinja2 3.1: each
 * template of jinja-conformance/templates rendered with context.json must equal, byte for byte,
 * what scripts/jinja-expected.py wrote with Jinja2.
 */
import { describe, expect, it } from "vitest";
import { templateSet } from "../../src/content/sites/templates";
import context from "./jinja-conformance/context.json";

const strip = (path: string) => path.split("/").at(-1)!;
const templates = Object.fromEntries(
  Object.entries(import.meta.glob("./jinja-conformance/templates/*.j2", { query: "?raw", import: "default", eager: true }) as Record<string, string>).map(([path, source]) => [strip(path), source]),
);
const expected = Object.fromEntries(
  Object.entries(import.meta.glob("./jinja-conformance/expected/*.out", { query: "?raw", import: "default", eager: true }) as Record<string, string>).map(([path, text]) => [strip(path).replace(/\.out$/, ""), text]),
);

describe("Jinja2 conformance of the template engine", () => {
  it("has at least 40 templates, each with Jinja2's output", () => {
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(40);
    for (const name of Object.keys(expected)) expect(templates[name], name).toBeDefined();
  });

  it.each(Object.keys(expected).sort())("%s renders as Jinja2 3.1 does", async (name) => {
    const set = await templateSet(templates);
    expect(set.render(name, context)).toBe(expected[name]);
  });
});

describe("where the engine is not Jinja2, and its bounds", () => {
  it("prints booleans as true and false (Jinja2: True and False); themes test them rather than print them", async () => {
    const set = await templateSet({ "b.txt.j2": "{{ 1 < 2 }} {{ 1 > 2 }}" });
    expect(set.render("b.txt.j2", {})).toBe("true false");
  });

  it("escapes quotes and the slash as entities of its own (&#x27; &quot; &#x2f;), as safe as MarkupSafe's", async () => {
    const set = await templateSet({ "e.html.j2": "{{ s }}" });
    expect(set.render("e.html.j2", { s: `'"/<>&` })).toBe("&#x27;&quot;&#x2f;&lt;&gt;&amp;");
  });

  it("stops a template that would loop for ever, with an error naming it", async () => {
    const set = await templateSet({ "spin.html.j2": "{% for a in range(10000) %}{% for b in range(10000) %}{{ b }}{% endfor %}{% endfor %}" });
    expect(() => set.render("spin.html.j2", {})).toThrow(/^spin\.html\.j2: .*fuel/i);
  });

  it("refuses a template that does not parse, naming it", async () => {
    await expect(templateSet({ "broken.html.j2": "{% if %}" })).rejects.toThrow(/^broken\.html\.j2: /);
  });
});
