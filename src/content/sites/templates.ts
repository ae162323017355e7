import type { Environment } from "minijinja-js/dist/web/minijinja_js.js";

/** How much work one render may do: a template that loops forever stops with an error, not a dead isolate. */
export const RENDER_FUEL = 5_000_000;

export class TemplateError extends Error {}

let engine: Promise<typeof import("minijinja-js/dist/web/minijinja_js.js")> | undefined;

/** minijinja (Jinja2, in WebAssembly, no code generation), instantiated on the first render of the isolate. */
function loadEngine() {
  engine ??= (async () => {
    const [module, { default: wasm }] = await Promise.all([import("minijinja-js/dist/web/minijinja_js.js"), import("minijinja-js/dist/web/minijinja_js_bg.wasm")]);
    module.initSync({ module: wasm });
    return module;
  })();
  return engine;
}

/**
 * A set of templates, parsed once and kept: `extends`, `include`, `import` resolve among them.
 * HTML autoescaping follows the name (`page.html.j2` escapes, `feed.xml.j2` too, `robots.txt.j2`
 * does not), as Jinja2's `select_autoescape` would with the `.j2` suffix removed.
 */
export async function templateSet(templates: Record<string, string>): Promise<{ render(name: string, context: unknown): string }> {
  const { Environment: MiniJinja } = await loadEngine();
  const env: Environment = new MiniJinja();
  env.fuel = RENDER_FUEL;
  env.enablePyCompat();
  for (const [name, source] of Object.entries(templates)) {
    try {
      env.addTemplate(name, source);
    } catch (error) {
      throw new TemplateError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return {
    render(name, context) {
      try {
        return env.renderTemplate(name, context);
      } catch (error) {
        throw new TemplateError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
