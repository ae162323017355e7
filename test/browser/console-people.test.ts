import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Gateway, gatewayReady, openBrowser, ownerAdmin, showConsoleOnFailure } from "./gateway";

/**
 * Members and the audit log as an owner lives with them, in Chromium against `wrangler dev`: the
 * owner invites an address that has never signed in and sees it pending; that person signs in
 * through "Sign in with your account" (the identity provider a stand-in, test/browser/identity-provider.ts)
 * and finds the tenant; the owner changes their role and removes them, answering the question;
 * the audit log says it all in words with local times, and its entry links to the content.
 * Desktop and phone. SCREENSHOTS=1 writes docs/screenshots/console-people-*.png.
 */

let gateway: Gateway;
let browser: Browser;
const SCREENSHOTS = process.env.SCREENSHOTS === "1";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const contexts = new Map<number, BrowserContext>();
const TAG = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const INVITED = `new-${TAG}@browser.test`;
const INVITED_NAME = `Ada Lovelace ${TAG}`;
let page: Page;

async function shot(target: Page, name: string) {
  if (SCREENSHOTS) await target.screenshot({ path: `docs/screenshots/console-people-${name}.png`, fullPage: false });
}

/** A tab on a device: one context a device, shared by the file's tests (a context costs Chromium a renderer). */
async function newPage(viewport = DESKTOP) {
  let context = contexts.get(viewport.width);
  if (!context) contexts.set(viewport.width, (context = await browser.newContext({ viewport })));
  return context.newPage();
}

/** The console at a path, signed in as the demo tenant's owner (owner@browser.test). */
async function asOwner(target: Page, path: string) {
  await target.goto(`${gateway.base}/admin${path}#token=${gateway.ownerToken}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
  await target.locator("h1#screen-title").waitFor();
}

/** Answers the console's next question (a confirm) with yes, and gives it back. */
function answerYes(target: Page): Promise<string> {
  return new Promise((resolve) =>
    target.once("dialog", (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    }),
  );
}

/** The admin API as the demo tenant's owner, from Node. */
const adminApi = <T>(method: string, path: string, body?: unknown, type?: string) => ownerAdmin<T>(gateway, method, path, body, type);

const noSidewaysScroll = (target: Page) => target.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth");

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
  page = await newPage();
});

showConsoleOnFailure(() => page);

afterAll(async () => {
  for (const context of contexts.values()) await context.close();
  await browser?.close();
});

describe("members: an invitation accepted at the first sign-in", () => {
  it("invites an address that has never signed in and lists it as pending for 7 days", async () => {
    await asOwner(page, "/members");
    const form = page.locator("form", { has: page.getByRole("heading", { name: "Invite someone" }) });
    await form.getByLabel("Email").fill(INVITED);
    await form.getByLabel("Role").selectOption("editor");
    await form.getByRole("button", { name: "Invite" }).click();
    await expect.poll(() => form.locator("[role=status]").innerText()).toContain(`${INVITED} is invited as editor for 7 days`);
    // No mail goes out: the owner is told to tell them.
    expect(await form.locator("[role=status]").innerText()).toMatch(/at http:\/\/localhost:\d+\/admin\. No email is sent: tell them yourself\.$/);
    expect(await form.getByLabel("Email").inputValue()).toBe("");
    const row = page.locator("table.invitations tr", { hasText: INVITED });
    await expect.poll(() => row.innerText()).toMatch(/editor\s+Pending, expires in 7 days/);
    await shot(page, "invite");
  });

  it("says an invitation sent again replaces the one before, and withdraws an invitation after asking", async () => {
    const other = `withdrawn-${TAG}@browser.test`;
    const form = page.locator("form", { has: page.getByRole("heading", { name: "Invite someone" }) });
    await form.getByLabel("Email").fill(other);
    await form.getByLabel("Role").selectOption("viewer");
    await form.getByRole("button", { name: "Invite" }).click();
    const row = page.locator("table.invitations tr", { hasText: other });
    await row.waitFor();
    await form.getByLabel("Email").fill(other.toUpperCase());
    await form.getByLabel("Role").selectOption("author");
    await form.getByRole("button", { name: "Invite" }).click();
    await expect
      .poll(() => form.locator("[role=status]").innerText())
      .toContain(`${other.toUpperCase()} is invited as author for 7 days (this replaces their invitation as viewer):`);
    await expect.poll(() => row.innerText()).toMatch(/author\s+Pending/);
    const question = answerYes(page);
    await row.getByRole("button", { name: "Withdraw" }).click();
    expect(await question).toBe(`Withdraw the invitation of ${other}? Signing in with that address will no longer make them a member.`);
    await expect.poll(() => page.locator("main [role=status]").first().innerText()).toContain(`The invitation of ${other} is withdrawn.`);
    await expect.poll(() => row.count()).toBe(0);
  });

  it("lets the invited person sign in with their account and find the tenant", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in with your account" }).click();
    // The identity provider's own page (a stand-in here): the person says who they are.
    await page.getByLabel("Email").fill(INVITED);
    await page.getByLabel("Your name").fill(INVITED_NAME);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.locator("h1#screen-title", { hasText: "Dashboard" }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).search).toBe("");
    const tenant = page.getByLabel("Tenant");
    expect(await tenant.locator("option:checked").innerText()).toBe("Demo City Magazine (editor)");
    // An editor's menu: the audit log, not the keys.
    const menu = page.getByRole("navigation");
    expect(await menu.getByRole("link", { name: "Audit log" }).count()).toBe(1);
    expect(await menu.getByRole("link", { name: "API keys" }).count()).toBe(0);
    await page.getByRole("heading", { name: /^Drafts/ }).waitFor();
    await shot(page, "first-sign-in");

    // Their name, as their contents' bylines will show it: the one they signed in with, theirs to change (and change back).
    await menu.getByRole("link", { name: "Members" }).click();
    const yours = page.locator("section", { has: page.getByRole("heading", { name: "Your name" }) });
    const field = yours.getByLabel("Name shown as the author of your contents");
    await expect.poll(() => field.inputValue()).toBe(INVITED_NAME);
    const ownRow = page.locator("table.members tr", { hasText: INVITED });
    const save = async (name: string) => {
      await field.fill(name);
      await yours.getByRole("button", { name: "Save your name" }).click();
    };
    const saved = "Saved: your contents show this name as their author.";
    await save(`Ada King ${TAG}`);
    await expect.poll(() => yours.getByRole("status").innerText()).toBe(saved);
    await expect.poll(() => ownRow.locator("td").first().innerText()).toBe(`Ada King ${TAG}`);
    await shot(page, "your-name");
    await save("ada@example.com");
    await expect.poll(() => yours.locator(".field-error").innerText()).toBe("Full name must be a name, not an email address: bylines never show one");
    await save(INVITED_NAME);
    await expect.poll(() => yours.getByRole("status").innerText()).toBe(saved);
    await expect.poll(() => ownRow.locator("td").first().innerText()).toBe(INVITED_NAME);
    // Back where the next test expects a signed-out console to be (an address with only another #token is not a new page load).
    await menu.getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to the console" }).waitFor();
  });

  it("shows the new member by name, with no pending invitation left", async () => {
    await asOwner(page, "/members");
    const row = page.locator("table.members tr", { hasText: INVITED });
    await row.waitFor();
    expect(await row.locator("td").first().innerText()).toBe(INVITED_NAME);
    expect(await page.locator("table.invitations tr", { hasText: INVITED }).count()).toBe(0);
  });

  it("changes the member's role by its button once chosen, not at each step of the keyboard's arrows", async () => {
    const row = page.locator("table.members tr", { hasText: INVITED });
    const role = row.getByLabel(`Role of ${INVITED_NAME}`);
    const roleNow = async () => (await adminApi<{ email: string; role: string }[]>("GET", "/members")).find((m) => m.email === INVITED)?.role;
    // The arrows step through the roles: none is given on the way.
    await role.focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await role.inputValue()).toBe("author");
    expect(await roleNow()).toBe("editor");
    await row.getByRole("button", { name: `Make ${INVITED_NAME} Author` }).press("Enter");
    await expect.poll(() => page.locator("main [role=status]").first().innerText()).toContain(`${INVITED_NAME} is author now.`);
    expect(await roleNow()).toBe("author");
    // The button goes with the change; the focus stays with the member's role.
    await expect.poll(() => row.getByRole("button", { name: /^Make / }).count()).toBe(0);
    await expect.poll(() => page.evaluate<string>("document.activeElement?.labels?.[0]?.textContent ?? ''")).toBe(`Role of ${INVITED_NAME}`);
    await shot(page, "members");
  });

  it("puts the refusal of an address already a member at its field, and the focus there", async () => {
    const form = page.locator("form", { has: page.getByRole("heading", { name: "Invite someone" }) });
    const email = form.getByLabel("Email");
    await email.fill(INVITED);
    await form.getByRole("button", { name: "Invite" }).press("Enter");
    await expect.poll(() => email.getAttribute("aria-invalid")).toBe("true");
    expect(await form.locator(".field-error").innerText()).toBe(`${INVITED} is already a member: change their role in the list instead`);
    await expect.poll(() => page.evaluate<string>("document.activeElement?.name ?? ''")).toBe("email");
    await email.fill("");
  });

  it("removes the member after asking, and keeps them when the answer is no", async () => {
    const row = page.locator("table.members tr", { hasText: INVITED });
    page.once("dialog", (dialog) => void dialog.dismiss());
    await row.getByRole("button", { name: "Remove" }).click();
    expect(await row.count()).toBe(1);
    const question = answerYes(page);
    await row.getByRole("button", { name: "Remove" }).click();
    expect(await question).toBe(`Remove ${INVITED_NAME} (${INVITED}) from Demo City Magazine? They lose access at once; invite them again to undo.`);
    await expect.poll(() => row.count()).toBe(0);
    expect((await adminApi<{ email: string }[]>("GET", "/members")).some((m) => m.email === INVITED)).toBe(false);
  });

  it("tells a member with no name that their bylines show none, until they give one", async () => {
    // The seeded viewer has never given a name; a context of its own keeps the owner's session in the others.
    const context = await browser.newContext({ viewport: DESKTOP });
    const viewer = await context.newPage();
    await viewer.goto(`${gateway.base}/admin/members#token=${gateway.viewerToken}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
    const yours = viewer.locator("section", { has: viewer.getByRole("heading", { name: "Your name" }) });
    const hint = yours.locator(".hint");
    await expect.poll(() => hint.innerText()).toBe("Signed in as viewer@browser.test; until you give a name, your contents show none");
    // The members' table says so too, rather than showing the address as a name.
    const viewerRow = viewer.getByRole("row", { name: /viewer@browser\.test/ });
    expect(await viewerRow.getByRole("cell").first().innerText()).toBe("no name yet");
    await yours.getByLabel("Name shown as the author of your contents").fill(`Vera Viewer ${TAG}`);
    await yours.getByRole("button", { name: "Save your name" }).click();
    await expect.poll(() => yours.getByRole("status").innerText()).toBe("Saved: your contents show this name as their author.");
    await expect.poll(() => hint.innerText()).toBe("Signed in as viewer@browser.test");
    await expect.poll(() => viewerRow.getByRole("cell").first().innerText()).toBe(`Vera Viewer ${TAG}`);
    // Emptied again, the name is no longer what was saved: "Saved" goes, and the browser asks for one.
    const field = yours.getByLabel("Name shown as the author of your contents");
    const panel = viewer.getByRole("region", { name: "Your name" });
    await field.fill("");
    expect(await panel.innerText()).not.toContain("Saved");
    await yours.getByRole("button", { name: "Save your name" }).click();
    expect(await field.evaluate((input) => (input as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing)).toBe(true);
    expect(await panel.innerText()).not.toContain("Saved");
    await context.close();
  });
});

describe("the audit log in words", () => {
  let contentId: number;
  const title = `Museum night at the harbour, with lanterns and late trams ${TAG}`;

  beforeAll(async () => {
    const created = await adminApi<{ id: number }>("POST", "/contents", {
      siteId: gateway.siteId,
      title,
      slug: `museum-night-${TAG}`,
      language: "en",
      intro: "Late openings",
      bodyMarkdown: "Lanterns.",
    });
    contentId = created.id;
    await adminApi("PATCH", `/contents/${contentId}`, { bodyMarkdown: "Lanterns and trams." });
    await adminApi("POST", `/contents/${contentId}/versions/1/restore`);
    await adminApi("POST", `/contents/${contentId}/publish`, {});
  });

  it("says who published what, when in local words with the full time on hover, and links to the content", async () => {
    await asOwner(page, "/audit");
    const entry = page.locator("ul.audit-log li", { has: page.locator(`a[href="/admin/contents/${contentId}"]`) }).first();
    await entry.waitFor();
    // A long title is shortened, the time said as people say it.
    expect(await entry.innerText()).toMatch(
      /^owner@browser\.test published ‘Museum night at the harbour, with lanterns and late trams.{0,3}…’ (just now|\d+ minutes? ago)$/,
    );
    const time = entry.locator("time");
    expect(await time.getAttribute("datetime")).toMatch(/Z$/);
    // The full local time on hover: a weekday, the year, and the time.
    expect(await time.getAttribute("title")).toMatch(/\d{4}.*\d{1,2}:\d\d/);
    // The invitation's story, in words.
    const log = await page.locator("ul.audit-log").innerText();
    expect(log).toContain(`owner@browser.test invited ${INVITED} as editor`);
    expect(log).toContain(`${INVITED_NAME} accepted the invitation and joined as editor`);
    expect(log).toContain(`owner@browser.test made ${INVITED} an author`);
    expect(log).toContain(`owner@browser.test removed ${INVITED} (author)`);
    expect(log).toMatch(/owner@browser\.test restored version 1 of ‘Museum night at the harbour[^’]*’/);
    expect(log).not.toMatch(/publish content \d+/);
    await shot(page, "audit");
    await entry.getByRole("link").click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/contents/${contentId}`);
    await expect.poll(() => page.getByLabel("Title", { exact: true }).inputValue()).toBe(title);
  });

  it("shows the recent changes on the dashboard in the same words", async () => {
    await asOwner(page, "/");
    const recent = page.locator("article.card", { has: page.getByRole("heading", { name: "Recent changes" }) });
    const entry = recent.locator("li", { has: page.locator(`a[href="/admin/contents/${contentId}"]`) }).first();
    await entry.waitFor();
    expect(await entry.innerText()).toContain("owner@browser.test published ‘Museum night");
    expect(await entry.getByRole("link").getAttribute("href")).toBe(`/admin/contents/${contentId}`);
    await shot(page, "dashboard");
  });

  it("fits a phone, light and dark", async () => {
    const phone = await newPage(PHONE);
    try {
      await asOwner(phone, "/audit");
      await phone.locator("ul.audit-log li").first().waitFor();
      expect(await noSidewaysScroll(phone)).toBe(true);
      await phone.emulateMedia({ colorScheme: "dark" });
      await shot(phone, "audit-phone-dark");
      await asOwner(phone, "/members");
      await phone.locator("table.members tr").nth(1).waitFor();
      expect(await noSidewaysScroll(phone)).toBe(true);
      await phone.emulateMedia({ colorScheme: "light" });
      await shot(phone, "members-phone");
    } finally {
      await phone.close();
    }
  });
});
