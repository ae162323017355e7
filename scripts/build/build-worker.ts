/**
 * Builds the Worker for `wrangler dev` and `wrangler deploy` (wrangler.toml [build]). Unlike
 * wrangler's own single-file bundle, each dynamic `import()` becomes a module of its own: a new
 * isolate compiles only the entry and what it imports statically, and the heavy engines of group
 * I (language tables, NLP, PDF) are compiled when their first request needs them.
 */
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildConsole } from "./lib/console-build";
import { buildTemplateEngine } from "./lib/template-engine";

const OUT_DIR = "build/worker";
/** What the last build was made from (beside the Worker's folder, whose files wrangler uploads). */
const INPUTS_FILE = "build/worker-inputs.txt";
/** Everything a build reads: the Worker's and the console's sources, the build's own scripts, the dependencies. */
const INPUTS = ["src", "console", "scripts/build", "package-lock.json", "tsconfig.json", "wrangler.toml"];
/** What the build writes besides the Worker: its absence forces a build. */
const OTHER_OUTPUTS = ["build/template-engine", "public/admin/index.html"];

/** The inputs' paths, sizes and modification times, as one digest: a file edited, added or removed changes it. */
function inputsDigest(): string {
  const lines: string[] = [];
  const visit = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of readdirSync(path).sort()) visit(join(path, name));
    else lines.push(`${path} ${stat.size} ${stat.mtimeMs}`);
  };
  for (const input of INPUTS) visit(input);
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

// wrangler dev builds at start and again when its watcher is ready, before any file changed: the second is a no-op.
const digest = inputsDigest();
const upToDate =
  [join(OUT_DIR, "index.js"), INPUTS_FILE, ...OTHER_OUTPUTS].every((path) => existsSync(path)) && readFileSync(INPUTS_FILE, "utf8") === digest;
if (upToDate) {
  process.stderr.write(`› ${OUT_DIR} is up to date: nothing changed since its build\n`);
  process.exit(0);
}

rmSync(OUT_DIR, { recursive: true, force: true });
// The tests' config has built both before any workerd read them: rebuilt under a running pool, the console's assets vanish for a moment.
if (process.env.CONSOLE_AND_ENGINE_BUILT !== "1") {
  await buildConsole();
  buildTemplateEngine();
}
const started = Date.now();
const result = await build({
  entryPoints: { index: "src/index.ts" },
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: "esm",
  target: "es2022",
  platform: "browser",
  conditions: ["workerd", "worker", "browser"],
  external: ["cloudflare:*", "node:*"],
  chunkNames: "chunks/[name]-[hash]",
  // WebAssembly (the template engine) stays a module of its own: wrangler uploads it as CompiledWasm.
  loader: { ".wasm": "copy" },
  assetNames: "chunks/[name]-[hash]",
  // The same definition wrangler's bundler makes; some libraries read it to pick a build.
  define: { "process.env.NODE_ENV": '"production"' },
  minify: true,
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});

const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"));
const entry = outputs.find(([, output]) => output.entryPoint === "src/index.ts");
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const total = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
process.stderr.write(
  `› built ${OUT_DIR} in ${Date.now() - started} ms: entry ${kib(entry?.[1].bytes ?? 0)}, ${outputs.length} modules, ${kib(total)} in all\n`,
);
writeFileSync(INPUTS_FILE, digest);
