import type { GroupModule } from "../platform/group";
import { TAX_JOBS } from "./jobs";
import { TAX_BASE_PATH, taxRoutes } from "./routes";
import { taxSettings } from "./settings";

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
  settings: taxSettings,
};
