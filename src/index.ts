import { createApp } from "./app";
import { database } from "./platform/database";
import type { Bindings } from "./platform/env";
import { logEvent } from "./platform/logging";
import { runJob } from "./platform/jobs/runner";
import { consumePickups, consumeWebhooks } from "./pickup/consumer";
import type { CarrierMessage } from "./pickup/service";
import type { WebhookMessage } from "./pickup/webhooks";
import { jobsForCron } from "./scheduler/registry";

export { PurchaseFieldsService } from "./reference/purchase-fields";

const app = createApp();

export default {
  fetch: app.fetch,

  /** Each cron trigger runs its jobs side by side; one failing feed does not hold up the others. */
  async scheduled(controller, env, ctx) {
    const jobs = jobsForCron(controller.cron);
    if (jobs.length === 0) logEvent("warn", { cron: controller.cron, error: "no job is scheduled on this cron expression" });
    ctx.waitUntil(Promise.allSettled(jobs.map((job) => runJob(database(env), env, job, "cron"))));
  },

  async queue(batch, env) {
    if (batch.queue.startsWith("gateway-pickups")) await consumePickups(batch as MessageBatch<CarrierMessage>, env);
    else if (batch.queue.startsWith("gateway-webhooks")) await consumeWebhooks(batch as MessageBatch<WebhookMessage>, env);
    else logEvent("error", { queue: batch.queue, error: "no consumer for this queue" });
  },
} satisfies ExportedHandler<Bindings>;
