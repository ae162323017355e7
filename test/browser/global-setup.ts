import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { createDemoTenant } from "../../seed/content-demo";
import { tenantMembers } from "../../src/content/schema";
import { issueAccessToken } from "../../src/platform/auth/jwt";
import { database } from "../../src/platform/database";
import { findOrCreateLocalUser } from "../../scripts/lib/keys";
import { startLocalServer, withLocalBindings, wrangler } from "../../scripts/lib/local";
import { installTheme } from "../../scripts/lib/themes";

/**
 * The browser tests' gateway: `wrangler dev` as a developer runs it (the built Worker, its static
 * assets, local D1/KV/R2), on a free port, with its own state folder and secrets, so a developer's
 * local data is never touched. Seeds the demo tenant, its owner and a viewer.
 */

declare module "vitest" {
  export interface ProvidedContext {
    gateway: { base: string; siteBase: string; ownerToken: string; viewerToken: string; tenantId: number; siteId: number };
  }
}

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

export default async function setup(project: TestProject) {
  const state = mkdtempSync(join(tmpdir(), "gateway-browser-"));
  wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
  const seeded = await withLocalBindings(
    async (env) => {
      const db = database(env);
      const owner = await findOrCreateLocalUser(db, "owner@browser.test");
      const viewer = await findOrCreateLocalUser(db, "viewer@browser.test");
      const demo = await createDemoTenant(db, owner.id, { name: "Demo City Magazine", slug: "demo", demo: true });
      await db.insert(tenantMembers).values({ tenantId: demo.tenantId, userId: viewer.id, role: "viewer" });
      await installTheme(env.THEMES, demo.siteId, "themes/default");
      return { demo, ownerToken: await issueAccessToken(JWT, owner.casdoorId), viewerToken: await issueAccessToken(JWT, viewer.casdoorId) };
    },
    { persistTo: state },
  );
  const port = String(await freePort());
  const vars = Object.entries({ ...SECRETS, ENVIRONMENT: "development", AD_FLUSH_SECONDS: "0", PUBLIC_ORIGIN: `http://localhost:${port}` }).flatMap(
    ([k, v]) => ["--var", `${k}:${v}`],
  );
  const server = startLocalServer(port, {}, ["--persist-to", state, ...vars]);
  const base = `http://localhost:${port}`;
  try {
    await ready(base, 60_000);
  } catch (error) {
    server.stop();
    throw error;
  }
  project.provide("gateway", {
    base,
    siteBase: `http://demo.localhost:${port}`,
    ownerToken: seeded.ownerToken,
    viewerToken: seeded.viewerToken,
    tenantId: seeded.demo.tenantId,
    siteId: seeded.demo.siteId,
  });
  return () => {
    server.stop();
    rmSync(state, { recursive: true, force: true });
  };
}
