import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { sites, tenants } from "../../src/content/schema";
import { findTenantKey, issueTenantKey } from "../../src/content/tenancy/tenant-keys";
import { findKeyByToken } from "../../src/platform/auth/api-keys";
import { apiKeys } from "../../src/platform/auth/tables";
import { issueAccessToken } from "../../src/platform/auth/jwt";
import { DEFAULT_PER_MINUTE } from "../../src/platform/rate-limit";
import { createDemoTenant, type DemoTenant } from "../../seed/content-demo";
import { createDemoMiniprogram } from "../../seed/miniprogram-demo";
import { database } from "../../src/platform/database";
import { nextCronRun } from "../../src/platform/jobs/cron";
import { createLocalKey, findOrCreateLocalUser } from "../lib/keys";
import { installStarterTheme, installTheme } from "../lib/themes";
import { ensureDevVars, step, WRANGLER, withLocalBindings, wrangler } from "../lib/local";
import { runSeed } from "./seed";

const DEV_KEY_FILE = ".wrangler/dev-key.json";
const DEMO_TENANT_FILE = ".wrangler/demo-tenant.json";
const args = process.argv.slice(2);

/** `npm run dev -- --port 9000` (or `--port=9000`) wins over PORT; wrangler takes the flag once. */
function portFromArgs(): string | undefined {
  const at = args.findIndex((arg) => arg === "--port" || arg.startsWith("--port="));
  if (at === -1) return undefined;
  return args[at]!.includes("=") ? args[at]!.split("=")[1] : args[at + 1];
}
const givenPort = portFromArgs();
const port = givenPort ?? process.env.PORT ?? "8787";

interface DevKey {
  token: string;
  secret: string;
}

/** Enough for a person trying things by hand, and for their scripts; a plan's limits are tried with `keys:create --plan`. */
const DEV_KEY_PLAN = "basic";

/** Reuses the key of the last run while the local D1 still accepts it, so pasted curl lines keep working. */
async function developmentKey(): Promise<DevKey> {
  return withLocalBindings(async (env) => {
    const db = database(env);
    if (existsSync(DEV_KEY_FILE)) {
      const saved = JSON.parse(readFileSync(DEV_KEY_FILE, "utf8")) as DevKey;
      const found = await findKeyByToken(db, saved.token);
      if (found?.key.isActive && found.user.isActive) {
        // A key of an earlier version of this script may be on another plan: the output says this one's.
        if (found.key.plan !== DEV_KEY_PLAN) await db.update(apiKeys).set({ plan: DEV_KEY_PLAN }).where(eq(apiKeys.id, found.key.id));
        return saved;
      }
    }
    const issued = await createLocalKey(db, env.KEY_ENCRYPTION_KEY, { email: "dev@localhost", name: "development", plan: DEV_KEY_PLAN });
    const key = { token: issued.token, secret: issued.secret };
    writeFileSync(DEV_KEY_FILE, JSON.stringify(key), { mode: 0o600 });
    return key;
  });
}

/** The demo tenant of group C: made once with its content; its key reused while it still works. */
async function demoTenant(): Promise<DemoTenant> {
  return withLocalBindings(async (env) => {
    const db = database(env);
    const owner = await findOrCreateLocalUser(db, "dev@localhost");
    const [existing] = await db.select().from(tenants).where(eq(tenants.slug, "demo")).limit(1);
    if (!existing) {
      step("creating the demo tenant: site demo, 12 stories in English and German, an About page, two menus");
      const created = await createDemoTenant(db, owner.id, { name: "Demo City Magazine", slug: "demo", demo: true });
      writeFileSync(DEMO_TENANT_FILE, JSON.stringify(created), { mode: 0o600 });
      return created;
    }
    if (existsSync(DEMO_TENANT_FILE)) {
      const saved = JSON.parse(readFileSync(DEMO_TENANT_FILE, "utf8")) as DemoTenant;
      const found = await findTenantKey(db, saved.token);
      if (saved.tenantId === existing.id && found?.key.isActive) return saved;
    }
    const [site] = await db.select().from(sites).where(eq(sites.tenantId, existing.id)).limit(1);
    const { token } = await issueTenantKey(db, existing.id, owner.id, { name: "demo", siteIds: null, scopes: [] });
    const demo = { tenantId: existing.id, siteId: site!.id, siteSlug: site!.slug, token };
    writeFileSync(DEMO_TENANT_FILE, JSON.stringify(demo), { mode: 0o600 });
    return demo;
  });
}

const devVars = ensureDevVars();
if (devVars === "created") step("created .dev.vars with fresh local secrets");
if (devVars === "development-added") step("added ENVIRONMENT=development to .dev.vars");
step("applying migrations to the local D1");
wrangler(["d1", "migrations", "apply", "DB", "--local"]);
await runSeed("local");
const key = await developmentKey();
const demo = await demoTenant();
const themeFiles = await withLocalBindings((env) => installTheme(env, demo.siteId, "themes/default"));
step(`installed the default theme (${themeFiles} files) for the demo site`);
await withLocalBindings((env) => installStarterTheme(env));
step("installed it as the starter theme too: a site made in the console starts with a copy of it");
const miniprogram = await withLocalBindings(async (env) =>
  createDemoMiniprogram(env, (await findOrCreateLocalUser(database(env), "dev@localhost")).id),
);
step(`the demo mini-program ${miniprogram.id} is authorized in the WeChat sandbox (app id ${miniprogram.appId})`);
// The console signs in with a JWT of group A; locally there is no identity provider to ask.
const consoleToken = await withLocalBindings(async (env) =>
  issueAccessToken(env, (await findOrCreateLocalUser(database(env), "dev@localhost")).casdoorId),
);

const base = `http://localhost:${port}`;
const summary = `
  Ready in {seconds} s. Open these:

  The admin console, signed in as dev@localhost (the demo tenant's owner) for 24 hours:
    ${base}/admin/#token=${consoleToken}

  The demo site: http://${demo.siteSlug}.localhost:${port}/

  The content API with the demo tenant's key (group C, also in ${DEMO_TENANT_FILE}):
    curl -s "${base}/api/mcp/contents?siteId=${demo.siteId}" -H "X-API-Key: ${demo.token}"

  An MCP client (Claude, Cursor, VS Code…) on the demo tenant (docs/mcp.md):
    { "mcpServers": { "demo": { "type": "http", "url": "${base}/api/mcp", "headers": { "X-API-Key": "${demo.token}" } } } }

  A tax rate with the development key (groups T, I, O and D; also in ${DEV_KEY_FILE}; plan ${DEV_KEY_PLAN}: ${DEFAULT_PER_MINUTE[DEV_KEY_PLAN]} requests a minute):
    curl -s ${base}/std/api/bigdata/taxrate/country/DE/standard \\
      -H "X-API-Key: ${key.token}" \\
      -H "X-API-Secret: ${key.secret}"

  Group D, the demo mini-program in the WeChat sandbox (docs/miniprograms.md: from configuration to release):
    curl -s -X POST ${base}/deposits/minipram/list -H "Authorization: Bearer ${key.token}"

  API reference: ${base}/docs    OpenAPI: ${base}/openapi.json
  Cron triggers fire on their schedule (one line each); at once: curl -X POST "${base}/__scheduled?cron=*/5+*+*+*+*"
    (wrangler's own /cdn-cgi/handler/scheduled, which its warning names, does not reach a Worker with static assets)
  Wrangler's full output: npm run dev -- --verbose    Stop: Ctrl+C
`;

const verbose = args.includes("--verbose");
const wranglerArgs = args.filter((arg) => arg !== "--verbose");
/** What wrangler prints at every start that nobody reads twice: its banner, the bindings table, the build's module table. */
const NOISE = [
  /^\s*⛅️ wrangler/,
  /^─+$/,
  /^\[custom build\] (Running:|$)/,
  /^Using (secrets|vars) defined/,
  /^Your Worker has access/,
  /^Binding\s+Resource/,
  /^env\.\S+/,
  /^Service bindings, Durable Object/,
  /^\s*$/,
  /^⎔ Starting local server/,
  // The rebuild wrangler starts when its watcher is ready, which the build skips (nothing changed), and its table of modules.
  /^The file src,console\/src changed/,
  /^Attaching additional modules/,
  /^[┌├│└]/,
  /^\[wrangler:info\] Ready on/,
];

step("starting wrangler dev (the Worker is built once; it rebuilds when src/ or console/src changes)");
// The service's links name the port it really listens on (wrangler.toml says 8787).
const server = spawn(WRANGLER, ["dev", ...(givenPort ? [] : ["--port", port]), "--var", `PUBLIC_ORIGIN:${base}`, ...wranglerArgs], {
  stdio: ["inherit", "pipe", "pipe"],
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0" },
});
let ready = false;
for (const stream of [server.stdout, server.stderr]) {
  createInterface({ input: stream }).on("line", (line) => {
    if (!ready && /Ready on http/.test(line)) {
      ready = true;
      // The line CI and scripts wait for, then the summary last, where a person looks.
      process.stdout.write(`${line.replace(/^\[wrangler:info\] /, "")}\n${summary.replace("{seconds}", process.uptime().toFixed(0))}\n`);
      fireCronsOnSchedule();
      return;
    }
    if (verbose || !NOISE.some((pattern) => pattern.test(line))) process.stdout.write(`${line}\n`);
  });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));

/**
 * wrangler dev's trigger does not reach a Worker with static assets (wrangler 4.86), so this fires
 * each cron of wrangler.toml at its time through the Worker's development-only `/__scheduled`.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

function fireCronsOnSchedule() {
  // wrangler's readConfig is typed from a package it does not ship: the one line of wrangler.toml is read here.
  const crons = /^crons = \[(.*)\]$/m.exec(readFileSync("wrangler.toml", "utf8"))?.[1]?.match(/[^",\s][^"]*/g) ?? [];
  const fire = async (cron: string) => {
    try {
      const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent(cron)}`, { method: "POST" });
      const ran: { jobs?: string[]; tasks?: string[]; detail?: string } = await res.json();
      step(`cron ${cron}: ${res.ok ? [...(ran.jobs ?? []), ...(ran.tasks ?? [])].join(", ") : `${res.status} ${ran.detail}`}`);
    } catch (error) {
      step(`cron ${cron}: not fired (${String(error)})`);
    }
  };
  for (const cron of crons) {
    const fireNext = (): void => {
      const wait = nextCronRun(cron, new Date()).getTime() - Date.now();
      // A timer holds at most 2^31 - 1 ms (24.8 days; a quarterly cron waits longer): a longer wait is taken in parts.
      if (wait > LONGEST_TIMER_MS) setTimeout(fireNext, LONGEST_TIMER_MS).unref();
      else setTimeout(() => void fire(cron).then(fireNext), wait).unref();
    };
    try {
      fireNext();
    } catch (error) {
      step(`cron ${cron}: not fired on its schedule (${String(error)}); fire it with the curl line above`);
    }
  }
}
server.on("exit", (code) => process.exit(code ?? 0));
