import { z } from "zod";
import { httpsUrl } from "../platform/settings";

/** Group T's settings, read through `settingsOf(env, taxSettings)`: where its refresh jobs read their feeds, and T8's live check. */
export const taxSettings = z.object({
  /** The EU VAT rates; ibericode's vat-rates JSON when unset. */
  EU_VAT_FEED_URL: httpsUrl.optional(),
  /** The OECD members' corporate tax rates; the OECD's SDMX-CSV when unset. */
  OECD_CIT_FEED_URL: httpsUrl.optional(),
  /** Rates of countries without an official feed, documented JSON; no default (docs/operations.md). */
  ENCYCLOPEDIA_FEED_URL: httpsUrl.optional(),
  /** China's VAT levels, documented JSON; no default (docs/operations.md). */
  CHINA_FEED_URL: httpsUrl.optional(),
  /** "on": T8 also asks VIES (EU, XI) and, with HMRC's credentials, HMRC (GB); off by default (docs/tax.md). */
  TAX_NUMBER_LIVE_CHECK: z.enum(["off", "on"], { error: 'must be "off" or "on"' }).optional(),
  /** The VIES REST API; the European Commission's when unset. */
  VIES_API_URL: httpsUrl.optional(),
  /** HMRC's API; its production host when unset. */
  HMRC_API_URL: httpsUrl.optional(),
  /** An HMRC Developer Hub application's client id and secret (application-restricted, scope read:vat); both or neither. */
  HMRC_CLIENT_ID: z.string().min(1).optional(),
  HMRC_CLIENT_SECRET: z.string().min(1).optional(),
});
