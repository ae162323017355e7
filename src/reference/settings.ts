import { z } from "zod";
import { httpsUrl } from "../platform/settings";

/** Group O's settings, read through `settingsOf(env, referenceSettings)`: where its refresh jobs read their feeds. */
export const referenceSettings = z.object({
  /** The HS codes; the datasets/harmonized-system CSV when unset. */
  HS_FEED_URL: httpsUrl.optional(),
  /** The HS section names; the datasets/harmonized-system sections CSV when unset. */
  HS_SECTIONS_FEED_URL: httpsUrl.optional(),
  /** The UN/ECE Recommendation 20 units; the datasets/unece-units-of-measure CSV when unset. */
  UNITS_FEED_URL: httpsUrl.optional(),
  /** Countries, currencies and languages, documented JSON; no default (docs/operations.md). */
  REFERENCE_FEED_URL: httpsUrl.optional(),
});
