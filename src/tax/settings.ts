import { z } from "zod";
import { httpsUrl } from "../platform/settings";

/** Group T's settings, read through `settingsOf(env, taxSettings)`: where its refresh jobs read their feeds. */
export const taxSettings = z.object({
  /** The EU VAT rates; ibericode's vat-rates JSON when unset. */
  EU_VAT_FEED_URL: httpsUrl.optional(),
  /** The OECD members' corporate tax rates; the OECD's SDMX-CSV when unset. */
  OECD_CIT_FEED_URL: httpsUrl.optional(),
  /** Rates of countries without an official feed, documented JSON; no default (docs/operations.md). */
  ENCYCLOPEDIA_FEED_URL: httpsUrl.optional(),
  /** China's VAT levels, documented JSON; no default (docs/operations.md). */
  CHINA_FEED_URL: httpsUrl.optional(),
});
