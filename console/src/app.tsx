import { useEffect, useState } from "./hooks";
import { api, ApiFailure, get, reaches, setCsrfToken, type Site, type Tenant, WAITING_EVENT } from "./api";
import { CONSOLE_BASE, onLinkClick, useLocation } from "./router";
import { siteAddress, WorkspaceContext, type Workspace } from "./session";
import { Loading, Outcome, TextField, useSubmit } from "./ui";
import { screenFor, NAVIGATION } from "./screens";

type SessionState =
  | { kind: "checking" }
  | { kind: "signed-out"; failure?: ApiFailure }
  | { kind: "unavailable"; failure: ApiFailure }
  | { kind: "signed-in"; userId: number };

/** A token handed over in the address (the login's redirect, or `npm run dev`'s link): made a session, then dropped from the address. */
function tokenFromAddress(): string | null {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  const query = new URLSearchParams(location.search);
  const token = fromHash ?? query.get("token");
  if (token) {
    for (const name of ["token", "user_id", "username", "email"]) query.delete(name);
    const search = query.toString();
    history.replaceState(null, "", `${location.pathname}${search ? `?${search}` : ""}`);
  }
  return token;
}

async function startSession(token: string): Promise<number> {
  const { csrfToken } = await api<{ csrfToken: string }>("POST", "/session", undefined, { Authorization: `Bearer ${token}` });
  setCsrfToken(csrfToken);
  const session = await get<{ userId: number }>("/session");
  return session.userId;
}

export function App() {
  const [session, setSession] = useState<SessionState>({ kind: "checking" });
  useEffect(() => {
    const token = tokenFromAddress();
    const check = token
      ? startSession(token)
      : get<{ userId: number; csrfToken: string | null }>("/session").then((s) => {
          setCsrfToken(s.csrfToken);
          return s.userId;
        });
    check.then(
      (userId) => setSession({ kind: "signed-in", userId }),
      (failure: unknown) =>
        // Only a refused credential signs out; a busy or unreachable service is said as such, with a way to try again.
        failure instanceof ApiFailure && failure.status !== 401 && failure.status !== 403 && !token
          ? setSession({ kind: "unavailable", failure })
          : setSession({ kind: "signed-out", failure: token && failure instanceof ApiFailure ? failure : undefined }),
    );
  }, []);
  if (session.kind === "checking") return <p class="boot">Checking your session…</p>;
  if (session.kind === "unavailable")
    return (
      <main id="main" class="sign-in">
        <h1>The console could not load</h1>
        <Outcome failure={session.failure} />
        <button type="button" class="primary" onClick={() => location.reload()}>
          Try again
        </button>
      </main>
    );
  if (session.kind === "signed-out") return <SignIn failure={session.failure} onSignedIn={(userId) => setSession({ kind: "signed-in", userId })} />;
  return <Console userId={session.userId} onSignedOut={() => setSession({ kind: "signed-out" })} />;
}

function SignIn(props: { failure?: ApiFailure; onSignedIn: (userId: number) => void }) {
  const [token, setToken] = useState("");
  const submit = useSubmit();
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the console</h1>
      <p>
        <a class="button primary" href="/auth/login">
          Sign in with your account
        </a>
      </p>
      <form
        onSubmit={async (e: Event) => {
          e.preventDefault();
          const userId = await submit.run(() => startSession(token.trim()));
          if (userId !== undefined) props.onSignedIn(userId);
        }}
      >
        <h2>Or with an access token</h2>
        <Outcome failure={submit.failure ?? props.failure} />
        <TextField
          label="Access token"
          name="token"
          type="password"
          value={token}
          onValue={setToken}
          required
          hint="On a development machine: npm run users:token -- --email you@example.com"
        />
        <button class="primary" type="submit" disabled={submit.busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

const STORED_TENANT = "console.tenant";
const STORED_SITE = "console.site";

function Console(props: { userId: number; onSignedOut: () => void }) {
  const [tenants, setTenants] = useState<Tenant[] | null>(null);
  const [tenantId, setTenantId] = useState<number | null>(Number(localStorage.getItem(STORED_TENANT)) || null);
  const [sites, setSites] = useState<Site[] | null>(null);
  const [siteId, setSiteId] = useState<number | null>(Number(localStorage.getItem(STORED_SITE)) || null);
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const location = useLocation();
  // On a phone the header is one line; its menu and workspace open under it when asked.
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    get<Tenant[]>("/tenants").then(setTenants, setFailure);
  }, []);
  const tenant = tenants?.find((t) => t.id === tenantId) ?? tenants?.[0];
  useEffect(() => {
    if (!tenant) return;
    localStorage.setItem(STORED_TENANT, String(tenant.id));
    setSites(null);
    get<Site[]>(`/tenants/${tenant.id}/sites`).then(setSites, setFailure);
  }, [tenant?.id]);
  const site = sites?.find((s) => s.id === siteId) ?? sites?.[0];
  useEffect(() => {
    if (site) localStorage.setItem(STORED_SITE, String(site.id));
  }, [site?.id]);

  const signOut = async () => {
    await api("DELETE", "/session").catch(() => undefined);
    setCsrfToken(null);
    props.onSignedOut();
  };

  if (failure) return <Loading failure={failure} />;
  if (!tenants) return <Loading />;
  if (!tenant) return <NoTenant onSignOut={signOut} />;
  if (!sites) return <Loading />;
  if (!site)
    return <p class="alert">This tenant has no site yet: an owner creates one with the admin API (POST /admin/api/tenants/{tenant.id}/sites).</p>;

  const workspace: Workspace = {
    tenant,
    site,
    sites,
    userId: props.userId,
    can: (needed) => reaches(tenant.role, needed),
    siteUrl: (path) => siteAddress(site, path),
    refreshSites: (select) => {
      // A failed reread keeps the list the header shows; the screen said what it saved.
      get<Site[]>(`/tenants/${tenant.id}/sites`).then(
        (list) => {
          setSites(list);
          if (select !== undefined) setSiteId(select);
        },
        () => undefined,
      );
    },
  };
  const Screen = screenFor(location.path);
  return (
    <WorkspaceContext.Provider value={workspace}>
      <a class="skip" href="#main">
        Skip to the screen
      </a>
      <header class={`top${menuOpen ? " open" : ""}`}>
        <nav
          aria-label="Console"
          class="nav"
          onClick={(event: MouseEvent) => {
            onLinkClick(event);
            if ((event.target as Element).closest("a")) setMenuOpen(false);
          }}
        >
          <a class="brand" href={`${CONSOLE_BASE}/`}>
            Console
          </a>
          <button
            type="button"
            class="menu-toggle"
            aria-expanded={menuOpen ? "true" : "false"}
            aria-controls="console-menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? "Close the menu" : "Menu"}
          </button>
          <ul id="console-menu">
            {NAVIGATION.filter((item) => reaches(tenant.role, item.role)).map((item) => (
              <li>
                <a href={`${CONSOLE_BASE}${item.path}`} aria-current={isCurrent(location.path, item.path) ? "page" : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="workspace">
          <label>
            <span class="visually-hidden">Tenant</span>
            <select onChange={(e: Event) => setTenantId(Number((e.target as HTMLSelectElement).value))}>
              {tenants.map((t) => (
                <option value={String(t.id)} selected={t.id === tenant.id}>
                  {t.name} ({t.role})
                </option>
              ))}
            </select>
          </label>
          <label>
            <span class="visually-hidden">Site</span>
            <select onChange={(e: Event) => setSiteId(Number((e.target as HTMLSelectElement).value))}>
              {sites.map((s) => (
                <option value={String(s.id)} selected={s.id === site.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <a href={siteAddress(site)} target="_blank" rel="noopener">
            View site
          </a>
          <ThemeSwitch />
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <WaitingNotice />
      <main id="main" tabindex={-1} onClick={onLinkClick}>
        <Screen path={location.path} query={location.query} />
      </main>
    </WorkspaceContext.Provider>
  );
}

/** Says, while the console waits out a 429, that it is waiting and will go on by itself. */
function WaitingNotice() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const listener = (event: Event) => setSeconds((event as CustomEvent<number>).detail);
    window.addEventListener(WAITING_EVENT, listener);
    return () => window.removeEventListener(WAITING_EVENT, listener);
  }, []);
  return (
    <p class="waiting" role="status" hidden={seconds === 0}>
      {seconds > 0 ? `Many requests at once: the console goes on in ${seconds} s.` : ""}
    </p>
  );
}

const isCurrent = (path: string, item: string) => (item === "/" ? path === "/" : path === item || path.startsWith(`${item}/`));

function NoTenant(props: { onSignOut: () => void }) {
  return (
    <main id="main" class="sign-in">
      <h1>No tenant yet</h1>
      <p>You are signed in, but no tenant has made you a member. Ask a tenant's owner to invite your email address, then sign in again.</p>
      <button type="button" onClick={props.onSignOut}>
        Sign out
      </button>
    </main>
  );
}

/** Light, dark, or as the system says; kept in this browser. */
function ThemeSwitch() {
  const [scheme, setScheme] = useState(localStorage.getItem("console.scheme") ?? "system");
  useEffect(() => {
    if (scheme === "system") delete document.documentElement.dataset.scheme;
    else document.documentElement.dataset.scheme = scheme;
    localStorage.setItem("console.scheme", scheme);
  }, [scheme]);
  return (
    <label>
      <span class="visually-hidden">Colour scheme</span>
      <select onChange={(e: Event) => setScheme((e.target as HTMLSelectElement).value)}>
        {[
          ["system", "System colours"],
          ["light", "Light"],
          ["dark", "Dark"],
        ].map(([value, text]) => (
          <option value={value} selected={value === scheme}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
