import { zipSync } from "fflate";
import { type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultThemeFiles, type Gateway, gatewayReady, openBrowser, ownerAdmin, showConsoleOnFailure } from "./gateway";

/**
 * A menu built as an editor builds one, on a site of this file's own (the demo's main menu is read
 * by other files): contents, a category and a tag picked by typing part of their title, reordered
 * by dragging and with the keyboard's buttons, previewed and seen on the site; then the small
 * things: messages in words at their field, "Copied", a redirect deleted after its question, and
 * the header on a phone. SCREENSHOTS=1 writes docs/screenshots/console-menus-*.png and console-words-*.png.
 */

let gateway: Gateway;
const SCREENSHOTS = process.env.SCREENSHOTS === "1";
const stamp = Date.now().toString(36);
const siteSlug = `menus-${stamp}`;
const keeper = `Lighthouse keeper ${stamp}`;
const draft = `Harbour lights draft ${stamp}`;
const ferries = `Ferries ${stamp}`;
const tide = `tides-${stamp}`;

let browser: Browser;
let desktop: BrowserContext;
let page: Page;
let siteId: number;
let siteBase: string;
let draftId: number;

async function shot(target: Page | Locator, name: string) {
  if (SCREENSHOTS) await target.screenshot({ path: `docs/screenshots/${name}.png` });
}

/** The admin API as the owner, for what this file needs before a person starts: its own site and contents. */
const admin = <T>(method: string, path: string, body?: unknown, type?: string) => ownerAdmin<T>(gateway, method, path, body, type);

const heading = (target: Page) => target.locator("h1#screen-title");
const item = (n: number) => page.locator(".menu-item").nth(n - 1);
const labels = async () => Promise.all((await page.getByLabel(/^Item \d+ label$/).all()).map((input) => input.inputValue()));

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
  const site = await admin<{ id: number }>("POST", "/sites", { name: `Menus ${stamp}`, slug: siteSlug, languages: ["en", "de"] });
  siteId = site.id;
  siteBase = gateway.siteBase.replace("//demo.", `//${siteSlug}.`);
  await admin("POST", `/sites/${siteId}/themes?name=default`, zipSync(defaultThemeFiles()), "application/zip");
  const published = await admin<{ id: number }>("POST", "/contents", {
    siteId,
    title: keeper,
    slug: `keeper-${stamp}`,
    language: "en",
    tags: [tide],
  });
  await admin("POST", `/contents/${published.id}/publish`, {});
  draftId = (await admin<{ id: number }>("POST", "/contents", { siteId, title: draft, slug: `draft-${stamp}`, language: "en" })).id;
  await admin("POST", "/categories", { siteId, name: ferries, slug: `ferries-${stamp}`, names: { de: `Fähren ${stamp}` } });
  await admin("PUT", "/redirects", { siteId, fromPath: `/old-${stamp}`, toUrl: "/" });

  desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await desktop.grantPermissions(["clipboard-read", "clipboard-write"], { origin: gateway.base });
  page = await desktop.newPage();
  await page.goto(`${gateway.base}/admin/#token=${gateway.ownerToken}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
});

showConsoleOnFailure(() => page);

afterAll(async () => {
  await desktop?.close();
  await browser?.close();
});

/**
 * Adds an item that links a content, category or tag found by typing part of its title, picked as a
 * person does: a click on the match, Enter in the search (the first match), or the arrow to it then Enter.
 */
async function addPicked(
  kind: "Content" | "Category" | "Tag",
  words: string,
  title: string,
  how: "click" | "enter" | "arrow" = "click",
  screenshot?: string,
) {
  await page.getByRole("button", { name: "Add an item" }).click();
  const row = page.locator(".menu-item").last();
  await row.getByLabel("Links to").selectOption({ label: kind });
  const search = row.getByLabel(`Find a ${kind.toLowerCase()}`);
  await search.fill(words);
  const choice = row.getByRole("button", { name: new RegExp(`^${title}`) });
  await choice.waitFor();
  if (screenshot) await shot(page, screenshot);
  if (how === "click") await choice.click();
  else {
    if (how === "arrow") {
      await search.press("ArrowDown");
      await expect
        .poll(() => choice.evaluate((button: { ownerDocument: { activeElement: unknown } }) => button.ownerDocument.activeElement === button))
        .toBe(true);
    }
    await page.keyboard.press("Enter");
  }
  await expect.poll(() => row.locator(".picked strong").textContent()).toBe(title);
  // The menu itself was not sent: nothing refused.
  expect(await page.getByRole("alert").count()).toBe(0);
}

describe("a menu built in the console", { timeout: 60_000 }, () => {
  it("signs in and chooses the site of this file", async () => {
    await expect.poll(() => heading(page).textContent(), { timeout: 30_000 }).toBe("Dashboard");
    // The header's site choice: its label's name is "Site" and the chosen option's words.
    await page.locator('header label:has(> span:text-is("Site")) select').selectOption({ label: `Menus ${stamp}` });
    await expect.poll(() => page.evaluate<string | null>("localStorage.getItem('console.site')")).toBe(String(siteId));
  });

  it("picks a content, a category and a tag by typing part of their titles (a click, Enter, the arrow key), and warns of a link to a draft", async () => {
    await page.getByRole("link", { name: "Menus & tags" }).click();
    // A language's menu is named as this site's languages name it.
    await expect
      .poll(() => page.locator("p.hint").first().textContent())
      .toContain(
        "A menu named main.de takes the place of main on German pages; without one, main shows there, its / leading to that language's home",
      );
    // A site without menus says so, not an empty table's headings.
    await expect
      .poll(() => page.getByText("No menus or content tags yet: make the first with New menu or tag, main for the header.").count())
      .toBe(1);
    expect(await page.locator("table").count()).toBe(0);
    await shot(page, "console-menus-empty");
    await page.getByRole("button", { name: "New menu or tag" }).click();
    // The form names what it makes, and follows the type chosen.
    expect(await page.locator("#tag-form").textContent()).toBe("New menu");
    await page.getByLabel("Type").selectOption("posts");
    expect(await page.locator("#tag-form").textContent()).toBe("New posts query");
    expect(await page.getByRole("button", { name: "Save posts query" }).count()).toBe(1);
    await page.getByLabel("Type").selectOption("menu");
    await page.getByLabel("Name", { exact: true }).fill("main");
    await addPicked("Content", `keeper ${stamp}`, keeper, "click", "console-menus-picker");
    // The label is the title until the editor writes another.
    expect((await labels())[1]).toBe(keeper);
    await addPicked("Category", "ferr", ferries, "enter");
    await addPicked("Tag", "tides", tide, "arrow");
    await addPicked("Content", "harbour lights", draft);
    await expect
      .poll(() => item(5).locator(".alert.warning").textContent())
      .toBe(`“${draft}” is not published: the site's menu leaves this item out (and those under it) until it is.`);
    expect(await item(2).locator(".alert.warning").count()).toBe(0);
    // A label as long as a whole title is said to be long, under its field.
    const label5 = page.getByLabel("Item 5 label", { exact: true });
    expect(await item(5).getByText("A long label").count()).toBe(0);
    await label5.fill(`${draft}, the whole programme`);
    await expect.poll(() => item(5).getByText("A long label: the site's menu shows all of it").count()).toBe(1);
    await label5.fill(draft);
    await expect.poll(() => item(5).getByText("A long label").count()).toBe(0);
    // A screen reader's list of fields tells each item's fields apart.
    for (const field of ["Links to", "Level"]) expect(await page.getByLabel(`${field} (item 5)`, { exact: true }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Change the linked content of item 5", exact: true }).count()).toBe(1);
    await shot(page, "console-menus-warning");
  });

  it("says a missing label, or a category typed but not chosen, in words at its field", async () => {
    await page.getByRole("button", { name: "Add an item" }).click();
    await page.getByRole("button", { name: "Save menu" }).click();
    const label = page.getByLabel("Item 6 label", { exact: true });
    await expect.poll(() => label.getAttribute("aria-invalid")).toBe("true");
    const described = (await label.getAttribute("aria-describedby"))!.split(" ").pop();
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe("Label must not be empty");
    expect(await page.getByRole("alert").first().textContent()).toBe("Label must not be empty");
    await shot(page, "console-words-field");
    await page.getByRole("button", { name: "Remove item 6" }).click();
    // A category's name typed in its search, none of the matches clicked: the item says what is missing.
    await page.getByRole("button", { name: "Add an item" }).click();
    const row = item(6);
    await page.getByLabel("Item 6 label", { exact: true }).fill("Food");
    await row.getByLabel("Links to").selectOption({ label: "Category" });
    await row.getByLabel("Find a category").fill("Food & Drink");
    await page.getByRole("button", { name: "Save menu" }).click();
    await expect.poll(() => row.locator(".field-error").textContent()).toBe("Choose the category this item leads to");
    expect(await page.getByRole("alert").first().textContent()).toBe("Choose the category this item leads to");
    await shot(row, "console-menus-unchosen");
    await page.getByRole("button", { name: "Remove item 6" }).click();
  });

  it("reorders with the keyboard's buttons and by dragging, then shows the saved menu as the site does", async () => {
    expect(await labels()).toEqual(["Home", keeper, ferries, tide, draft]);
    await page.getByRole("button", { name: "Move item 2 down" }).click();
    expect(await labels()).toEqual(["Home", ferries, keeper, tide, draft]);
    expect(await page.getByRole("button", { name: "Move item 1 up" }).isDisabled()).toBe(true);
    await item(4).locator(".grip").dragTo(item(1));
    expect(await labels()).toEqual([tide, "Home", ferries, keeper, draft]);
    await page.getByRole("button", { name: "Save menu" }).click();
    await expect.poll(() => page.getByRole("status").allTextContents()).toContain("Saved main.");
    const preview = page.getByRole("navigation", { name: "The menu main as the site shows it" });
    // The draft's item is left out, as its warning said, until the draft is published.
    await expect.poll(() => preview.getByRole("link").allTextContents()).toEqual([tide, "Home", ferries, keeper]);
    expect(await page.locator("pre.json").count()).toBe(0);
    await shot(page, "console-menus-preview");

    const site = await desktop.newPage();
    await site.goto(`${siteBase}/`);
    expect(await site.locator(".site-nav > ul > li > a").allTextContents()).toEqual([tide, "Home", ferries, keeper]);
    expect(await site.locator(".site-nav a", { hasText: keeper }).getAttribute("href")).toBe(`/keeper-${stamp}`);
    await site.close();
  });

  it("opens the saved menu with its links' titles, a content's in the Trash among them, and warns of it", async () => {
    await admin("DELETE", `/contents/${draftId}`);
    // The list says where the default theme shows it, in words.
    await expect
      .poll(() =>
        page
          .locator("tr", { has: page.locator("strong", { hasText: /^main$/ }) })
          .locator(".where-shown")
          .textContent(),
      )
      .toBe("in the header");
    await page.getByRole("button", { name: "Edit main", exact: true }).click();
    await expect.poll(() => item(4).locator(".picked strong").textContent()).toBe(keeper);
    await expect.poll(() => item(5).locator(".picked strong").textContent()).toBe(draft);
    expect(await item(5).locator(".alert.warning").textContent()).toBe(
      "This content is in the Trash: the site's menu leaves this item out (and those under it) until it is restored.",
    );
    await shot(page, "console-menus-editor");
    await admin("POST", `/trash/${draftId}/restore`);
  });
});

describe("a German menu", { timeout: 60_000 }, () => {
  it("finds a category by its German name and names it so, in the editor and on the German pages", async () => {
    await page.getByRole("link", { name: "Menus & tags" }).click();
    await page.getByRole("button", { name: "New menu or tag" }).click();
    await page.getByLabel("Name", { exact: true }).fill("main.de");
    await addPicked("Category", "fähr", `Fähren ${stamp}`, "enter");
    expect((await labels())[1]).toBe(`Fähren ${stamp}`);
    await page.getByRole("button", { name: "Save menu" }).click();
    await expect.poll(() => page.getByRole("status").allTextContents()).toContain("Saved main.de.");
    await page.getByRole("button", { name: "Edit main.de", exact: true }).click();
    await expect.poll(() => item(2).locator(".picked strong").textContent()).toBe(`Fähren ${stamp}`);
    await page.getByRole("link", { name: "Menus & tags" }).click();

    const site = await desktop.newPage();
    await site.goto(`${siteBase}/de/`);
    expect(await site.locator(".site-nav a", { hasText: `Fähren ${stamp}` }).getAttribute("href")).toBe(`/de/c/ferries-${stamp}`);
    await site.close();
  });
});

describe("words and small things", { timeout: 60_000 }, () => {
  it("says 'Copied' when a site's id is copied on the API keys screen, which names every site and says 'all sites' plainly", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    const ids = page.locator("section.panel", { has: page.getByRole("heading", { name: "Your sites' ids" }) });
    await expect.poll(() => ids.locator("td:first-child", { hasText: `Menus ${stamp}` }).count()).toBe(1);
    // Its name changes to "Copied" once clicked: found by its place, not its words.
    const copy = ids
      .locator("tr", { hasText: `Menus ${stamp}` })
      .getByRole("button")
      .first();
    await copy.click();
    await expect.poll(() => copy.textContent()).toContain("Copied");
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(String(siteId));
    await page.getByLabel("Name", { exact: true }).fill(`Menus key ${stamp}`);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => page.locator("td:first-child", { hasText: `Menus key ${stamp}` }).count()).toBe(1);
    const row = page.locator("tr", { hasText: `Menus key ${stamp}` });
    expect(await row.textContent()).toContain("All sites, today's and future ones");
    // The form is empty again for the next key.
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    await shot(page, "console-words-keys");
    await page.getByRole("button", { name: "I have copied it" }).click();
  });

  it("says a redirect's path rule in words at its field, and asks before deleting one", async () => {
    await page.getByRole("link", { name: "Redirects" }).click();
    await page.getByLabel("From path", { exact: true }).fill("no-slash");
    await page.getByLabel("To", { exact: true }).fill("/");
    await page.getByRole("button", { name: "Save redirect" }).click();
    const from = page.getByLabel("From path", { exact: true });
    await expect.poll(() => from.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(".field.invalid .field-error").textContent()).toBe("The path must start with / and hold no spaces, ? or #");
    await shot(page, "console-words-redirect");
    // A path that has a redirect: the form says what saving replaces.
    await from.fill(`/old-${stamp}`);
    await expect.poll(() => page.getByText("Replaces its redirect to / (301)", { exact: true }).count()).toBe(1);
    // The refusal spoke of the path before: it goes once the path is edited, at the field and above the form.
    await expect.poll(() => page.locator(".field.invalid").count()).toBe(0);
    expect(await from.getAttribute("aria-invalid")).not.toBe("true");
    expect(await page.locator("form [role=alert]").count()).toBe(0);

    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole("button", { name: `Delete the redirect of /old-${stamp}` }).click();
    await expect.poll(() => asked).toBe(`Delete the redirect of /old-${stamp}? Visitors of /old-${stamp} are then no longer sent to /.`);
    await expect.poll(() => page.locator("code", { hasText: `/old-${stamp}` }).count()).toBe(0);
    // Its button is gone with its row: the focus is on the screen's heading, not at the page's start.
    await expect.poll(() => page.evaluate<string | undefined>("document.activeElement?.id")).toBe("screen-title");
  });

  it("keeps the header to one line on a phone, its menu opened by a button", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, colorScheme: "dark" });
    const small = await phone.newPage();
    await small.goto(`${gateway.base}/admin/#token=${gateway.ownerToken}`);
    await expect.poll(() => heading(small).textContent()).toBe("Dashboard");
    const header = small.locator("header.top");
    expect((await header.boundingBox())!.height).toBeLessThan(844 / 8);
    await small.getByRole("button", { name: "Menu", exact: true }).click();
    await shot(small, "console-words-phone-menu");
    await small.getByRole("link", { name: "Redirects" }).click();
    await expect.poll(() => heading(small).textContent()).toBe("Redirects");
    expect((await header.boundingBox())!.height).toBeLessThan(844 / 8);
    await shot(small, "console-words-phone-header");
    expect(await small.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBeLessThanOrEqual(0);
    await phone.close();
  });
});
