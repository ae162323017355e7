/**
 * `npm run cf-typegen`: the binding and variable types of wrangler.toml, written by `wrangler
 * types` to src/worker-configuration.d.ts (committed). The secrets come from .dev.vars.example,
 * so the output is the same on every machine; the entry is the TypeScript source, so the RPC
 * service bindings are typed by their entrypoint classes.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { step, wrangler } from "../lib/local";

const CONFIG = ".wrangler.types.toml";
const OUT = "src/worker-configuration.d.ts";

const config = readFileSync("wrangler.toml", "utf8").replace(/^main = .*$/m, 'main = "src/index.ts"');
writeFileSync(CONFIG, `# Written by scripts/build/typegen.ts from wrangler.toml; do not edit.\n${config}`);
try {
  wrangler([
    "types",
    OUT,
    "-c",
    CONFIG,
    "--env-file",
    ".dev.vars.example",
    "--include-runtime=false",
    "--strict-vars=false",
    "--env-interface",
    "WorkerBindings",
  ]);
} finally {
  rmSync(CONFIG, { force: true });
}
step(`wrote ${OUT}`);
