import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Feed, JobDefinition } from "../../../src/platform/jobs/runner";
import { fail, step } from "../../lib/local";

/** A file given as a job's source, read here; its companions (HS sections.csv) are looked for beside it. */
export function feedFromFile(job: JobDefinition, path: string): Feed {
  const file = resolve(path);
  if (!existsSync(file)) fail(`no such file: ${file}`);
  const [main, ...others] = job.sources;
  const bodies: Record<string, string> = { [main!.name]: readFileSync(file, "utf8") };
  for (const other of others) {
    const beside = join(dirname(file), `${other.name}.csv`);
    if (existsSync(beside)) {
      bodies[other.name] = readFileSync(beside, "utf8");
      step(`${job.name}: ${other.name} from ${beside}`);
    }
  }
  return { source: `file://${file}`, bodies };
}
