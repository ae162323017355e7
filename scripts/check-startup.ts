/**
 * Builds the Worker as `wrangler deploy` does and fails when the code a new isolate compiles before
 * its first request (the entry and its static imports) outgrows its budget. The byte count is what
 * CI checks, because it does not vary with the machine; the times are printed for the reader.
 */
import { fail, step } from "./lib/local";
import { measureStartup } from "./lib/startup";

/** The entry is a loader and nothing else (src/index.ts); the service loads with the first event. */
const STARTUP_BUDGET_BYTES = 16 * 1024;

step("startup: building the Worker and evaluating its entry in 3 fresh Node processes");
const startup = measureStartup(3);
const summary =
  `${startup.startupBytes} bytes compiled at startup (budget ${STARTUP_BUDGET_BYTES}); global scope ${startup.globalScopeMs} ms, ` +
  `first request ${startup.firstEventMs} ms; ${startup.modules} modules, ${(startup.gzipBytes / 1024).toFixed(0)} KiB gzip`;
if (startup.startupBytes > STARTUP_BUDGET_BYTES)
  fail(`startup: over budget: ${summary}. Something the entry imports statically pulls in the service.`);
step(`startup: ${summary}`);
