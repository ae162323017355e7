import { applyD1Migrations, env } from "cloudflare:test";
import { expect, inject } from "vitest";
import { forgetPendingKeyUsage } from "../src/platform/auth/key-usage";
import { emptyStorage, newNumbers } from "./helpers/fresh-storage";

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

// The files that rewrite the seeded data or leave queued work behind start from empty storage, and
// so does the file after each; the rest share what the earlier files left.
const testPath = expect.getState().testPath ?? "";
const rewritesStorage = inject("storageRewritingFiles").some((file) => testPath.endsWith(file));
const emptied = rewritesStorage || globalThis.testStorageRewritten === true;
if (emptied) await emptyStorage(env);
globalThis.testStorageRewritten = rewritesStorage;
// The seed is some 850 KB of SQL: run once per storage (its data version row says it ran).
const seeded = await env.DB.prepare("SELECT 1 FROM data_versions WHERE name = 'reference'")
  .first()
  .catch(() => null);
if (!seeded) {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await env.DB.batch(env.TEST_SEED.map((sql) => env.DB.prepare(sql)));
}
// No file finds another's kept answers: its data versions are past any an earlier file saw, as
// the storage may have been emptied or rolled back since; and emptied storage starts its ids past
// any an earlier file used (what this isolate and the Cache API keep by id, and a message left
// queued, name none of its rows).
await newNumbers(env, { ids: emptied });
// The storage may have been rolled back since the last file (ids are reused): no counts of its keys carry over.
forgetPendingKeyUsage();
