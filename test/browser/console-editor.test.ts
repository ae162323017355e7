import { type Browser, type BrowserContext, type Dialog, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fromSite, type Gateway, gatewayReady, openBrowser, openConsole, ownerAdmin } from "./gateway";

/**
 * The content editor as a writer uses it, in Chromium against `wrangler dev`: a taken slug shown
 * and focused at its field with a free one to take in a click, the content's id, a draft saved by
 * itself and found again after a reload, a warning before leaving unsaved changes, publishing,
 * scheduling (in the writer's time zone) and unpublishing with a confirmation, on a desktop and a
 * phone, and an image chosen, pasted and dropped into the text. SCREENSHOTS=1 writes
 * docs/screenshots/console-editor-*.png.
 */

let gateway: Gateway;
let browser: Browser;
const SCREENSHOTS = process.env.SCREENSHOTS === "1";
const ZONE = "Europe/Berlin";
const DESKTOP = { viewport: { width: 1280, height: 900 }, timezoneId: ZONE, colorScheme: "light" as const };
const PHONE = { viewport: { width: 390, height: 844 }, timezoneId: ZONE, colorScheme: "dark" as const, isMobile: true, hasTouch: true };
/** An editor of the same site away from home, in another time zone than the site's. */
const AWAY = { ...DESKTOP, timezoneId: "America/New_York" };
// One context a device: Chromium starts a renderer process for each.
const contexts = new Map<string, BrowserContext>();
let page: Page;

async function shot(target: Page, name: string) {
  if (SCREENSHOTS) await target.screenshot({ path: `docs/screenshots/console-editor-${name}.png` });
}

/** A tab of the console on a device, signed in as the demo tenant's owner, at a path. */
async function consoleAt(path: string, device: "desktop" | "phone" | "away" = "desktop") {
  let context = contexts.get(device);
  if (!context) contexts.set(device, (context = await browser.newContext({ desktop: DESKTOP, phone: PHONE, away: AWAY }[device])));
  const tab = await context.newPage();
  await openConsole(tab, gateway, path);
  return tab;
}

/** The admin API as the demo tenant's owner, from Node. */
const adminApi = <T>(method: string, path: string, body?: unknown, type?: string) => ownerAdmin<T>(gateway, method, path, body, type);

type ContentAnswer = { id: number; slug: string; status: string; publishAt: string | null; bodyMarkdown: string; version: number };

/** Other files write to the same demo site at the same time: every slug here is this run's own. */
const stamp = Date.now();
const badge = (tab: Page) => tab.locator(".editor-bar .badge").textContent();
const saveState = (tab: Page) => tab.locator(".editor-bar .save-state").textContent();
const bar = (tab: Page) => tab.locator(".editor-bar");
const body = (tab: Page) => tab.getByLabel("Body (Markdown)", { exact: true });

/** A PNG drawn by the browser's canvas (a real image of a few hundred bytes), as base64. Scripts run in the page are strings: the tests' types have no DOM. */
const drawnPng = (tab: Page, colour: string) =>
  tab.evaluate<string>(`(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 240;
    canvas.height = 120;
    const g = canvas.getContext("2d");
    g.fillStyle = ${JSON.stringify(colour)};
    g.fillRect(0, 0, 240, 120);
    g.fillStyle = "#ffffff";
    g.fillRect(20, 20, 80, 80);
    return canvas.toDataURL("image/png").split(",")[1];
  })()`);

/** The text of what has the focus (a button's). */
const focusedText = (tab: Page) => tab.evaluate<string>("document.activeElement?.textContent?.trim() ?? ''");

/** The name of the field that has the focus. */
const focusedField = (tab: Page) => tab.evaluate<string | undefined>("document.activeElement?.name");

/** A PNG file handed to the body as the browser hands it over: in a paste's clipboard, or a drop's DataTransfer, the cursor at `at`. */
const handOver = (tab: Page, how: "paste" | "drop", at: number | "end", base64: string, name: string) =>
  tab.evaluate(`(() => {
    const area = document.querySelector('textarea[name="bodyMarkdown"]');
    const at = ${JSON.stringify(at)} === "end" ? area.value.length : ${JSON.stringify(at)};
    area.setSelectionRange(at, at);
    const transfer = new DataTransfer();
    const bytes = Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], ${JSON.stringify(name)}, { type: "image/png" }));
    if (${JSON.stringify(how)} === "paste") area.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    else {
      area.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      area.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  })()`);

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
});

afterEach(async (context) => {
  if (context.task.result?.state === "fail" && page)
    console.error(
      `the editor at ${page.url()}:\n${await page
        .locator("main")
        .innerText()
        .catch(() => "(no page)")}`,
    );
});

afterAll(async () => {
  for (const context of contexts.values()) await context.close();
  await browser?.close();
});

describe("the content editor, as a writer uses it", () => {
  const title = `Harbour ${stamp}`;
  const retitled = `${title} at dawn`;
  const slug = `harbour-${stamp}`;
  let id: number;

  it("puts a taken slug's message at the field, scrolled to and focused, and takes the free slug it suggests in one click", async () => {
    await adminApi("POST", "/contents", { siteId: gateway.siteId, title: "The first harbour", slug, language: "en" });
    page = await consoleAt("/contents/new");
    // Languages by name, as Settings names them.
    await expect
      .poll(() => page.getByLabel("Language", { exact: true }).locator("option").allTextContents())
      .toEqual(["English (en)", "German (de)"]);
    // The slug follows the title as the content's language spells it: German writes ä as ae, English drops the dots.
    const language = page.getByLabel("Language", { exact: true });
    await language.selectOption("de");
    await page.getByLabel("Title", { exact: true }).fill("Straßenmärkte am Hafen");
    expect(await page.getByLabel("Slug", { exact: true }).inputValue()).toBe("strassenmaerkte-am-hafen");
    await language.selectOption("en");
    expect(await page.getByLabel("Slug", { exact: true }).inputValue()).toBe("strassenmarkte-am-hafen");
    await page.getByLabel("Title", { exact: true }).fill(title);
    expect(await page.getByLabel("Slug", { exact: true }).inputValue()).toBe(slug);
    await body(page).fill("The harbour at dawn.\n\nBoats come in.");
    // Down at the bottom of the form, as a writer is when they are done: the button is still at hand, in the bar.
    // A path of the site is a canonical address too: the field takes it (a URL field refused it).
    await page.getByLabel("Canonical URL", { exact: true }).fill("/the-first-harbour");
    await page.getByRole("button", { name: "Create draft" }).click();

    const slugField = page.getByLabel("Slug", { exact: true });
    await expect.poll(() => slugField.getAttribute("aria-invalid")).toBe("true");
    const message = page.locator(`[id="${(await slugField.getAttribute("aria-describedby"))!.split(" ").pop()}"]`);
    expect(await message.textContent()).toBe(`The slug ${slug} is already taken in English (en): ${slug}-2 is free`);
    await expect.poll(() => focusedField(page)).toBe("slug");
    const box = (await slugField.boundingBox())!;
    expect(box.y).toBeGreaterThan(0);
    expect(box.y + box.height).toBeLessThan(900);
    await shot(page, "slug-taken");

    await page.getByRole("button", { name: `Use ${slug}-2` }).click();
    await expect.poll(() => page.url()).toMatch(/\/admin\/contents\/\d+$/);
    id = Number(page.url().split("/").pop());
    await expect.poll(() => badge(page)).toBe("draft");
    expect(await page.getByLabel("Slug", { exact: true }).inputValue()).toBe(`${slug}-2`);
    expect(await page.getByLabel("Canonical URL", { exact: true }).inputValue()).toBe("/the-first-harbour");
    // The id other screens and the API ask for, shown with the content.
    expect(await page.locator(".content-id code").textContent()).toBe(String(id));
  });

  it("saves a draft by itself as the writer types, says when, and gives the text back after a reload", async () => {
    await body(page).click();
    await page.keyboard.press("End");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n\nThe fog lifts by nine.");
    await expect.poll(() => saveState(page)).toMatch(/^Unsaved changes|^Saving…$/);
    await expect.poll(() => saveState(page), { timeout: 15_000 }).toMatch(/^Saved at \d{1,2}:\d{2}/);
    // The title too, saved by itself while the writer stays in the field and goes on typing.
    await page.getByLabel("Title", { exact: true }).press("End");
    await page.keyboard.type(" at dawn");
    await expect.poll(() => adminApi<{ title: string }>("GET", `/contents/${id}`).then((c) => c.title), { timeout: 15_000 }).toBe(retitled);
    expect(await focusedField(page)).toBe("title");
    await shot(page, "autosaved");
    await page.reload();
    await expect.poll(() => body(page).inputValue(), { timeout: 30_000 }).toBe("The harbour at dawn.\n\nBoats come in.\n\nThe fog lifts by nine.");
    // A stretch of writing is one version, not one a pause.
    await expect.poll(() => page.locator('section[aria-labelledby="versions"] tbody tr').count()).toBe(1);
  });

  it("keeps the newest text when an autosave is slow to arrive and the writer types on meanwhile", async () => {
    const url = `/contents/${id}/autosave`;
    // The first autosave is held back, as on a slow line (not awaited here: later requests go on meanwhile).
    let autosaves = 0;
    await page.route(`**${url}`, (route) => {
      if (++autosaves === 1) setTimeout(() => void route.continue(), 2500);
      else void route.continue();
    });
    let answered = 0;
    const onAnswer = (request: { url(): string }) => void (request.url().endsWith(url) && answered++);
    page.on("requestfinished", onAnswer);
    // The intro: no later test reads it.
    const intro = page.getByLabel("Intro", { exact: true });
    await intro.fill("Boats at first light.");
    await expect.poll(() => autosaves, { timeout: 15_000 }).toBe(1);
    await intro.fill("Boats at first light, and the fog.");
    await expect.poll(() => answered, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => saveState(page)).toMatch(/^Saved at/);
    expect((await adminApi<{ intro: string }>("GET", `/contents/${id}`)).intro).toBe("Boats at first light, and the fog.");
    page.off("requestfinished", onAnswer);
    await page.unroute(`**${url}`);
  });

  it("warns before the writer leaves unsaved changes, by a link or by closing the tab, and keeps them in the browser", async () => {
    const writer = await consoleAt("/contents/new");
    const asked: string[] = [];
    writer.on("dialog", (dialog) => {
      asked.push(`${dialog.type()}: ${dialog.message()}`);
      // Stays on the first question, leaves on the second.
      void (asked.length === 1 ? dialog.dismiss() : dialog.accept());
    });
    await writer.getByLabel("Title", { exact: true }).fill(`Lighthouse ${stamp}`);
    await writer.getByRole("link", { name: "Contents", exact: true }).click();
    await expect.poll(() => asked).toEqual(["confirm: Leave without saving? Your changes to this content are not saved yet."]);
    expect(writer.url()).toMatch(/\/admin\/contents\/new$/);
    expect(await writer.getByLabel("Title", { exact: true }).inputValue()).toBe(`Lighthouse ${stamp}`);
    await writer.close({ runBeforeUnload: true });
    await expect.poll(() => asked.length).toBe(2);
    expect(asked[1]).toMatch(/^beforeunload/);

    // The next visit finds the text again, and can let it go.
    const again = await consoleAt("/contents/new");
    await expect.poll(() => again.getByLabel("Title", { exact: true }).inputValue(), { timeout: 30_000 }).toBe(`Lighthouse ${stamp}`);
    expect(await again.locator(".alert.notice").textContent()).toMatch(/^Your unsaved changes of .+, kept in this browser, are back/);
    // Gone from the browser at the click itself: a tab closed right after it keeps nothing.
    const keptAfterTheClick = await again.evaluate(`(() => {
      [...document.querySelectorAll("button")].find((button) => button.textContent === "Discard them").click();
      return Object.keys(localStorage).filter((key) => key.startsWith("console.unsaved."));
    })()`);
    expect(keptAfterTheClick).toEqual([]);
    expect(await again.getByLabel("Title", { exact: true }).inputValue()).toBe("");
    await again.close();
  });

  it("inserts an image chosen, pasted or dropped into the text, uploaded to the site's media, where the cursor is", async () => {
    // Tab from the text reaches the button (a hidden file field inside it), which shows the focus ring.
    await body(page).click();
    await page.keyboard.press("Tab");
    const insertButton = `document.querySelector('input[name="bodyImage"]').closest("label")`;
    expect(await page.evaluate<string>("document.activeElement?.name ?? ''")).toBe("bodyImage");
    expect(await page.evaluate<string>(`getComputedStyle(${insertButton}).outlineStyle`)).toBe("solid");
    // Chosen with the button, the cursor after the first paragraph.
    await body(page).click();
    await page.evaluate(`document.querySelector('textarea[name="bodyMarkdown"]').setSelectionRange(20, 20)`);
    const chosen = Buffer.from(await drawnPng(page, "#0b57d0"), "base64");
    await page.getByLabel("Insert image").setInputFiles({ name: "harbour-map.png", mimeType: "image/png", buffer: chosen });
    await expect.poll(() => body(page).inputValue()).toMatch(/^The harbour at dawn\.\n\n!\[harbour map\]\(\/media\/[^)]+\.png\)\n\nBoats come in\./);
    // The file's name stands in for the image's description, selected: the writer types over it.
    expect(await page.getByText("Inserted harbour-map.png: type what it shows over the selected words").isVisible()).toBe(true);
    const selected = `(({ value, selectionStart, selectionEnd }) => value.slice(selectionStart, selectionEnd))(document.querySelector('textarea[name="bodyMarkdown"]'))`;
    await expect.poll(() => page.evaluate<string>(selected)).toBe("harbour map");
    await page.keyboard.type("The harbour's quays and the ferry stop");
    expect(await body(page).inputValue()).toMatch(
      /^The harbour at dawn\.\n\n!\[The harbour's quays and the ferry stop\]\(\/media\/[^)]+\.png\)\n\nBoats/,
    );

    // Pasted, as from a screenshot tool: the clipboard holds a file.
    const png = await drawnPng(page, "#146c2e");
    await handOver(page, "paste", "end", png, "image.png");
    await expect.poll(() => body(page).inputValue()).toMatch(/The fog lifts by nine\.\n\n!\[image\]\(\/media\/[^)]+\.png\)\n$/);

    // Dropped from the desktop onto the text.
    await handOver(page, "drop", 0, png, "quay_at_noon.png");
    await expect.poll(() => body(page).inputValue()).toMatch(/^!\[quay at noon\]\(\/media\/[^)]+\.png\)\n\nThe harbour at dawn\./);
    // The preview shows the three images as loaded files, and the draft saves itself with them.
    await expect
      .poll(() => page.evaluate<number[]>(`[...document.querySelectorAll(".preview img")].map((img) => img.naturalWidth)`))
      .toEqual([240, 240, 240]);
    await expect.poll(() => saveState(page), { timeout: 15_000 }).toMatch(/^Saved at /);
    expect((await adminApi<ContentAnswer>("GET", `/contents/${id}`)).bodyMarkdown.match(/!\[/g)).toHaveLength(3);
    await body(page).scrollIntoViewIfNeeded();
    await shot(page, "image");

    // A phone's photo over the media's limit is refused at once, in words, and nothing is inserted.
    const before = await body(page).inputValue();
    const photo = { name: "phone-photo.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(6 * 1024 * 1024) };
    await page.getByLabel("Insert image").setInputFiles(photo);
    const refused = page.getByRole("alert").filter({ hasText: "phone-photo.jpg is 6 MB" });
    await expect.poll(() => refused.isVisible()).toBe(true);
    expect(await refused.textContent()).toBe(
      "phone-photo.jpg is 6 MB, and a site's media takes files of at most 5 MB: save it smaller (fewer pixels or a lower quality) and upload it again.",
    );
    expect(await body(page).inputValue()).toBe(before);
    await refused.scrollIntoViewIfNeeded();
    await shot(page, "image-too-large");
    // The same for the cover, and on the Media screen: nothing is uploaded.
    await page.locator('input[name="cover"]').setInputFiles(photo);
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "phone-photo.jpg is 6 MB" }).count()).toBe(2);
    const media = await consoleAt("/media");
    await media.getByLabel("Choose files").setInputFiles(photo);
    await expect.poll(() => media.getByRole("alert").filter({ hasText: "phone-photo.jpg is 6 MB" }).isVisible()).toBe(true);
    await shot(media, "media-too-large");
    // A file of another kind is refused in words, before anything is sent.
    await media.getByLabel("Choose files").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Ferry times") });
    await expect
      .poll(() => media.getByRole("alert").filter({ hasText: "notes.txt" }).textContent())
      .toBe("notes.txt is not one of the files a site's media takes: PNG, JPEG, GIF and WebP images and PDF files.");
    // A name longer than a file keeps is cut, its extension kept: the picture is uploaded.
    const longName = `${stamp}-${"harbour-at-dawn-".repeat(14)}.png`;
    await media
      .getByLabel("Choose files")
      .setInputFiles({ name: longName, mimeType: "image/png", buffer: Buffer.from(await drawnPng(media, "#3366aa"), "base64") });
    await expect
      .poll(
        async () =>
          (await adminApi<{ filename: string }[]>("GET", `/sites/${gateway.siteId}/media`)).find((m) => m.filename.includes(String(stamp)))?.filename,
      )
      .toBe(`${longName.slice(0, 195)}….png`);
    await media.close();
    // Other files upload to the demo site meanwhile: what is checked is that no such file arrived.
    const stored = await adminApi<{ filename: string }[]>("GET", `/sites/${gateway.siteId}/media`);
    expect(stored.map((m) => m.filename)).not.toContain("phone-photo.jpg");
  });

  it("publishes in one step with a confirmation, offers Update and Unpublish once published, and unpublishes only after a question", async () => {
    expect(await bar(page).getByRole("button", { name: "Publish now" }).count()).toBe(0);
    // A save by the keyboard leaves the focus on its button, not at the top of the page.
    await bar(page).getByRole("button", { name: "Save", exact: true }).press("Enter");
    await expect.poll(() => page.locator("#editor-outcome").innerText()).toContain("Saved.");
    await expect.poll(() => focusedText(page)).toBe("Save");
    await bar(page).getByRole("button", { name: "Publish", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel("Now").isChecked()).toBe(true);
    await shot(page, "publish");
    // Tab stays inside the dialog: after Cancel comes its first control again, and back.
    await dialog.getByRole("button", { name: "Cancel" }).focus();
    await page.keyboard.press("Tab");
    expect(await focusedField(page)).toBe("when");
    await page.keyboard.press("Shift+Tab");
    expect(await focusedText(page)).toBe("Cancel");
    await dialog.getByRole("button", { name: "Publish now" }).press("Enter");
    await expect.poll(() => badge(page)).toBe("published");
    expect(await dialog.isVisible()).toBe(false);
    // Its button gone, the focus is on the one there now; the bar says what happened last, not the save before.
    await expect.poll(() => focusedText(page)).toBe("Unpublish");
    expect(await page.locator("#editor-outcome").innerText()).toBe("Published: the site shows it now.");
    expect((await fromSite(gateway, `/${slug}-2`)).status).toBe(200);
    // What is published is updated or taken back, never published again.
    expect(await bar(page).getByRole("button", { name: "Publish", exact: true }).count()).toBe(0);
    expect(await bar(page).getByRole("button", { name: "Update" }).count()).toBe(1);

    const questions: string[] = [];
    let answer = false;
    const onDialog = (d: Dialog) => {
      questions.push(d.message());
      void (answer ? d.accept() : d.dismiss());
    };
    page.on("dialog", onDialog);
    await bar(page).getByRole("button", { name: "Unpublish" }).click();
    await expect.poll(() => questions).toEqual([`Unpublish “${retitled}”? It leaves the site within seconds and becomes a draft again.`]);
    expect(await badge(page)).toBe("published");
    // Once a menu links to it, the question says so: the site's menu leaves that item out meanwhile.
    const menu = `linked-${stamp}`;
    const linking = await adminApi<{ id: number }>("PUT", "/tags", {
      siteId: gateway.siteId,
      type: "menu",
      name: menu,
      definition: { items: [{ label: "Fireworks", link: { content: id } }] },
    });
    await bar(page).getByRole("button", { name: "Unpublish" }).click();
    await expect.poll(() => questions.length).toBe(2);
    expect(questions[1]).toBe(
      `Unpublish “${retitled}”? It leaves the site within seconds and becomes a draft again. The menu item “Fireworks” in ${menu} links to it: the site leaves it out of its menu until it is published again.`,
    );
    await adminApi("DELETE", `/tags/${linking.id}`);
    answer = true;
    await bar(page).getByRole("button", { name: "Unpublish" }).click();
    await expect.poll(() => badge(page)).toBe("draft");
    await expect.poll(() => focusedText(page)).toBe("Publish");
    page.off("dialog", onDialog);
    expect((await fromSite(gateway, `/${slug}-2`)).status).toBe(404);
  });

  it("schedules at a date and time in the writer's own time zone, and says when", async () => {
    await bar(page).getByRole("button", { name: "Publish", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("At a date and time").check();
    const when = dialog.getByLabel(`Date and time, your time (${ZONE})`);
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(tomorrow);
    await when.fill(`${day}T09:30`);
    const confirm = dialog.getByRole("button", { name: /^Schedule for / });
    expect(await confirm.textContent()).toMatch(/9:30|09:30/);
    await shot(page, "schedule");
    await confirm.click();
    await expect.poll(() => badge(page)).toBe("scheduled");
    const stored = await adminApi<ContentAnswer>("GET", `/contents/${id}`);
    // 09:30 in Berlin is 08:30 UTC in winter, 07:30 in summer.
    expect(stored.publishAt).toMatch(new RegExp(`^${day}T0[78]:30:00`));
    expect(await page.locator(".editor-bar .meta").textContent()).toContain("public from");
    expect((await fromSite(gateway, `/${slug}-2`)).status).toBe(404);
    // A time gone by is refused in the dialog, not sent.
    await bar(page).getByRole("button", { name: "Reschedule" }).click();
    await dialog.getByLabel(`Date and time, your time (${ZONE})`).fill("2020-01-01T09:30");
    await dialog.getByRole("button", { name: /^Schedule for / }).click();
    await expect.poll(() => dialog.getByText("Pick a time in the future, or publish now.").count()).toBe(1);
    // Mended, the time is no longer refused; the button and Cancel stay on one row.
    await dialog.getByLabel(`Date and time, your time (${ZONE})`).fill(`${day}T10:30`);
    await expect.poll(() => dialog.getByText("Pick a time in the future, or publish now.").count()).toBe(0);
    const scheduleBox = (await dialog.getByRole("button", { name: /^Schedule for / }).boundingBox())!;
    expect((await dialog.getByRole("button", { name: "Cancel" }).boundingBox())!.y).toBe(scheduleBox.y);
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await adminApi<ContentAnswer>("GET", `/contents/${id}`)).publishAt).toBe(stored.publishAt);

    // Away in New York, the editor types New York's time and is told the time the site's readers will see.
    const away = await consoleAt(`/contents/${id}`, "away");
    await bar(away).getByRole("button", { name: "Reschedule" }).click();
    const awayDialog = away.getByRole("dialog");
    await awayDialog.getByLabel("Date and time, your time (America/New_York)").fill(`${day}T09:30`);
    await expect
      .poll(() => awayDialog.locator("#site-time").textContent())
      .toMatch(/^The site's time \((?!America\/New_York)[A-Za-z_/]+\): \S.*\d:30/);
    await shot(away, "schedule-away");
    await away.close();
  });

  it("keeps Preview on site working from the bar, and copies a preview link a colleague can open", async () => {
    const [preview] = await Promise.all([page.context().waitForEvent("page"), bar(page).getByRole("button", { name: "Preview on site" }).click()]);
    await preview.waitForURL(`${gateway.siteBase}/${slug}-2`);
    expect(await preview.locator("h1").first().textContent()).toContain(title);
    await preview.close();

    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: gateway.base });
    await bar(page).getByRole("button", { name: "Copy preview link" }).click();
    await expect
      .poll(() => bar(page).getByRole("status").filter({ hasText: "Preview link copied" }).textContent())
      .toMatch(/^ ?Preview link copied: anyone who has it sees this content until .+\.$/);
    const copiedLink = await page.evaluate<string>("navigator.clipboard.readText()");
    expect(copiedLink).toMatch(new RegExp(`^${gateway.siteBase}/_preview\\?token=`));
    // A colleague's browser, with no session of the console and no cookie of the site, opens it.
    const colleague = await browser.newContext();
    const theirs = await colleague.newPage();
    await theirs.goto(copiedLink, { waitUntil: "domcontentloaded" });
    expect(theirs.url()).toBe(`${gateway.siteBase}/${slug}-2`);
    expect(await theirs.locator("h1").first().textContent()).toContain(title);
    await shot(page, "preview-link");
    await colleague.close();
  });

  it("publishes on a phone, in the dark, with the dialog on the screen", async () => {
    const post = await adminApi<{ id: number }>("POST", "/contents", {
      siteId: gateway.siteId,
      title: `Ferry times ${stamp}`,
      slug: `ferry-times-${stamp}`,
      language: "en",
      bodyMarkdown: "From the quay, every hour.",
    });
    const phone = await consoleAt(`/contents/${post.id}`, "phone");
    await expect.poll(() => badge(phone), { timeout: 30_000 }).toBe("draft");
    await shot(phone, "phone");
    await bar(phone).getByRole("button", { name: "Publish", exact: true }).click();
    const dialog = phone.getByRole("dialog");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await phone.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await shot(phone, "phone-publish");
    await dialog.getByRole("button", { name: "Publish now" }).tap();
    await expect.poll(() => badge(phone)).toBe("published");
    expect((await fromSite(gateway, `/ferry-times-${stamp}`)).status).toBe(200);
    await phone.close();
  });

  it("publishes a new content in one step, from the first screen, and opens it at its address saying so; a refused one is not created", async () => {
    const tab = await consoleAt("/contents/new");
    const night = `Night ferry ${stamp}`;
    await tab.getByLabel("Title", { exact: true }).fill(night);
    await body(tab).fill("The last boat leaves at midnight.");
    await bar(tab).getByRole("button", { name: "Publish", exact: true }).click();
    await tab.getByRole("dialog").getByRole("button", { name: "Publish now" }).click();
    await expect.poll(() => tab.url()).toMatch(/\/admin\/contents\/\d+$/);
    await expect.poll(() => badge(tab)).toBe("published");
    expect(await tab.locator("#editor-outcome").innerText()).toBe("Published: the site shows it now.");
    // Said once: the address keeps no ?published= to say it again on a reload or in a shared link.
    expect(new URL(tab.url()).search).toBe("");
    expect((await fromSite(gateway, `/night-ferry-${stamp}`)).status).toBe(200);
    // Said once: the next thing done speaks instead.
    await body(tab).fill("The last boat leaves at one.");
    await bar(tab).getByRole("button", { name: "Update" }).click();
    await expect.poll(() => tab.locator("#editor-outcome").innerText()).toBe("Updated: the site shows it now.");
    // Restoring the first text of a live page asks first, and says the site shows it.
    const questions: string[] = [];
    let answer = false;
    tab.on("dialog", (d) => {
      questions.push(d.message());
      void (answer ? d.accept() : d.dismiss());
    });
    const restore = tab.getByRole("button", { name: "Restore v1" });
    await restore.click();
    await expect.poll(() => questions).toEqual([`Restore version 1 of “${night}”? The site shows its text at once.`]);
    expect(await body(tab).inputValue()).toBe("The last boat leaves at one.");
    answer = true;
    await restore.click();
    await expect
      .poll(() => tab.getByRole("status").filter({ hasText: "Restored version 1" }).textContent())
      .toBe("Restored version 1 as a new version: the site shows it now.");
    expect((await fromSite(gateway, `/night-ferry-${stamp}`)).text).toContain("The last boat leaves at midnight.");

    // The same title again: its slug is taken, so nothing is created or published yet, and the slug's field says why.
    await tab.goto(`${gateway.base}/admin/contents/new`);
    await tab.getByLabel("Title", { exact: true }).fill(night);
    await bar(tab).getByRole("button", { name: "Publish", exact: true }).click();
    await tab.getByRole("dialog").getByRole("button", { name: "Publish now" }).click();
    const slugField = tab.getByLabel("Slug", { exact: true });
    await expect.poll(() => slugField.getAttribute("aria-invalid")).toBe("true");
    expect(await tab.getByRole("dialog").count()).toBe(0);
    await expect.poll(() => focusedField(tab)).toBe("slug");
    expect(tab.url()).toMatch(/\/admin\/contents\/new$/);
    const found = await adminApi<{ items: { title: string }[] }>("GET", `/contents?siteId=${gateway.siteId}&q=${encodeURIComponent(night)}`);
    expect(found.items.map((item) => item.title)).toEqual([night]);
    // The free slug it offers, taken: created and published, as Publish asked.
    await tab.getByRole("button", { name: `Use night-ferry-${stamp}-2` }).click();
    await expect.poll(() => tab.url()).toMatch(/\/admin\/contents\/\d+$/);
    await expect.poll(() => badge(tab)).toBe("published");
    expect((await fromSite(gateway, `/night-ferry-${stamp}-2`)).status).toBe(200);
    await tab.close();
  });

  it("asks only for the title when Publish now is pressed without one, not for the slug it would make", async () => {
    const tab = await consoleAt("/contents/new");
    await body(tab).fill("Bread at seven.");
    await bar(tab).getByRole("button", { name: "Publish", exact: true }).click();
    await tab.getByRole("dialog").getByRole("button", { name: "Publish now" }).click();
    await expect.poll(() => tab.getByLabel("Title", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await tab.locator("#editor-outcome").innerText()).toBe("Title must not be empty");
    expect(await tab.getByLabel("Slug", { exact: true }).getAttribute("aria-invalid")).toBeNull();
    await tab.close();
  });

  it("says spaces alone are no title at the title, and keeps a hand-typed slug of a copy the browser brought back", async () => {
    const tab = await consoleAt("/contents/new");
    const titleField = tab.getByLabel("Title", { exact: true });
    await titleField.pressSequentially("   ");
    await tab.getByRole("button", { name: "Create draft" }).click();
    // The browser stops at the title with its reason, not at the empty slug under it.
    await expect.poll(() => focusedField(tab)).toBe("title");
    expect(await tab.evaluate<string>("document.activeElement.validationMessage")).toBe("Please write more than spaces.");

    await titleField.fill("");
    await tab.getByLabel("Slug", { exact: true }).fill(`own-${stamp}`);
    await titleField.fill("Ferry");
    await tab.reload({ waitUntil: "domcontentloaded" });
    await expect.poll(() => tab.getByRole("status").allTextContents()).toContainEqual(expect.stringMatching(/^Your unsaved changes of /));
    await tab.getByLabel("Title", { exact: true }).pressSequentially(" times");
    expect(await tab.getByLabel("Slug", { exact: true }).inputValue()).toBe(`own-${stamp}`);
    // Discarded: the next new content of this browser starts empty.
    await tab.getByRole("button", { name: "Discard them" }).click();
    await tab.close();
  });

  it("shows under the list how much room the texts take, and the bar grows by a text written and saved", async () => {
    const tab = await consoleAt("/contents");
    // A bar named in words; other files write to the same tenant meanwhile, so it grows by at least this text.
    const room = tab.getByRole("meter", {
      name: /^Texts of all sites of Demo City Magazine, every saved version counted: [\d.,]+ (KB|MB) of 100 MB used$/,
    });
    const used = async () => Number(await room.getAttribute("value"));
    await expect.poll(() => room.count()).toBe(1);
    expect(await room.getAttribute("max")).toBe(String(100 * 1024 ** 2));
    const before = await used();
    await tab.getByRole("link", { name: "New content" }).click();
    const text = "The ferry leaves at dawn. ".repeat(800);
    await tab.getByLabel("Title", { exact: true }).fill(`Long crossing ${stamp}`);
    await body(tab).fill(text);
    await tab.getByRole("button", { name: "Create draft" }).click();
    await expect.poll(() => badge(tab)).toBe("draft");
    // The history's bound is said where the versions are.
    expect(await tab.getByText("The newest 50 versions are kept: a save past them lets the oldest go.").count()).toBe(1);
    await tab.getByRole("link", { name: "Contents", exact: true }).click();
    await expect.poll(used).toBeGreaterThanOrEqual(before + text.length);
    await shot(tab, "text-room");
    await tab.close();
  });
});
