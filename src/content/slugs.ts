// No imports: the admin console bundles this too, to suggest the slug the API will accept.

/** A slug made of a title or a name: accents dropped, lower case, words joined by dashes, at most 70 characters. */
export function slugFrom(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 70)
    .replace(/-$/, "");
}
