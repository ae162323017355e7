// No imports: the admin console bundles this too, to say where a menu shows.

/** A menu's name: `main` is the menu of the default language (and of any language without its own), `main.de` German pages' `main`. */
export function menuName(name: string): { code: string; language: string | null } {
  const dot = name.indexOf(".");
  return dot < 0 ? { code: name, language: null } : { code: name.slice(0, dot), language: name.slice(dot + 1) };
}
