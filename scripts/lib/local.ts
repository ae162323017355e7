import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Bindings } from "../../src/platform/env";

export const WRANGLER = "node_modules/.bin/wrangler";
// No network for our own tools: miniflare would fetch `Request.cf` from workers.cloudflare.com at every start
// (and print a stack when offline); the placeholder it falls back to is all local work needs.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
const quietWrangler = { ...process.env, WRANGLER_SEND_METRICS: "false" };

/** Progress goes to stderr, so that stdout carries only a command's result. */
export function step(message: string): void {
  process.stderr.write(`› ${message}\n`);
}

export function fail(message: string): never {
  process.stderr.write(`✗ ${message}\n`);
  process.exit(1);
}

/** Runs wrangler and returns its stdout; on failure prints what it said and stops. */
export function wrangler(args: string[]): string {
  const result = spawnSync(WRANGLER, args, { encoding: "utf8", env: quietWrangler, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    fail(`wrangler ${args.join(" ")} failed`);
  }
  return result.stdout;
}

/**
 * Creates .dev.vars with fresh random secrets on a new clone. An existing file keeps its values;
 * one from before wrangler.toml defaulted to production gets ENVIRONMENT=development added.
 */
export function ensureDevVars(): "created" | "development-added" | "unchanged" {
  if (existsSync(".dev.vars")) {
    const current = readFileSync(".dev.vars", "utf8");
    if (/^ENVIRONMENT=/m.test(current)) return "unchanged";
    writeFileSync(".dev.vars", `${current.replace(/\n?$/, "\n")}ENVIRONMENT=development\n`, { mode: 0o600 });
    return "development-added";
  }
  const filled = readFileSync(".dev.vars.example", "utf8")
    .replace(/^KEY_ENCRYPTION_KEY=$/m, `KEY_ENCRYPTION_KEY=${randomBytes(32).toString("base64")}`)
    .replace(/^JWT_SECRET=$/m, `JWT_SECRET=${randomBytes(32).toString("base64url")}`);
  writeFileSync(".dev.vars", filled, { mode: 0o600 });
  return "created";
}

const SCRIPTS_CONFIG = ".wrangler.scripts.toml";

/**
 * wrangler.toml without its service bindings: the proxy runs no Worker code, so a binding to one
 * of this Worker's own entrypoints could not start. Written beside it, so paths and state match.
 */
function scriptsConfig(): string {
  const withoutServices = readFileSync("wrangler.toml", "utf8").replace(/^\[\[services\]\]\n(?:[^[\n].*\n)*/gm, "");
  writeFileSync(SCRIPTS_CONFIG, `# Written by scripts/lib/local.ts from wrangler.toml; do not edit.\n${withoutServices}`);
  return SCRIPTS_CONFIG;
}

/**
 * The local bindings `wrangler dev` uses (same persisted state), for scripts that reuse the Worker's
 * code; `persistTo` is another state folder (as `wrangler dev --persist-to`), for the browser tests.
 */
export async function withLocalBindings<T>(work: (env: Bindings) => Promise<T>, options: { persistTo?: string } = {}): Promise<T> {
  // wrangler would print "Using secrets defined in .dev.vars" on stdout, which carries our results.
  const logLevel = process.env.WRANGLER_LOG;
  process.env.WRANGLER_LOG = logLevel ?? "warn";
  const persist = options.persistTo ? { path: `${options.persistTo}/v3` } : true;
  // Loaded here: wrangler takes a second or two to import, which a `--help` or a refused flag should not wait for.
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<Bindings>({ configPath: scriptsConfig(), persist, remoteBindings: false });
  try {
    return await work(proxy.env);
  } finally {
    await proxy.dispose();
    if (logLevel === undefined) delete process.env.WRANGLER_LOG;
  }
}

export interface LocalServer {
  /** Resident memory of this server's runtime processes (workerd), in MiB. */
  memoryMiB(): number | undefined;
  /** How wrangler ended, if it did before `stop` (a crash in the middle of a run). */
  ended(): string | undefined;
  /** Stops wrangler and the runtime it started: the whole process group. */
  stop(): void;
}

/**
 * Starts `wrangler dev` in a process group of its own, quiet, for the bench and the load check.
 * Killing only wrangler would leave its workerd serving the port, and the next run would measure
 * the old one.
 */
export function startLocalServer(port: string, env: Record<string, string> = {}, extraArgs: string[] = [], errorLog?: string): LocalServer {
  // Its errors (the only lines at --log-level error) go to `errorLog` when given, for a run that has to explain a failure.
  const output = errorLog ? openSync(errorLog, "a") : "ignore";
  const server = spawn(WRANGLER, ["dev", "--port", port, "--ip", "127.0.0.1", "--log-level", "error", ...extraArgs], {
    stdio: ["ignore", output, output],
    detached: true,
    env: { ...quietWrangler, ...env },
  });
  if (typeof output === "number") closeSync(output);
  const group = server.pid!;
  let stopping = false;
  let ended: string | undefined;
  server.on("exit", (code, signal) => {
    if (!stopping) ended = `wrangler dev ended by itself (${signal ? `signal ${signal}` : `exit code ${code}`})`;
  });
  const stop = () => {
    stopping = true;
    try {
      process.kill(-group, "SIGTERM");
    } catch {
      // already gone
    }
  };
  process.on("exit", stop);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
  return {
    memoryMiB() {
      const pids = spawnSync("pgrep", ["-g", String(group), "workerd"], { encoding: "utf8" })
        .stdout.trim()
        .split("\n")
        .filter(Boolean);
      const kib = pids.map((pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0));
      return kib.length ? Math.round(kib.reduce((sum, n) => sum + n, 0) / 1024) : undefined;
    },
    ended: () => ended,
    stop,
  };
}
