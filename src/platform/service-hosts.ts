import type { Bindings } from "./env";

/**
 * The service's own origin and host names. Links the service hands out are built from
 * `PUBLIC_ORIGIN`, never from a request's `Host` (which any caller writes), and the service's
 * hosts are reserved: no tenant site may claim them, so a site can never shadow the API.
 */

/** The origin of the service's own links, e.g. `https://api.gateway.example`. */
export const serviceOrigin = (env: Pick<Bindings, "PUBLIC_ORIGIN">): string => new URL(env.PUBLIC_ORIGIN).origin;

/** A host name as routing compares it: lower case, without a port or a trailing dot. */
export function normalizedHost(raw: string): string {
  return raw.trim().toLowerCase().replace(/:\d*$/, "").replace(/\.$/, "");
}

const reservedCache = new WeakMap<object, Set<string>>();

/** The host names of PUBLIC_ORIGIN and SERVICE_HOSTS, once per isolate. */
function serviceHostNames(env: Pick<Bindings, "PUBLIC_ORIGIN" | "SERVICE_HOSTS">): Set<string> {
  let names = reservedCache.get(env);
  if (!names) {
    names = new Set([new URL(env.PUBLIC_ORIGIN).hostname, ...(env.SERVICE_HOSTS ?? "").split(",")].map(normalizedHost).filter(Boolean));
    reservedCache.set(env, names);
  }
  return names;
}

/** Whether a host is the service's own: PUBLIC_ORIGIN's, one of SERVICE_HOSTS, or under workers.dev. */
export function isServiceHost(env: Pick<Bindings, "PUBLIC_ORIGIN" | "SERVICE_HOSTS">, host: string): boolean {
  const name = normalizedHost(host);
  return serviceHostNames(env).has(name) || name === "workers.dev" || name.endsWith(".workers.dev");
}
