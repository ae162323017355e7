import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { isNonPublicAddress } from "../platform/ip-ranges";

const DEFAULT_DOH = "https://cloudflare-dns.com/dns-query";

const isIpLiteral = (host: string) => /^\[.*\]$/.test(host) || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);

async function resolve(env: Pick<Bindings, "DOH_RESOLVER_URL">, host: string): Promise<string[]> {
  const addresses: string[] = [];
  for (const type of ["A", "AAAA"]) {
    const url = `${env.DOH_RESOLVER_URL || DEFAULT_DOH}?name=${encodeURIComponent(host)}&type=${type}`;
    const res = await fetch(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`resolver answered ${res.status}`);
    const body = (await res.json()) as { Answer?: { type: number; data: string }[] };
    for (const answer of body.Answer ?? []) if (answer.type === 1 || answer.type === 28) addresses.push(answer.data);
  }
  return addresses;
}

/**
 * A webhook target must be https and must not reach the service's own network: no private,
 * loopback or link-local address, written out or behind a name. In development, http and
 * loopback are allowed so that a receiver on 127.0.0.1 works.
 */
export async function assertPublicWebhookUrl(env: Pick<Bindings, "ENVIRONMENT" | "DOH_RESOLVER_URL">, raw: string): Promise<void> {
  const refuse = (why: string) => new ApiError(400, `webhook_url: ${why}`);
  const url = new URL(raw);
  const development = env.ENVIRONMENT === "development";
  if (url.protocol !== "https:" && !(development && url.protocol === "http:")) throw refuse("must use https");
  if (url.username || url.password) throw refuse("must not carry credentials");
  const host = url.hostname;
  const loopback = host === "localhost" || host === "127.0.0.1" || host === "[::1]";
  if (development && loopback) return;
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local")) {
    throw refuse("must not point at a private, loopback or link-local address");
  }
  if (isIpLiteral(host)) {
    if (isNonPublicAddress(host)) throw refuse("must not point at a private, loopback or link-local address");
    return;
  }
  let addresses: string[];
  try {
    addresses = await resolve(env, host);
  } catch {
    throw refuse(`the host ${host} could not be resolved`);
  }
  if (addresses.length === 0) throw refuse(`the host ${host} has no address`);
  if (addresses.some(isNonPublicAddress)) throw refuse(`the host ${host} resolves to a private, loopback or link-local address`);
}
