import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readD1Migrations } from "@cloudflare/vitest-plugin";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { createDemoTenant } from "../../seed/content-demo";
import { prepareSandbox } from "../../seed/miniprogram-demo";
import { tenantMembers } from "../../src/content/schema";
import { issueAccessToken } from "../../src/platform/auth/jwt";
import { database } from "../../src/platform/database";
import { findOrCreateLocalUser } from "../../scripts/lib/keys";
import { type LocalServer, startLocalServer, withLocalBindings } from "../../scripts/lib/local";
import { installTheme } from "../../scripts/lib/themes";
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
  /** The one Chromium every browser file connects to (a launch per file costs seconds of CPU). */
  browserEndpoint: string;
}

/** What the seed made, written to the ready file once the gateway answers (or `error` when it could not start). */
export interface GatewayReady {
  ownerToken: string;
  viewerToken: string;
  tenantId: number;
  siteId: number;
  error?: string;
}

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
const JWT = { JWT_SECRET: SECRETS.JWT_SECRET, JWT_ISSUER: "edge-gateway", JWT_AUDIENCE: "edge-gateway-api" };

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

/** Migrates and seeds the state folder, then starts `wrangler dev` on it (its logins going to `identityProvider`) and waits for it to answer. */
async function startGateway(
  state: string,
  port: number,
  identityProvider: string,
): Promise<{ server: LocalServer; inspector: Inspector; ready: GatewayReady }> {
  const migrations = await readD1Migrations("migrations");
  const seeded = await withLocalBindings(
    async (env) => {
      // The migrations through the bindings already open, instead of a `wrangler d1 migrations apply` process (6 s).
      for (const migration of migrations) await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
      const db = database(env);
      const owner = await findOrCreateLocalUser(db, "owner@browser.test");
      const viewer = await findOrCreateLocalUser(db, "viewer@browser.test");
      const demo = await createDemoTenant(db, owner.id, { name: "Demo City Magazine", slug: "demo", demo: true });
      await db.insert(tenantMembers).values({ tenantId: demo.tenantId, userId: viewer.id, role: "viewer" });
      await installTheme(env.THEMES, demo.siteId, "themes/default");
      // Group D's ticket and templates, as its scheduled tasks would have them (console-miniprograms.test.ts commits a template).
      const delivering: Promise<unknown>[] = [];
      // The component's token is kept sealed under KEY_ENCRYPTION_KEY: the gateway's, not .dev.vars'; and
      // the sandbox answers outside production, as the gateway runs (a clean clone has no .dev.vars).
      await prepareSandbox({ ...env, ...SECRETS, ENVIRONMENT: "development" }, (work) => void delivering.push(work));
      await Promise.allSettled(delivering);
      return { demo, ownerToken: await issueAccessToken(JWT, owner.casdoorId), viewerToken: await issueAccessToken(JWT, viewer.casdoorId) };
    },
    { persistTo: state },
  );
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
  return {
    server,
    inspector,
    ready: { ownerToken: seeded.ownerToken, viewerToken: seeded.viewerToken, tenantId: seeded.demo.tenantId, siteId: seeded.demo.siteId },
  };
}

const errorLogOf = (state: string) => join(state, "wrangler-errors.log");

/**
 * What went wrong with the gateway during the run, for the log of a run whose browser files
 * failed to connect: wrangler ending by itself, and the last of its error lines.
 */
function gatewayTrouble(state: string, server: LocalServer): string | undefined {
  const log = existsSync(errorLogOf(state)) ? readFileSync(errorLogOf(state), "utf8").trim() : "";
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
  const chromiumServer = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  // "Sign in with your account" works as in production, against a stand-in for the identity provider.
  const identityProvider = await startFakeIdentityProvider(await freePort());
  project.provide("gateway", {
    base: `http://localhost:${port}`,
    siteBase: `http://demo.localhost:${port}`,
    readyFile,
    browserEndpoint: chromiumServer.wsEndpoint(),
  });
  const started = startGateway(state, port, identityProvider.endpoint).then(
    ({ server, inspector, ready }) => {
      announce(readyFile, ready);
      return { server, inspector };
    },
    (error: unknown) => {
      announce(readyFile, { error: error instanceof Error ? error.message : String(error) });
      return undefined;
    },
  );
  return async () => {
    await chromiumServer.close();
    await identityProvider.close();
    const gateway = await started;
    gateway?.inspector.close();
    const trouble = gateway && gatewayTrouble(state, gateway.server);
    if (trouble) process.stderr.write(`\nThe browser tests' gateway (wrangler dev): ${trouble}\n`);
    gateway?.server.stop();
    rmSync(state, { recursive: true, force: true });
  };
}
