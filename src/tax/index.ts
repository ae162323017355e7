import { z } from "zod";
import type { GroupModule } from "../platform/group";
import { httpsUrl } from "../platform/settings";
import { TAX_JOBS } from "./jobs";
import { TAX_BASE_PATH, taxRoutes } from "./routes";

/** T · Tax rates: style G reads of the tax rate records, refreshed by the feeds' jobs. */
export const tax: GroupModule = {
  name: "tax",
  title: "T tax rates",
  surfaces: [{ prefix: TAX_BASE_PATH, envelope: "data" }],
  scopes: ["taxrate"],
  access: [{ prefix: TAX_BASE_PATH, credential: "data-key", resource: "taxrate", readOnly: true }],
  mount: TAX_BASE_PATH,
  router: taxRoutes,
  jobs: TAX_JOBS,
  settings: z.object({
    EU_VAT_FEED_URL: httpsUrl.optional(),
    OECD_CIT_FEED_URL: httpsUrl.optional(),
    ENCYCLOPEDIA_FEED_URL: httpsUrl.optional(),
    CHINA_FEED_URL: httpsUrl.optional(),
  }),
};
