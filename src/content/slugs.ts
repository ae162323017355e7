// No imports: the admin console bundles this too, to suggest the slug the API will accept.

/** Letters that Unicode does not decompose into a Latin letter and an accent, written as in URLs. */
const WHOLE_LETTERS: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ð: "d", ł: "l", þ: "th", ı: "i" };
/** German writes an umlaut as its letter and "e" where the dots cannot go ("Märkte", maerkte), as German URLs do. */
const GERMAN_UMLAUTS: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue" };

/**
 * A slug made of a title or a name: lower case, words joined by dashes, at most 70 characters.
 * Accents are dropped ("Café" → cafe), but in German (`language` de or de-…) an umlaut becomes
 * its letter and "e" ("Straßenmärkte" → strassenmaerkte); apostrophes inside words are dropped.
 */
export function slugFrom(text: string, language?: string): string {
  // An apostrophe inside a word goes, as addresses write it ("Rosie's" → rosies, not rosie-s).
  const lower = text
    .normalize("NFC")
    .toLowerCase()
    .replace(/(?<=\p{L})['’ʼ](?=\p{L})/gu, "");
  const german = language !== undefined && /^de(-|$)/i.test(language);
  return (german ? lower.replace(/[äöü]/g, (letter) => GERMAN_UMLAUTS[letter] ?? letter) : lower)
    .replace(/[ßæœøđðłþı]/g, (letter) => WHOLE_LETTERS[letter] ?? letter)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 70)
    .replace(/-$/, "");
}
