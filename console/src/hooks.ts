import { useCallback, useEffect as useHonoEffect, useLayoutEffect, useRef, useState as useHonoState } from "hono/jsx/dom";

/**
 * The console's useEffect and useState: hono/jsx/dom's, except for a component that has left the page.
 * hono runs a component's effects a frame after drawing it, even when a brisk click to the next screen
 * removed it within that frame (and then never cleans them up), and the second update of a removed
 * component puts its elements back on the page: the screen left stayed above the one opened. So here an
 * effect of a removed component does not run, and its state no longer changes.
 */
function useOnPage() {
  const onPage = useRef(false);
  // A layout effect runs as the component is drawn, so its cleanup is in place before anything can remove it.
  useLayoutEffect(() => {
    onPage.current = true;
    return () => {
      onPage.current = false;
    };
  }, []);
  return onPage;
}

export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]) {
  const onPage = useOnPage();
  useHonoEffect(() => (onPage.current ? effect() : undefined), deps);
}

type SetState<T> = (next: T | ((current: T) => T)) => void;

export function useState<T>(initial: T | (() => T)): [T, SetState<T>];
export function useState<T = undefined>(): [T | undefined, SetState<T | undefined>];
export function useState<T>(initial?: T | (() => T)): [T | undefined, SetState<T | undefined>] {
  const onPage = useOnPage();
  const [value, set] = useHonoState<T | undefined>(initial);
  const setWhileOnPage = useCallback<SetState<T | undefined>>((next) => {
    if (onPage.current) set(next);
  }, []);
  return [value, setWhileOnPage];
}
