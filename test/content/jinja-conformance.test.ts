/**
 * The Worker's template engine (minijinja in WebAssembly) against Python's Jinja2 3.1: each
 * template of jinja-conformance/templates rendered with context.json must equal, byte for byte,
 * what scripts/build/jinja-expected.py wrote with Jinja2.
 */
import { describe, expect, it } from "vitest";
import { TemplateLimitError, templateSet } from "../../src/content/sites/templates";
import context from "./jinja-conformance/context.json";

const strip = (path: string) => path.split("/").at(-1)!;
const templates = Object.fromEntries(
  Object.entries(import.meta.glob<string>("./jinja-conformance/templates/*.j2", { query: "?raw", import: "default", eager: true })).map(
    ([path, source]) => [strip(path), source],
  ),
);
const expected = Object.fromEntries(
  Object.entries(import.meta.glob<string>("./jinja-conformance/expected/*.out", { query: "?raw", import: "default", eager: true })).map(
    ([path, text]) => [strip(path).replace(/\.out$/, ""), text],
  ),
);

describe("Jinja2 conformance of the template engine", () => {
  it("escapes as MarkupSafe does: & < > \" ' and nothing else, the slash of a URL left as it is", async () => {
    const set = await templateSet({ "e.html.j2": '<a href="{{ s }}">{{ s }}</a>' });
    expect(set.render("e.html.j2", { s: `http://a.example/b?c=1&d='"<>` })).toBe(
      '<a href="http://a.example/b?c=1&amp;d=&#39;&#34;&lt;&gt;">http://a.example/b?c=1&amp;d=&#39;&#34;&lt;&gt;</a>',
    );
  });

  it("has at least 40 templates, each with Jinja2's output", () => {
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(40);
    for (const name of Object.keys(expected)) expect(templates[name], name).toBeDefined();
  });

  // One set for all: each parsed set holds the whole conformance set in the engine's 32 MB until it is collected.
  const conformance = templateSet(templates);
  it.each(Object.keys(expected).sort())("%s renders as Jinja2 3.1 does", async (name) => {
    expect((await conformance).render(name, context)).toBe(expected[name]);
  });
});

describe("where the engine is not Jinja2, and its bounds", () => {
  it("prints booleans as true and false (Jinja2: True and False); themes test them rather than print them", async () => {
    const set = await templateSet({ "b.txt.j2": "{{ 1 < 2 }} {{ 1 > 2 }}" });
    expect(set.render("b.txt.j2", {})).toBe("true false");
  });

  it("writes tojson compactly (Jinja2: a space after each , and :), the same JSON; its escaping is Jinja2's", async () => {
    const set = await templateSet({ "j.html.j2": "{{ v | tojson }}" });
    expect(set.render("j.html.j2", { v: { a: "<'&>", b: [1, 2] } })).toBe('{"a":"\\u003c\\u0027\\u0026\\u003e","b":[1,2]}');
  });

  it("stops a template that would loop for ever, with an error naming it", async () => {
    const set = await templateSet({ "spin.html.j2": "{% for a in range(10000) %}{% for b in range(10000) %}{{ b }}{% endfor %}{% endfor %}" });
    expect(() => set.render("spin.html.j2", {})).toThrow(/^spin\.html\.j2: .*(fuel|memory)/i);
  });

  it("refuses a template that does not parse, naming it", async () => {
    await expect(templateSet({ "broken.html.j2": "{% if %}" })).rejects.toThrow(/^broken\.html\.j2: /);
  });
});

/** A template that doubles a list 30 times: a few steps of fuel, 2^30 items. */
const DOUBLING = "{% set ns = namespace(l=[1]) %}{% for i in range(30) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l | length }}";

describe("API4 · template render: memory, output and time", () => {
  it("stops a template that grows a list without end at the engine's memory bound, in well under a second", async () => {
    const set = await templateSet({ "grow.html.j2": DOUBLING });
    const started = performance.now();
    expect(() => set.render("grow.html.j2", {})).toThrow(/^grow\.html\.j2: stopped at the engine's 32 MB of memory/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("renders again after a trap: the set that trapped, one parsed before it, and one parsed after it", async () => {
    const before = await templateSet({ "ok.html.j2": "{{ x }}!" });
    const set = await templateSet({ "grow.html.j2": DOUBLING, "ok.html.j2": "{{ x }}?" });
    expect(() => set.render("grow.html.j2", {})).toThrow(TemplateLimitError);
    expect(set.render("ok.html.j2", { x: 1 })).toBe("1?");
    expect(before.render("ok.html.j2", { x: 2 })).toBe("2!");
    expect((await templateSet({ "new.html.j2": "{{ x }}." })).render("new.html.j2", { x: 3 })).toBe("3.");
  });

  it("stops a render whose page is longer than the bound, with an error saying so", async () => {
    const set = await templateSet({ "long.html.j2": "{% for i in range(6) %}{{ 'x' * 1000000 }}{% endfor %}" });
    const started = performance.now();
    expect(() => set.render("long.html.j2", {})).toThrow("long.html.j2: writes more than 5,000,000 characters");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each([
    [
      "a string doubled 40 times",
      "{% set ns = namespace(s='xx') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}",
    ],
    ["one huge repetition", "{{ ('x' * 100000000) | length }}"],
    [
      "loops nested three deep",
      "{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) %}{{ c }}{% endfor %}{% endfor %}{% endfor %}",
    ],
    ["a macro calling itself", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}"],
  ])("stops %s within a second", async (_what, source) => {
    const started = performance.now();
    // Some stop as they are parsed (a constant expression is worked out then), the others as they render.
    await expect((async () => (await templateSet({ "hostile.html.j2": source })).render("hostile.html.j2", {}))()).rejects.toThrow(
      /^hostile\.html\.j2: /,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await templateSet({ "ok.html.j2": "fine" })).render("ok.html.j2", {})).toBe("fine");
  });
});
