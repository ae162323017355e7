import { z } from "zod";
import type { Bindings } from "../platform/env";
import { settingsOf } from "../platform/settings";
import { EU_MEMBERS } from "./membership";
import type { LiveCheck, OfflineCheck } from "./schema";
import { taxSettings } from "./settings";

/** The most T8 waits for a service, token included: VIES is often slow or down, and the verdict offline is already known. */
export const LIVE_CHECK_TIMEOUT_MS = 3000;
/** How long a service's answer is kept to stand in when the service is down. */
const CACHE_SECONDS = 30 * 86_400;

const VIES_DEFAULT = "https://ec.europa.eu/taxation_customs/vies/rest-api";
const HMRC_DEFAULT = "https://api.service.hmrc.gov.uk";

type Service = "VIES" | "HMRC";
interface ServiceAnswer {
  registered: boolean;
  name: string | null;
  address: string | null;
  consultedAt: string;
}

/** A service that gave no usable answer (down, slow, busy): the cache stands in. */
class ServiceDown extends Error {}

const OFFLINE: LiveCheck = {
  source: "offline",
  service: null,
  registered: null,
  consultedAt: null,
  name: null,
  address: null,
  ageSeconds: null,
  liveError: null,
};

const viesAnswer = z.object({
  isValid: z.boolean(),
  requestDate: z.string().optional(),
  userError: z.string().optional(),
  name: z.string().nullish(),
  address: z.string().nullish(),
});

/** VIES writes "---" where a member state does not share the name or address. */
const given = (text: string | null | undefined) => {
  const trimmed = text?.replace(/\s+/g, " ").trim();
  return trimmed && trimmed !== "---" ? trimmed : null;
};

async function askVies(base: string, prefix: string, number: string, signal: AbortSignal): Promise<ServiceAnswer> {
  const res = await fetch(`${base}/ms/${prefix}/vat/${number}`, { headers: { Accept: "application/json" }, signal, redirect: "manual" });
  if (!res.ok) throw new ServiceDown(`VIES answered HTTP ${res.status}`);
  const parsed = viesAnswer.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw new ServiceDown("VIES answered in an unknown shape");
  const { isValid, userError, name, address } = parsed.data;
  // MS_UNAVAILABLE, TIMEOUT, MS_MAX_CONCURRENT_REQ…: the member state's register did not answer.
  if (userError && userError !== "VALID" && userError !== "INVALID") throw new ServiceDown(`VIES: ${userError}`);
  return { registered: isValid, name: given(name), address: given(address), consultedAt: new Date().toISOString().slice(0, 19) + "Z" };
}

const hmrcToken = z.object({ access_token: z.string(), expires_in: z.number() });
const hmrcAnswer = z.object({
  target: z.object({
    name: z.string().nullish(),
    address: z.record(z.string(), z.string()).nullish(),
  }),
});

/** The application token, kept in the isolate until a minute before it expires (HMRC's last four hours). */
let token: { value: string; until: number; clientId: string } | undefined;

async function hmrcAccessToken(base: string, clientId: string, clientSecret: string, signal: AbortSignal): Promise<string> {
  if (token && token.clientId === clientId && token.until > Date.now()) return token.value;
  const res = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, grant_type: "client_credentials", scope: "read:vat" }),
    signal,
    redirect: "manual",
  });
  const parsed = hmrcToken.safeParse(res.ok ? await res.json().catch(() => undefined) : undefined);
  if (!parsed.success) throw new ServiceDown(`HMRC refused a token (HTTP ${res.status})`);
  token = { value: parsed.data.access_token, until: Date.now() + (parsed.data.expires_in - 60) * 1000, clientId };
  return token.value;
}

async function askHmrc(base: string, clientId: string, clientSecret: string, number: string, signal: AbortSignal): Promise<ServiceAnswer> {
  const bearer = await hmrcAccessToken(base, clientId, clientSecret, signal);
  const res = await fetch(`${base}/organisations/vat/check-vat-number/lookup/${number}`, {
    headers: { Accept: "application/vnd.hmrc.2.0+json", Authorization: `Bearer ${bearer}` },
    signal,
    redirect: "manual",
  });
  const consultedAt = new Date().toISOString().slice(0, 19) + "Z";
  if (res.status === 404) return { registered: false, name: null, address: null, consultedAt };
  const parsed = hmrcAnswer.safeParse(res.ok ? await res.json().catch(() => undefined) : undefined);
  if (!parsed.success) throw new ServiceDown(`HMRC answered HTTP ${res.status}`);
  const { name, address } = parsed.data.target;
  const lines = address ? Object.values(address).filter((line) => line.trim() !== "") : [];
  return { registered: true, name: given(name), address: lines.length > 0 ? lines.join(", ") : null, consultedAt };
}

/** Which service knows the number, and how it names it: VIES for EU members and Northern Ireland (XI), HMRC for the rest of the UK. */
function serviceFor(check: OfflineCheck): { service: Service; prefix: string; number: string } | undefined {
  if (!check.valid || !check.countryCode) return undefined;
  const digits = check.normalized.replace(/^[A-Z]{2}/, "");
  if (check.countryCode === "GB") {
    return check.normalized.startsWith("XI") ? { service: "VIES", prefix: "XI", number: digits } : { service: "HMRC", prefix: "GB", number: digits };
  }
  if (EU_MEMBERS.has(check.countryCode)) return { service: "VIES", prefix: check.countryCode === "GR" ? "EL" : check.countryCode, number: digits };
  return undefined;
}

const cacheKey = (service: Service, prefix: string, number: string) => `tax-number:${service}:${prefix}${number}`;

/**
 * What VIES or HMRC says of a number the offline check found valid, when `TAX_NUMBER_LIVE_CHECK`
 * is on: their answer (kept for the days they are down), else the kept answer with its age, else
 * the offline verdict alone. Never waits longer than `LIVE_CHECK_TIMEOUT_MS`.
 */
export async function checkLive(env: Bindings, check: OfflineCheck): Promise<LiveCheck> {
  const settings = settingsOf(env, taxSettings);
  if (settings.TAX_NUMBER_LIVE_CHECK !== "on") return OFFLINE;
  const target = serviceFor(check);
  if (!target) return OFFLINE;
  const { service, prefix, number } = target;
  const hmrcCredentials = settings.HMRC_CLIENT_ID && settings.HMRC_CLIENT_SECRET;
  if (service === "HMRC" && !hmrcCredentials) return OFFLINE;
  const key = cacheKey(service, prefix, number);
  const signal = AbortSignal.timeout(LIVE_CHECK_TIMEOUT_MS);
  let liveError: string;
  try {
    const answer =
      service === "VIES"
        ? await askVies(settings.VIES_API_URL ?? VIES_DEFAULT, prefix, number, signal)
        : await askHmrc(settings.HMRC_API_URL ?? HMRC_DEFAULT, settings.HMRC_CLIENT_ID!, settings.HMRC_CLIENT_SECRET!, number, signal);
    await env.KV.put(key, JSON.stringify(answer), { expirationTtl: CACHE_SECONDS });
    return { source: "live", service, ...answer, ageSeconds: 0, liveError: null };
  } catch (failure) {
    liveError =
      failure instanceof ServiceDown
        ? failure.message
        : failure instanceof Error && (failure.name === "TimeoutError" || failure.name === "AbortError")
          ? `${service} did not answer within ${LIVE_CHECK_TIMEOUT_MS / 1000} s`
          : `${service} could not be reached`;
  }
  const kept = await env.KV.get<ServiceAnswer>(key, "json");
  if (!kept) return { ...OFFLINE, service, liveError };
  const ageSeconds = Math.max(0, Math.round((Date.now() - Date.parse(kept.consultedAt)) / 1000));
  return { source: "cache", service, ...kept, ageSeconds, liveError };
}

/** Whether T8's answers depend on a live service (and so must not be kept by the answer cache). */
export const liveCheckConfigured = (env: Bindings) => settingsOf(env, taxSettings).TAX_NUMBER_LIVE_CHECK === "on";
