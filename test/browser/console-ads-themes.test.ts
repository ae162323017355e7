import { readFileSync } from "node:fs";
import { strFromU8, unzipSync, zipSync } from "fflate";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultThemeFiles, fromSite, type Gateway, gatewayReady, openBrowser, openConsole, ownerAdmin } from "./gateway";

/**
 * Ads and themes in the console, as an owner does them in Chromium against `wrangler dev`, on a
 * site of their own (the demo site's sidebar ad and theme are read by other files at the same
 * time): an image ad chosen from thumbnails, edited and seen on the site, its impressions and a
 * click on the chart (desktop, and a phone in the dark without sideways scrolling); a theme
 * uploaded, previewed from its row, downloaded, replaced after the question, deleted; another
 * activated and rolled back.
 * SCREENSHOTS=1 writes docs/screenshots/console-ads-*.png and console-themes-*.png.
 */

let gateway: Gateway;
let browser: Browser;
const SCREENSHOTS = process.env.SCREENSHOTS === "1";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const stamp = Date.now().toString(36);
// One context a device: the phone's in the dark.
const contexts = new Map<number, BrowserContext>();

/** The site of this file, made through the admin API with the default theme: its slot `sidebar` is ours alone. */
const site = { id: 0, slug: `ads-${stamp}`, base: "" };
const images: { id: number; url: string; filename: string }[] = [];

async function shot(target: Page, name: string) {
  if (SCREENSHOTS) await target.screenshot({ path: `docs/screenshots/${name}.png` });
}

const adminApi = <T>(method: string, path: string, body?: unknown, type?: string) => ownerAdmin<T>(gateway, method, path, body, type);

/** The default theme as a zip, its home page marked. */
function themeZip(marker: string): Buffer {
  const files = defaultThemeFiles();
  files["templates/index.html.j2"] = new TextEncoder().encode(
    `{% extends "layouts/base.html.j2" %}{% block main %}<p id="marker">${marker}</p>{% endblock %}`,
  );
  return Buffer.from(zipSync(files));
}

/** The console on a device, signed in as the demo tenant's owner, with this file's site chosen in the header. */
async function consoleOn(viewport: typeof DESKTOP, path: string, siteName = `Ads ${stamp}`) {
  let context = contexts.get(viewport.width);
  if (!context) contexts.set(viewport.width, (context = await browser.newContext({ viewport, colorScheme: viewport === PHONE ? "dark" : "light" })));
  const page = await context.newPage();
  await openConsole(page, gateway, path);
  // The header's site menu: its label is hidden, and a label's text holds its options' too.
  const picker = page.locator("header.top label", { has: page.locator("span", { hasText: /^Site$/ }) }).locator("select");
  await expect.poll(() => picker.locator("option").allTextContents(), { timeout: 30_000 }).toContain(siteName);
  // On a phone the header's controls are behind its Menu button.
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  if (await menu.isVisible()) await menu.click();
  await picker.selectOption({ label: siteName });
  const close = page.getByRole("button", { name: "Close the menu", exact: true });
  if (await close.isVisible()) await close.click();
  return page;
}

/** An HTML ad's frame, as the default theme titles it when its links open a new tab. */
const AD_FRAME = 'iframe[title="Advertisement (its links open in a new tab)"]';
const message = (page: Page) => page.getByRole("status").allTextContents();
const noSidewaysScroll = (page: Page) => page.evaluate("document.documentElement.scrollWidth <= window.innerWidth");

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
  const created = await adminApi<{ id: number }>("POST", "/sites", {
    name: `Ads ${stamp}`,
    slug: site.slug,
    defaultLanguage: "en",
    // In German too: an ad can be shown on one language's pages.
    languages: ["en", "de"],
  });
  site.id = created.id;
  site.base = gateway.siteBase.replace("//demo.", `//${site.slug}.`);
  await adminApi("POST", `/sites/${site.id}/themes?name=default`, zipSync(defaultThemeFiles()), "application/zip");
  // Two real pictures for the picker's thumbnails.
  for (const file of ["demo-site-home.png", "theme-menu-phone.png"]) {
    const bytes = new Uint8Array(readFileSync(`docs/screenshots/${file}`));
    images.push({
      ...(await adminApi<{ id: number; url: string }>("POST", `/media?siteId=${site.id}&filename=${stamp}-${file}`, bytes, "image/png")),
      filename: `${stamp}-${file}`,
    });
  }
});

afterEach(async (context) => {
  if (context.task.result?.state === "fail")
    for (const device of contexts.values())
      for (const page of device.pages())
        console.error(
          `at ${page.url()}:\n${await page
            .locator("main")
            .innerText()
            .catch(() => "(no page)")}`,
        );
  for (const device of contexts.values()) for (const page of device.pages()) await page.close();
});

afterAll(async () => {
  for (const context of contexts.values()) await context.close();
  await browser?.close();
});

describe("ads, as the site's owner runs them", () => {
  const link = `https://shop.example/${stamp}`;
  let adId = 0;

  it("creates an image ad chosen from thumbnails, edits every field it needs, and the site shows the edit", async () => {
    const page = await consoleOn(DESKTOP, "/ads");
    const form = page.locator("form", { has: page.getByRole("heading", { name: "New ad" }) });
    // The default theme's slot is filled in: the ad shows under each page's text without a word typed there.
    expect(await form.getByLabel("Slot", { exact: true }).inputValue()).toBe("sidebar");
    await form.locator(".image-picker").scrollIntoViewIfNeeded();
    // The picker shows each image as a thumbnail that loaded, named by its file.
    const first = form.getByRole("radio", { name: images[0]!.filename });
    await expect
      .poll(() =>
        form.locator(".image-picker img").evaluateAll((all) =>
          // The Node project has no DOM types: each element is an <img>.
          all.map((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
        ),
      )
      .not.toContain(0);
    await first.check();
    // A page of the site is a link too: the browser does not ask for a full URL.
    await form.getByLabel("Link", { exact: true }).fill("/our-new-croissants");
    expect(
      await form.getByLabel("Link", { exact: true }).evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
    ).toBe(true);
    await form.getByLabel("Link", { exact: true }).fill(`${link}/first`);
    await form.getByRole("button", { name: "Create ad" }).click();
    await expect.poll(() => message(page)).toContain("Ad created.");
    // The form is as new again for the next ad.
    expect(await form.getByLabel("Slot", { exact: true }).inputValue()).toBe("sidebar");
    expect(await form.getByLabel("Link", { exact: true }).inputValue()).toBe("");
    const ads = await adminApi<{ id: number; slot: string; link: string }[]>("GET", `/sites/${site.id}/ads`);
    adId = ads.find((ad) => ad.link === `${link}/first`)!.id;

    await page.getByRole("button", { name: `Edit ad #${adId} (sidebar)` }).click();
    const edit = page.locator("form", { has: page.getByRole("heading", { name: `Edit ad #${adId} (sidebar)` }) });
    // The form holds what the ad was created with.
    expect(await edit.getByRole("radio", { name: images[0]!.filename }).isChecked()).toBe(true);
    expect(await edit.getByLabel("Link", { exact: true }).inputValue()).toBe(`${link}/first`);
    await edit.getByRole("radio", { name: images[1]!.filename }).check();
    await edit.getByLabel("Link", { exact: true }).fill(`${link}/second`);
    // Until it has words, a reader who cannot see the picture hears "Advertisement": the hint says so.
    const described = edit.getByLabel("What the image shows", { exact: true });
    expect(await described.inputValue()).toBe("");
    await described.fill("Harbour sale: coats at 30 % off");
    // A name of the editors' own, in the list, the counts and the dashboard instead of the id.
    await edit.getByLabel("Name", { exact: true }).fill(`Harbour sale ${stamp}`);
    await edit.getByLabel("Weight", { exact: true }).fill("5");
    // An end before the start is refused beside its field.
    await edit.getByLabel("Ends", { exact: true }).fill("2020-01-01T00:00");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => edit.locator(".field-error").allTextContents()).toContain("The ad must end after it starts");
    await shot(page, "console-ads-edit");
    await edit.getByLabel("Ends", { exact: true }).fill("");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => message(page)).toContain(`Harbour sale ${stamp} (sidebar) saved.`);
    await expect.poll(() => page.locator("table.ads").innerText()).toContain("Image with a link, weight 5");
    // Each row says what its ad says: an image ad its picture in words and its link.
    expect(
      await page
        .locator("table.ads tr", { hasText: `Harbour sale ${stamp} (sidebar)` })
        .locator(".ad-words")
        .textContent(),
    ).toBe(`Harbour sale: coats at 30 % off · ${link}/second`);

    // The site: the second image, and its click leads to the new link.
    const reader = await page.context().newPage();
    await reader.goto(`${site.base}/`);
    const shown = reader.locator(`a[href="/ads/${adId}/click"] img`);
    expect(await shown.getAttribute("src")).toBe(images[1]!.url);
    // The link is named by the picture's words, as a screen reader reads it.
    expect(await reader.getByRole("link", { name: "Harbour sale: coats at 30 % off" }).getAttribute("href")).toBe(`/ads/${adId}/click`);
    // Drawn whole in the ad's column, under its label, no taller than a banner.
    await expect.poll(() => shown.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const label = (await reader.locator(".ad-label").boundingBox())!;
    const drawn = (await shown.boundingBox())!;
    expect(drawn.x).toBeGreaterThanOrEqual(label.x);
    expect(drawn.x + drawn.width).toBeLessThanOrEqual(label.x + label.width + 0.5);
    expect(drawn.height).toBeLessThanOrEqual(240.5);
    const click = await fromSite({ base: gateway.base, siteBase: site.base }, `/ads/${adId}/click`);
    expect(click.status).toBe(302);
    // The audit log says who made and changed it, by the name it was given.
    await page.getByRole("link", { name: "Audit log" }).click();
    await expect.poll(() => page.locator("ul.audit-log").innerText()).toContain(`owner@browser.test changed the ad Harbour sale ${stamp} (sidebar)`);
  });

  it("draws its impressions and clicks a day, with dates, on a desktop and on a phone in the dark", async () => {
    // Three more readers' views of the home page (each counted: the gateway writes counts at once), and one click more.
    // From Node: a browser that had the page keeps it a while (its Cache-Control) and does not ask again.
    for (let i = 0; i < 3; i++) await fromSite({ base: gateway.base, siteBase: site.base }, "/");
    await fromSite({ base: gateway.base, siteBase: site.base }, `/ads/${adId}/click`);
    // Counts are written after the answer (waitUntil): the chart is opened once they are all there.
    const counted = async () => (await adminApi<{ impressions: number; clicks: number }[]>("GET", `/ads/${adId}/stats`))[0];
    await expect.poll(async () => (await counted())?.clicks).toBe(2);
    await expect.poll(async () => (await counted())?.impressions).toBeGreaterThanOrEqual(4);
    const { impressions: seen, clicks: followed } = (await counted())!;

    for (const viewport of [DESKTOP, PHONE]) {
      const page = await consoleOn(viewport, `/ads?ad=${adId}`);
      const chart = page.locator("figure.chart");
      await expect
        .poll(() => chart.locator("figcaption").textContent())
        .toMatch(new RegExp(`^Harbour sale ${stamp} \\(sidebar\\): ${seen} impressions, ${followed} clicks from `));
      // A week of days, today the last; one day of data is one pair of bars among them, not a block.
      const days = chart.locator(".days li");
      expect(await days.count()).toBeGreaterThanOrEqual(7);
      const heights = await days.evaluateAll((all) =>
        all.map((day) => [...day.querySelectorAll(".bars span")].map((bar) => bar.getBoundingClientRect().height)),
      );
      expect(heights.filter(([impressions]) => impressions! > 0)).toHaveLength(1);
      const [impressions, clicks] = heights.at(-1)!;
      expect(clicks! / impressions!).toBeCloseTo(followed / seen, 1);
      const plot = await chart.locator(".days").boundingBox();
      const bar = await days.last().locator(".impressions").boundingBox();
      expect(bar!.width).toBeLessThan(plot!.width / 5);
      // Dates under the bars, today's among them.
      const today = new Date().toLocaleDateString("en-US", { day: "numeric", month: "short", timeZone: "UTC" });
      const dates = await chart.locator(".date").allTextContents();
      expect(dates.length).toBeGreaterThanOrEqual(3);
      expect(dates.at(-1)).toBe(today);
      // The same numbers as a table.
      await chart.getByText("The numbers, day by day").click();
      expect(await chart.locator("table tbody tr").first().innerText()).toMatch(new RegExp(`\\t${seen}\\t${followed}$`));
      expect(await noSidewaysScroll(page)).toBe(true);
      // The list of ads fits too: nothing in it scrolls sideways on its own.
      expect(await page.locator("table.ads").evaluate((table) => table.scrollWidth <= table.clientWidth)).toBe(true);
      // On a phone each ad is a card: what it says runs the screen's width, not a column a word wide.
      if (viewport === PHONE) {
        const words = await page
          .locator("table.ads tr", { hasText: `Harbour sale ${stamp} (sidebar)` })
          .locator(".ad-words")
          .boundingBox();
        expect(words!.width).toBeGreaterThan(PHONE.width * 0.8);
        // Its dates say what they are, the column's heading hidden.
        expect(await page.evaluate<string>("getComputedStyle(document.querySelector('table.ads td.runs'), '::before').content")).toBe('"Runs "');
      }
      await chart.scrollIntoViewIfNeeded();
      await shot(page, viewport === PHONE ? "console-ads-phone-dark" : "console-ads-chart");
    }
  });

  it("names the ad on the dashboard as the Ads screen does, with its week's counts, and leads to its chart", async () => {
    // A second ad in the slot, paused so that no reader of the later tests meets it.
    const other = await adminApi<{ id: number }>("POST", "/ads", {
      siteId: site.id,
      slot: "sidebar",
      kind: "html",
      html: "<p>Second</p>",
      startsAt: new Date().toISOString(),
      isActive: false,
    });
    const { impressions, clicks } = (await adminApi<{ impressions: number; clicks: number }[]>("GET", `/ads/${adId}/stats`))[0]!;
    const page = await consoleOn(DESKTOP, "/");
    const ads = page.locator("article.card", { has: page.getByRole("heading", { name: "Ads, last 7 days" }) });
    const link = ads.getByRole("link", { name: `Harbour sale ${stamp} (sidebar)`, exact: true });
    await expect.poll(() => link.count(), { message: "the dashboard's link to the ad, named as on the Ads screen" }).toBe(1);
    expect(await ads.getByRole("link", { name: `ad #${other.id} (sidebar)`, exact: true }).count()).toBe(1);
    expect(await ads.locator("thead th").allTextContents()).toEqual(["Ad", "Impressions", "Clicks"]);
    const row = ads.locator("tbody tr", { has: page.getByRole("link", { name: `Harbour sale ${stamp} (sidebar)`, exact: true }) });
    expect(await row.locator("td").allInnerTexts()).toEqual([`Harbour sale ${stamp} (sidebar)`, String(impressions), String(clicks)]);
    // Within its card's padding (1rem) on a desktop of four cards, the ads' names wrapping as need be.
    const card = (await ads.boundingBox())!;
    const table = (await ads.locator("table").boundingBox())!;
    expect(table.x + table.width).toBeLessThanOrEqual(card.x + card.width - 16 + 0.5);
    await shot(page, "console-dashboard-ads");
    await link.click();
    await expect.poll(() => page.locator("figure.chart figcaption").textContent()).toMatch(new RegExp(`^Harbour sale ${stamp} \\(sidebar\\): `));
    await adminApi("DELETE", `/ads/${other.id}`);
    await page.close();
  });

  it("turns the ad into an HTML snippet, a reader sees it in its frame, and each later edit of the snippet shows on the next page", async () => {
    const page = await consoleOn(DESKTOP, "/ads");
    const reader = await page.context().newPage();
    // A reader who had the site open reloads it, as a person checking an edit does: the browser keeps a page for a minute (its Cache-Control).
    await reader.goto(`${site.base}/`);
    const frameText = async () => {
      await reader.reload();
      return reader.frameLocator(AD_FRAME).locator("body").innerText({ timeout: 5000 });
    };
    for (const [words, path] of [
      ["Spring fair", "fair"],
      ["Summer market", "market"],
    ] as const) {
      await page.getByRole("button", { name: `Edit Harbour sale ${stamp} (sidebar)` }).click();
      const edit = page.locator("form", { has: page.getByRole("heading", { name: `Edit Harbour sale ${stamp} (sidebar)` }) });
      await edit.getByLabel("Kind", { exact: true }).selectOption("html");
      await edit.getByLabel("HTML", { exact: true }).fill(`<p>${words} <a href="${link}/${path}">on the map</a></p>`);
      await edit.getByRole("button", { name: "Save changes" }).click();
      await expect.poll(() => message(page)).toContain(`Harbour sale ${stamp} (sidebar) saved.`);
      await expect.poll(() => page.locator("table.ads").innerText()).toContain("HTML snippet");
      // An HTML ad its words (the list reloads after the save).
      await expect
        .poll(() =>
          page
            .locator("table.ads tr", { hasText: `Harbour sale ${stamp} (sidebar)` })
            .locator(".ad-words")
            .textContent(),
        )
        .toBe(`${words} on the map`);
      // The reader's next page: the snippet just saved, not the one the page showed before.
      await expect.poll(frameText).toContain(`${words} on the map`);
      expect(await reader.frameLocator(AD_FRAME).locator("a").getAttribute("href")).toBe(
        `/ads/${adId}/click?to=${encodeURIComponent(`${link}/${path}`)}`,
      );
    }
    await reader.locator(AD_FRAME).scrollIntoViewIfNeeded();
    await shot(reader, "site-html-ad-edited");
  });

  it("shows the ad on the German pages only, once its form says so, and on every language's again", async () => {
    const page = await consoleOn(DESKTOP, "/ads");
    const shownOn = async (path: string) => (await fromSite({ base: gateway.base, siteBase: site.base }, path)).text.includes(`/ads/${adId}/click`);
    const setLanguage = async (choice: string) => {
      await page.getByRole("button", { name: `Edit Harbour sale ${stamp} (sidebar)` }).click();
      const edit = page.locator("form", { has: page.getByRole("heading", { name: `Edit Harbour sale ${stamp} (sidebar)` }) });
      await edit.getByLabel("Shown on the pages in", { exact: true }).selectOption({ label: choice });
      await edit.getByRole("button", { name: "Save changes" }).click();
      await expect.poll(() => message(page)).toContain(`Harbour sale ${stamp} (sidebar) saved.`);
    };
    expect([await shownOn("/"), await shownOn("/de/")]).toEqual([true, true]);
    await setLanguage("German (de)");
    await expect.poll(() => page.locator("table.ads").innerText()).toContain("on German pages only");
    await shot(page, "console-ads-language");
    expect([await shownOn("/"), await shownOn("/de/")]).toEqual([false, true]);
    await setLanguage("Every language");
    await expect.poll(() => page.locator("table.ads").innerText()).not.toContain("pages only");
    expect([await shownOn("/"), await shownOn("/de/")]).toEqual([true, true]);
  });
});

describe("media, several files at once", () => {
  it("says every file it uploaded, not the last one's name alone", async () => {
    const page = await consoleOn(DESKTOP, "/media");
    const png = readFileSync("docs/screenshots/demo-site-home.png");
    const names = [`${stamp}-first.png`, `${stamp}-second.png`, `${stamp}-third.png`];
    await page.getByLabel("Choose files").setInputFiles(names.map((name) => ({ name, mimeType: "image/png", buffer: png })));
    await expect.poll(() => message(page)).toContain(`Uploaded ${names[0]}, ${names[1]} and ${names[2]}.`);
    for (const name of names) await expect.poll(() => page.getByLabel(`Markdown of ${name}`).count()).toBe(1);
    await shot(page, "console-media-several");
  });
});

describe("themes, as the site's owner manages them", () => {
  const name = `mine-${stamp}`;

  it("uploads a theme, previews it from its row, downloads it, replaces it after the question and deletes it", async () => {
    const page = await consoleOn(DESKTOP, "/themes");
    const upload = async (marker: string) => {
      await page.getByLabel("Theme name", { exact: true }).fill(name);
      await page
        .getByLabel("Zip file", { exact: true })
        .setInputFiles({ name: `${name}.zip`, mimeType: "application/zip", buffer: themeZip(marker) });
      await page.getByRole("button", { name: "Upload" }).click();
    };
    // How much room the tenant's themes take, of how much: a bar named in words (other files may upload beside this one).
    const room = page.getByRole("meter", { name: /^Themes of all sites of Demo City Magazine, unpacked: [\d.,]+ (KB|MB) of 200 MB used$/ });
    const used = async () => Number(await room.getAttribute("value"));
    await expect.poll(() => room.count()).toBe(1);
    expect(await room.getAttribute("max")).toBe(String(200 * 1024 ** 2));
    const before = await used();
    await upload("First of mine");
    await expect.poll(() => message(page)).toContain(`Stored ${name} (not active yet).`);
    // The form is empty for the next theme.
    expect(await page.getByLabel("Theme name", { exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Zip file", { exact: true }).inputValue()).toBe("");
    const unpacked = Object.values(unzipSync(themeZip("First of mine"))).reduce((sum, file) => sum + file.length, 0);
    await expect.poll(used).toBeGreaterThanOrEqual(before + unpacked);

    // Preview from the row: a tab of the site with this theme, in preview.
    const [preview] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: `Preview ${name}` }).click()]);
    await preview.waitForURL(/theme_preview=/);
    await expect.poll(() => preview.locator("#marker").textContent()).toBe("First of mine");
    expect(await preview.locator("[data-preview]").innerText()).toContain(`the theme “${name}”`);
    await preview.close();

    // The download is a zip of the theme's files, as an upload takes them.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: `Download ${name}` }).click()]);
    expect(download.suggestedFilename()).toBe(`${name}.zip`);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(Object.keys(files).sort()).toEqual(Object.keys(defaultThemeFiles()).sort());
    expect(strFromU8(files["templates/index.html.j2"]!)).toContain("First of mine");

    // Another theme, listed after ours once the screen reloads its list.
    const next = `${name}-z`;
    await adminApi("POST", `/sites/${site.id}/themes?name=${next}`, new Uint8Array(themeZip("Next of mine")), "application/zip");

    // The same name again: the console asks first; "Cancel" keeps the theme as it was.
    const questions: string[] = [];
    page.once("dialog", (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await upload("Second of mine");
    await expect.poll(() => questions).toEqual([`Replace theme ${name}? Its files are replaced by the zip's.`]);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => message(page)).toContain(`Replaced ${name} (not active).`);
    const link = (await page.getByRole("link", { name: "preview the site with this theme" }).getAttribute("href"))!;
    expect((await fromSite({ base: gateway.base, siteBase: site.base }, link)).text).toContain("Second of mine");
    await shot(page, "console-themes-list");

    // The active theme cannot be deleted; ours can, after the question. Another theme listed after it
    // does not get the focus with the row's place: a second Enter would delete it too.
    await expect.poll(() => page.locator("ul.themes strong").allInnerTexts()).toContain(next);
    expect(await page.getByRole("button", { name: "Delete default" }).count()).toBe(0);
    page.once("dialog", (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
    await expect.poll(() => message(page)).toContain(`Deleted ${name}.`);
    expect(questions.at(-1)).toBe(`Delete theme ${name}? Its files are removed for good (download it first to keep a copy).`);
    // Its preview link went with it.
    expect(await page.getByRole("link", { name: "preview the site with this theme" }).count()).toBe(0);
    await expect.poll(() => page.locator("ul.themes strong").allInnerTexts()).toEqual(expect.not.arrayContaining([name]));
    expect(await page.evaluate("document.activeElement?.id")).toBe("screen-title");
    await adminApi("DELETE", `/sites/${site.id}/themes/${next}`);
    expect((await adminApi<{ themes: string[] }>("GET", `/sites/${site.id}/themes`)).themes).toEqual(["default"]);
  });

  it("says a new site without its theme's files shows the first upload of that name at once, with no preview to look at first", async () => {
    const bare = { name: `Bare ${stamp}`, slug: `bare-${stamp}` };
    await adminApi("POST", "/sites", bare);
    const page = await consoleOn(DESKTOP, "/themes", bare.name);
    await page.getByLabel("Theme name", { exact: true }).fill("default");
    await page
      .getByLabel("Zip file", { exact: true })
      .setInputFiles({ name: "default.zip", mimeType: "application/zip", buffer: themeZip("Bare no more") });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => message(page)).toContain("Stored default: it is the site's theme, so the site shows it now.");
    expect(await page.getByRole("link", { name: "preview the site with this theme" }).count()).toBe(0);
    const home = await fromSite({ base: gateway.base, siteBase: gateway.siteBase.replace("//demo.", `//${bare.slug}.`) }, "/");
    expect(home.text).toContain("Bare no more");
  });

  it("uploads a theme, previews it, activates it and rolls back", async () => {
    const page = await consoleOn(DESKTOP, "/themes");
    const home = async () => (await fromSite({ base: gateway.base, siteBase: site.base }, "/")).text;
    // A typo first: the service refuses the name without reading the zip, and the retry must still go through.
    await page.getByLabel("Theme name", { exact: true }).fill("Fresh Theme");
    await page
      .getByLabel("Zip file", { exact: true })
      .setInputFiles({ name: "fresh.zip", mimeType: "application/zip", buffer: themeZip("Fresh from the browser") });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => page.locator("main").innerText()).toContain("name must be a theme's folder name");
    await page.getByLabel("Theme name", { exact: true }).fill("fresh");
    await page.getByRole("button", { name: "Upload" }).click();
    const preview = page.getByRole("link", { name: "preview the site with this theme" });
    await expect.poll(() => preview.count()).toBe(1);
    expect((await fromSite({ base: gateway.base, siteBase: site.base }, (await preview.getAttribute("href"))!)).text).toContain(
      "Fresh from the browser",
    );
    expect(await home()).not.toContain("Fresh from the browser");

    await page.getByRole("button", { name: "Activate fresh" }).click();
    await expect.poll(() => message(page)).toContain("fresh is the site's theme now.");
    expect(await home()).toContain("Fresh from the browser");
    await page.getByRole("button", { name: "Roll back to default" }).click();
    await expect.poll(() => message(page)).toContain("Rolled back to default.");
    expect(await home()).not.toContain("Fresh from the browser");
  });

  it("fits a phone in the dark: every theme's actions within the screen", async () => {
    const page = await consoleOn(PHONE, "/themes");
    await expect.poll(() => page.getByRole("button", { name: "Preview default" }).count()).toBe(1);
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, "console-themes-phone-dark");
  });
});
