import { createRoute, z } from "@hono/zod-openapi";
import { dataEnvelope } from "../platform/envelope";
import { notFound } from "../platform/errors";
import { nextCronRun } from "../platform/jobs/cron";
import { lastRuns, runJob, sourceUrls } from "../platform/jobs/runner";
import { createRouter, DATA_SECURITY, dataErrorResponses, dataResponse } from "../platform/openapi";
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
  .openapi("JobRun");

const statusSchema = z
  .object({
    job: z.string(),
    description: z.string(),
    schedule: z.string().openapi({ description: "Cron expression (UTC)" }),
    nextRun: z.string(),
    sources: z.record(z.string(), z.string().nullable()),
    lastRun: runSchema.nullable(),
    lastSuccess: runSchema.nullable(),
  })
  .openapi("JobStatus");

const common = { tags: ["Scheduler"], security: DATA_SECURITY };

const routes = {
  status: createRoute({
    ...common,
    method: "get",
    path: "/status",
    summary: "Each refresh job's last run, last success, next run and counts (admin key)",
    responses: { ...dataResponse(z.array(statusSchema), "One entry per job"), ...dataErrorResponses(401, 403) },
  }),
  run: createRoute({
    ...common,
    method: "post",
    path: "/run/{job}",
    summary: "Run a refresh job now and answer its run record (admin key)",
    request: { params: z.object({ job: z.string().openapi({ param: { name: "job", in: "path" }, example: "eu-vat" }) }) },
    responses: { ...dataResponse(runSchema, "The finished run: succeeded, failed or refused"), ...dataErrorResponses(401, 403, 404) },
  }),
};

/** The jobs are the groups' jobs, handed over by `src/groups.ts`. */
export function schedulerRoutes(jobs: JobDefinition[]) {
  const router = createRouter();
  router.openapi(routes.status, async (c) => {
    const db = c.var.db;
    const now = new Date();
    const statuses = await Promise.all(
      jobs.map(async (job) => {
        const { last, success } = await lastRuns(db, job.name);
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
    return c.json(dataEnvelope(statuses), 200);
  });
  router.openapi(routes.run, async (c) => {
    const job = jobs.find((j) => j.name === c.req.valid("param").job);
    if (!job) throw notFound(`No job ${c.req.valid("param").job}; the jobs are ${jobs.map((j) => j.name).join(", ")}`);
    return c.json(dataEnvelope(await runJob(c.var.db, c.env, job, "manual")), 200);
  });
  return router;
}
