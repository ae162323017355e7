import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultThemeFiles, type Gateway, gatewayReady, openBrowser, ownerAdmin } from "./gateway";

/**
 * Schedules and previews as readers and editors meet them, in Chromium against `wrangler dev`:
 * a post scheduled a few seconds ahead shows on the home page, the feed and the sitemap at its time
 * for readers whose browsers had those pages before, and the console calls it published; an editor
 * previews a draft on the site and stays in preview from page to page; a theme's preview survives a
 * click. PREVIEW_SHOTS=<folder> keeps screenshots of each step.
 */

let gateway: Gateway;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const SHOTS = process.env.PREVIEW_SHOTS;

let browser: Browser;
// One context a device: Chromium starts a renderer process for each context (about a second of CPU on two cores).
const contexts = new Map<number, BrowserContext>();

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** A new tab on a device; `fresh` clears the device's cookies first, as for another reader. */
async function newPage(viewport = DESKTOP, fresh = false) {
  let context = contexts.get(viewport.width);
  if (!context) contexts.set(viewport.width, (context = await browser.newContext({ viewport })));
  if (fresh) await context.clearCookies();
  return context.newPage();
}

/** The console, signed in as the demo tenant's owner, at a path. */
async function console_(path: string) {
  const page = await newPage();
  await page.goto(`${gateway.base}/admin${path}#token=${gateway.ownerToken}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
  return page;
}

/** The admin API as the demo tenant's owner, from Node. */
const adminApi = <T>(method: string, path: string, body?: unknown, type?: string) => ownerAdmin<T>(gateway, method, path, body, type);

/** A draft of the demo site with a unique slug: other files use the same site at the same time. */
async function draft(title: string) {
  const slug = `${title.toLowerCase().replaceAll(" ", "-")}-${Date.now()}`;
  const created = await adminApi<{ id: number }>("POST", "/contents", {
    siteId: gateway.siteId,
    title,
    slug,
    language: "en",
    intro: `About ${title}`,
    bodyMarkdown: `${title}, in the browser test.`,
  });
  return { id: created.id, slug };
}

/**
 * The string a datetime-local field takes for a moment, in the browser's time zone, to the second;
 * on a whole minute without its ":00", as Chromium writes the value back (else Playwright's fill finds it changed).
 */
function localInput(at: number) {
  const local = new Date(at - new Date(at).getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  return local.endsWith(":00") ? local.slice(0, 16) : local;
}

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
});

// A test's tabs close with it: an open tab keeps Chromium working for the tests after it.
afterEach(async () => {
  for (const context of contexts.values()) for (const page of context.pages()) await page.close();
});

afterAll(async () => {
  for (const context of contexts.values()) await context.close();
  await browser?.close();
});

describe("schedules, as readers see them", () => {
  it("lists a scheduled post on the home page, the feed and the sitemap at its time for readers who had them before", async () => {
    const title = `Tide tables ${Date.now()}`;
    const post = await draft(title);
    const editor = await console_(`/contents/${post.id}`);
    await expect.poll(() => editor.locator(".meta .badge").textContent(), { timeout: 30_000 }).toBe("draft");
    const at = Date.now() + 10_000;
    await editor.getByRole("button", { name: "Publish", exact: true }).click();
    await editor.getByLabel("At a date and time").check();
    await editor.getByLabel(/^Date and time/).fill(localInput(at));
    await editor.getByRole("button", { name: /^Schedule for / }).click();
    // Scheduled, or already published when a busy machine took the 10 s to show it.
    await expect
      .poll(() => editor.locator(".meta .badge").textContent(), { timeout: 15_000 })
      .toMatch(Date.now() < at ? /^scheduled$/ : /^(scheduled|published)$/);

    // Readers on a desktop and a phone load the home page, the feed and the sitemap before its time: their browsers keep them.
    const readers = [await newPage(DESKTOP), await newPage(PHONE)];
    const documents = ["/feed.xml", "/sitemap-contents.xml"];
    // A load that began after the post's time (a machine too busy for the 10 s) shows it rightly, so only earlier ones are held to it.
    const beforeItsTime = () => Date.now() < at - 1_000;
    for (const reader of readers) {
      let early = beforeItsTime();
      await reader.goto(`${gateway.siteBase}/`);
      if (early) expect(await reader.locator("main").innerText()).not.toContain(title);
      for (const path of documents) {
        early = beforeItsTime();
        await reader.goto(`${gateway.siteBase}${path}`);
        if (early) expect(await reader.content()).not.toContain(post.slug);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now()) + 500));

    // At its time the same readers come back as readers do: one types the address, the other clicks the site's home link.
    for (const [i, reader] of readers.entries()) {
      if (i === 0) await reader.goto(`${gateway.siteBase}/`);
      else {
        await reader.goto(`${gateway.siteBase}/search?q=tide`);
        await reader.locator('a[href="/"]').first().click();
        await reader.waitForURL(`${gateway.siteBase}/`);
      }
      expect(await reader.locator("main").innerText()).toContain(title);
      await shot(reader, `scheduled-home-${i ? "phone" : "desktop"}`);
      for (const path of documents) {
        await reader.goto(`${gateway.siteBase}${path}`);
        expect(await reader.content(), path).toContain(post.slug);
      }
    }
    await editor.reload();
    await expect.poll(() => editor.locator(".meta .badge").textContent(), { timeout: 30_000 }).toBe("published");
    await shot(editor, "scheduled-console");
  });
});

describe("previews on the site", () => {
  it("opens a draft on the site from the console and stays in preview page after page; others get a 404", async () => {
    const title = `Harbour plans ${Date.now()}`;
    const post = await draft(title);
    const editor = await console_(`/contents/${post.id}`);
    const button = editor.getByRole("button", { name: "Preview on site" });
    await expect.poll(() => button.count(), { timeout: 30_000 }).toBe(1);
    const [preview] = await Promise.all([editor.context().waitForEvent("page"), button.click()]);
    // The console closes the tab when the link is refused: its message says why (a failure seen once on a loaded machine).
    await preview.waitForURL(`${gateway.siteBase}/${post.slug}`).catch(async (error: unknown) => {
      throw new Error(`the preview tab closed; the console said: ${(await editor.getByRole("alert").allTextContents()).join(" ") || "nothing"}`, {
        cause: error,
      });
    });
    expect(await preview.locator("h1").first().textContent()).toContain(title);
    expect(await preview.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    await expect.poll(() => preview.getByRole("status").textContent()).toContain("Preview of unpublished content:");
    await shot(preview, "draft-preview");
    const link = preview.url();

    // A click inside the previewed site: still in preview, and the draft is still there to come back to.
    await preview.locator('a[href="/"]').first().click();
    await preview.waitForURL(`${gateway.siteBase}/`);
    expect(await preview.getByRole("status").textContent()).toContain("Preview of unpublished content:");
    await preview.goBack();
    await preview.reload();
    expect(await preview.locator("h1").first().textContent()).toContain(title);

    // The link itself, opened on a phone: the same preview.
    const tokenLink = await adminApi<{ url: string }>("POST", `/contents/${post.id}/preview-link`);
    const phone = await newPage(PHONE);
    await phone.goto(tokenLink.url);
    expect(await phone.locator("h1").first().textContent()).toContain(title);
    await phone.locator('a[href="/"]').first().click();
    expect(await phone.getByRole("status").textContent()).toContain("Preview");
    await shot(phone, "draft-preview-phone");

    // A reader without the link.
    const reader = await newPage(DESKTOP, true);
    const answer = await reader.goto(link);
    expect(answer?.status()).toBe(404);
    expect(await reader.getByRole("status").count()).toBe(0);
  });

  it("keeps a theme's preview after the reader clicks a link in the previewed site", async () => {
    const name = `preview-${Date.now()}`;
    const files = defaultThemeFiles();
    const base = new TextDecoder().decode(files["layouts/base.html.j2"]);
    files["layouts/base.html.j2"] = new TextEncoder().encode(base.replace(/<body[^>]*>/, (tag) => `${tag}<p id="theme-marker">Autumn theme</p>`));
    const stored = await adminApi<{ previewUrl: string }>("POST", `/sites/${gateway.siteId}/themes?name=${name}`, zipSync(files), "application/zip");

    for (const viewport of [DESKTOP, PHONE]) {
      const reader = await newPage(viewport, true);
      await reader.goto(`${gateway.siteBase}${stored.previewUrl}`);
      expect(await reader.locator("#theme-marker").count()).toBe(1);
      // The first article of the list, then the home link: plain addresses, no token on them.
      await reader.locator('main article a[href^="/"]').first().click();
      await reader.waitForLoadState();
      expect(reader.url()).not.toContain("token=");
      expect(await reader.locator("#theme-marker").count()).toBe(1);
      await shot(reader, `theme-preview-after-click-${viewport.width}`);
    }
    // Anyone else: the site's own theme.
    const other = await newPage(DESKTOP, true);
    await other.goto(`${gateway.siteBase}/`);
    expect(await other.locator("#theme-marker").count()).toBe(0);
  });
});
