import { IsolateCache } from "../../platform/isolate-cache";
import { type ReaderSite, scheduleMark } from "../tenancy/scope";

/**
 * What every page of a site reads and only a change of the site can change (its redirects, menus,
 * content tags, ads): read once per isolate under the site's version, the same version that names
 * its cached pages (the content version, which every such change increments, and the moment its
 * newest scheduled content went live). A render then reads D1 only for the page's own contents.
 */
const kept = new IsolateCache<{ site: number; value: Promise<unknown> }>(2000);

export function perSiteVersion<T>(site: ReaderSite, what: string, load: () => Promise<T>): Promise<T> {
  const key = `${site.id}/v${site.contentVersion}${scheduleMark(site)}/${what}`;
  const found = kept.get(key);
  // Each key is written below with the value of its own `load`, so it holds a T.
  if (found) return found.value as Promise<T>;
  // A Drizzle query is a thenable that runs again at each `await`: kept as the promise of its one run.
  const value = Promise.resolve(load());
  kept.set(key, { site: site.id, value });
  value.catch(() => kept.forget((entry) => entry.value === value));
  return value;
}
