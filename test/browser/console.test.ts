import { type Browser, type Page, type Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromSite, type Gateway, gatewayReady, openBrowser, showConsoleOnFailure } from "./gateway";

/**
 * The admin console in headless Chromium against `wrangler dev` (global-setup.ts): a member signs
 * in, writes, schedules and publishes a post with a cover, sees it on the demo site, its sitemap
 * and feed, edits a menu, creates and revokes a key; a viewer is refused an editor's action.
 * Themes are activated on a site of their own (console-ads-themes.test.ts): a theme made active
 * on the demo site, every file's, changed what the other files saw there and copied.
 * SCREENSHOTS=1 writes the screenshots of docs/console.md.
 */

let gateway: Gateway;
const SCREENSHOTS = process.env.SCREENSHOTS === "1";

// The smallest PNG: a 1×1 pixel, as a cover.
const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

let browser: Browser;
let page: Page;

async function shot(target: Page, name: string) {
  if (SCREENSHOTS) await target.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: false });
}

const sitePage = (pathOrUrl: string) => fromSite(gateway, pathOrUrl);

async function signIn(token: string, path = "/admin/") {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const signed = await context.newPage();
  signed.on("dialog", (dialog) => dialog.accept());
  // The console draws itself once its script runs; each test then waits for what it needs to see. A fresh Chromium
  // beside a busy suite on two cores can take long for its first page, so the first navigation gets a minute.
  await signed.goto(`${gateway.base}${path}#token=${token}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
  return signed;
}

const heading = (target: Page) => target.locator("h1#screen-title");

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
  page = await signIn(gateway.ownerToken);
});

// A failed step says what the console showed: its messages are the evidence.
showConsoleOnFailure(() => page);

afterAll(async () => {
  await browser?.close();
});

describe("the admin console, in a browser", () => {
  it("signs in from the token handed over in the address, and drops it from the address", async () => {
    await expect.poll(() => heading(page).textContent()).toBe("Dashboard");
    expect(page.url()).toBe(`${gateway.base}/admin/`);
    // Other browser files write to the same demo site at the same time: the count is theirs too.
    await expect.poll(() => page.locator(".card h2").allTextContents()).toContainEqual(expect.stringMatching(/^Drafts \(\d+\)$/));
    // The room the tenant's sites take together: a bar for each bound, named by what it measures.
    const room = page.locator(".card", { has: page.getByRole("heading", { name: "Room of Demo City Magazine" }) });
    for (const [label, bound] of [
      ["Media", "1 GB"],
      ["Themes, unpacked", "200 MB"],
      ["Texts, every saved version", "100 MB"],
    ])
      expect(await room.getByRole("meter", { name: new RegExp(`^${label}: [\\d.,]+ (KB|MB) of ${bound} used$`) }).count()).toBe(1);
    await shot(page, "console-dashboard");
  });

  const title = `Browser post ${Date.now()}`;
  const slug = title.toLowerCase().replaceAll(" ", "-");

  it("shows the API's message beside the field it is about", async () => {
    await page.getByRole("link", { name: "Contents", exact: true }).click();
    await page.getByRole("link", { name: "New content" }).click();
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Slug", { exact: true }).fill("Not A Slug");
    await page.getByRole("button", { name: "Create draft" }).click();
    const slugField = page.getByLabel("Slug", { exact: true });
    await expect.poll(() => slugField.getAttribute("aria-invalid")).toBe("true");
    const described = await slugField.getAttribute("aria-describedby");
    const error = page.locator(`[id="${described!.split(" ").pop()}"]`);
    expect(await error.textContent()).toBe("The slug must be lower-case letters and digits joined by single dashes, like museum-night");
    expect(await page.getByRole("alert").first().textContent()).not.toContain("body.slug");
  });

  it("writes a post with a cover and a live preview, and saves it as a draft", async () => {
    await page.getByLabel("Slug", { exact: true }).fill(slug);
    await page.getByLabel("Body (Markdown)", { exact: true }).fill("Hello from **the browser**.");
    await expect.poll(() => page.locator(".preview .prose").innerHTML()).toContain("<strong>the browser</strong>");
    await page.locator('input[name="cover"]').setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PIXEL_PNG });
    await expect.poll(() => page.locator('.dropzone img[alt="The cover"]').getAttribute("src")).toMatch(/^\/media\//);
    await page.getByLabel("SEO description", { exact: true }).fill("A post written by the browser test.");
    await expect.poll(() => page.locator(".serp").textContent()).toContain("A post written by the browser test.");
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect.poll(() => page.url()).toMatch(/\/admin\/contents\/\d+$/);
    await expect.poll(() => page.locator(".meta .badge").textContent()).toBe("draft");
    // The saved draft, as the editor shows it after the save and after a reload.
    for (const reload of [false, true]) {
      if (reload) await page.reload();
      await expect.poll(() => page.getByLabel("Title", { exact: true }).inputValue()).toBe(title);
      expect(await page.getByLabel("Body (Markdown)", { exact: true }).inputValue()).toBe("Hello from **the browser**.");
      await expect.poll(() => page.locator(".preview .prose").innerHTML()).toContain("<strong>the browser</strong>");
    }
    await shot(page, "console-editor");
  });

  it("schedules it (not on the site yet), then publishes it: on the site, in the sitemap and the feed", async () => {
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
    const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByLabel("At a date and time").check();
    await page.getByLabel(/^Date and time/).fill(local);
    await page.getByRole("button", { name: /^Schedule for / }).click();
    await expect.poll(() => page.locator(".meta .badge").textContent()).toBe("scheduled");
    expect((await sitePage(`/${slug}`)).status).toBe(404);

    await page.getByRole("button", { name: "Reschedule" }).click();
    await page.getByLabel("Now").check();
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect.poll(() => page.locator(".meta .badge").textContent()).toBe("published");
    const site = await page.context().newPage();
    await site.goto(`${gateway.siteBase}/${slug}`);
    expect(await site.locator("h1").first().textContent()).toContain(title);
    expect(await site.locator("article").innerHTML()).toContain("<strong>the browser</strong>");
    expect(await site.locator('meta[property="og:image"]').getAttribute("content")).toMatch(/\/media\//);
    await site.goto(`${gateway.siteBase}/`);
    await shot(site, "demo-site-home");
    await site.close();
    expect((await sitePage("/sitemap-contents.xml")).text).toContain(`${gateway.siteBase}/${slug}</loc>`);
    expect((await sitePage("/feed.xml")).text).toContain(`<title>${title}</title>`);
  });

  it("edits the main menu, which the site renders at once", async () => {
    await page.getByRole("link", { name: "Menus & tags" }).click();
    await page.getByRole("button", { name: "Edit main", exact: true }).click();
    await page.getByRole("button", { name: "Add an item" }).click();
    const labels = page.getByLabel(/^Item \d+ label$/);
    await labels.last().fill("Browser menu item");
    await page
      .getByLabel(/^Address \(item \d+\)$/)
      .last()
      .fill("/browser-menu-item");
    await page.getByRole("button", { name: "Save menu" }).click();
    await expect.poll(() => page.getByRole("status").allTextContents()).toContain("Saved main.");
    await page.getByRole("button", { name: "Preview main", exact: true }).click();
    await expect.poll(() => page.locator(".menu-preview").innerHTML()).toContain("/browser-menu-item");
    const home = (await sitePage("/")).text;
    expect(home).toContain('<a href="/browser-menu-item">Browser menu item</a>');
  });

  it("creates a tenant key shown once, which the content API takes until it is revoked", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Name", { exact: true }).fill("browser key");
    await page.getByRole("button", { name: "Create key" }).click();
    const token = (await page.getByLabel("The new key").textContent())!;
    expect(token).toMatch(/^svc_tk_/);
    const headless = () => fetch(`${gateway.base}/api/mcp/site/info?siteId=${gateway.siteId}`, { headers: { "X-API-Key": token } });
    expect((await headless()).status).toBe(200);
    await page.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.locator("main").textContent()).not.toContain(token);
    await page.getByRole("button", { name: "Revoke browser key" }).click();
    await expect.poll(() => page.getByRole("status").allTextContents()).toContain("Revoked browser key.");
    expect((await headless()).status).toBe(401);
  });

  it("lets a viewer read but not act: no editor's controls, and the API refuses the action", async () => {
    const viewer = await signIn(gateway.viewerToken, "/admin/contents");
    await expect.poll(() => heading(viewer).textContent()).toBe("Contents");
    expect(await viewer.getByRole("link", { name: "New content" }).count()).toBe(0);
    expect(await viewer.getByRole("link", { name: "API keys" }).count()).toBe(0);
    await viewer.getByRole("link", { name: title }).click();
    await expect.poll(() => viewer.locator("#editor-note").textContent()).toBe("Your role lets you read this content, not change it.");
    // Said above the fields, which look read-only: greyed, not white boxes waiting for input.
    const titleField = viewer.getByLabel("Title", { exact: true });
    expect((await viewer.locator("#editor-note").boundingBox())!.y).toBeLessThan((await titleField.boundingBox())!.y);
    const background = `getComputedStyle(document.querySelector('#editor-form input[name="title"]')).backgroundColor`;
    expect(await viewer.evaluate<string>(background)).not.toBe("rgb(255, 255, 255)");
    await shot(viewer, "console-viewer-reads");
    expect(await viewer.getByRole("button", { name: "Publish", exact: true }).count()).toBe(0);
    // The same action sent anyway, with the viewer's own session and CSRF token.
    const id = viewer.url().split("/").pop();
    const status = await viewer.evaluate(
      async ({ tenantId, id }) => {
        const session = await (await fetch("/admin/api/session")).json<{ data: { csrfToken: string } }>();
        const res = await fetch(`/admin/api/tenants/${tenantId}/contents/${id}/unpublish`, {
          method: "POST",
          headers: { "X-CSRF-Token": session.data.csrfToken },
        });
        return res.status;
      },
      { tenantId: gateway.tenantId, id },
    );
    expect(status).toBe(403);
    await viewer.context().close();
  });

  it("keeps up with an editor clicking through every screen briskly, and stays signed in on reload", async () => {
    const nav = page.getByRole("navigation", { name: "Console" });
    await expect.poll(() => nav.locator("ul a").count()).toBeGreaterThan(8);
    const screens = await nav.locator("ul a").allTextContents();
    // Three rounds of every screen: some 150 admin calls in well under a minute, past the free plan's 60.
    for (let round = 0; round < 3; round++)
      for (const label of screens) {
        const link = nav.locator("ul a", { hasText: label });
        await link.click();
        await expect.poll(() => link.getAttribute("aria-current")).toBe("page");
        await expect.poll(() => heading(page).count()).toBe(1);
        expect(await page.locator("body").innerText()).not.toMatch(/rate limit|too many requests/i);
      }
    await page.reload({ waitUntil: "domcontentloaded" });
    await expect.poll(() => heading(page).count()).toBe(1);
    expect(await page.getByRole("heading", { name: "Sign in to the console" }).count()).toBe(0);
  });

  it("shows only the screen last opened when a second click comes before the first screen has drawn", async () => {
    const inFlight = new Set<Request>();
    const started = (request: Request) => inFlight.add(request);
    const ended = (request: Request) => inFlight.delete(request);
    page.on("request", started).on("requestfinished", ended).on("requestfailed", ended);
    await expect.poll(() => page.locator('nav a[href="/admin/media"]').count()).toBe(1);
    // Contents, then Media in the same task: Contents is drawn, then leaves the page before its effects would run.
    const drawnBetween = await page.evaluate<string>(`(async () => {
      document.querySelector('nav a[href="/admin/contents"]').click();
      for (let turn = 0; turn < 5; turn++) await Promise.resolve();
      const drawn = document.getElementById("screen-title").textContent;
      document.querySelector('nav a[href="/admin/media"]').click();
      return drawn;
    })()`);
    expect(drawnBetween).toBe("Contents");
    await expect.poll(() => heading(page).textContent()).toBe("Media");
    await expect.poll(() => page.locator("main [aria-busy=true]").count()).toBe(0);
    // Whatever Contents may still have asked for has come back, and the page has drawn it.
    await expect.poll(() => inFlight.size).toBe(0);
    await page.evaluate("new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))");
    expect(await heading(page).allTextContents()).toEqual(["Media"]);
    page.off("request", started).off("requestfinished", ended).off("requestfailed", ended);
  });

  it("finds a content by words of its title, in any case, and says when none has them", async () => {
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Contents", exact: true }).click();
    const search = page.getByLabel("Find by title", { exact: true });
    const titles = () => page.locator("table.contents tbody td:first-child").allTextContents();
    // "Browser post 1764…" found by "POST 1764…": its last two words, in capitals.
    const words = `POST ${title.split(" ")[2]}`;
    await search.fill(words);
    await expect.poll(titles).toEqual([title]);
    expect(page.url()).toContain(`q=${words.replace(" ", "+")}`);
    await search.fill("no title has these words");
    await expect.poll(() => page.getByText("No content has “no title has these words” in its title.", { exact: true }).count()).toBe(1);
    await search.fill("");
    await expect.poll(async () => (await titles()).length).toBeGreaterThan(1);
  });

  it("names each table for a screen reader's list of tables", async () => {
    const nav = page.getByRole("navigation", { name: "Console" });
    const named: [string, string[]][] = [
      ["Contents", ["Contents"]],
      ["Menus & tags", ["Menus and tags"]],
      ["Ads", ["Ads of this site"]],
      ["Members", ["Members"]],
      ["API keys", ["Sites and their siteId"]],
    ];
    for (const [screen, tables] of named) {
      await nav.getByRole("link", { name: screen, exact: true }).click();
      for (const name of tables)
        await expect.poll(() => page.getByRole("table", { name, exact: true }).count(), { message: `${screen}: ${name}` }).toBe(1);
      expect(await page.locator("table:not(:has(> caption))").count()).toBe(0);
      // A row's actions stay a table cell: a flex box there drew its border off the row's line.
      expect(
        await page.evaluate<boolean>(`[...document.querySelectorAll("td.actions")].every((cell) => getComputedStyle(cell).display === "table-cell")`),
      ).toBe(true);
    }
  });

  it("is usable on a phone and in the dark", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark", isMobile: true });
    const small = await phone.newPage();
    await small.goto(`${gateway.base}/admin/#token=${gateway.ownerToken}`);
    await expect.poll(() => heading(small).textContent()).toBe("Dashboard");
    await expect.poll(() => small.locator(".card").count()).toBe(5);
    const overflow = await small.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    const background = await small.evaluate<string>("getComputedStyle(document.body).backgroundColor");
    expect(background).toBe("rgb(21, 24, 28)");
    await shot(small, "console-phone-dark");
    // The contents list fits the screen: each content a card, its date in view, nothing to scroll sideways.
    await small.getByRole("button", { name: "Menu" }).click();
    await small.getByRole("link", { name: "Contents", exact: true }).click();
    await expect.poll(() => heading(small).textContent()).toBe("Contents");
    const list = small.locator("table.contents");
    await expect.poll(() => list.locator("tbody tr").count()).toBeGreaterThan(0);
    expect(await list.evaluate((table) => table.scrollWidth <= table.clientWidth)).toBe(true);
    const changed = list.locator("td.changed").first();
    expect(await changed.isVisible()).toBe(true);
    expect((await changed.boundingBox())!.x + (await changed.boundingBox())!.width).toBeLessThanOrEqual(390);
    await shot(small, "console-contents-phone-dark");
    // Each title is marked with its content's language, so that a screen reader reads a German one in German; the column names it.
    const rows = await small.evaluate<[string | null, string][]>(
      `[...document.querySelectorAll("table.contents tbody tr")].map((row) => [row.querySelector("td a").getAttribute("lang"), row.querySelectorAll("td")[1].textContent])`,
    );
    expect(rows.length).toBeGreaterThan(0);
    const named = new Intl.DisplayNames(["en"], { type: "language" });
    for (const [lang, language] of rows) expect(language).toBe(named.of(lang!));
    // The API keys as cards too: each key's scopes and sites in view, nothing to scroll sideways.
    await small.getByRole("button", { name: "Menu" }).click();
    await small.getByRole("link", { name: "API keys", exact: true }).click();
    const keys = small.getByRole("table", { name: "API keys", exact: true });
    await expect.poll(() => keys.locator("tbody tr").count()).toBeGreaterThan(0);
    expect(await keys.evaluate((table) => table.scrollWidth <= table.clientWidth)).toBe(true);
    await phone.close();
  });
});
