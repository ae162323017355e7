import type { GroupModule } from "../platform/group";
import { TAX_JOBS } from "./jobs";
import { TAX_BASE_PATH, taxRoutes } from "./routes";
import { WEBHOOKS_PATH } from "./webhook-routes";
import { taxSettings } from "./settings";
import { sweepTaxWebhooks, taxWebhooks } from "./webhooks";

/** T · Tax rates: style G reads of the tax rate records, refreshed by the feeds' jobs. */
export const tax: GroupModule = {
  name: "tax",
  title: "T tax rates",
  surfaces: [{ prefix: TAX_BASE_PATH, envelope: "data" }],
  scopes: ["taxrate"],
  access: [
    { prefix: TAX_BASE_PATH, credential: "data-key", resource: "taxrate", readOnly: true },
    // Registering, rotating and deleting webhook endpoints are writes: `taxrate:write`; listing them is a read.
    { prefix: `${TAX_BASE_PATH}${WEBHOOKS_PATH}`, credential: "data-key", resource: "taxrate" },
  ],
  mount: TAX_BASE_PATH,
  router: taxRoutes,
  jobs: TAX_JOBS,
  webhookSenders: [taxWebhooks],
  tasks: [{ name: "tax-webhooks", cron: "*/5 * * * *", run: sweepTaxWebhooks }],
  settings: taxSettings,
};
