"""Renders the conformance templates with Python's Jinja2 3.1: the expected outputs the Worker's
engine (minijinja) must match byte for byte (test/content/jinja-conformance.test.ts).

    python3 scripts/build/jinja-expected.py

Templates whose name starts with "_" are layouts, partials and macros for the others. HTML
escaping follows the name as the Worker's does: on for `*.html.j2`, off otherwise.
"""
import json
import pathlib

import jinja2

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent / "test" / "content" / "jinja-conformance"
assert jinja2.__version__.startswith("3.1"), f"Jinja2 3.1 expected, found {jinja2.__version__}"

env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(ROOT / "templates"),
    autoescape=lambda name: bool(name) and name.endswith(".html.j2"),
)
context = json.loads((ROOT / "context.json").read_text())
out = ROOT / "expected"
out.mkdir(exist_ok=True)
names = sorted(p.name for p in (ROOT / "templates").glob("*.j2") if not p.name.startswith("_"))
for name in names:
    (out / f"{name}.out").write_text(env.get_template(name).render(context), encoding="utf-8")
print(f"{len(names)} expected outputs written to {out}")
