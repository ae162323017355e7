import { applyD1Migrations, env } from "cloudflare:test";
import { forgetPendingKeyUsage } from "../src/platform/auth/key-usage";

// Production refuses code generation from strings; the pool allows it unless told otherwise.
globalThis.Function = new Proxy(globalThis.Function, {
  construct() {
    throw new EvalError("Code generation from strings disallowed for this context");
  },
  apply() {
    throw new EvalError("Code generation from strings disallowed for this context");
  },
});

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await env.DB.batch(env.TEST_SEED.map((sql) => env.DB.prepare(sql)));
// The storage may have been rolled back since the last file (ids are reused): no counts of its keys carry over.
forgetPendingKeyUsage();
