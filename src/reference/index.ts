import type { GroupModule } from "../platform/group";
import { REFERENCE_JOBS } from "./jobs";
import { REFERENCE_BASE_PATH, referenceRoutes } from "./routes";
import { referenceSettings } from "./settings";

/** O · Open reference data: countries, zones, units, HS codes, languages, currencies, platforms. */
export const reference: GroupModule = {
  name: "reference",
  title: "O open reference data",
  surfaces: [{ prefix: REFERENCE_BASE_PATH, envelope: "data" }],
  scopes: ["reference"],
  access: [{ prefix: REFERENCE_BASE_PATH, credential: "data-key", resource: "reference", readOnly: true, hourly: "reference" }],
  hourlyLimits: { reference: 1000 },
  mount: REFERENCE_BASE_PATH,
  router: referenceRoutes,
  jobs: REFERENCE_JOBS,
  settings: referenceSettings,
};
