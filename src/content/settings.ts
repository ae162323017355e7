import { z } from "zod";
import { MAX_MEDIA_BYTES } from "./media/limits";
import { MAX_UNPACKED_BYTES } from "./sites/theme-limits";

/**
 * An optional whole number (of `unit`, when it has one) from `min` to `max`; a value past either is
 * refused in words, with `why` saying what the bound means.
 */
const wholeNumber = (min: number, max: number, { unit = "", why = {} }: { unit?: string; why?: { min?: string; max?: string } } = {}) =>
  z.coerce
    .number()
    .min(min, { error: `must be at least ${min}${why.min ?? ""}` })
    .max(max, { error: `must be at most ${max}${why.max ?? ""}` })
    .int({ error: `must be a whole number${unit}` })
    .optional();

const TB = 2 ** 40;

/** Group C's settings, read through `settingsOf(env, contentSettings)`. */
export const contentSettings = z.object({
  /** How often a tenant site's ad impressions are written (seconds; default 10). */
  AD_FLUSH_SECONDS: z.coerce
    .number()
    .int()
    .min(0, { error: "must be a whole number of seconds" })
    .max(3600, { error: "must be at most 3600" })
    .optional(),
  /** How many active tenants one account may own (default 5). */
  MAX_TENANTS_PER_USER: wholeNumber(1, 10_000),
  /** How many sites one tenant may keep (default 20). */
  MAX_SITES_PER_TENANT: wholeNumber(1, 10_000),
  /** What the media files of all a tenant's sites may take together, in bytes (default 1 GB); at least one largest file. */
  MEDIA_BYTES_PER_TENANT: wholeNumber(MAX_MEDIA_BYTES, TB, { unit: " of bytes", why: { min: ", the largest file", max: " (1 TB)" } }),
  /** What the uploaded themes of all a tenant's sites may take, unpacked, in bytes (default 200 MB); at least one largest theme. */
  THEME_BYTES_PER_TENANT: wholeNumber(MAX_UNPACKED_BYTES, TB, { unit: " of bytes", why: { min: ", the largest theme unpacked", max: " (1 TB)" } }),
  /** What the text of all a tenant's contents may take, every saved version counted, in bytes (default 100 MB); at least 1 MB, a few of the longest texts. */
  TEXT_BYTES_PER_TENANT: wholeNumber(1024 * 1024, 10 * 1024 ** 3, {
    unit: " of bytes",
    why: { min: " (1 MB)", max: " (10 GB, a D1 database's most)" },
  }),
  /** Admin API requests a person may make in a minute per tenant, with the console's session or their JWT (default 600). */
  CONSOLE_REQUESTS_PER_MINUTE: wholeNumber(60, 100_000, { why: { min: ", or the console locks people out" } }),
});
