import { applyD1Migrations, env } from "cloudflare:test";
import { inject } from "vitest";
import { forgetPendingKeyUsage } from "../src/platform/auth/key-usage";
import { emptyStorage, freshNumbers } from "./helpers/fresh-storage";

// Production refuses code generation from strings; the pool allows it unless told otherwise. Once
// per isolate: the files of a project with `isolate: false` share it.
if (!globalThis.testRefusesCodeFromStrings) {
  globalThis.Function = new Proxy(globalThis.Function, {
    construct() {
      throw new EvalError("Code generation from strings disallowed for this context");
    },
    apply() {
      throw new EvalError("Code generation from strings disallowed for this context");
    },
  });
  globalThis.testRefusesCodeFromStrings = true;
}

// The `jobs` project shares a workerd between files that rewrite the seeded data or leave queued
// work behind: each starts from empty storage, its ids past those of the files before it.
const storagePerFile = inject("storagePerFile");
if (storagePerFile) await emptyStorage(env);
// The seed is some 850 KB of SQL: run once per storage (its data version row says it ran); a later
// file bumps the version alone, as the seed does, so that no file finds another's cached answers.
const seeded = await env.DB.prepare("SELECT 1 FROM data_versions WHERE name = 'reference'")
  .first()
  .catch(() => null);
if (seeded) await env.DB.prepare("UPDATE data_versions SET version = version + 1 WHERE name = 'reference'").run();
else {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await env.DB.batch(env.TEST_SEED.map((sql) => env.DB.prepare(sql)));
}
if (storagePerFile) await freshNumbers(env);
// The storage may have been rolled back since the last file (ids are reused): no counts of its keys carry over.
forgetPendingKeyUsage();
