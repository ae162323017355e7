import type { Environment } from "minijinja-js/dist/web/minijinja_js.js";

/** How much work one render may do: a template that loops forever stops with an error, not a dead isolate. */
export const RENDER_FUEL = 5_000_000;
/**
 * The engine's memory at most, written into its WebAssembly by scripts/build/lib/template-engine.ts:
 * a template that grows a value without end traps here within milliseconds.
 */
export const ENGINE_MEMORY_BYTES = 32 * 1024 * 1024;
/** The longest page a render may write, in characters. */
export const MAX_RENDER_LENGTH = 5_000_000;

export class TemplateError extends Error {}

/**
 * The engine's "<name>: syntax error: … (in <file>:<line>)" and the source lines it draws under it,
 * said as "<file>, line <line>: syntax error: …" followed by those lines (without its rulers), so that
 * the console shows a person where to look, in a monospaced block.
 */
export function readableTemplateError(message: string): string {
  const [first = "", ...rest] = message.split("\n");
  const located = /^(?:[^\s:]+: )?(.*) \(in (.+?):(\d+)\)$/.exec(first);
  const said = located ? `${located[2]}, line ${located[3]}: ${located[1]}` : first;
  const end = rest.findIndex((line) => line.startsWith("~~~"));
  const source = rest[0]?.startsWith("---") && end > 1 ? rest.slice(1, end) : [];
  return source.length ? `${said}\n${source.join("\n")}` : said;
}
/** A template stopped by a bound (work, memory, length of what it writes): its own fault, whatever the data. */
export class TemplateLimitError extends TemplateError {}

declare module "minijinja-js/dist/web/minijinja_js.js" {
  interface Environment {
    /** wasm-bindgen's own (not in its typings): drops the pointer and its finalizer without calling the instance. */
    __destroy_into_raw(): number;
  }
}

interface Engine {
  Environment: typeof Environment;
  /** Counts the instances made: a template set parsed on an earlier one parses again. */
  generation: number;
  /** Keeps an environment in mind, to let it go when the instance is replaced. */
  track(env: Environment): void;
  /** A fresh instance, after a trap has left the current one's memory in an unknown state. */
  replace(): void;
}

let engine: Promise<Engine> | undefined;

/** minijinja (Jinja2, in WebAssembly, no code generation), instantiated on the first render of the isolate. */
function loadEngine(): Promise<Engine> {
  engine ??= (async () => {
    const [glue, { default: module }] = await Promise.all([
      import("minijinja-js/dist/web/minijinja_js.js"),
      import("../../../build/template-engine/minijinja_js_bg.wasm"),
    ]);
    let instance: WebAssembly.Instance | undefined;
    let imports: WebAssembly.Imports = {};
    // wasm-bindgen's glue keeps the exports of the one instance it makes, for good: it is handed a
    // stand-in that forwards to the current instance, and its imports serve every later one.
    const exports = new Proxy({}, { get: (_, name) => (typeof name === "string" ? instance?.exports[name] : undefined) });
    class StandIn {
      readonly exports = exports;
      constructor(_module: WebAssembly.Module, given: WebAssembly.Imports) {
        imports = given;
      }
    }
    const Instance = WebAssembly.Instance;
    Reflect.set(WebAssembly, "Instance", StandIn);
    try {
      glue.initSync({ module });
    } finally {
      Reflect.set(WebAssembly, "Instance", Instance);
    }
    instance = new Instance(module, imports);
    const live = new Set<WeakRef<Environment>>();
    const state: Engine = {
      Environment: glue.Environment,
      generation: 0,
      track(env) {
        for (const ref of live) if (!ref.deref()) live.delete(ref);
        live.add(new WeakRef(env));
      },
      replace() {
        // Their finalizers would free old pointers in the new instance.
        for (const ref of live) ref.deref()?.__destroy_into_raw();
        live.clear();
        // Detaching the old buffer (as any grow does) makes the glue drop its cached view of it.
        const memory = instance?.exports.memory;
        if (memory instanceof WebAssembly.Memory) memory.grow(0);
        instance = new Instance(module, imports);
        state.generation++;
      },
    };
    return state;
  })();
  return engine;
}

/** A trap or a stack overflow inside the engine: the instance cannot be trusted after either. */
const isTrap = (error: unknown) => error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const trapped = (name: string, error: unknown) =>
  new TemplateLimitError(`${name}: stopped at the engine's ${ENGINE_MEMORY_BYTES / 1024 / 1024} MB of memory (${messageOf(error)})`);

/**
 * A set of templates, parsed once and kept: `extends`, `include`, `import` resolve among them.
 * HTML autoescaping follows the name (`page.html.j2` escapes, `feed.xml.j2` too, `robots.txt.j2`
 * does not), as Jinja2's `select_autoescape` would with the `.j2` suffix removed. A render is
 * bounded in work (fuel), memory and length; after a trap the isolate's engine is replaced, and
 * every set parses again on the new one when it next renders.
 */
export async function templateSet(templates: Record<string, string>): Promise<{ render(name: string, context: unknown): string }> {
  const engine = await loadEngine();
  let env: Environment | undefined;
  let generation = -1;
  const parsed = (): Environment => {
    if (env && generation === engine.generation) return env;
    env = new engine.Environment();
    generation = engine.generation;
    engine.track(env);
    env.fuel = RENDER_FUEL;
    env.enablePyCompat();
    for (const [name, source] of Object.entries(templates)) {
      try {
        env.addTemplate(name, source);
      } catch (error) {
        if (!isTrap(error)) throw new TemplateError(`${name}: ${messageOf(error)}`);
        engine.replace();
        throw trapped(name, error);
      }
    }
    return env;
  };
  parsed();
  return {
    render(name, context) {
      let html: string;
      try {
        html = parsed().renderTemplate(name, context);
      } catch (error) {
        if (error instanceof TemplateError) throw error;
        if (!isTrap(error)) {
          const message = `${name}: ${messageOf(error)}`;
          throw /fuel/i.test(message) ? new TemplateLimitError(message) : new TemplateError(message);
        }
        engine.replace();
        throw trapped(name, error);
      }
      if (html.length > MAX_RENDER_LENGTH)
        throw new TemplateLimitError(`${name}: writes more than ${MAX_RENDER_LENGTH.toLocaleString("en")} characters`);
      return html;
    },
  };
}
