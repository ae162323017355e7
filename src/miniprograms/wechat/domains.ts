/** WeChat's bounds on each kind of domain list: server domains per kind, webview (business) domains, prefetch domains. */
export const DOMAIN_LIMITS = { server: 200, webview: 100, prefetch: 5 } as const;

/** Why WeChat refuses a domain, or null: https (wss for sockets), a host name with no IP address, no wildcard, no path. */
export function domainProblem(domain: string, scheme: "https" | "wss"): string | null {
  let url: URL;
  try {
    url = new URL(domain);
  } catch {
    return `${domain} is not a URL`;
  }
  if (url.protocol !== `${scheme}:`) return `${domain} must start with ${scheme}://`;
  if (domain.includes("*")) return `${domain}: WeChat takes no wildcards`;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(url.hostname) || url.hostname.startsWith("[") || url.hostname === "localhost")
    return `${domain}: WeChat takes host names, not IP addresses or localhost`;
  if (!url.hostname.includes(".")) return `${domain} is not a public host name`;
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username)
    return `${domain} must be a bare origin, without a path`;
  return null;
}
