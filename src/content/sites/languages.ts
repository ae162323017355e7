import type { Site } from "../schema";
import { tagInAddress } from "../tag-spellings";

/**
 * The languages of a tenant site: where each language's pages live (the default language at `/`,
 * another at `/<lang>/`), what the language switcher and the hreflang links read, and dates
 * written in the page's language and the site's time zone.
 */

/** Another language of the site: it has pages under `/<lang>/`. */
export const isOtherLanguage = (site: Pick<Site, "languages" | "defaultLanguage">, lang: string) =>
  lang !== site.defaultLanguage && site.languages.includes(lang);

/** What a language's paths start with: nothing for the default language, `/<lang>` for another. */
export const languagePrefix = (site: Site, language: string) => (language === site.defaultLanguage ? "" : `/${language}`);

/** A language's home: `/`, or `/<lang>/`. */
export const languageHome = (site: Site, language: string) => `${languagePrefix(site, language)}/`;

/** A content's path, in its own language. */
export const contentPath = (site: Site, content: { slug: string; language: string }) => `${languagePrefix(site, content.language)}/${content.slug}`;

/**
 * A text on a page in `language`: its own there, from `texts` by language (a site's descriptions,
 * a category's names), else `fallback`, the default language's.
 */
export const inLanguage = <T extends string | null>(texts: Record<string, string>, language: string, fallback: T): string | T =>
  texts[language] ?? fallback;

/** The languages a page is written in: the default first, then the others in the site's order. */
export const siteLanguages = (site: Pick<Site, "languages" | "defaultLanguage">) => [
  site.defaultLanguage,
  ...site.languages.filter((l) => l !== site.defaultLanguage),
];

/** The site addresses templates ask `url_for` for, in the page's language. */
export function urlFor(site: Site, language: string) {
  const prefix = languagePrefix(site, language);
  return (name: string, arg?: string) => {
    switch (name) {
      case "home":
        return `${prefix}/`;
      case "category":
        return `${prefix}/c/${arg ?? ""}`;
      case "tag":
        return `${prefix}/tag/${tagInAddress(arg ?? "")}`;
      case "search":
        return `${prefix}/search`;
      case "feed":
        return `${prefix}/feed.xml`;
      default:
        return `${prefix}/${arg ?? ""}`;
    }
  };
}

let inEnglish: Intl.DisplayNames | undefined;

/** A language's English name ("German" for de); undefined for a code Intl knows no name for. One namer, kept, as for the native names below. */
export const englishName = (code: string) => (inEnglish ??= new Intl.DisplayNames(["en"], { type: "language", fallback: "none" })).of(code);

/** A language as an English message names it: "German (de)"; the code alone where Intl knows no name for it. */
export function languageInEnglish(code: string): string {
  const name = englishName(code);
  return name ? `${name} (${code})` : code;
}

const nativeNames = new Map<string, string>();

/** A language's name in that language ("Deutsch", "English"), as a switcher shows it; kept, as a formatter costs more to make than to ask. */
export function nativeName(code: string): string {
  let name = nativeNames.get(code);
  if (name === undefined) {
    try {
      const written = new Intl.DisplayNames([code], { type: "language" }).of(code);
      name = written ? written.charAt(0).toLocaleUpperCase(code) + written.slice(1) : code;
    } catch {
      name = code;
    }
    // Codes are the sites' own (a validated pattern), few per isolate; the bound keeps the map small anyway.
    if (nativeNames.size >= 500) nativeNames.clear();
    nativeNames.set(code, name);
  }
  return name;
}

/**
 * What a page tells its template of the site's languages: each language's version of this page,
 * else that language's home (`hasVersion: false`, so that a switcher can say so before the click).
 */
export function pageLanguages(site: Site, language: string, versions: Record<string, string>) {
  return siteLanguages(site).map((code) => ({
    code,
    name: nativeName(code),
    url: versions[code] ?? languageHome(site, code),
    hasVersion: versions[code] !== undefined,
    current: code === language,
  }));
}

/**
 * The hreflang links of a page that exists in several languages: each version (itself included)
 * on the site's origin, and `x-default` for the default language's (else the first there is).
 */
export function alternates(site: Site, origin: string, versions: Record<string, string>) {
  const present = siteLanguages(site).filter((code) => versions[code] !== undefined);
  if (present.length < 2) return [];
  const links = present.map((code) => ({ hreflang: code, href: `${origin}${versions[code]}` }));
  return [...links, { hreflang: "x-default", href: links[0]!.href }];
}

/** The locale a bare `en` is written in: 26 November 2026 (name `en-US` as a site's language for November 26, 2026). */
const DATE_LOCALES: Record<string, string> = { en: "en-GB" };
// One formatter per language, style and time zone: a formatter costs far more to make than to use.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(language: string, style: "long" | "short", timeZone: string): Intl.DateTimeFormat {
  const key = `${language}|${style}|${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat(DATE_LOCALES[language] ?? language, { dateStyle: style, timeZone });
    } catch {
      // A time zone written before zones were checked: the date in UTC rather than a broken page.
      formatter = new Intl.DateTimeFormat(DATE_LOCALES[language] ?? language, { dateStyle: style, timeZone: "UTC" });
    }
    // Languages and zones are the sites' own, few per isolate; the bound keeps a busy isolate's map small anyway.
    if (formatters.size >= 500) formatters.clear();
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * `format_date(iso, style)` for templates: an ISO 8601 instant as a date in the page's language and
 * the site's time zone, `long` (26. November 2026) or `short` (26.11.26). A string that is no date
 * is written back as it came, anything else (none) as nothing, so a template never fails on one.
 */
export function dateFormat(language: string, timeZone: string) {
  return (iso: unknown, style?: unknown): string => {
    if (typeof iso !== "string") return "";
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    return formatterOf(language, style === "short" ? "short" : "long", timeZone).format(date);
  };
}
