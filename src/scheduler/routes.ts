import { z } from "@hono/zod-openapi";
import { notFound } from "../platform/errors";
import { nextCronRun } from "../platform/jobs/cron";
import { lastRuns, runJob, sourceUrls } from "../platform/jobs/runner";
import { createRouter, DATA_SECURITY } from "../platform/openapi";
import { DATA_ENVELOPE, defineRoutes } from "../platform/route";
import type { JobDefinition } from "../platform/jobs/runner";

export const SCHEDULER_BASE_PATH = "/std/scheduler";

const runSchema = z
  .object({
    id: z.number().int(),
    job: z.string(),
    trigger: z.enum(["cron", "manual", "cli"]),
    source: z.string(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    status: z.enum(["running", "succeeded", "failed", "refused"]),
    counts: z.object({ inserted: z.number(), updated: z.number(), closed: z.number(), unchanged: z.number() }).nullable(),
    error: z.string().nullable(),
  })
  .openapi("JobRun", {
    example: {
      id: 311,
      job: "eu-vat",
      trigger: "cron",
      source: "https://ec.europa.eu/taxation_customs/tedb/",
      startedAt: "2026-11-26T03:00:00.000Z",
      finishedAt: "2026-11-26T03:00:04.000Z",
      status: "succeeded",
      counts: { inserted: 0, updated: 2, closed: 2, unchanged: 120 },
      error: null,
    },
  });

const statusSchema = z
  .object({
    job: z.string(),
    description: z.string().openapi({ example: "EU VAT rates, daily, from the ibericode/vat-rates JSON" }),
    schedule: z.string().openapi({ description: "Cron expression (UTC)", example: "0 3 * * *" }),
    nextRun: z.string().openapi({ example: "2026-11-27T03:00:00.000Z" }),
    sources: z.record(z.string(), z.string().nullable()).openapi({ example: { tedb: "https://ec.europa.eu/taxation_customs/tedb/" } }),
    lastRun: runSchema.nullable(),
    lastSuccess: runSchema.nullable(),
  })
  .openapi("JobStatus");

/** The jobs are the groups' jobs, handed over by `src/groups.ts`. */
export function schedulerRoutes(jobs: JobDefinition[]) {
  const router = createRouter();
  const route = defineRoutes(router, DATA_ENVELOPE, { tags: ["Scheduler"], security: DATA_SECURITY, errors: [401, 403] });
  route({
    method: "get",
    path: "/status",
    summary: "Each refresh job's last run, last success, next run and counts (admin key)",
    data: z.array(statusSchema),
    answer: "One entry per job",
    handle: async (c) => {
      const now = new Date();
      return Promise.all(
        jobs.map(async (job) => {
          const { last, success } = await lastRuns(c.get("db"), job.name);
          return {
            job: job.name,
            description: job.description,
            schedule: job.cron,
            nextRun: nextCronRun(job.cron, now).toISOString(),
            sources: Object.fromEntries(Object.entries(sourceUrls(job, c.env)).map(([name, url]) => [name, url ?? null])),
            lastRun: last ?? null,
            lastSuccess: success ?? null,
          };
        }),
      );
    },
  });
  route({
    method: "post",
    path: "/run/{job}",
    summary: "Run a refresh job now and answer its run record (admin key)",
    request: { params: z.object({ job: z.string().openapi({ param: { name: "job", in: "path" }, example: "eu-vat" }) }) },
    data: runSchema,
    answer: "The finished run: succeeded, failed or refused",
    errors: [404],
    handle: async (c) => {
      const { job: name } = c.req.valid("param");
      const job = jobs.find((j) => j.name === name);
      if (!job) throw notFound(`No job ${name}; the jobs are ${jobs.map((j) => j.name).join(", ")}`);
      return runJob(c.get("db"), c.env, job, "manual");
    },
  });
  return router;
}
