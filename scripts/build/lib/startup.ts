import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { WRANGLER } from "../../lib/local";

export interface StartupMeasure {
  /** Every module as uploaded, and gzipped as Workers count it against the size limit. */
  bytes: number;
  gzipBytes: number;
  modules: number;
  /** What a new isolate compiles before its first request: the entry and its static imports. */
  startupBytes: number;
  /** What its first event compiles besides: the modules the entry imports with import(), and their static imports. */
  firstRequestBytes: number;
  /** The source files (src/…) in that first-request code, from the build's source maps. */
  firstRequestSources: string[];
  /** The source files only in modules loaded later, on a first use. */
  laterSources: string[];
  /** Median time to evaluate the script's global scope in a fresh Node process. */
  globalScopeMs: number;
  /** Median time of the isolate's first request after that: loading and building the service. */
  firstEventMs: number;
}

/** Where the build command (scripts/build/build-worker.ts) writes the modules and their source maps; wrangler's --outdir has no maps. */
const BUILD_DIR = "build/worker";

/** Stands in for the runtime's own module, so the modules can be imported by plain Node. */
const RUNTIME_STUB = `
export class WorkerEntrypoint { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }
export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }
export const env = {};
`;

/**
 * One evaluation of the entry's global scope, timed from inside a new process whose module loader
 * has already imported an empty module (Node's own first import costs about 10 ms), then the first
 * request, which loads the service. Without D1 it answers an error: the load is what is timed.
 */
const PROBE = `
await import("./empty.mjs");
const started = performance.now();
const worker = await import("./index.js");
const loaded = performance.now();
const ctx = { waitUntil() {}, passThroughOnException() {} };
await worker.default.fetch(new Request("http://startup.test/health"), { DB: {}, ENVIRONMENT: "production" }, ctx).catch(() => undefined);
console.log(JSON.stringify({ ms: loaded - started, firstEventMs: performance.now() - loaded }));
`;

/**
 * Builds the Worker as `wrangler deploy` would and times the evaluation of its global scope: the
 * work a new isolate does before the first request (Workers refuse a script that takes over 1 s).
 */
export function measureStartup(runs = 5): StartupMeasure {
  const dir = mkdtempSync(join(tmpdir(), "gateway-startup-"));
  try {
    const built = spawnSync(WRANGLER, ["deploy", "--dry-run", "--outdir", dir], {
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    if (built.status !== 0) throw new Error(`wrangler build failed:\n${built.stdout}${built.stderr}`);
    const modules = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
    // Node cannot resolve `cloudflare:workers`: point each import of it at a stub beside the modules.
    writeFileSync(join(dir, "runtime-stub.mjs"), RUNTIME_STUB);
    for (const file of modules) {
      const path = join(dir, file);
      const stub = relative(dirname(path), join(dir, "runtime-stub.mjs"));
      writeFileSync(path, readFileSync(path, "utf8").replaceAll('"cloudflare:workers"', JSON.stringify(stub.startsWith(".") ? stub : `./${stub}`)));
    }
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const probe = join(dir, "probe.mjs");
    writeFileSync(probe, PROBE);
    writeFileSync(join(dir, "empty.mjs"), "export {};\n");
    const times: number[] = [];
    const firstEvents: number[] = [];
    for (let i = 0; i < runs; i++) {
      const run = spawnSync(process.execPath, [probe], { encoding: "utf8" });
      if (run.status !== 0) throw new Error(`evaluating the bundle failed:\n${run.stderr}`);
      const measured = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { ms: number; firstEventMs: number };
      times.push(measured.ms);
      firstEvents.push(measured.firstEventMs);
    }
    const sources = new Map(modules.map((file) => [file, readFileSync(join(dir, file))]));
    const all = Buffer.concat([...sources.values()]);
    const startup = staticGraph(sources, ["index.js"]);
    const firstRequest = staticGraph(sources, [...startup, ...dynamicImports(sources, startup)]);
    const firstRequestSources = sourcesOf(firstRequest);
    const later = sourcesOf(modules.filter((file) => !firstRequest.has(file))).filter((source) => !firstRequestSources.includes(source));
    return {
      bytes: all.length,
      gzipBytes: gzipSync(all).length,
      modules: modules.length,
      startupBytes: bytesOf(sources, startup),
      firstRequestBytes: bytesOf(sources, firstRequest),
      firstRequestSources,
      laterSources: later,
      globalScopeMs: median(times),
      firstEventMs: median(firstEvents),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
}

/** A module's path relative to the build, from a module that imports it by `target`. */
const resolved = (file: string, target: string) => join(dirname(file), target);

/** The given modules and everything they import statically, transitively. */
function staticGraph(sources: Map<string, Buffer>, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !sources.has(file)) return;
    seen.add(file);
    const text = sources.get(file)!.toString("utf8");
    for (const match of text.matchAll(/(?:^|;)\s*(?:import|export)\b[^;"]*from\s*"(\.[^"]+)"|(?:^|;)\s*import\s*"(\.[^"]+)"/gm))
      visit(resolved(file, match[1] ?? match[2]!));
  };
  for (const root of roots) visit(root);
  return seen;
}

/** The modules these modules load with import(): the entry's are what its first event loads. */
function dynamicImports(sources: Map<string, Buffer>, files: Iterable<string>): string[] {
  return [...files].flatMap((file) =>
    [
      ...sources
        .get(file)!
        .toString("utf8")
        .matchAll(/\bimport\("(\.[^"]+)"\)/g),
    ].map((m) => resolved(file, m[1]!)),
  );
}

const bytesOf = (sources: Map<string, Buffer>, files: Set<string>) => [...files].reduce((sum, file) => sum + sources.get(file)!.length, 0);

/** The source files (relative to the project) bundled into these modules, read from the source maps the build leaves in build/worker. */
function sourcesOf(files: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const file of files) {
    const map = join(BUILD_DIR, `${file}.map`);
    if (!existsSync(map)) continue;
    const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
    for (const source of sources) found.add(relative(".", join(BUILD_DIR, dirname(file), source)));
  }
  return [...found].sort();
}
