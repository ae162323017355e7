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

export default {
  fetch: app.fetch,

  /** Each cron trigger runs its jobs and tasks side by side; one failing does not hold up the others. */
  async scheduled(controller, env, ctx) {
    const log = logger({ cron: controller.cron });
    if (!checkSettings(env, settingsSchemas).ok) return;
    const jobs = JOBS.filter((job) => job.cron === controller.cron);
    const due = tasks.filter((task) => task.cron === controller.cron);
    if (jobs.length + due.length === 0) log.warn({ error: "nothing is scheduled on this cron expression" });
    const runs = [
      // A job records its own failures; one that could not even record them (D1 down) is logged here.
      ...jobs.map((job) =>
        runJob(database(env), env, job, "cron").catch((error: unknown) => log.error({ job: job.name, ...describeFailure(error) })),
      ),
      ...due.map((task) =>
        task
          .run(env, logger({ cron: controller.cron, task: task.name }))
          .catch((error: unknown) => log.error({ task: task.name, ...describeFailure(error) })),
      ),
    ];
    ctx.waitUntil(Promise.allSettled(runs));
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
