import { useEffect, useState } from "./hooks";

/** The console's screens are paths under /admin: a reload or a shared link opens the same screen. */
export const CONSOLE_BASE = "/admin";
const NAVIGATED = "console:navigate";

/** Asked before the console leaves the screen (a screen with unsaved changes sets it): false stays. */
let mayLeave: (() => boolean) | null = null;

/** Makes the console ask `ask` before it leaves this screen, by a link or the back button; returns the undoing. */
export function guardLeaving(ask: () => boolean) {
  mayLeave = ask;
  return () => {
    if (mayLeave === ask) mayLeave = null;
  };
}

export function navigate(to: string, options: { replace?: boolean } = {}) {
  if (mayLeave && !mayLeave()) return;
  const url = to.startsWith(CONSOLE_BASE) ? to : `${CONSOLE_BASE}${to}`;
  if (options.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  window.dispatchEvent(new Event(NAVIGATED));
}

const currentPath = () => location.pathname.slice(CONSOLE_BASE.length).replace(/\/+$/, "") || "/";

/** The screen's path without /admin ("/", "/contents/12"), and its query; follows navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [state, setState] = useState({ path: currentPath(), search: location.search });
  useEffect(() => {
    let shown = location.pathname + location.search;
    const update = (event: Event) => {
      // The back button has already moved the address: staying puts the screen's address back.
      if (event.type === "popstate" && mayLeave && !mayLeave()) return history.pushState(null, "", shown);
      shown = location.pathname + location.search;
      setState({ path: currentPath(), search: location.search });
    };
    window.addEventListener("popstate", update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener("popstate", update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return { path: state.path, query: new URLSearchParams(state.search) };
}

/** A link inside the console: navigates without a reload, but stays a real link (new tab, copy); a download stays a download. */
export function onLinkClick(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element).closest("a");
  if (!anchor || anchor.target || anchor.hasAttribute("download") || anchor.origin !== location.origin || !anchor.pathname.startsWith(CONSOLE_BASE))
    return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
