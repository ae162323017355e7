import { z } from "zod";
import { httpsUrl } from "../platform/settings";

/** Group P's settings, read through `settingsOf(env, pickupSettings)`. */
export const pickupSettings = z.object({
  /** The HTTP carrier's REST API; service codes other than "sandbox" go there. */
  CARRIER_API_URL: httpsUrl.optional(),
});
