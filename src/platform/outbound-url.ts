import { z } from "zod";
import type { Bindings } from "./env";
import { isNonPublicAddress } from "./ip-ranges";

const DEFAULT_DOH = "https://cloudflare-dns.com/dns-query";
const PRIVATE = "must not point at a private, loopback or link-local address";

const isIpLiteral = (host: string) => /^\[.*\]$/.test(host) || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
const isLocalName = (host: string) =>
  host === "localhost" || [".localhost", ".local", ".internal", ".home.arpa"].some((suffix) => host.endsWith(suffix));

/**
 * What is wrong with a host the service would call, judged from its spelling alone (no DNS):
 * a local name, or an address literal outside the global unicast ranges. Undefined when fine.
 */
export function privateHostProblem(host: string): string | undefined {
  if (isLocalName(host)) return PRIVATE;
  if (isIpLiteral(host) && isNonPublicAddress(host)) return PRIVATE;
  return undefined;
}

const dnsAnswer = z.object({ Status: z.number().optional(), Answer: z.array(z.object({ type: z.number(), data: z.string() })).optional() });

/** The records of one type a name has, asked of the DNS-over-HTTPS resolver (JSON API); 5 s at most. */
async function dnsRecords(
  env: Pick<Bindings, "DOH_RESOLVER_URL">,
  name: string,
  type: "A" | "AAAA" | "TXT",
): Promise<{ type: number; data: string }[]> {
  const url = `${env.DOH_RESOLVER_URL || DEFAULT_DOH}?name=${encodeURIComponent(name)}&type=${type}`;
  const res = await fetch(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`resolver answered ${res.status}`);
  const body = dnsAnswer.safeParse(await res.json());
  if (!body.success) throw new Error("resolver answered something other than DNS JSON");
  return body.data.Answer ?? [];
}

async function resolve(env: Pick<Bindings, "DOH_RESOLVER_URL">, host: string): Promise<string[]> {
  const addresses: string[] = [];
  for (const type of ["A", "AAAA"] as const) {
    for (const answer of await dnsRecords(env, host, type)) if (answer.type === 1 || answer.type === 28) addresses.push(answer.data);
  }
  return addresses;
}

/** The TXT strings of a name, each record's quoted parts joined as DNS-over-HTTPS JSON gives them. */
export async function dnsTxtRecords(env: Pick<Bindings, "DOH_RESOLVER_URL">, name: string): Promise<string[]> {
  return (await dnsRecords(env, name, "TXT"))
    .filter((answer) => answer.type === 16)
    .map((answer) => answer.data.replace(/^"|"$/g, "").replaceAll('" "', ""));
}

/**
 * What is wrong with a URL a caller gave the service to call (a webhook target, later a theme's
 * asset): it must be https, carry no credentials and reach no private, loopback or link-local
 * address, written out or behind a name (resolved over DNS-over-HTTPS). In development, http and
 * loopback are allowed so that a receiver on 127.0.0.1 works. Undefined when the URL is fine.
 */
export async function callerUrlProblem(env: Pick<Bindings, "ENVIRONMENT" | "DOH_RESOLVER_URL">, raw: string): Promise<string | undefined> {
  const url = new URL(raw);
  const development = env.ENVIRONMENT === "development";
  if (url.protocol !== "https:" && !(development && url.protocol === "http:")) return "must use https";
  if (url.username || url.password) return "must not carry credentials";
  const host = url.hostname;
  if (development && (host === "localhost" || host === "127.0.0.1" || host === "[::1]")) return undefined;
  const spelled = privateHostProblem(host);
  if (spelled || isIpLiteral(host)) return spelled;
  let addresses: string[];
  try {
    addresses = await resolve(env, host);
  } catch {
    // A laptop without the resolver (no network) meets this first: it says what works there.
    return `the host ${host} could not be resolved${development ? " (in development, a receiver on localhost or 127.0.0.1 needs no lookup)" : ""}`;
  }
  if (addresses.length === 0) return `the host ${host} has no address`;
  if (addresses.some(isNonPublicAddress)) return `the host ${host} resolves to a private, loopback or link-local address`;
  return undefined;
}
