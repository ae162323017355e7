import { readD1Migrations } from "@cloudflare/vitest-plugin";
import { createDemoTenant } from "../../seed/content-demo";
import { prepareSandbox } from "../../seed/miniprogram-demo";
import { tenantMembers } from "../../src/content/schema";
import { issueAccessToken } from "../../src/platform/auth/jwt";
import { database } from "../../src/platform/database";
import { findOrCreateLocalUser } from "../../scripts/lib/keys";
import { withLocalBindings } from "../../scripts/lib/local";
import { installTheme } from "../../scripts/lib/themes";

/**
 * Migrates and seeds the browser tests' gateway state folder (argv[2]) with the gateway's secrets
 * (argv[3], JSON), and prints what it made as JSON. A process of its own (global-setup.ts): the
 * local bindings answer each D1 call synchronously, which in Vitest's process held up the workerd
 * files' start by some 2 s.
 */
const [state, secretsJson] = process.argv.slice(2);
if (!state || !secretsJson) throw new Error("usage: seed-gateway.ts <state folder> <secrets as JSON>");
const secrets = JSON.parse(secretsJson) as { JWT_SECRET: string; KEY_ENCRYPTION_KEY: string };
const jwt = { JWT_SECRET: secrets.JWT_SECRET, JWT_ISSUER: "edge-gateway", JWT_AUDIENCE: "edge-gateway-api" };

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
    await installTheme(env, demo.siteId, "themes/default");
    // Group D's ticket and templates, as its scheduled tasks would have them (console-miniprograms.test.ts commits a template).
    const delivering: Promise<unknown>[] = [];
    // The component's token is kept sealed under KEY_ENCRYPTION_KEY: the gateway's, not .dev.vars'; and
    // the sandbox answers outside production, as the gateway runs (a clean clone has no .dev.vars).
    await prepareSandbox({ ...env, ...secrets, ENVIRONMENT: "development" }, (work) => void delivering.push(work));
    await Promise.allSettled(delivering);
    return {
      tenantId: demo.tenantId,
      siteId: demo.siteId,
      ownerToken: await issueAccessToken(jwt, owner.casdoorId),
      viewerToken: await issueAccessToken(jwt, viewer.casdoorId),
    };
  },
  { persistTo: state },
);
process.stdout.write(JSON.stringify(seeded));
