import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withLocalBindings, startLocalServer } from "./scripts/lib/local";
import { database } from "./src/platform/database";
import { createDemoTenant } from "./seed/content-demo";
import { findOrCreateLocalUser } from "./scripts/lib/keys";
import { installTheme } from "./scripts/lib/themes";
const state = mkdtempSync(join(tmpdir(), "gw-"));
let t = Date.now();
execFileSync("node_modules/.bin/wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { stdio: "ignore" });
console.log("migrate", Date.now() - t); t = Date.now();
await withLocalBindings(async (env) => {
  console.log("proxy up", Date.now() - t); t = Date.now();
  const db = database(env);
  const owner = await findOrCreateLocalUser(db, "owner@browser.test");
  await createDemoTenant(db, owner.id, { name: "Demo", slug: "demo", demo: true });
  await installTheme(env.THEMES, 1, "themes/default");
  console.log("seed", Date.now() - t); t = Date.now();
}, { persistTo: state });
console.log("proxy down", Date.now() - t); t = Date.now();
const s = startLocalServer("8871", {}, ["--persist-to", state]);
for (;;) { try { if ((await fetch("http://localhost:8871/health")).ok) break; } catch {} await new Promise(r => setTimeout(r, 100)); }
console.log("dev ready", Date.now() - t); t = Date.now();
await fetch("http://localhost:8871/health"); console.log("health2", Date.now() - t);
s.stop(); process.exit(0);
