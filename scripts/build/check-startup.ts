/**
 * Builds the Worker as `wrangler deploy` does and fails when the code a new isolate compiles before
 * its first request (the entry and its static imports) outgrows its budget. The byte count is what
 * CI checks, because it does not vary with the machine; the times are printed for the reader.
 */
import { fail, step } from "../lib/local";
import { measureStartup } from "./lib/startup";

/** The entry is a loader and nothing else (src/index.ts); the service loads with the first event. */
const STARTUP_BUDGET_BYTES = 16 * 1024;
/** Development-only code that must load only on its first use, never with a production isolate's first request. */
const NOT_AT_FIRST_REQUEST = ["src/miniprograms/sandbox.ts", "src/miniprograms/sandbox-tables.ts"];

step("startup: building the Worker and evaluating its entry in 3 fresh Node processes");
const startup = measureStartup(3);
const summary =
  `${startup.startupBytes} bytes compiled at startup (budget ${STARTUP_BUDGET_BYTES}); global scope ${startup.globalScopeMs} ms, ` +
  `first request ${startup.firstEventMs} ms; ${startup.modules} modules, ${(startup.gzipBytes / 1024).toFixed(0)} KiB gzip`;
if (startup.startupBytes > STARTUP_BUDGET_BYTES)
  fail(`startup: over budget: ${summary}. Something the entry imports statically pulls in the service.`);
step(`startup: ${summary}`);
step(
  `startup: the first request compiles ${startup.firstRequestBytes} bytes more, from ${startup.firstRequestSources.length} source files; ` +
    `${startup.laterSources.length} load on their first use`,
);
for (const source of NOT_AT_FIRST_REQUEST) {
  if (startup.firstRequestSources.includes(source))
    fail(`startup: ${source} is in the first request's code: something imports it statically instead of with import()`);
  // Absent from both lists, the source maps no longer name it: the check above would pass for nothing.
  if (!startup.laterSources.includes(source)) fail(`startup: ${source} is not in the built Worker's source maps: update NOT_AT_FIRST_REQUEST`);
  step(`startup: ${source} is not in the first request's code (it loads on first use)`);
}
