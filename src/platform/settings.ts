import { z } from "zod";
import { fromBase64 } from "./crypto";
import type { Bindings } from "./env";
import { logEvent } from "./logging";
import { privateHostProblem } from "./outbound-url";
import { rateLimitsOverrideSchema } from "./rate-limit";

/** The URL settings the service fetches from; in production their hosts must be public (checkSettings). */
const fetchedFrom = z.registry();

/** A URL the service fetches from: https only, so that a setting cannot downgrade a feed or a provider. */
export const httpsUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" }).register(fetchedFrom, {});
/** A provider the service fetches from that may run on plain http in development (an identity provider, a translator). */
export const providerUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).register(fetchedFrom, {});
/** A URL the service only sends browsers to. */
export const anyUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

const jsonOf = <S extends z.ZodType>(schema: S) =>
  z.string().transform((text, ctx) => {
    try {
      return schema.parse(JSON.parse(text));
    } catch (error) {
      ctx.addIssue({
        code: "custom",
        message: error instanceof z.ZodError ? `not of the documented shape: ${error.issues[0]?.message}` : "not JSON",
      });
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
  /** The service's own origin: the links it hands out are built from it (service-hosts.ts). */
  PUBLIC_ORIGIN: anyUrl,
  /** More host names of the service, comma-separated; each reserved against tenant sites. */
  SERVICE_HOSTS: z
    .string()
    .regex(/^[a-z0-9.,-]*$/i, { error: "must be host names separated by commas" })
    .optional(),
  /** Which signature versions the data services accept: "1,2" (the default) or "2" (v1 refused). */
  SIGNATURE_VERSIONS: z.enum(["1,2", "2"], { error: 'must be "1,2" or "2"' }).optional(),
  /** DNS-over-HTTPS resolver that tells which addresses a caller's URL names (webhook targets). */
  DOH_RESOLVER_URL: httpsUrl.optional(),
});

/**
 * In production a fetched-from setting must not name a local host or a private address: a
 * development value deployed by mistake (http://localhost:5000) is refused at startup rather than
 * called. Names are not resolved here: these are the operator's own choices, and a Worker's
 * fetch does not reach a private network.
 */
function fetchedFromProblem(env: Bindings, schema: z.ZodObject): { name: string; problem: string } | undefined {
  if (env.ENVIRONMENT !== "production") return undefined;
  const fields: z.ZodRawShape = schema.shape;
  for (const [name, field] of Object.entries(fields)) {
    const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
    const value = (env as unknown as Record<string, unknown>)[name];
    if (!fetchedFrom.has(inner) || typeof value !== "string" || value === "") continue;
    const problem = privateHostProblem(new URL(value).hostname);
    if (problem) return { name, problem };
  }
  return undefined;
}

/** The platform's schema and every group's, in the order they are checked. */
export const settingsSchemasOf = (groups: { settings?: z.ZodObject }[]): z.ZodObject[] => [
  platformSettings,
  ...groups.flatMap((group) => (group.settings ? [group.settings] : [])),
];

export type SettingsCheck = { ok: true } | { ok: false; name: string; problem: string };

const checked = new WeakMap<object, SettingsCheck>();
/** Each schema's parse of an env object, made once: code reads typed values from it, never the raw strings. */
const parsed = new WeakMap<object, Map<z.ZodObject, unknown>>();

function parsesOf(env: Bindings): Map<z.ZodObject, unknown> {
  let bySchema = parsed.get(env);
  if (!bySchema) parsed.set(env, (bySchema = new Map<z.ZodObject, unknown>()));
  return bySchema;
}

/**
 * The settings of `schema` (the platform's or a group's), parsed once per isolate (per env object):
 * `checkSettings` keeps its parses at the entry; one it did not make is made here, and throws when invalid.
 */
export function settingsOf<S extends z.ZodObject>(env: Bindings, schema: S): z.output<S> {
  const bySchema = parsesOf(env);
  if (!bySchema.has(schema)) bySchema.set(schema, schema.parse(env));
  // The map holds, under each schema, that schema's own parse.
  return bySchema.get(schema) as z.output<S>;
}

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
    } else {
      const fetched = fetchedFromProblem(env, schema);
      if (fetched) verdict = { ok: false, ...fetched };
      else parsesOf(env).set(schema, result.data);
    }
    if (!verdict.ok) {
      logEvent("error", { event: "settings", setting: verdict.name, error: `${verdict.name} ${verdict.problem}` });
      break;
    }
  }
  checked.set(env, verdict);
  return verdict;
}
