import type { JobDefinition } from "../platform/jobs/runner";
import { REFERENCE_JOBS } from "../reference/jobs";
import { TAX_JOBS } from "../tax/jobs";

/** Every refresh job; the cron expressions here are the triggers of wrangler.toml. */
export const JOBS: JobDefinition[] = [...TAX_JOBS, ...REFERENCE_JOBS];

export const jobNamed = (name: string) => JOBS.find((job) => job.name === name);

export const jobsForCron = (cron: string) => JOBS.filter((job) => job.cron === cron);
