import { database } from "../../src/platform/database";
import { runJob } from "../../src/platform/jobs/runner";
import { JOBS } from "../../src/groups";
import { feedFromFile } from "./lib/feeds";
import { ensureDevVars, fail, step, withLocalBindings } from "../lib/local";
import { commandLine } from "./lib/args";

const USAGE = `usage: npm run jobs:run -- <job> [--source URL|FILE]; jobs: ${JOBS.map((j) => j.name).join(", ")}`;
const { values, positionals } = commandLine(USAGE, { allowPositionals: true, options: { source: { type: "string" } } });
const job = JOBS.find((j) => j.name === positionals[0]);
if (!job) fail(USAGE);

ensureDevVars();
const source = values.source;
const isUrl = source && /^https?:\/\//.test(source);
step(`${job.name}: ${job.description}`);
step(`${job.name}: reading ${source ?? "the configured source"}`);
const run = await withLocalBindings((env) => {
  const overridden = isUrl ? { ...env, [job.sources[0]!.setting.name]: source } : env;
  return runJob(database(env), overridden, job, "cli", source && !isUrl ? feedFromFile(job, source) : undefined);
});
const counts = run.counts ?? { inserted: 0, updated: 0, closed: 0, unchanged: 0 };
step(
  `${job.name}: ${run.status}; ${counts.inserted} inserted, ${counts.updated} updated, ${counts.closed} closed or removed, ${counts.unchanged} unchanged` +
    (run.error ? `; ${run.error}` : ""),
);
if (run.status !== "succeeded") process.exitCode = 1;
