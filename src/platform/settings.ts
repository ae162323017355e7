import { z } from "zod";
import { fromBase64 } from "./crypto";
import type { Bindings } from "./env";
import { logEvent } from "./logging";
import { rateLimitsOverrideSchema } from "./rate-limit";

/** A URL the service fetches from: https only, so that a setting cannot downgrade a feed or a provider. */
export const httpsUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" });
export const anyUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

const jsonOf = <S extends z.ZodType>(schema: S) =>
  z.string().transform((text, ctx) => {
    try {
      return schema.parse(JSON.parse(text));
    } catch (error) {
      ctx.addIssue({ code: "custom", message: error instanceof z.ZodError ? `not of the documented shape: ${error.issues[0]?.message}` : "not JSON" });
      return z.NEVER;
    }
  });

/** What every group relies on. Each group adds the schema of its own settings (GroupModule.settings). */
export const platformSettings = z.object({
  ENVIRONMENT: z.enum(["production", "development", "test"], { error: "must be production, development or test" }),
  BUILD_VERSION: z.string().min(1),
  KEY_ENCRYPTION_KEY: z.string().refine(
    (value) => {
      try {
        return fromBase64(value).byteLength === 32;
      } catch {
        return false;
      }
    },
    { error: "must be 32 random bytes in base64 (openssl rand -base64 32)" },
  ),
  RATE_LIMITS: jsonOf(rateLimitsOverrideSchema).optional(),
  JOB_MAX_CHANGE_SHARE: z.coerce.number().gt(0, { error: "must be in (0, 1]" }).max(1, { error: "must be in (0, 1]" }).optional(),
});

/** The platform's schema and every group's, in the order they are checked. */
export const settingsSchemasOf = (groups: { settings?: z.ZodObject }[]): z.ZodObject[] => [
  platformSettings,
  ...groups.flatMap((group) => (group.settings ? [group.settings] : [])),
];

export type SettingsCheck = { ok: true } | { ok: false; name: string; problem: string };

const checked = new WeakMap<object, SettingsCheck>();

/**
 * Checks the Worker's settings against every schema once per isolate (per env object) and
 * remembers the verdict; a failure is logged once, naming the setting.
 */
export function checkSettings(env: Bindings, schemas: z.ZodObject[]): SettingsCheck {
  const known = checked.get(env);
  if (known) return known;
  let verdict: SettingsCheck = { ok: true };
  for (const schema of schemas) {
    const result = schema.safeParse(env);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const name = String(issue.path[0] ?? "unknown");
      const present = (env as unknown as Record<string, unknown>)[name] !== undefined;
      verdict = { ok: false, name, problem: present ? issue.message : "is not set" };
      logEvent("error", { event: "settings", setting: name, error: `${name} ${verdict.problem}` });
      break;
    }
  }
  checked.set(env, verdict);
  return verdict;
}
