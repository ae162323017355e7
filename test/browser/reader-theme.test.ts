import { zipSync } from "fflate";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultThemeFiles, type Gateway, gatewayReady, openBrowser, ownerAdmin } from "./gateway";

/**
 * A reader of the demo site with the default theme, on a desktop and on a phone: the menu's links
 * and its second level (keyboard, tap), the search box, an article's cover, byline, tags, reading
 * time and date, no sideways scrolling, no layout shift, and the ad slot. SCREENSHOTS=1 writes the
 * theme's screenshots in docs/screenshots/ (theme-*.png).
 */

let gateway: Gateway;
const SCREENSHOTS = process.env.SCREENSHOTS === "1";
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let browser: Browser;
// The desktop reader's context, for every desktop page of the file: each context costs Chromium a renderer process.
let desktop: BrowserContext;
const stamp = Date.now().toString(36);
// A word of its own, so that the search finds this post and no other file's; the docs' screenshots read as a real site.
const word = SCREENSHOTS ? "lighthouse" : `lighthouse${stamp}`;
const post = {
  slug: `reader-theme-${stamp}`,
  title: `The ${word} keeper's last winter`,
  tags: [SCREENSHOTS ? "keepers" : `keepers-${stamp}`, "harbour-life"],
};
/** The demo's own menu links (seed/content-demo.ts) and the heading each page shows; other files add links of their own. */
const MENU = [
  { label: "City", heading: "City" },
  { label: "Culture", heading: "Culture" },
  { label: "Sport", heading: "Sport" },
  { label: "Football", heading: "Football" },
  { label: "About", heading: "About Demo City Magazine" },
];
const FOOTER_MENU = [
  { label: "About us", heading: "About Demo City Magazine" },
  { label: "Search", heading: "Search" },
  { label: "Transport", heading: "#transport" },
];
let plainSiteBase: string;
let plainSiteId: number;

const admin = <T>(method: string, path: string, body?: unknown, type?: string) => ownerAdmin<T>(gateway, method, path, body, type);

/** A cover as a person would make one: a picture (drawn by Chromium) uploaded to the site's media. */
async function coverPicture(): Promise<Uint8Array> {
  const page = await desktop.newPage();
  await page.setViewportSize({ width: 1600, height: 900 });
  await page.setContent(
    `<body style="margin:0;height:900px;background:linear-gradient(160deg,#0f3d63 0%,#2d6f9e 45%,#f2b66d 75%,#f7e3c4 100%)">
     <div style="position:absolute;left:980px;top:250px;width:70px;height:420px;background:repeating-linear-gradient(#f4f4f4 0 70px,#c0392b 70px 140px)"></div>
     <div style="position:absolute;left:960px;top:200px;width:110px;height:60px;background:#1d2b36;border-radius:8px 8px 0 0"></div>
     <div style="position:absolute;left:0;right:0;top:670px;bottom:0;background:#12324d"></div></body>`,
  );
  const png = await page.screenshot({ type: "png" });
  await page.close();
  return new Uint8Array(png);
}

/** A page of the demo site; the console's browser test may show its own home page for a moment while it tries a theme. */
async function open(page: Page, path: string, base = gateway.siteBase) {
  for (let tries = 0; ; tries++) {
    const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
    if (tries > 10 || (await page.locator("#marker").count()) === 0) return response;
    await page.waitForTimeout(500);
  }
}

const noSidewaysScroll = (page: Page) => page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth");

async function shot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/${name}.png` });
}

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
  desktop = await browser.newContext(DESKTOP);
  const media = await admin<{ url: string }>("POST", `/media?siteId=${gateway.siteId}&filename=lighthouse.png`, await coverPicture(), "image/png");
  const paragraph = `The ${word} stands at the end of the north mole, and for forty winters one keeper climbed its 118 steps every evening.`;
  const created = await admin<{ id: number }>("POST", "/contents", {
    siteId: gateway.siteId,
    slug: post.slug,
    title: post.title,
    intro: "The lamp is automatic now; the keeper stays for one more season to show visitors the lens.",
    // 660 words: three minutes at 230 words a minute.
    bodyMarkdown: Array.from({ length: 30 }, () => paragraph).join("\n\n"),
    coverImages: media.url,
    language: "en",
    tags: post.tags,
  });
  await admin("POST", `/contents/${created.id}/publish`, {});
  // A site of the same owner with the default theme and no ad.
  const slug = `plain-${stamp}`;
  const site = await admin<{ id: number }>("POST", "/sites", { name: "Plain Paper", slug });
  await admin("POST", `/sites/${site.id}/themes?name=default`, zipSync(defaultThemeFiles()), "application/zip");
  plainSiteBase = gateway.siteBase.replace("//demo.", `//${slug}.`);
  plainSiteId = site.id;
});

afterAll(async () => {
  await browser?.close();
});

describe("a reader of the default theme on a desktop", () => {
  let page: Page;
  beforeAll(async () => {
    page = await desktop.newPage();
  });
  afterAll(() => page.close());

  it("follows every link of the demo's menus to a page that answers 200 and shows it", async () => {
    for (const { label, heading } of MENU) {
      await open(page, "/");
      const nav = page.getByRole("navigation", { name: "Main menu" });
      const link = nav.getByRole("link", { name: label, exact: true });
      // Football is in the second level: its disclosure opens first.
      if (!(await link.isVisible())) await nav.locator('summary[aria-label="More in Sport"]').click();
      const [response] = await Promise.all([page.waitForNavigation(), link.click()]);
      expect(response?.status(), label).toBe(200);
      expect(await page.locator("h1").first().textContent(), label).toBe(heading);
    }
    for (const { label, heading } of FOOTER_MENU) {
      await open(page, "/");
      const [response] = await Promise.all([
        page.waitForNavigation(),
        page.locator(".site-footer").getByRole("link", { name: label, exact: true }).click(),
      ]);
      expect(response?.status(), label).toBe(200);
      expect(await page.locator("h1").first().textContent(), label).toBe(heading);
    }
  });

  it("keeps the header's shape with a long menu: the brand above, every item on the screen, none over another or the search", async () => {
    // A site of its own: the demo's menu is read by other files at the same time.
    const labels = ["City", "Culture", "Sport", "Business", "Transport", "Weather", "Events", "Districts", "Opinion"];
    await admin("PUT", "/tags", {
      siteId: plainSiteId,
      type: "menu",
      name: "main",
      definition: { items: labels.map((label) => ({ label, link: { url: `/${label.toLowerCase()}` } })) },
    });
    await open(page, "/", plainSiteBase);
    const brand = (await page.locator(".brand").first().boundingBox())!;
    const search = (await page.locator(".site-search").boundingBox())!;
    const nav = page.getByRole("navigation", { name: "Main menu" });
    const boxes = await Promise.all(labels.map(async (label) => (await nav.getByRole("link", { name: label, exact: true }).boundingBox())!));
    for (const [i, box] of boxes.entries()) {
      expect(box.y, `${labels[i]} is below the brand`).toBeGreaterThanOrEqual(brand.y + brand.height);
      expect(box.x + box.width, `${labels[i]} is on the screen`).toBeLessThanOrEqual(DESKTOP.viewport.width);
      const overSearch =
        box.x < search.x + search.width && box.x + box.width > search.x && box.y < search.y + search.height && box.y + box.height > search.y;
      expect(overSearch, `${labels[i]} is not under the search box`).toBe(false);
      for (const other of boxes.slice(i + 1)) {
        const overlaps =
          box.x < other.x + other.width && box.x + box.width > other.x && box.y < other.y + other.height && box.y + box.height > other.y;
        expect(overlaps, `${labels[i]} overlaps another item`).toBe(false);
      }
    }
    expect((await page.locator(".site-header").boundingBox())!.height).toBeLessThan(200);
    await shot(page, "theme-long-menu-desktop");
  });

  it("reaches the second level of the menu with the keyboard alone", async () => {
    await open(page, "/");
    let focused = "";
    for (let presses = 0; presses < 12 && focused !== "More in Sport"; presses++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate<string>("document.activeElement.getAttribute('aria-label') ?? document.activeElement.textContent");
    }
    expect(focused).toBe("More in Sport");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string>("document.activeElement.textContent")).toBe("Football");
    await expect
      .poll(() => page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Football", exact: true }).isVisible())
      .toBe(true);
    await shot(page, "theme-menu-desktop");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(new URL(page.url()).pathname).toBe("/c/football");
    expect(await page.locator("h1").textContent()).toBe("Football");
  });

  it("closes the second level with Escape, and when focus or a click goes elsewhere", async () => {
    await open(page, "/");
    const nav = page.getByRole("navigation", { name: "Main menu" });
    const sport = nav.locator('summary[aria-label="More in Sport"]');
    const football = nav.getByRole("link", { name: "Football", exact: true });
    await sport.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string>("document.activeElement.textContent")).toBe("Football");
    await page.keyboard.press("Escape");
    await expect.poll(() => football.isVisible()).toBe(false);
    expect(await page.evaluate<string>("document.activeElement.getAttribute('aria-label')")).toBe("More in Sport");
    // Open again, then on past its last link with Tab: it closes behind the reader.
    await page.keyboard.press("Enter");
    await expect.poll(() => football.isVisible()).toBe(true);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect.poll(() => football.isVisible()).toBe(false);
    // Opened with the mouse, closed by a click on the page.
    await sport.click();
    await expect.poll(() => football.isVisible()).toBe(true);
    await page.locator("main h1").first().click();
    await expect.poll(() => football.isVisible()).toBe(false);
  });

  it("opens the second level while the mouse rests on its item, and closes it once the mouse leaves", async () => {
    await open(page, "/");
    const nav = page.getByRole("navigation", { name: "Main menu" });
    const football = nav.getByRole("link", { name: "Football", exact: true });
    await nav.getByRole("link", { name: "Sport", exact: true }).hover();
    await expect.poll(() => football.isVisible()).toBe(true);
    await page.mouse.move(640, 600);
    await expect.poll(() => football.isVisible()).toBe(false);
    // Down from the item into its list, across the gap between them, and on to a link of it.
    await nav.getByRole("link", { name: "Sport", exact: true }).hover();
    await Promise.all([page.waitForNavigation(), football.click()]);
    expect(new URL(page.url()).pathname).toBe("/c/football");
  });

  it("finds a post with the search box in the header", async () => {
    await open(page, "/");
    const box = page.getByRole("search").getByRole("searchbox");
    await box.fill(word);
    await Promise.all([page.waitForNavigation(), box.press("Enter")]);
    expect(new URL(page.url()).pathname).toBe("/search");
    await expect.poll(() => page.locator(".card-title a").allTextContents()).toEqual([post.title]);
    expect(await page.locator(".results-count").textContent()).toBe(`1 result for “${word}”`);
    // One search box on the search page: its own, with the query in it.
    expect(await page.getByRole("search").count()).toBe(1);
    expect(await page.getByRole("search").getByRole("searchbox").inputValue()).toBe(word);
  });

  it("shows an article with its cover, author, tags, reading time and a readable date, without layout shift", async () => {
    // The cover arrives late, as on a slow line: nothing below it may move when it comes.
    await page.route("**/media/**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.goto(`${gateway.siteBase}/${post.slug}`, { waitUntil: "domcontentloaded" });
    const cover = page.locator(".post-cover img");
    expect(await cover.getAttribute("width")).toMatch(/^\d+$/);
    expect(await cover.getAttribute("height")).toMatch(/^\d+$/);
    expect(await cover.getAttribute("loading")).toBeNull();
    const bodyTop = () => page.locator(".body").evaluate((body) => body.getBoundingClientRect().top);
    // Measured once the stylesheet applies (it may come after the document on a busy machine); the cover is still on its way.
    await expect.poll(() => page.evaluate<boolean>("[...document.styleSheets].some((sheet) => sheet.cssRules.length > 0)")).toBe(true);
    const before = await bodyTop();
    expect((await cover.boundingBox())?.height).toBeGreaterThan(300);
    await page.waitForLoadState("load");
    expect(await bodyTop()).toBe(before);
    await page.unroute("**/media/**");

    const meta = page.locator(".post-header .meta");
    expect(await meta.locator(".reading-time").textContent()).toBe("3 min read");
    expect(await meta.locator("time").textContent()).toMatch(/^\d{1,2}\.? \p{L}+ \d{4}$/u);
    expect(await page.locator(".post-footer").getByRole("link").allTextContents()).toEqual(post.tags.map((tag) => `#${tag}`));
    // A screen reader names the link by the tag alone: the sign before it is drawn, not read.
    await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: post.tags[0], exact: true }).click()]);
    expect(await page.locator(".card-title a").allTextContents()).toEqual([post.title]);

    await open(page, "/harbour-reopens");
    expect(await page.locator(".post-header .author").textContent()).toBe("By Mara Lind");
    await shot(page, "theme-article-desktop");
  });

  it("lists covers that keep their space and load lazily below the fold", async () => {
    await open(page, "/");
    const covers = page.locator(".card img.cover");
    expect(await covers.count()).toBeGreaterThan(0);
    for (const img of await covers.all()) {
      expect(await img.getAttribute("width")).toMatch(/^\d+$/);
      expect(await img.getAttribute("height")).toMatch(/^\d+$/);
    }
    const feature = page.locator(".card-feature img.cover");
    if ((await feature.count()) > 0) expect(await feature.getAttribute("loading")).toBeNull();
    expect(
      await page.locator(".card:not(.card-feature) img.cover").evaluateAll((imgs) => imgs.every((img) => img.getAttribute("loading") === "lazy")),
    ).toBe(true);
    await shot(page, "theme-home-desktop");
  });

  it("labels the ad as an ad, and draws no ad box on a site without one", async () => {
    await open(page, "/harbour-reopens");
    const ad = page.getByRole("complementary", { name: "Advertisement" });
    expect(await ad.locator(".ad-label").isVisible()).toBe(true);
    expect(await ad.locator(".ad-label").textContent()).toBe("Advertisement");
    // Its link in the text's colour, not the browser's blue.
    const frame = ad.frameLocator("iframe");
    const colour = (selector: string) =>
      frame.locator(selector).evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).color);
    expect(await colour("body")).toMatch(/^rgb\(/);
    expect(await colour("a")).toBe(await colour("body"));
    const response = await open(page, "/", plainSiteBase);
    expect(response?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe("Plain Paper");
    expect(await page.locator(".ad, iframe, aside").count()).toBe(0);
  });

  it("puts the ad right under a short page, and the footer at the window's foot", async () => {
    // A search that finds nothing: a heading, the form and a line.
    await open(page, "/search?q=zeppelin");
    const lineBottom = await page.locator("main .empty").evaluate((line) => line.getBoundingClientRect().bottom);
    const adTop = await page.locator(".ad").evaluate((ad) => ad.getBoundingClientRect().top);
    expect(adTop - lineBottom).toBeLessThan(150);
    const footerBottom = await page.locator(".site-footer").evaluate((footer) => footer.getBoundingClientRect().bottom);
    expect(footerBottom).toBe(DESKTOP.viewport.height);
  });

  it("prints an article with the footer after its text, not at the foot of the page", async () => {
    await page.emulateMedia({ media: "print" });
    await open(page, "/about");
    const textBottom = await page.locator(".body").evaluate((body) => body.getBoundingClientRect().bottom);
    const footerTop = await page.locator(".site-footer").evaluate((footer) => footer.getBoundingClientRect().top);
    expect(footerTop - textBottom).toBeLessThan(100);
    // One column from the margin: the title starts where the text does.
    const left = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => element.getBoundingClientRect().left);
    expect(await left(".post-title")).toBe(await left(".body p"));
    await page.emulateMedia({ media: "screen" });
  });
});

describe("a reader of the default theme on a phone", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await browser.newContext(PHONE);
    page = await context.newPage();
  });
  afterAll(() => context.close());

  it("opens the menu and its second level by tapping, with nothing to scroll sideways", async () => {
    await open(page, "/");
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, "theme-home-phone");
    const nav = page.getByRole("navigation", { name: "Main menu" });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole("link", { name: "Menu", exact: true }).tap();
    await expect.poll(() => nav.isVisible()).toBe(true);
    await nav.locator('summary[aria-label="More in Sport"]').tap();
    await expect.poll(() => nav.getByRole("link", { name: "Football", exact: true }).isVisible()).toBe(true);
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, "theme-menu-phone");
    await Promise.all([page.waitForNavigation(), nav.getByRole("link", { name: "Football", exact: true }).tap()]);
    expect(await page.locator("h1").textContent()).toBe("Football");
    expect(await page.getByRole("navigation", { name: "Main menu" }).isVisible()).toBe(false);
  });

  it("reads an article, its cover as wide as the screen, and the search page without sideways scrolling", async () => {
    await open(page, `/${post.slug}`);
    expect((await page.locator(".post-cover img").boundingBox())?.width).toBeLessThanOrEqual(PHONE.viewport.width);
    for (const path of [`/${post.slug}`, "/harbour-reopens", `/search?q=${word}`, "/c/sport", "/about"]) {
      await open(page, path);
      expect(await noSidewaysScroll(page), path).toBe(true);
    }
    await open(page, "/harbour-reopens");
    await shot(page, "theme-article-phone");
  });
});

describe("the default theme in dark mode and in German", () => {
  it("writes the screenshots of docs/themes.md", async () => {
    const page = await desktop.newPage();
    await page.emulateMedia({ colorScheme: "dark" });
    await open(page, "/");
    expect(await page.evaluate<string>("getComputedStyle(document.body).backgroundColor")).toBe("rgb(21, 23, 27)");
    await shot(page, "theme-home-dark");
    await open(page, `/${post.slug}`);
    await shot(page, "theme-article-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await open(page, "/de/");
    await shot(page, "theme-home-de");
    await open(page, "/de/hafen-wieder-offen");
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    await shot(page, "theme-article-de");
    await page.close();
  });
});
