import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Gateway, gatewayReady, openBrowser, openConsole, ownerAdmin } from "./gateway";

/**
 * Site settings, a second site, a category renamed and a content deleted and restored, as an owner
 * does them in the console, each seen on the site. Everything changed here is this file's own (a site,
 * a category, a content): the demo site's own data is shared with the other files. SCREENSHOTS=1
 * writes docs/screenshots/console-sites-*.png.
 */

let gateway: Gateway;
let browser: Browser;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const SCREENSHOTS = process.env.SCREENSHOTS === "1";
const contexts = new Map<number, BrowserContext>();
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function shot(page: Page, name: string, fullPage = false) {
  if (SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/console-sites-${name}.png`, fullPage });
}

/** A tab on a device: one context a device for the whole file. */
async function newPage(viewport = DESKTOP) {
  let context = contexts.get(viewport.width);
  if (!context) contexts.set(viewport.width, (context = await browser.newContext({ viewport })));
  return context.newPage();
}

/** The console at a path, signed in as the demo tenant's owner. */
async function consoleAt(path: string, viewport = DESKTOP) {
  const page = await newPage(viewport);
  page.on("dialog", (dialog) => void dialog.accept());
  await openConsole(page, gateway, path);
  return page;
}

/** The demo site chosen in the header, as a person does after working on another site (the console remembers the last one). */
async function onDemoSite(page: Page) {
  // Its name is its label and the chosen site: "Site Harbour Weekly".
  const choice = page.getByRole("combobox", { name: /^Site\b/ });
  await choice.waitFor({ timeout: 60_000 });
  await choice.selectOption(String(gateway.siteId));
}

/** The admin API as the demo tenant's owner, from Node: to make what a test needs before the person acts. */
const adminApi = <T>(method: string, path: string, body?: unknown, type?: string) => ownerAdmin<T>(gateway, method, path, body, type);

/** A page of the site as a reader sees it who reloads it: the browser keeps a page up to a minute, a reload asks again. */
async function readerSees(page: Page, url: string) {
  await page.goto(url, { waitUntil: "domcontentloaded" });
  const answer = await page.reload({ waitUntil: "domcontentloaded" });
  return { status: answer?.status(), text: (await page.locator("body").textContent()) ?? "" };
}

const siteAt = (slug: string, path = "/") => `http://${slug}.localhost:${new URL(gateway.base).port}${path}`;

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
});
afterEach(async () => {
  for (const context of contexts.values()) for (const page of context.pages()) await page.close();
});
afterAll(async () => {
  for (const context of contexts.values()) await context.close();
  await browser?.close();
});

describe("sites", () => {
  it("adds a second site, changes its name and description in Settings, and the site shows them", { timeout: 90_000 }, async () => {
    const slug = `harbour-${unique()}`;
    const page = await consoleAt("/settings");
    await page.getByRole("heading", { name: "Site settings" }).waitFor({ timeout: 60_000 });
    const add = page.locator("form", { has: page.getByRole("heading", { name: "Add a site" }) });
    // A new site starts in the zone of the browser it is made in, not in the current site's (the demo's is Berlin).
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(browserZone).not.toBe("Europe/Berlin");
    expect(await add.getByLabel("Time zone").inputValue()).toBe(browserZone);
    await add.getByLabel("Name", { exact: true }).fill("Harbour Weekly");
    await add.getByLabel("Address name (slug)").fill(slug);
    // Languages are picked by name: a choice of the list is added at once, a name typed with Enter.
    const addLanguage = add.getByLabel("Add a language");
    await addLanguage.fill("Klingon");
    await addLanguage.press("Enter");
    await expect
      .poll(() => add.locator(".field-error").textContent())
      .toBe("No language is called “Klingon”: pick one from the list, or write its code, such as pt-BR");
    await addLanguage.fill("german");
    await addLanguage.press("Enter");
    // The beginning of one language's name is enough ("Span" is Spanish, not Mexican Spanish); of two, it is not.
    await addLanguage.fill("Span");
    await addLanguage.press("Enter");
    await addLanguage.fill("Mal");
    await addLanguage.press("Enter");
    await expect
      .poll(() => add.locator(".field-error").textContent())
      .toMatch(/^Several languages begin with “Mal” \(Malagasy, Malay, Malayalam…\): pick one from the list$/);
    await add.getByRole("button", { name: "Remove Spanish" }).click();
    await addLanguage.fill("Brazilian Portuguese (pt-BR)");
    await expect
      .poll(() => add.locator(".chosen-languages").innerText())
      .toMatch(/^English\s+en\s+×\s+German\s+de\s+×\s+Brazilian Portuguese\s+pt-BR\s+×$/);
    expect(await add.locator(".field-error").count()).toBe(0);
    // The choice taken from the list leaves the field empty for the next.
    expect(await addLanguage.inputValue()).toBe("");
    await add.getByRole("button", { name: "Remove Brazilian Portuguese" }).click();
    await add.getByRole("button", { name: "Add the site" }).click();
    await expect.poll(() => add.getByRole("status").textContent(), { timeout: 20_000 }).toContain("Created Harbour Weekly");
    // The form is ready for another site: its name and languages start again.
    expect(await add.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    expect(await add.locator(".chosen-languages").innerText()).toMatch(/^English\s+en\s+×$/);
    // The console now works on the new site: the header's choice and the settings' heading say so.
    await expect.poll(() => page.locator("#site-settings").textContent()).toBe("Harbour Weekly");
    await shot(page, "new-site");

    // A wrong time zone is not offered; a wrong language code is said in words beside its field.
    const settings = page.locator("form", { has: page.locator("#site-settings") });
    // A new site has no image to offer yet, and says where images come from.
    await expect
      .poll(() => settings.locator("p.hint").last().textContent())
      .toBe("The social image and the favicon come from this site's Media, which has no image yet: upload one there first.");
    // The new site has the languages it was made with; a code nobody knows is refused at the field.
    expect(await settings.locator(".chosen-languages").innerText()).toMatch(/^English\s+en\s+×\s+German\s+de\s+×$/);
    await settings.getByLabel("Add a language").fill("xx");
    await settings.getByLabel("Add a language").press("Enter");
    await expect
      .poll(() => settings.locator(".field-error").first().textContent())
      .toBe("xx is not a language code this browser knows: pick a language from the list");
    // Writing again takes the message away.
    await settings.getByLabel("Add a language").fill("");
    expect(await settings.locator(".languages .field-error").count()).toBe(0);
    // A new address name says, before saving, that the old address stops answering.
    const slugField = settings.getByLabel("Address name (slug)");
    await slugField.fill(`${slug}-x`);
    await expect
      .poll(() => settings.locator(".field:has(input[name=slug]) .hint").textContent())
      .toBe(`Saving moves its development address to ${slug}-x.localhost: ${slug}.localhost stops answering (its domains stay)`);
    await slugField.fill(slug);

    await settings.getByLabel("Name", { exact: true }).fill("The Harbour Weekly");
    await settings.getByLabel("Description", { exact: true }).fill("Tides, ferries and the fish market, every Friday");
    // A field for each other language: the German pages' own description.
    await settings.getByLabel("Description in German (de)").fill("Gezeiten, Fähren und der Fischmarkt, jeden Freitag");
    // A zone the browser knows by its old name is found by its new one too.
    expect(await settings.getByLabel("Time zone").locator('option[value="Asia/Calcutta"]').textContent()).toBe("Asia/Calcutta (Asia/Kolkata)");
    await settings.getByLabel("Time zone").selectOption("Europe/Berlin");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => settings.getByRole("status").textContent(), { timeout: 20_000 }).toContain("Saved");
    // Saved from the form's foot, the message above it is brought onto the screen.
    const screenHeight = page.viewportSize()!.height;
    const place = () =>
      settings.getByRole("status").evaluate((status: { getBoundingClientRect(): { top: number; bottom: number } }) => status.getBoundingClientRect());
    // Within the screen; a fraction of a pixel is the scroll's rounding.
    await expect.poll(async () => (await place()).top).toBeGreaterThan(-1);
    expect((await place()).bottom).toBeLessThan(screenHeight + 1);
    await shot(page, "settings-desktop", true);

    const site = await newPage();
    // The page's status first: a failure then says what the reader got, where a missing element waits out its 30 s.
    expect((await site.goto(siteAt(slug), { waitUntil: "domcontentloaded" }))?.status()).toBe(200);
    expect(await site.locator(".brand").first().textContent()).toBe("The Harbour Weekly");
    expect(await site.locator("body").textContent()).toContain("Tides, ferries and the fish market, every Friday");
    await shot(site, "site-desktop");
    expect((await site.goto(siteAt(slug, "/de/"), { waitUntil: "domcontentloaded" }))?.status()).toBe(200);
    expect(await site.locator(".page-description").textContent()).toBe("Gezeiten, Fähren und der Fischmarkt, jeden Freitag");
    expect(await site.locator('meta[name="description"]').getAttribute("content")).toBe("Gezeiten, Fähren und der Fischmarkt, jeden Freitag");
    await site.goto(siteAt(slug), { waitUntil: "domcontentloaded" });

    // Changed again: "Saved" no longer holds once the name is edited, and the next page shows it, though the site kept the first one.
    await settings.getByLabel("Name", { exact: true }).fill("Harbour Weekly Extra");
    expect(await settings.innerText()).not.toContain("Saved");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.locator("#site-settings").textContent(), { timeout: 20_000 }).toBe("Harbour Weekly Extra");
    expect((await site.reload({ waitUntil: "domcontentloaded" }))?.status()).toBe(200);
    expect(await site.locator(".brand").first().textContent()).toBe("Harbour Weekly Extra");
  });

  it("says in words why the demo site keeps German, at the top and at the field", async () => {
    const page = await consoleAt("/settings");
    await onDemoSite(page);
    const settings = page.locator("form", { has: page.locator("#site-settings") });
    await expect.poll(() => page.locator("#site-settings").textContent(), { timeout: 30_000 }).toBe("Demo City Magazine");
    await settings.getByRole("button", { name: "Remove German" }).click();
    // Its German description goes with it, and German from the default language's choices.
    expect(await settings.getByLabel("Description in German (de)").count()).toBe(0);
    await settings.getByRole("button", { name: "Save settings" }).click();
    const said = /^\d+ contents are written in German \(de\): keep the language, or move or delete them first$/;
    // The top says what the field says, not the API's field code ("languages: …").
    await expect.poll(() => settings.getByRole("alert").first().textContent()).toMatch(said);
    expect(await settings.locator(".field-error").first().textContent()).toMatch(said);
  });

  it("shows the settings on a phone, light and dark, without sideways scrolling", async () => {
    const page = await consoleAt("/settings", PHONE);
    await page.getByRole("heading", { name: "Site settings" }).waitFor({ timeout: 60_000 });
    await page.locator("#site-settings").waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBeLessThanOrEqual(0);
    await shot(page, "settings-phone");
    // On a phone the colour scheme is behind the header's Menu button.
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await page.getByRole("combobox", { name: /^Colour scheme/ }).selectOption("dark");
    await page.getByRole("button", { name: "Close the menu", exact: true }).click();
    await shot(page, "settings-phone-dark");
  });
});

describe("categories", () => {
  it("creates a category from its name alone, the slug's hint saying the address it gets", async () => {
    const tag = unique();
    const page = await consoleAt("/categories");
    await onDemoSite(page);
    const form = page.getByRole("form", { name: "New category" });
    const slugHint = form.locator(".hint", { hasText: "Its page" });
    // A long word's address wraps inside the slug's field, not under the next one.
    await form.getByLabel("Name", { exact: true }).fill("Donaudampfschifffahrtsgesellschaftskapitaensmuetzenfestivals".repeat(3));
    await expect.poll(() => slugHint.innerText()).toMatch(/^Its page: \/c\/donaudampf/);
    expect(await slugHint.evaluate((hint) => hint.scrollWidth <= hint.clientWidth)).toBe(true);
    await form.getByLabel("Name", { exact: true }).fill(`Night life ${tag}`);
    await expect.poll(() => slugHint.innerText()).toBe(`Its page: /c/night-life-${tag} (from the name, until you type one)`);
    await form.getByRole("button", { name: "Create category" }).click();
    await expect.poll(() => page.locator("code", { hasText: `/c/night-life-${tag}` }).count()).toBe(1);
    // Its name in the site's other language, given at creation: the German pages use it.
    await form.getByLabel("Name", { exact: true }).fill(`Market ${tag}`);
    await form.getByLabel("Name in German (de)").fill(`Markt ${tag}`);
    await shot(page, "category-new");
    await form.getByRole("button", { name: "Create category" }).click();
    await expect.poll(() => form.getByRole("status").textContent()).toBe(`Created Market ${tag}.`);
    expect(await form.getByLabel("Name in German (de)").inputValue()).toBe("");
    const created = (await adminApi<{ name: string; names: Record<string, string> }[]>("GET", `/sites/${gateway.siteId}/categories`)).find(
      (category) => category.name === `Market ${tag}`,
    );
    expect(created?.names).toEqual({ de: `Markt ${tag}` });
  });

  it(
    "renames a category, changes its slug, and the site shows the new name at the new address, the old one leading there",
    { timeout: 90_000 },
    async () => {
      const tag = unique();
      const category = await adminApi<{ id: number; slug: string }>("POST", "/categories", {
        siteId: gateway.siteId,
        name: `Boats ${tag}`,
        slug: `boats-${tag}`,
      });
      const page = await consoleAt("/categories");
      await onDemoSite(page);
      const edit = page.getByRole("button", { name: `Edit Boats ${tag}` });
      expect(await edit.getAttribute("aria-expanded")).toBe("false");
      await edit.click({ timeout: 60_000 });
      expect(await edit.getAttribute("aria-expanded")).toBe("true");
      const form = page.getByRole("form", { name: `Edit Boats ${tag}` });
      // Escape closes it, and the focus is back on its button; opened again, it starts from what is saved.
      await form.getByLabel("Name", { exact: true }).fill("Not kept");
      await page.keyboard.press("Escape");
      await expect.poll(() => form.count()).toBe(0);
      await expect.poll(() => edit.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);
      await edit.click();
      await form.getByLabel("Name", { exact: true }).fill(`Ships ${tag}`);
      // Two mistakes at once: the message at the top lists both, the German one naming its language.
      await form.getByLabel("Name in German (de)").fill("S".repeat(101));
      await form.getByLabel("Slug").fill("Ships Now");
      await form.getByRole("button", { name: "Save category" }).click();
      const refusal = form.getByRole("alert").first();
      await expect
        .poll(() => refusal.locator("li").allTextContents())
        .toEqual([
          "The name in German (de) must be at most 100 characters",
          "The slug must be lower-case letters and digits joined by single dashes, like museum-night",
        ]);
      expect(await refusal.locator("p").textContent()).toBe("2 things to correct:");
      await shot(page, "category-refused");
      // The demo site is in English and German: a field for the German pages' name.
      await form.getByLabel("Name in German (de)").fill(`Schiffe ${tag}`);
      await form.getByLabel("Slug").fill(`ships-${tag}`);
      // Both mended, neither message stays.
      await expect.poll(() => form.getByRole("alert").count()).toBe(0);
      expect(await form.getByText(`Its page moves to /c/ships-${tag}; /c/boats-${tag} will redirect there`).count()).toBe(1);
      await form.getByLabel("Description", { exact: true }).fill("Everything that floats");
      await form.getByLabel("Description in German (de)").fill("Alles, was schwimmt");
      await shot(page, "category-edit");
      await form.getByRole("button", { name: "Save category" }).click();
      await expect.poll(() => page.getByRole("status").first().textContent(), { timeout: 20_000 }).toContain(`Saved Ships ${tag}`);
      await page.getByText(`/c/ships-${tag}`).waitFor();

      const site = await newPage();
      const answer = await site.goto(`${gateway.siteBase}/c/ships-${tag}`, { waitUntil: "domcontentloaded" });
      expect(answer?.status()).toBe(200);
      expect(await site.locator("h1").first().textContent()).toContain(`Ships ${tag}`);
      // Links to the old address still lead to the category.
      expect((await readerSees(site, `${gateway.siteBase}/c/${category.slug}`)).status).toBe(200);
      expect(site.url()).toBe(`${gateway.siteBase}/c/ships-${tag}`);

      // A German story in it: the German list is headed with the German name.
      const german = await adminApi<{ id: number }>("POST", "/contents", {
        siteId: gateway.siteId,
        title: `Fähren ${tag}`,
        slug: `faehren-${tag}`,
        language: "de",
        categoryIds: [category.id],
      });
      await adminApi("POST", `/contents/${german.id}/publish`, {});
      await site.goto(`${gateway.siteBase}/de/c/ships-${tag}`, { waitUntil: "domcontentloaded" });
      expect(await site.locator("h1").first().textContent()).toBe(`Schiffe ${tag}`);
      expect(await site.locator("main").textContent()).toContain("Alles, was schwimmt");
      await shot(site, "category-german");

      // What is filed under it, from its row: the contents list filtered by it.
      await page.getByRole("link", { name: `Contents filed under Ships ${tag}` }).click();
      await expect.poll(() => page.locator("table.contents tbody tr").allTextContents()).toEqual([expect.stringContaining(`Fähren ${tag}`)]);
      // The select names it once the site's categories have come.
      await expect.poll(() => page.getByLabel("Category", { exact: true }).locator("option:checked").textContent()).toBe(`Ships ${tag}`);
      await shot(page, "contents-by-category");
    },
  );
});

describe("the editor's categories", () => {
  it("lists them as their tree: a sub-category under its parent, indented", async () => {
    const page = await consoleAt("/contents/new");
    await onDemoSite(page);
    const group = page.getByRole("group", { name: "Categories" });
    const names = async () => (await group.locator("label.check").allTextContents()).map((name) => name.trim());
    await expect.poll(names, { timeout: 30_000 }).toContain("Football");
    // The demo's tree: City, Culture, Sport and, under Sport, Football (other files add categories of their own).
    const listed = await names();
    expect(listed.indexOf("Football")).toBe(listed.indexOf("Sport") + 1);
    const left = (name: string) =>
      group
        .locator("label.check", { hasText: name })
        .first()
        .boundingBox()
        .then((box) => box!.x);
    expect(await left("Football")).toBeGreaterThan(await left("Sport"));
    // Before a title is typed, the search result's title shows where it will go.
    expect(await page.getByText(/^Shown as: /).textContent()).toBe("Shown as: (the title) · Demo City Magazine");
  });
});

describe("the Trash", () => {
  it("deletes a content from the editor, it leaves the site, and Restore in the Trash brings it back", { timeout: 90_000 }, async () => {
    const tag = unique();
    // Not "lighthouse": reader-theme.test.ts searches the demo site for that word.
    const title = `Ferry open day ${tag}`;
    const created = await adminApi<{ id: number; slug: string }>("POST", "/contents", {
      siteId: gateway.siteId,
      title,
      slug: `ferry-${tag}`,
      language: "en",
      intro: "The keeper shows the lamp.",
      bodyMarkdown: "The keeper shows the lamp, every hour.",
    });
    await adminApi("POST", `/contents/${created.id}/publish`, {});
    const reader = await newPage();
    expect((await reader.goto(`${gateway.siteBase}/${created.slug}`, { waitUntil: "domcontentloaded" }))?.status()).toBe(200);

    const page = await consoleAt(`/contents/${created.id}`);
    await onDemoSite(page);
    await page.getByRole("button", { name: "Delete", exact: true }).click({ timeout: 60_000 });
    await page.getByRole("heading", { name: "Trash" }).waitFor({ timeout: 20_000 });
    const row = page.getByRole("row", { name: new RegExp(title) });
    await row.waitFor();
    await expect.poll(() => page.getByRole("status").first().textContent()).toBe(`Moved “${title}” to the Trash.`);
    await shot(page, "trash");
    expect((await readerSees(reader, `${gateway.siteBase}/${created.slug}`)).status).toBe(404);
    expect((await readerSees(reader, `${gateway.siteBase}/`)).text).not.toContain(title);

    await row.getByRole("button", { name: `Restore ${title}` }).click();
    await expect.poll(() => page.getByRole("status").first().textContent(), { timeout: 20_000 }).toContain(`Restored “${title}”`);
    await expect.poll(() => page.getByRole("row", { name: new RegExp(title) }).count()).toBe(0);
    expect((await readerSees(reader, `${gateway.siteBase}/${created.slug}`)).status).toBe(200);
    expect(await reader.locator("h1").first().textContent()).toContain(title);
    expect((await readerSees(reader, `${gateway.siteBase}/`)).text).toContain(title);
  });
});

describe("translations", () => {
  it("lists a content's versions in the site's languages with their status, and offers a missing one", async () => {
    const tag = unique();
    const original = await adminApi<{ id: number }>("POST", "/contents", {
      siteId: gateway.siteId,
      title: `Tide tables ${tag}`,
      slug: `tides-${tag}`,
      language: "en",
    });
    await adminApi("POST", `/contents/${original.id}/publish`, {});
    const page = await consoleAt(`/contents/${original.id}`);
    await onDemoSite(page);
    const panel = page.locator("section.panel", { has: page.locator("h2#translations") });
    await expect.poll(() => panel.locator("li").allInnerTexts()).toEqual(["English this content published", "German Translate into German"]);
    // The missing one opens as a copy to translate, and says so.
    await panel.getByRole("link", { name: "Translate into German" }).click();
    await expect
      .poll(() => page.locator(".alert.notice").first().textContent())
      .toBe("This starts as a copy of the English version: write its title, text, tags and the words for its cover in German before publishing it.");
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(`Tide tables ${tag}`);
    await shot(page, "translate");
    await page.goBack();

    const translated = await adminApi<{ id: number }>("POST", "/contents", {
      siteId: gateway.siteId,
      title: `Gezeiten ${tag}`,
      slug: `gezeiten-${tag}`,
      language: "de",
      translationOf: original.id,
    });
    await page.reload();
    // Which ones readers see, without opening each.
    await expect.poll(() => panel.locator("li").allInnerTexts()).toEqual(["English this content published", `German Gezeiten ${tag} draft`]);
    await panel.getByRole("link", { name: `Gezeiten ${tag}` }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/contents/${translated.id}`);
    await expect.poll(() => panel.locator("li").allInnerTexts()).toEqual([`English Tide tables ${tag} published`, "German this content draft"]);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, "translations");
  });
});
