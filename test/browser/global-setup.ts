import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { type LocalServer, startLocalServer } from "../../scripts/lib/local";
import { type Inspector, quietInspector } from "../../scripts/build/lib/inspector";
import { startFakeIdentityProvider } from "./identity-provider";

/**
 * The browser tests' gateway: `wrangler dev` as a developer runs it (the built Worker, its static
 * assets, local D1/KV/R2), on a free port, with its own state folder and secrets, so a developer's
 * local data is never touched. Seeds the demo tenant, its owner and a viewer.
 */

/** Where the gateway will listen, and the file that says it is ready (test/browser/gateway.ts reads it). */
export interface GatewayPlace {
  base: string;
  siteBase: string;
  readyFile: string;
}

/** What the seed made, written to the ready file once the gateway answers (or `error` when it could not start). */
export interface GatewayReady {
  ownerToken: string;
  viewerToken: string;
  tenantId: number;
  siteId: number;
  /** The one Chromium every browser file connects to (a launch per file costs seconds of CPU). */
  browserEndpoint: string;
  error?: string;
}

/** What seed-gateway.ts made: the ready file's fields but Chromium's. */
type Seeded = Omit<GatewayReady, "browserEndpoint" | "error">;

declare module "vitest" {
  export interface ProvidedContext {
    gateway: GatewayPlace;
  }
}

// Debian's Chromium (`.ci/run` installs it): its headless shell where installed, which draws the same
// pages for a third of the full browser's CPU (37 s against 90 s a run), else the browser itself.
// The flags keep it off this machine's closed network.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const SECRETS = { JWT_SECRET: "browser-tests-only-jwt-secret", KEY_ENCRYPTION_KEY: "YnJvd3Nlci10ZXN0cy1vbmx5LWtleS0zMi1ieXRlcyE=" };

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function ready(base: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer ${base}/health within ${timeoutMs / 1000} s`);
}

/** The state folder migrated and seeded by seed-gateway.ts, in a process of its own. */
function seedGateway(state: string): Promise<Seeded> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/browser/seed-gateway.ts", state, JSON.stringify(SECRETS)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      // The last line is the seed's answer; wrangler may print its own lines before it.
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last) as Seeded);
      else reject(new Error(`seeding the gateway failed (exit ${code}): ${err.trim().split("\n").slice(-10).join("\n")}`));
    });
  });
}

/**
 * The Worker built before `wrangler dev` starts, so that its own build (wrangler.toml [build]) finds
 * it up to date and writes nothing while it runs: a rewrite of the console's assets under a running
 * `wrangler dev` reloads its Worker (a write at that moment gets its 503), and under the pool's
 * workerds, which read the same assets, fails one that is starting.
 */
function buildWorker(): Promise<void> {
  return new Promise((resolve, reject) => {
    // The console and the template engine are the config's (vitest.config.ts builds them at its start).
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/build/build-worker.ts"], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, CONSOLE_AND_ENGINE_BUILT: "1" },
    });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`building the Worker failed (exit ${code}): ${err.trim().split("\n").slice(-10).join("\n")}`)),
    );
  });
}

/** Migrates and seeds the state folder, then starts `wrangler dev` on it (its logins going to `identityProvider`) and waits for it to answer. */
async function startGateway(
  state: string,
  port: number,
  identityProvider: string,
): Promise<{ server: LocalServer; inspector: Inspector; seeded: Seeded }> {
  // First: the seed's bindings load the built Worker (wrangler.toml's main), which a build replaces.
  await buildWorker();
  const seeded = await seedGateway(state);
  const login = {
    CASDOOR_ENDPOINT: identityProvider,
    OAUTH_REDIRECT_URL: `http://localhost:${port}/auth/callback`,
    FRONTEND_CALLBACK_URL: `http://localhost:${port}/admin/`,
  };
  const vars = Object.entries({
    ...SECRETS,
    ...login,
    ENVIRONMENT: "development",
    AD_FLUSH_SECONDS: "0",
    // Every browser file acts as the one seeded owner, some at once: a person's 600 a minute is
    // a limit the files reach together on a slow run (the limit itself is tested in the pool).
    CONSOLE_REQUESTS_PER_MINUTE: "100000",
    PUBLIC_ORIGIN: `http://localhost:${port}`,
  }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const inspectorPort = await freePort();
  const server = startLocalServer(String(port), {}, ["--persist-to", state, "--inspector-port", String(inspectorPort), ...vars], errorLogOf(state));
  let inspector: Inspector;
  try {
    await ready(`http://localhost:${port}`, 90_000);
    // Without it wrangler copies every request's network events and console lines out of the isolate.
    inspector = await quietInspector(inspectorPort);
  } catch (error) {
    server.stop();
    throw error;
  }
  return { server, inspector, seeded };
}

const errorLogOf = (state: string) => join(state, "wrangler-errors.log");

/**
 * wrangler's error lines less workerd's "disconnected" ones (a Broken pipe or a reset, each with its
 * stack line): Chromium closing a tab while an answer was being written, after nearly every run.
 */
function withoutHangUps(log: string): string {
  return (
    log
      // Each entry starts with wrangler's ✘ (after a few colour codes) and runs to the next.
      .split(/\n(?=[^\n]{0,20}✘)/)
      .filter((entry) => !/kj::getCaughtExceptionAsKj\(\) = kj\/async-io-unix\.c\+\+:\d+: disconnected:/.test(entry))
      .join("\n")
      .trim()
  );
}

/**
 * What went wrong with the gateway during the run, for the log of a run whose browser files
 * failed to connect: wrangler ending by itself, and the last of its error lines.
 */
function gatewayTrouble(state: string, server: LocalServer): string | undefined {
  const log = existsSync(errorLogOf(state)) ? withoutHangUps(readFileSync(errorLogOf(state), "utf8")) : "";
  const ended = server.ended();
  if (!ended && !log) return undefined;
  return [ended ?? "wrangler dev was still running at the end", ...(log ? ["its last error lines:", ...log.split("\n").slice(-40)] : [])].join("\n");
}

/** Writes the ready file whole (a rename), so that a test polling for it never reads half of it. */
function announce(readyFile: string, ready: GatewayReady | { error: string }) {
  writeFileSync(`${readyFile}.part`, JSON.stringify(ready));
  renameSync(`${readyFile}.part`, readyFile);
}

/**
 * Starts the gateway without waiting for it: the workerd files run while wrangler builds and
 * seeds, and the browser tests wait for the ready file (test/browser/gateway.ts).
 */
export default async function setup(project: TestProject) {
  const state = mkdtempSync(join(tmpdir(), "gateway-browser-"));
  const port = await freePort();
  const readyFile = join(state, "ready.json");
  // Chromium and the gateway start while the workerd files run: neither is waited for here.
  const browserServer = chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  // "Sign in with your account" works as in production, against a stand-in for the identity provider.
  const identityProvider = await startFakeIdentityProvider(await freePort());
  project.provide("gateway", { base: `http://localhost:${port}`, siteBase: `http://demo.localhost:${port}`, readyFile });
  const gateway = startGateway(state, port, identityProvider.endpoint);
  const started = Promise.all([gateway, browserServer]).then(
    ([{ seeded }, browser]) => announce(readyFile, { ...seeded, browserEndpoint: browser.wsEndpoint() }),
    (error: unknown) => announce(readyFile, { error: error instanceof Error ? error.message : String(error) }),
  );
  return async () => {
    await started;
    await browserServer.then(
      (browser) => browser.close(),
      () => undefined,
    );
    await identityProvider.close();
    const running = await gateway.catch(() => undefined);
    running?.inspector.close();
    const trouble = running && gatewayTrouble(state, running.server);
    if (trouble) process.stderr.write(`\nThe browser tests' gateway (wrangler dev): ${trouble}\n`);
    running?.server.stop();
    rmSync(state, { recursive: true, force: true });
  };
}
