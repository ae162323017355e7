import { applyD1Migrations, env } from "cloudflare:test";
import { inject } from "vitest";
import { forgetPendingKeyUsage } from "../src/platform/auth/key-usage";
import { emptyStorage, freshDataVersions } from "./helpers/fresh-storage";

// Production refuses code generation from strings; the pool allows it unless told otherwise.
globalThis.Function = new Proxy(globalThis.Function, {
  construct() {
    throw new EvalError("Code generation from strings disallowed for this context");
  },
  apply() {
    throw new EvalError("Code generation from strings disallowed for this context");
  },
});

// The `jobs` project shares a workerd between files that rewrite the seeded data: each starts empty.
const storagePerFile = inject("storagePerFile");
if (storagePerFile) await emptyStorage(env);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await env.DB.batch(env.TEST_SEED.map((sql) => env.DB.prepare(sql)));
if (storagePerFile) await freshDataVersions(env);
// The storage may have been rolled back since the last file (ids are reused): no counts of its keys carry over.
forgetPendingKeyUsage();
