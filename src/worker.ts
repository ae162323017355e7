import { createApp } from "./app";
import { FALLBACK_SURFACES, GROUPS, JOBS } from "./groups";
import { database } from "./platform/database";
import type { Bindings } from "./platform/env";
import { describeFailure } from "./platform/failures";
import { logger } from "./platform/logging";
import { runJob } from "./platform/jobs/runner";
import { checkSettings, settingsSchemasOf } from "./platform/settings";
import { webhookConsumer } from "./platform/webhooks";

/** The whole service: the app, its cron entry and its queue consumers, loaded by `index.ts`. */

const app = createApp(GROUPS, FALLBACK_SURFACES);
const settingsSchemas = settingsSchemasOf(GROUPS);
const consumers = [...GROUPS.flatMap((g) => g.consumers ?? []), webhookConsumer(GROUPS.flatMap((g) => g.webhookSenders ?? []))];
const tasks = GROUPS.flatMap((g) => g.tasks ?? []);

/** The jobs and tasks of one cron expression. */
const scheduledOn = (cron: string) => ({ jobs: JOBS.filter((job) => job.cron === cron), due: tasks.filter((task) => task.cron === cron) });

/** Runs the jobs and tasks of one cron expression side by side; one failing does not hold up the others. */
function runCron(cron: string, env: Bindings): Promise<unknown> {
  const log = logger({ cron });
  if (!checkSettings(env, settingsSchemas).ok) return Promise.resolve();
  const { jobs, due } = scheduledOn(cron);
  if (jobs.length + due.length === 0) log.warn({ error: "nothing is scheduled on this cron expression" });
  return Promise.allSettled([
    // A job records its own failures; one that could not even record them (D1 down) is logged here.
    ...jobs.map((job) => runJob(database(env), env, job, "cron").catch((error: unknown) => log.error({ job: job.name, ...describeFailure(error) }))),
    ...due.map((task) =>
      task.run(env, logger({ cron, task: task.name })).catch((error: unknown) => log.error({ task: task.name, ...describeFailure(error) })),
    ),
  ]);
}

/**
 * `POST /__scheduled?cron=…`, in development only: wrangler dev's own trigger
 * (`/cdn-cgi/handler/scheduled`) does not reach a Worker with static assets (wrangler 4.86 answers
 * 500), so `npm run dev` fires each cron here when it is due, as production's triggers would.
 */
async function fireCronInDevelopment(request: Request, env: Bindings): Promise<Response> {
  const cron = new URL(request.url).searchParams.get("cron") ?? "";
  const known = [...new Set([...JOBS.map((job) => job.cron), ...tasks.map((task) => task.cron)])];
  if (request.method !== "POST" || !known.includes(cron)) {
    return Response.json({ detail: `POST /__scheduled?cron=<one of: ${known.join(" | ")}>` }, { status: 400 });
  }
  await runCron(cron, env);
  const { jobs, due } = scheduledOn(cron);
  return Response.json({ cron, jobs: jobs.map((job) => job.name), tasks: due.map((task) => task.name) });
}

export default {
  // Typed as a plain Request: tests and other Workers call it with one.
  fetch(request: Request, env: Bindings, ctx: ExecutionContext) {
    if (env.ENVIRONMENT === "development" && new URL(request.url).pathname === "/__scheduled") return fireCronInDevelopment(request, env);
    return app.fetch(request, env, ctx);
  },

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runCron(controller.cron, env));
  },

  /** A misconfigured Worker leaves its messages to be retried once the settings are mended. */
  async queue(batch, env) {
    const log = logger({ queue: batch.queue, messages: batch.messages.length });
    if (!checkSettings(env, settingsSchemas).ok) return batch.retryAll();
    const consumer = consumers.find((c) => batch.queue === c.queue || batch.queue.startsWith(`${c.queue}-`));
    if (!consumer) return log.error({ error: "no consumer for this queue" });
    await consumer.consume(batch, env, log);
  },
} satisfies ExportedHandler<Bindings>;
