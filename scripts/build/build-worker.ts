/**
 * Builds the Worker for `wrangler dev` and `wrangler deploy` (wrangler.toml [build]). Unlike
 * wrangler's own single-file bundle, each dynamic `import()` becomes a module of its own: a new
 * isolate compiles only the entry and what it imports statically, and the heavy engines of group
 * I (language tables, NLP, PDF) are compiled when their first request needs them.
 */
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { buildConsole } from "./lib/console-build";
import { copyDocsAssets } from "./lib/docs-assets";
import { buildTemplateEngine } from "./lib/template-engine";

const OUT_DIR = "build/worker";

rmSync(OUT_DIR, { recursive: true, force: true });
copyDocsAssets();
await buildConsole();
buildTemplateEngine();
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
