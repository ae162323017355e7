import { createContext, useContext } from "hono/jsx/dom";
import type { Role, Site, Tenant } from "./api";

/** What every screen works in: the member's tenant and role, and the site chosen in the header. */
export interface Workspace {
  tenant: Tenant;
  site: Site;
  sites: Site[];
  userId: number;
  /** Whether the member's role reaches the one an action needs (the API checks again). */
  can: (needed: Role) => boolean;
  /** The site's public address, for links to what a screen changes. */
  siteUrl: (path?: string) => string;
  /** Reads the tenant's sites again after a change (settings, a new site), choosing `select` when given. */
  refreshSites: (select?: number) => void;
}

export const WorkspaceContext = createContext<Workspace | null>(null);

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error("a screen outside the workspace");
  return workspace;
}

/** The site's address: its proved primary domain, or `<slug>.localhost` on a development machine. */
export function siteAddress(site: Site, path = "/"): string {
  const proved = site.domains.find((domain) => domain.primary && domain.verified);
  if (proved) return `https://${proved.host}${path}`;
  const port = location.port ? `:${location.port}` : "";
  return `${location.protocol}//${site.slug}.localhost${port}${path}`;
}
