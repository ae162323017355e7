import { mkdirSync } from "node:fs";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fromSite, type Gateway, gatewayReady, openBrowser } from "./gateway";

/**
 * A German reader on the demo site, on a desktop and on a phone: the German home with its own menu,
 * German stories only and dates written in German; the language switcher to the English version of
 * an article and back; the German feed; the hreflang links search engines read. SCREENSHOTS=1 keeps
 * what the reader saw in docs/screenshots/.
 */

let gateway: Gateway;
let browser: Browser;
const SCREENSHOTS = process.env.SCREENSHOTS === "1";

const sitePage = (path: string) => fromSite(gateway, path);

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
  if (SCREENSHOTS) mkdirSync("docs/screenshots", { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

const DEVICES = [
  { name: "desktop", options: { viewport: { width: 1280, height: 900 } } },
  { name: "phone", options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
] as const;

describe.each(DEVICES)("a German reader on the $name", ({ name, options }) => {
  let context: BrowserContext;
  let page: Page;
  /** A click on the desktop, a tap on the phone, and the page it leads to. */
  const follow = async (link: ReturnType<Page["getByRole"]>) => {
    const target = new URL((await link.getAttribute("href"))!, page.url()).href;
    await link.scrollIntoViewIfNeeded();
    if (name === "phone") await link.tap();
    else await link.click();
    await page.waitForURL(target, { waitUntil: "domcontentloaded" });
  };

  /** On the phone the menu and the switcher sit behind the header's menu link (the theme opens it without script). */
  const openMenu = async () => {
    if (name === "phone") await page.locator("a.menu-open").tap();
  };

  beforeAll(async () => {
    context = await browser.newContext({ ...options, locale: "de-DE" });
    // A link that is not there fails the step in seconds, not at the test's timeout.
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
  });

  // A failed step says where the reader was and what the page said.
  afterEach(async (test) => {
    if (test.task.result?.state === "fail")
      console.error(
        `${name} at ${page.url()}:\n${await page
          .locator("body")
          .innerText()
          .catch(() => "(no page)")}`,
      );
  });

  it("opens the German home: a German page, the German menu, German stories only, dates in German", async () => {
    const answer = await page.goto(`${gateway.siteBase}/de/`, { waitUntil: "domcontentloaded", timeout: 60_000 });
    expect(answer?.status()).toBe(200);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    await openMenu();
    const menu = page.getByRole("navigation", { name: "Hauptmenü" });
    expect(await menu.getByRole("link").allTextContents()).toEqual(expect.arrayContaining(["Stadt", "Kultur", "Sport"]));
    expect(await menu.getByRole("link", { name: "Culture" }).count()).toBe(0);
    const stories = page.locator("main article.card h2 a");
    expect(await stories.count()).toBeGreaterThanOrEqual(4);
    for (const href of await stories.evaluateAll((links) => links.map((a) => a.getAttribute("href")))) expect(href).toMatch(/^\/de\//);
    expect(await stories.allTextContents()).toContain("Jazzwoche: zwölf Konzerte an neun Orten");
    expect(await stories.allTextContents()).not.toContain("Jazz week: twelve concerts in nine venues");
    // The German ad, not the English one.
    const ad = page.frameLocator('iframe[title="Anzeige (ihre Links öffnen einen neuen Tab)"]').getByRole("link");
    expect(await ad.textContent()).toBe("Wintermarkt: Tickets mit Zeitfenster fürs Wochenende");
    const dates = await page.locator("main article.card time").allTextContents();
    expect(dates.length).toBeGreaterThanOrEqual(4);
    for (const date of dates)
      expect(date).toMatch(/^\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}$/);
    // The menu's category leads to the German list of that category.
    await follow(menu.getByRole("link", { name: "Kultur" }));
    expect(new URL(page.url()).pathname).toBe("/de/c/culture");
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    for (const href of await page.locator("main article.card h2 a").evaluateAll((links) => links.map((a) => a.getAttribute("href"))))
      expect(href).toMatch(/^\/de\//);
    await page.goto(`${gateway.siteBase}/de/`, { waitUntil: "domcontentloaded" });
    if (SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/site-german-${name}.png` });
  });

  it("reads an article, follows the switcher to its English version, and comes back to the German one", async () => {
    await follow(page.getByRole("link", { name: "Jazzwoche: zwölf Konzerte an neun Orten" }));
    expect(new URL(page.url()).pathname).toBe("/de/jazzwoche");
    expect(await page.locator("h1").textContent()).toBe("Jazzwoche: zwölf Konzerte an neun Orten");
    await openMenu();
    if (name === "phone") {
      // "Schließen" is longer than "Close": the open menu's button stays clear of the site's name.
      const brand = (await page.locator(".brand").boundingBox())!;
      const close = (await page.locator(".menu-close").boundingBox())!;
      expect(close.y >= brand.y + brand.height || close.x >= brand.x + brand.width).toBe(true);
    }
    const switcher = page.getByRole("navigation", { name: "Sprachen" });
    expect(await switcher.getByRole("link", { name: "Deutsch" }).getAttribute("aria-current")).toBe("page");
    const box = await switcher.getByRole("link", { name: "English" }).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(options.viewport.width);
    if (SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/site-german-article-${name}.png` });

    await follow(switcher.getByRole("link", { name: "English" }));
    expect(new URL(page.url()).pathname).toBe("/jazz-week");
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    expect(await page.locator("h1").textContent()).toBe("Jazz week: twelve concerts in nine venues");
    expect(await page.locator("article time").textContent()).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
    await openMenu();
    expect(await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Culture" }).count()).toBe(1);

    await follow(page.getByRole("navigation", { name: "Languages" }).getByRole("link", { name: "Deutsch" }));
    expect(new URL(page.url()).pathname).toBe("/de/jazzwoche");
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
  });

  it("subscribes to the German feed: German stories only, at their German addresses", async () => {
    const href = await page.locator('link[rel="alternate"][type="application/rss+xml"]').getAttribute("href");
    expect(href).toBe("/de/feed.xml");
    const feed = await sitePage(href!);
    expect(feed.status).toBe(200);
    expect(feed.type).toBe("application/rss+xml; charset=utf-8");
    expect(feed.text).toContain("<language>de</language>");
    const links = [...feed.text.matchAll(/<item><title>[^<]*<\/title><link>([^<]+)<\/link>/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThanOrEqual(4);
    for (const link of links) expect(link.startsWith(`${gateway.siteBase}/de/`)).toBe(true);
    expect(feed.text).toContain("<title>Jazzwoche: zwölf Konzerte an neun Orten</title>");
    expect(feed.text).not.toContain("Jazz week");
  });

  it("tells search engines every language of the article and of the home: absolute addresses, itself, x-default", async () => {
    const alternates = () =>
      page.locator("link[rel=alternate][hreflang]").evaluateAll((links) => links.map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]));
    expect(await alternates()).toEqual([
      ["en", `${gateway.siteBase}/jazz-week`],
      ["de", `${gateway.siteBase}/de/jazzwoche`],
      ["x-default", `${gateway.siteBase}/jazz-week`],
    ]);
    await page.goto(`${gateway.siteBase}/de`, { waitUntil: "domcontentloaded" });
    expect(new URL(page.url()).pathname).toBe("/de/");
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${gateway.siteBase}/de/`);
    expect(await alternates()).toEqual([
      ["en", `${gateway.siteBase}/`],
      ["de", `${gateway.siteBase}/de/`],
      ["x-default", `${gateway.siteBase}/`],
    ]);
  });

  it("searches from the German footer: the German search page, one German story, counted in German", async () => {
    await page.goto(`${gateway.siteBase}/de/`, { waitUntil: "domcontentloaded" });
    const footer = page.getByRole("navigation", { name: "Website" });
    expect(await footer.getByRole("link").allTextContents()).toEqual(["Suche", "Verkehr"]);
    await follow(footer.getByRole("link", { name: "Suche" }));
    expect(new URL(page.url()).pathname).toBe("/de/search");
    const box = page.getByLabel("Die Website durchsuchen");
    await box.fill("Nachtbusse");
    await Promise.all([page.waitForURL(/\/de\/search\?q=Nachtbusse/), box.press("Enter")]);
    expect(await page.locator(".results-count").textContent()).toBe("1 Ergebnis für „Nachtbusse“");
    expect(await page.locator("main article.card h2 a").allTextContents()).toEqual(["Nachtbusse fahren ab Dezember alle 15 Minuten"]);
    if (SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/site-german-search-${name}.png`, fullPage: true });
  });

  it("is told, on a story written only in English, that the switcher's German link leads to the German home", async () => {
    await page.goto(`${gateway.siteBase}/library-late-opening`, { waitUntil: "domcontentloaded" });
    await openMenu();
    const german = page.getByRole("navigation", { name: "Languages" }).getByRole("link", { name: "Deutsch" });
    expect(await german.getAttribute("title")).toBe("This page is not written in this language: the link leads to its home page");
    // In words on the screen too: a phone shows no title.
    expect(await german.locator(".no-version-note").textContent()).toBe("(home page)");
    expect(await german.locator(".no-version-note").isVisible()).toBe(true);
    expect(await page.evaluate("getComputedStyle(document.querySelector('.lang-switcher .no-version')).textDecorationStyle")).toBe("dotted");
    if (name === "desktop") {
      // The switcher, note and all, on the brand's row: the menu has the next row to itself and the search box, on one line.
      const brand = (await page.locator(".brand").boundingBox())!;
      const switcher = (await page.locator(".lang-switcher").boundingBox())!;
      expect(switcher.y).toBeLessThan(brand.y + brand.height);
      const items = await page
        .getByRole("navigation", { name: "Main menu" })
        .locator(":scope > ul > li")
        .evaluateAll((lis) => lis.map((li) => li.getBoundingClientRect().top));
      expect(items.length).toBeGreaterThan(2);
      expect(new Set(items).size).toBe(1);
      expect(items[0]).toBeGreaterThanOrEqual(brand.y + brand.height);
    }
    await follow(german);
    expect(new URL(page.url()).pathname).toBe("/de/");
  });
});
