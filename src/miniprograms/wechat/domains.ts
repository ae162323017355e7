/** WeChat's bounds on each kind of domain list: server domains per kind, webview (business) domains, prefetch domains. */
export const DOMAIN_LIMITS = { server: 200, webview: 100, prefetch: 5 } as const;

/** Why WeChat refuses a domain, or null: https (wss for sockets), a host name with no IP address, no wildcard, no path. */
export function domainProblem(domain: string, scheme: "https" | "wss"): string | null {
  let url: URL;
  try {
    url = new URL(domain);
  } catch {
    return `The domain ${domain} is not a URL`;
  }
  if (url.protocol !== `${scheme}:`) return `The domain ${domain} must start with ${scheme}://`;
  if (domain.includes("*")) return `The domain ${domain} has a wildcard: WeChat takes no wildcards`;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(url.hostname) || url.hostname.startsWith("[") || url.hostname === "localhost")
    return `The domain ${domain} is an IP address or localhost: WeChat takes host names only`;
  if (!url.hostname.includes(".")) return `The domain ${domain} is not a public host name`;
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username)
    return `The domain ${domain} must be a bare origin, without a path`;
  return null;
}
