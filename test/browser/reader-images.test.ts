import { join } from "node:path";
import { encode } from "fast-png";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromSite, type Gateway, gatewayReady, openBrowser, ownerAdmin } from "./gateway";

/**
 * Images as an editor and a reader meet them (issue 34): an editor uploads a photo on the console's
 * Media screen and pastes its Markdown into a post's body, drops it on the cover field (the post's
 * social image), publishes; a reader on a desktop and on a phone sees the body image and the cover
 * on the demo site's own host, with no CSP violation, and the social card's image answers there.
 * The screenshots go to the system's temporary folder (reader-images-*.png).
 */

let gateway: Gateway;
// READER_SHOTS=<folder> keeps screenshots of each step.
const SHOTS = process.env.READER_SHOTS;
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

/** A 1200 × 800 photo-like PNG: a colour gradient, so that a screenshot shows whether it was drawn. */
function photo(): Buffer {
  const width = 1200;
  const height = 800;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([(x * 255) / width, (y * 255) / height, 160], (y * width + x) * 3);
  return Buffer.from(encode({ width, height, data, channels: 3 }));
}

/** Whether an image element was fetched and decoded: what the reader sees, not what the HTML says. */
const drawn = (page: Page, selector: string): Promise<{ complete: boolean; width: number; src: string }> =>
  page.evaluate(
    `(() => { const img = document.querySelector(${JSON.stringify(selector)}); return { complete: img.complete, width: img.naturalWidth, src: img.currentSrc }; })()`,
  );

let browser: Browser;
let console_: Page;
const stamp = Date.now();
const title = `Harbour photo ${stamp}`;
const slug = `harbour-photo-${stamp}`;
const filename = `harbour-${stamp}.png`;
const COVER_WORDS = "A gradient from blue to pink over the harbour at dawn";
const PHOTO_WORDS = "The harbour photo: blue at the top, green below";

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  console_ = await context.newPage();
  await console_.goto(`${gateway.base}/admin/#token=${gateway.ownerToken}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
});

describe("images, from the console to the reader", () => {
  let markdown: string;

  it("an editor uploads a photo on the Media screen and finds its Markdown there", async () => {
    await console_.getByRole("link", { name: "Media", exact: true }).click();
    // How much room the tenant's media take, of how much: a bar named in words (other files upload beside this one).
    const room = console_.getByRole("meter", { name: /^Media of all sites of Demo City Magazine: [\d.,]+ (KB|MB) of 1 GB used$/ });
    const used = async () => Number(await room.getAttribute("value"));
    await expect.poll(() => room.count()).toBe(1);
    expect(await room.getAttribute("max")).toBe(String(1024 ** 3));
    const before = await used();
    await console_.getByLabel("Choose files").setInputFiles({ name: filename, mimeType: "image/png", buffer: photo() });
    await expect.poll(() => console_.getByRole("status").allTextContents()).toContain(`Uploaded ${filename}.`);
    await expect.poll(used).toBeGreaterThanOrEqual(before + photo().byteLength);
    const snippet = console_.getByLabel(`Markdown of ${filename}`);
    await expect.poll(() => snippet.inputValue()).toMatch(/^!\[harbour-\d+\.png\]\(\/media\/\d+\/\d+\/[0-9A-Za-z]{20}\.png\)$/);
    const card = console_.locator("li", { has: snippet });
    expect(await card.textContent()).toContain("1200 × 800");
    // Its words, written once: its Markdown starts with them.
    await console_.getByLabel(`What it shows (${filename})`, { exact: true }).fill(PHOTO_WORDS);
    // A colleague uploads a file meanwhile: the list the save reloads starts with it, and the words stay with this photo.
    await ownerAdmin(gateway, "POST", `/media?siteId=${gateway.siteId}&filename=meanwhile-${filename}`, new Uint8Array(photo()), "image/png");
    await card.getByRole("button", { name: "Save words" }).click();
    await expect.poll(() => card.getByRole("status").allTextContents()).toContain("Saved.");
    await expect.poll(() => snippet.inputValue()).toMatch(new RegExp(`^!\\[${PHOTO_WORDS}\\]\\(/media/\\d+/\\d+/[0-9A-Za-z]{20}\\.png\\)$`));
    expect(await console_.getByLabel(`What it shows (meanwhile-${filename})`, { exact: true }).inputValue()).toBe("");
    markdown = await snippet.inputValue();
    if (SHOTS) await console_.screenshot({ path: join(SHOTS, "reader-images-media-screen.png") });
  });

  it("pastes it into a post's body, drops it on the cover, sees both in the console's preview, and publishes", async () => {
    await console_.getByRole("link", { name: "Contents", exact: true }).click();
    await console_.getByRole("link", { name: "New content" }).click();
    await console_.getByLabel("Title", { exact: true }).fill(title);
    await console_.getByLabel("Slug", { exact: true }).fill(slug);
    await console_.getByLabel("Body (Markdown)", { exact: true }).fill(`The harbour at dawn.\n\n${markdown}`);
    await console_.locator('input[name="cover"]').setInputFiles({ name: `cover-${filename}`, mimeType: "image/png", buffer: photo() });
    await expect.poll(() => console_.locator('.dropzone img[alt="The cover"]').getAttribute("src")).toMatch(/^\/media\//);
    await expect.poll(async () => (await drawn(console_, ".preview .prose img")).width).toBe(1200);
    await expect.poll(async () => (await drawn(console_, '.dropzone img[alt="The cover"]')).width).toBe(1200);
    // With a cover comes the question of what it shows, for readers who cannot see it.
    await console_.getByLabel("What the cover shows", { exact: true }).fill(COVER_WORDS);
    // Its hint sits right above the next button, with no empty band between.
    const hint = (await console_.getByText("In words, for readers who cannot see it").boundingBox())!;
    const next = (await console_.getByRole("button", { name: "Choose one already in Media" }).boundingBox())!;
    expect(next.y - (hint.y + hint.height)).toBeLessThan(24);
    if (SHOTS) await console_.locator(".markdown").screenshot({ path: join(SHOTS, "reader-images-console-preview.png") });
    if (SHOTS)
      await console_.locator(".field", { has: console_.locator(".dropzone") }).screenshot({ path: join(SHOTS, "reader-images-cover-words.png") });
    await console_.getByRole("button", { name: "Create draft" }).click();
    await expect.poll(() => console_.locator(".meta .badge").textContent()).toBe("draft");
    await console_.getByRole("button", { name: "Publish", exact: true }).click();
    await console_.getByRole("button", { name: "Publish now" }).click();
    await expect.poll(() => console_.locator(".meta .badge").textContent()).toBe("published");
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    it(`a reader on a ${device} sees the body image and the cover on the site's own host, with no CSP violation`, async () => {
      // The desktop reader opens a tab beside the console; the phone is a device of its own.
      const context = device === "desktop" ? console_.context() : await browser.newContext({ viewport });
      const reader = await context.newPage();
      // What would hide an image: a policy that blocks it, or an image address that fails.
      const complaints: string[] = [];
      reader.on("console", (message) => {
        if (/Content Security Policy/.test(message.text())) complaints.push(message.text());
      });
      reader.on("response", (response) => {
        if (response.url().includes("/media/") && response.status() >= 400) complaints.push(`${response.status()} ${response.url()}`);
      });
      // An image request the browser drops itself (a better srcset candidate) is no failure.
      reader.on("requestfailed", (failed) => {
        const reason = failed.failure()?.errorText ?? "";
        if (failed.url().includes("/media/") && reason !== "net::ERR_ABORTED") complaints.push(`${reason} ${failed.url()}`);
      });
      await reader.goto(`${gateway.siteBase}/${slug}`, { waitUntil: "load" });
      expect(await reader.locator("h1").first().textContent()).toBe(title);

      const cover = await drawn(reader, "img.cover");
      expect(cover).toMatchObject({ complete: true, width: expect.any(Number) as number });
      expect(cover.width).toBeGreaterThan(0);
      expect(cover.src.startsWith(`${gateway.siteBase}/media/`)).toBe(true);
      const coverTag = reader.locator("img.cover");
      // A screen reader names the picture by the editor's words.
      expect(await reader.getByRole("img", { name: COVER_WORDS, exact: true }).getAttribute("class")).toBe("cover");
      expect(await coverTag.getAttribute("width")).toBe("1200");
      expect(await coverTag.getAttribute("height")).toBe("800");
      expect(await coverTag.getAttribute("srcset")).toMatch(/-480w\.webp 480w, .*-960w\.webp 960w, .*\.png 1200w$/);
      // The cover is no wider than the screen: no sideways scrolling on a phone.
      expect((await coverTag.boundingBox())!.width).toBeLessThanOrEqual(viewport.width);

      const body = reader.locator(".body img");
      await body.scrollIntoViewIfNeeded();
      await expect.poll(async () => (await drawn(reader, ".body img")).width).toBe(1200);
      expect((await drawn(reader, ".body img")).src.startsWith(`${gateway.siteBase}/media/`)).toBe(true);
      expect(await body.getAttribute("loading")).toBe("lazy");
      expect(await body.getAttribute("alt")).toBe(PHOTO_WORDS);
      expect([await body.getAttribute("width"), await body.getAttribute("height")]).toEqual(["1200", "800"]);

      expect(complaints).toEqual([]);
      if (SHOTS) await reader.screenshot({ path: join(SHOTS, `reader-images-${device}.png`), fullPage: true });
      await (device === "desktop" ? reader.close() : context.close());
    });
  }

  it("takes the same photo as another post's cover from Media, without a second copy there", async () => {
    const url = markdown.slice(markdown.indexOf("(") + 1, -1);
    await console_.getByRole("link", { name: "Contents", exact: true }).click();
    await console_.getByRole("link", { name: "New content" }).click();
    await console_.getByLabel("Title", { exact: true }).fill(`${title}, again`);
    await console_.getByRole("button", { name: "Choose one already in Media" }).click();
    await console_.getByRole("group", { name: "Images in Media" }).getByLabel(filename, { exact: true }).check();
    await expect.poll(() => console_.locator('.dropzone img[alt="The cover"]').getAttribute("src")).toBe(url);
    // The words written for it on the Media screen come with it; words for one picture are not kept for another.
    const words = console_.getByLabel("What the cover shows", { exact: true });
    await expect.poll(() => words.inputValue()).toBe(PHOTO_WORDS);
    await words.fill("The gradient photo");
    await console_.getByRole("group", { name: "Images in Media" }).getByLabel(`cover-${filename}`, { exact: true }).check();
    await expect.poll(() => words.inputValue()).toBe("");
    await console_.getByRole("group", { name: "Images in Media" }).getByLabel(filename, { exact: true }).check();
    await expect.poll(() => words.inputValue()).toBe(PHOTO_WORDS);
    if (SHOTS)
      await console_
        .locator(".field", { has: console_.locator(".dropzone") })
        .screenshot({ path: join(SHOTS, "reader-images-cover-from-media.png") });
    await console_.getByRole("button", { name: "Create draft" }).click();
    await expect.poll(() => console_.locator(".meta .badge").textContent()).toBe("draft");
    await console_.getByRole("link", { name: "Media", exact: true }).click();
    await expect.poll(() => console_.getByLabel(`Markdown of ${filename}`).count()).toBe(1);
  });

  it("gives the social card an absolute image address on the site's host, which answers with the image", async () => {
    const reader = await console_.context().newPage();
    await reader.goto(`${gateway.siteBase}/${slug}`);
    const og = (await reader.locator('meta[property="og:image"]').getAttribute("content"))!;
    expect(og).toMatch(new RegExp(`^${gateway.siteBase.replaceAll(".", "\\.")}/media/\\d+/\\d+/[0-9A-Za-z]{20}\\.png$`));
    expect(await reader.locator('meta[name="twitter:image"]').getAttribute("content")).toBe(og);
    expect(await reader.locator('meta[property="og:image:alt"]').getAttribute("content")).toBe(COVER_WORDS);
    const image = await fromSite(gateway, og);
    expect(image).toMatchObject({ status: 200, type: "image/png" });
    expect(image.bytes).toBeGreaterThan(0);
    await reader.close();
  });
});
