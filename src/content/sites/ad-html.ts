import { IsolateCache } from "../../platform/isolate-cache";

/**
 * An HTML ad is written by whoever owns the tenant: anyone. It is shown in a sandboxed frame
 * (no scripts, no same-origin), its links go through the site's click counter to addresses the ad
 * itself names, and it is checked when saved and cleaned again when it is drawn (a row saved
 * before these rules holds whatever it held). Both read it with HTMLRewriter, the parser browsers'
 * rules are written into, never with patterns over the text.
 */

/** The frame's sandbox: its links open (a new tab, or this page after a click), its scripts never run, it is never the site's origin. */
export const AD_FRAME_SANDBOX = "allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation";

/** The most links one ad may hold (each is an address its click route accepts). */
export const MAX_AD_LINKS = 20;

/** Elements that run code, load another document, or send the reader somewhere other than through a link. */
const FORBIDDEN_ELEMENTS = ["script", "iframe", "frame", "frameset", "object", "embed", "applet", "form", "base", "meta", "link", "portal"];
const LINKS = "a[href], area[href]";
/** Attributes whose value is an address the browser loads or follows. */
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "poster", "background", "cite", "data", "xlink:href", "ping", "srcset"]);

/** The address a link may lead to: an absolute http(s) URL, written as the URL parser writes it; anything else undefined. */
export function adTarget(raw: string): string | undefined {
  try {
    const url = new URL(raw.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A scheme other than http(s) in an address (`javascript:`, `data:` …), read as a browser reads it: tabs and newlines dropped. */
const foreignScheme = (value: string) => {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec([...value].filter((char) => char > " ").join(""))?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== "http" && scheme !== "https";
};

/** The named character references an address is written with; any other stays as written. */
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  colon: ":",
  sol: "/",
  quest: "?",
  equals: "=",
  num: "#",
  Tab: "\t",
  NewLine: "\n",
};

/** An attribute's value as the browser reads it (HTMLRewriter hands it over as written): character references decoded. */
const decoded = (raw: string) =>
  raw.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]+));/g, (whole, dec?: string, hex?: string, name?: string) => {
    const code = dec ? Number(dec) : hex ? Number.parseInt(hex, 16) : undefined;
    if (code === undefined) return NAMED[name!] ?? whole;
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
  });

/** An element's attributes, their values decoded (HTMLRewriter types each as a string array). */
const attributesOf = (el: Element) => [...el.attributes].map(([name = "", value = ""]) => ({ name, value: decoded(value) }));
const hrefOf = (el: Element) => decoded(el.getAttribute("href") ?? "");

/** Reads `html` with HTMLRewriter, handing each element to `visit`; what the handlers change is the answer. */
function rewrite(html: string, handlers: [selector: string, visit: (element: Element) => void][]): Promise<string> {
  let rewriter = new HTMLRewriter();
  for (const [selector, visit] of handlers) rewriter = rewriter.on(selector, { element: visit });
  return rewriter.transform(new Response(html)).text();
}

/** What is wrong with an ad's HTML, in the words of the one who wrote it; empty when it may be saved. */
export async function adHtmlProblems(html: string): Promise<string[]> {
  const problems = new Set<string>();
  let links = 0;
  await rewrite(html, [
    [FORBIDDEN_ELEMENTS.join(", "), (el) => void problems.add(`an ad may not hold <${el.tagName}> (no scripts, frames, forms or page settings)`)],
    [
      "*",
      (el) => {
        for (const { name, value } of attributesOf(el)) {
          if (name.startsWith("on")) problems.add(`an ad may not run code on events (${name})`);
          else if (URL_ATTRIBUTES.has(name) && foreignScheme(value))
            problems.add(`${name} must be an http(s) address, not ${value.trim().slice(0, 40)}`);
        }
      },
    ],
    [
      LINKS,
      (el) => {
        links++;
        const href = hrefOf(el);
        if (!adTarget(href)) problems.add(`a link must be a whole http(s) address (https://…), not ${href.trim().slice(0, 40) || "empty"}`);
      },
    ],
  ]);
  if (links > MAX_AD_LINKS) problems.add(`an ad may hold at most ${MAX_AD_LINKS} links, this one has ${links}`);
  return [...problems];
}

/** Every address the ad's links lead to: the only ones its click route sends a reader to. */
export async function adTargets(html: string): Promise<Set<string>> {
  const targets = new Set<string>();
  await rewrite(html, [
    [
      LINKS,
      (el) => {
        const target = adTarget(hrefOf(el));
        if (target && targets.size < MAX_AD_LINKS) targets.add(target);
      },
    ],
  ]);
  return targets;
}

/**
 * The frame follows the reader's light or dark scheme and lets the page show through, as the page
 * around it does; an ad of a line or two of text reads as one, set in from the frame's edge with
 * its link in the text's colour, bold and underlined (not the browser's blue, which no site chose;
 * an ad's own styles win).
 */
const FRAME_HEAD =
  '<!doctype html><html><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">' +
  "<style>:root{color-scheme:light dark;background:transparent}body{margin:0;padding:0.75rem 1rem;font:0.95rem/1.5 system-ui,sans-serif;color:CanvasText}" +
  "a{color:inherit;font-weight:600;text-underline-offset:0.2em}img{max-width:100%;height:auto}</style>" +
  "</head><body>";

/** An ad's frame: its document (the `srcdoc`), and whether a link in it opens a new tab (for the theme's frame title to say so). */
export interface AdFrame {
  document: string;
  opensNewTab: boolean;
}

/**
 * The frame of an ad: the ad cleaned of what it may not hold, each link through the click counter
 * (`/ads/<id>/click?to=<address>`), opening a new tab unless it asks for the whole page
 * (`target="_top"`).
 */
export async function adFrame(adId: number, html: string): Promise<AdFrame> {
  // Every render of a page draws its ads: the same ad and HTML are cleaned once per isolate.
  const key = `${adId}\n${html}`;
  let frame = frames.get(key);
  if (frame === undefined) frames.set(key, (frame = await cleanedFrame(adId, html)));
  return frame;
}

/** At most 50 ads' documents (an ad's HTML is at most 20,000 characters): a few megabytes at worst. */
const frames = new IsolateCache<AdFrame>(50);

async function cleanedFrame(adId: number, html: string): Promise<AdFrame> {
  let opensNewTab = false;
  const body = await rewrite(html, [
    [FORBIDDEN_ELEMENTS.join(", "), (el) => void el.remove()],
    [
      "*",
      (el) => {
        const drop = attributesOf(el).filter(
          ({ name, value }) => name.startsWith("on") || name === "ping" || (URL_ATTRIBUTES.has(name) && foreignScheme(value)),
        );
        for (const { name } of drop) el.removeAttribute(name);
      },
    ],
    [
      LINKS,
      (el) => {
        const target = adTarget(hrefOf(el));
        if (!target) return void el.removeAttribute("href");
        const whole = ["_top", "_parent"].includes(el.getAttribute("target") ?? "");
        opensNewTab ||= !whole;
        el.setAttribute("href", `/ads/${adId}/click?to=${encodeURIComponent(target)}`);
        el.setAttribute("target", whole ? "_top" : "_blank");
        el.setAttribute("rel", "sponsored noopener");
      },
    ],
  ]);
  return { document: `${FRAME_HEAD}${body}</body></html>`, opensNewTab };
}
