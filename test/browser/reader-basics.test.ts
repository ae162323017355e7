import { type Browser, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Gateway, gatewayReady, openBrowser, ownerAdmin } from "./gateway";

/**
 * A reader on the demo site, on a desktop and on a phone (issue 34): addresses written as Jinja2
 * writes them, the site's name once in the home's title, a page past the end of the list, the
 * favicon, and the HTML ad: its link opens the advertiser's page (answered here, never from the
 * network) and the click is counted; in dark mode its frame is dark too.
 */

let gateway: Gateway;
let browser: Browser;
/** READER_SHOTS=<folder>: where to write what the reader saw. */
const SHOTS = process.env.READER_SHOTS;
/** The seeded HTML ad's link (seed/content-demo.ts). */
const ADVERTISER = "https://example.com/winter-market";

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The admin API as the demo tenant's owner. */
async function ownerApi<T>(path: string): Promise<T> {
  const res = await fetch(`${gateway.base}/admin/api/tenants/${gateway.tenantId}${path}`, {
    headers: { Authorization: `Bearer ${gateway.ownerToken}` },
  });
  expect(res.status, path).toBe(200);
  const { data } = await res.json<{ data: T }>();
  return data;
}

const clicksOfAd = async (adId: number) => (await ownerApi<{ clicks: number }[]>(`/ads/${adId}/stats`)).reduce((sum, day) => sum + day.clicks, 0);

const readers = [
  { name: "desktop", options: { viewport: { width: 1280, height: 900 } } },
  { name: "phone", options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
] as const;

/**
 * The advertiser's page, answered here: nothing leaves the machine. Playwright routes no redirect's
 * next hop, so the click route is asked by the test itself (the server counts the click and answers
 * its 302), and the tab is sent on to the address the 302 names by a refresh, which is routed.
 */
async function routeAdClicks(context: BrowserContext, clickAnswers: { status: number; location?: string }[]) {
  await context.route(`${ADVERTISER}**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Winter market</title><h1>Winter market tickets</h1>" }),
  );
  await context.route("**/ads/*/click?**", async (route) => {
    const url = new URL(route.request().url());
    // Node does not resolve *.localhost: the server's own address, with the site's Host.
    const answer = await route.fetch({
      url: `http://127.0.0.1:${url.port}${url.pathname}${url.search}`,
      headers: { host: url.host },
      maxRedirects: 0,
    });
    const location = answer.headers().location;
    clickAnswers.push({ status: answer.status(), location });
    await route.fulfill({ status: 200, contentType: "text/html", body: `<meta http-equiv="refresh" content="0;url=${location}">` });
  });
}

describe.each(readers)("a reader of the demo site on a $name", ({ name, options }) => {
  let context: BrowserContext;

  beforeAll(async () => {
    context = await browser.newContext({ ...options, colorScheme: "dark" });
  });

  afterAll(async () => {
    await context?.close();
  });

  it("reads addresses written plainly and the site's name once in the home's title", async () => {
    const page = await context.newPage();
    const res = await page.goto(`${gateway.siteBase}/`, { timeout: 60_000 });
    const html = await res!.text();
    expect(html).not.toContain("&#x2f;");
    expect(html).toMatch(/<link rel="canonical" href="https?:\/\/demo\.localhost(:\d+)?\/">/);
    expect(await page.title()).toBe("Demo City Magazine");
    expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toBe("Demo City Magazine");
    expect(await page.locator('meta[name="twitter:title"]').getAttribute("content")).toBe("Demo City Magazine");
    // An article: its own title, then the site's.
    await page.locator("article.card h2 a").first().click();
    await page.waitForURL((url) => url.pathname !== "/");
    expect(await page.title()).toMatch(/^.+ · Demo City Magazine$/);
    expect(await page.title()).not.toMatch(/Demo City Magazine · Demo City Magazine/);
    await page.close();
  });

  it("skips to the content by the keyboard, and the next Tab is inside it", async () => {
    const page = await context.newPage();
    await page.goto(`${gateway.siteBase}/`, { timeout: 60_000 });
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string>("document.activeElement?.className ?? ''")).toBe("skip");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate<string>("document.activeElement?.id ?? ''")).toBe("main");
    await page.keyboard.press("Tab");
    expect(await page.evaluate<boolean>("document.getElementById('main').contains(document.activeElement)")).toBe(true);
    await page.close();
  });

  it.skipIf(name !== "phone")(
    "opens the menu panel from the keyboard, says it is open, and Escape or Close shuts it with the focus on Menu",
    async () => {
      const page = await context.newPage();
      await page.goto(`${gateway.siteBase}/`, { timeout: 60_000 });
      const link = page.locator("a.menu-open");
      const menu = page.getByRole("navigation", { name: "Main menu" });
      await expect.poll(() => link.getAttribute("aria-expanded")).toBe("false");
      for (const shut of ["Escape", "Close"]) {
        await link.focus();
        await page.keyboard.press("Enter");
        await expect.poll(() => link.getAttribute("aria-expanded"), { message: shut }).toBe("true");
        expect(await menu.isVisible()).toBe(true);
        await page.keyboard.press("Tab");
        if (shut === "Escape") await page.keyboard.press("Escape");
        else await page.locator("a.menu-close").tap();
        await expect.poll(() => link.getAttribute("aria-expanded"), { message: shut }).toBe("false");
        expect(await menu.isVisible(), shut).toBe(false);
        expect(await page.evaluate<string>("document.activeElement?.className ?? ''"), shut).toBe("menu-open");
      }
      await page.close();
    },
  );

  it("gets the theme's 'Page not found' for a page past the end of the list", async () => {
    const page = await context.newPage();
    const res = await page.goto(`${gateway.siteBase}/?page=999`);
    expect(res!.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Page not found");
    await page.close();
  });

  it("sees the site's favicon", async () => {
    const page = await context.newPage();
    await page.goto(`${gateway.siteBase}/`);
    const href = await page.locator('link[rel="icon"]').getAttribute("href");
    expect(href).toBe("/favicon.ico");
    // The tests' types know no DOM: the check is written as the page runs it.
    const width = await page.evaluate<number>(
      `new Promise((resolve) => { const icon = new Image(); icon.onload = () => resolve(icon.naturalWidth); icon.onerror = () => resolve(0); icon.src = ${JSON.stringify(href)}; })`,
    );
    expect(width).toBe(32);
    await page.close();
  });

  it("opens the HTML ad's link in a new tab, on the advertiser's page, and the click is counted; the frame is dark in dark mode", async () => {
    const [ad] = (await ownerApi<{ id: number; kind: string; slot: string }[]>(`/sites/${gateway.siteId}/ads`)).filter(
      (a) => a.kind === "html" && a.slot === "sidebar",
    );
    const before = await clicksOfAd(ad!.id);
    const clickAnswers: { status: number; location?: string }[] = [];
    // The describe's last test: the route stays on the context, whose new tab must pass through it too.
    await routeAdClicks(context, clickAnswers);
    const page = await context.newPage();
    await page.goto(`${gateway.siteBase}/`);
    const frame = page.frameLocator(".ad iframe");
    const link = frame.getByRole("link", { name: /Winter market/ });
    await page.locator(".ad iframe").scrollIntoViewIfNeeded();
    // The frame's document loads after the page's: its link is there once it has.
    await link.waitFor();
    // The frame follows the reader's dark scheme: its text is light, its background the page's own.
    const adFrame = page.frames().find((f) => f.url() === "about:srcdoc")!;
    const colors = await adFrame.evaluate<{ text: string; root: string }>(
      "({ text: getComputedStyle(document.body).color, root: getComputedStyle(document.documentElement).backgroundColor })",
    );
    expect(colors).toEqual({ text: "rgb(255, 255, 255)", root: "rgba(0, 0, 0, 0)" });
    // A line of text reads as an ad: set in from the frame's edge, its link in bold.
    const [frameBox, linkBox] = [(await page.locator(".ad iframe").boundingBox())!, (await link.boundingBox())!];
    expect(linkBox.x - frameBox.x).toBeGreaterThanOrEqual(12);
    expect(linkBox.y - frameBox.y).toBeGreaterThanOrEqual(8);
    expect(await adFrame.evaluate<string>("getComputedStyle(document.querySelector('a')).fontWeight")).toBe("600");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/reader-basics-${name}-dark.png` });

    const opened = context.waitForEvent("page");
    if (name === "phone") await link.tap();
    else await link.click();
    const advertiser = await opened;
    await advertiser.waitForURL(ADVERTISER);
    expect(await advertiser.locator("h1").textContent()).toBe("Winter market tickets");
    expect(clickAnswers).toEqual([{ status: 302, location: ADVERTISER }]);
    await expect.poll(() => clicksOfAd(ad!.id)).toBe(before + 1);
  });
});

describe("a reader who had a page before an editor unpublished a post", () => {
  it("finds the post gone on the next page they open, without reloading", async () => {
    const stamp = Date.now();
    const title = `Ferry strike called off ${stamp}`;
    const post = await ownerAdmin<{ id: number }>(gateway, "POST", "/contents", {
      siteId: gateway.siteId,
      title,
      slug: `strike-${stamp}`,
      language: "en",
    });
    await ownerAdmin(gateway, "POST", `/contents/${post.id}/publish`, {});
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${gateway.siteBase}/`);
    expect(await page.getByRole("link", { name: title }).count()).toBe(1);
    // The reader goes on to another page while the editor takes the post back.
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "City" }).click();
    await page.waitForURL((url) => url.pathname === "/c/city");
    await ownerAdmin(gateway, "POST", `/contents/${post.id}/unpublish`, {});
    // Back home by the site's own link: the browser asks again, and the post is gone.
    await page.locator("a.brand").click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.locator("h1").first().textContent()).toBe("Demo City Magazine");
    expect(await page.getByRole("link", { name: title }).count()).toBe(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/reader-basics-after-unpublish.png` });
    await context.close();
  });
});
