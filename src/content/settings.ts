import { z } from "zod";
import { MAX_MEDIA_BYTES } from "./media/limits";
import { MAX_UNPACKED_BYTES } from "./sites/theme-limits";

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
  MAX_TENANTS_PER_USER: z.coerce
    .number()
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(10_000, { error: "must be at most 10000" })
    .optional(),
  /** How many sites one tenant may keep (default 20). */
  MAX_SITES_PER_TENANT: z.coerce
    .number()
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(10_000, { error: "must be at most 10000" })
    .optional(),
  /** What the media files of all a tenant's sites may take together, in bytes (default 1 GB); at least one largest file. */
  MEDIA_BYTES_PER_TENANT: z.coerce
    .number()
    .int({ error: "must be a whole number of bytes" })
    .min(MAX_MEDIA_BYTES, { error: `must be at least ${MAX_MEDIA_BYTES}, the largest file` })
    .max(2 ** 40, { error: `must be at most ${2 ** 40} (1 TB)` })
    .optional(),
  /** What the uploaded themes of all a tenant's sites may take, unpacked, in bytes (default 200 MB); at least one largest theme. */
  THEME_BYTES_PER_TENANT: z.coerce
    .number()
    .int({ error: "must be a whole number of bytes" })
    .min(MAX_UNPACKED_BYTES, { error: `must be at least ${MAX_UNPACKED_BYTES}, the largest theme unpacked` })
    .max(2 ** 40, { error: `must be at most ${2 ** 40} (1 TB)` })
    .optional(),
  /** What the text of all a tenant's contents may take, every saved version counted, in bytes (default 100 MB); at least 1 MB, a few of the longest texts. */
  TEXT_BYTES_PER_TENANT: z.coerce
    .number()
    .int({ error: "must be a whole number of bytes" })
    .min(1024 * 1024, { error: `must be at least ${1024 * 1024} (1 MB)` })
    .max(10 * 1024 ** 3, { error: `must be at most ${10 * 1024 ** 3} (10 GB, a D1 database's most)` })
    .optional(),
  /** Admin API requests a person may make in a minute per tenant, with the console's session or their JWT (default 600). */
  CONSOLE_REQUESTS_PER_MINUTE: z.coerce
    .number()
    .int({ error: "must be a whole number" })
    .min(60, { error: "must be at least 60, or the console locks people out" })
    .max(100_000, { error: "must be at most 100000" })
    .optional(),
});
