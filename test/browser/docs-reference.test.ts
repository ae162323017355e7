import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Gateway, gatewayReady, openBrowser } from "./gateway";

/**
 * The API reference as a developer uses it, in Chromium with every host but the gateway cut off:
 * open /docs, search for an operation, open it from the sidebar, read its example and curl line,
 * read how to authenticate; on a desktop and on a phone, counting the bytes the page costs.
 * SCREENSHOTS=1 writes docs/screenshots/docs-*.png.
 */

const SCREENSHOTS = process.env.SCREENSHOTS === "1";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
// Swagger UI's page measured the same way before this reference, /openapi.json left out: the page, its 1.7 MB script, its style.
const SWAGGER_SHELL_BYTES = 1_800_000;

let gateway: Gateway;
let browser: Browser;
const contexts: BrowserContext[] = [];

interface Visit {
  page: Page;
  bytes: () => number;
  elsewhere: string[];
}

/** A tab of a new device that reaches the gateway only, counting the bytes of every answer it receives. */
async function openDocs(viewport: { width: number; height: number }, colorScheme: "light" | "dark", path = "/docs"): Promise<Visit> {
  const context = await browser.newContext({ viewport, colorScheme });
  contexts.push(context);
  const gatewayHost = new URL(gateway.base).host;
  const elsewhere: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.host === gatewayHost) return route.continue();
    elsewhere.push(url.href);
    return route.abort("internetdisconnected");
  });
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on("response", (response) =>
    sizes.push(
      response.body().then(
        (body) => body.length,
        () => 0,
      ),
    ),
  );
  await page.goto(`${gateway.base}${path}`, { waitUntil: "load", timeout: 60_000 });
  let total = 0;
  for (const size of await Promise.all(sizes)) total += size;
  return { page, bytes: () => total, elsewhere };
}

async function shot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/docs-${name}.png` });
}

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
}, 180_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe("the API reference at /docs", () => {
  it("finds the pickup operations by search, opens one from the sidebar and shows its example and curl line, offline and lighter than Swagger UI", async () => {
    const { page, bytes, elsewhere } = await openDocs(DESKTOP, "light");
    expect(elsewhere, "the page asks no other host").toEqual([]);
    console.log(`/docs on a desktop: ${bytes()} bytes received before it is usable`);
    // Swagger UI would read the same document: the reference costs less than a third of that.
    const documentBytes = (await (await fetch(`${gateway.base}/openapi.json`)).arrayBuffer()).byteLength;
    expect(bytes()).toBeLessThan((SWAGGER_SHELL_BYTES + documentBytes) / 3);
    await shot(page, "desktop");

    const search = page.getByLabel("Search operations");
    await search.fill("pickup");
    await expect.poll(() => page.locator("#count").textContent()).toMatch(/^\d+ operations match$/);
    const shown = page.locator(".tags li[data-search]:visible");
    const found = await Promise.all((await shown.all()).map(async (item) => (await item.getAttribute("data-search")) ?? ""));
    expect(found.length).toBeGreaterThanOrEqual(6);
    for (const text of found) expect(text).toContain("pickup");
    expect(await page.locator(".tags li[data-search]").count()).toBeGreaterThan(found.length * 10);
    await expect.poll(() => page.locator("article.operation:visible").count()).toBe(found.length);
    await shot(page, "search");

    await page.locator(".tags a", { hasText: "P1 ·" }).click({ timeout: 10_000 });
    const submit = page.locator("article#post-api-v1-carrier-pickup-submit");
    await expect.poll(() => submit.isVisible()).toBe(true);
    expect(page.url()).toContain("#post-api-v1-carrier-pickup-submit");
    const request = JSON.parse((await submit.locator("pre.example").first().textContent())!) as Record<string, unknown>;
    expect(request).toHaveProperty("sender_address");
    expect(JSON.stringify(request)).not.toMatch(/"string"/);
    const curl = (await submit.locator("pre.curl").textContent())!;
    expect(curl).toContain(`curl -s -X POST '${gateway.base}/api/v1/carrier/pickup/submit'`);
    expect(curl).toContain("Authorization: appToken $APP_TOKEN");
    expect(curl).toContain('"request_id"');
    await expect.poll(() => submit.getByText("Credential: pickup app token").isVisible()).toBe(true);
    await submit.scrollIntoViewIfNeeded({ timeout: 10_000 });
    await shot(page, "operation");

    // A summary with code in it reads as one line of text in the sidebar, its code not stacked a letter a line.
    await search.fill("standard rate");
    const withCode = page.locator(".tags li[data-search]:visible code", { hasText: "date" }).first();
    const box = (await withCode.boundingBox())!;
    expect(box.width).toBeGreaterThan(box.height);

    // A word matches where a word starts ("vat" is not in "deactivate"), and what a caller sends is found too (the type SalesTax).
    const listed = () => page.locator(".tags li[data-search]:visible a > span:last-child").allInnerTexts();
    await search.fill("vat");
    await expect.poll(listed).toEqual(expect.arrayContaining([expect.stringMatching(/^T5 · /)]));
    expect((await listed()).join("\n")).not.toMatch(/Deactivate|activat/i);
    await search.fill("sales tax");
    await expect.poll(listed).toEqual(expect.arrayContaining([expect.stringMatching(/^T4 · /)]));
    await search.fill("ccode");
    await expect.poll(listed).toEqual(expect.arrayContaining([expect.stringMatching(/^O2 · /)]));
    // Nothing found is said, where the operations were.
    await search.fill("weather forecast");
    await expect
      .poll(() => page.locator("#no-match").textContent())
      .toBe("No operation matches “weather forecast”. Try fewer words, a path (/contents) or an operation's number (T5).");
    expect(await page.locator("#no-match").isVisible()).toBe(true);
    await shot(page, "no-match");

    await search.fill("");
    expect(await page.locator("#no-match").isVisible()).toBe(false);
    await page.locator(".guide-links a", { hasText: "Authentication and signing" }).click({ timeout: 10_000 });
    const authentication = page.locator("section#authentication");
    await expect.poll(() => authentication.getByText("Authorization: appToken <app token>").isVisible()).toBe(true);
    await expect.poll(() => authentication.getByText("svc_tk_", { exact: false }).first().isVisible()).toBe(true);
    await shot(page, "authentication");
  }, 90_000);

  it("works on a phone in the dark, from /docs/ too: the menu opens the sidebar, search narrows it, a link closes it on the operation", async () => {
    const { page, bytes, elsewhere } = await openDocs(PHONE, "dark", "/docs/");
    expect(elsewhere).toEqual([]);
    console.log(`/docs/ on a phone: ${bytes()} bytes received`);
    expect(await page.locator("article.operation").count()).toBeGreaterThan(100);
    const sidebar = page.locator("#sidebar");
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
    // Closed, the sidebar casts nothing onto the page (its shadow was a grey strip down the left edge).
    expect(await page.evaluate<string>("getComputedStyle(document.getElementById('sidebar')).boxShadow")).toBe("none");
    await page.getByRole("button", { name: "Menu" }).click();
    await expect.poll(() => sidebar.boundingBox().then((box) => box?.x)).toBe(0);
    await page.getByLabel("Search operations").fill("contents");
    await shot(page, "phone-search");
    await page.locator(".tags a", { hasText: "C1" }).first().click();
    await expect.poll(() => sidebar.boundingBox().then((box) => (box ? box.x + box.width : 1))).toBeLessThanOrEqual(0);
    const list = page.locator("article#get-api-mcp-contents");
    await expect.poll(() => list.locator("pre.curl").isVisible()).toBe(true);
    expect(await list.locator("pre.curl").textContent()).toContain('-H "X-API-Key: $TENANT_KEY"');
    await shot(page, "phone-operation");
  }, 90_000);
});
