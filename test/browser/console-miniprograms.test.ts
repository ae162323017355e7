import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Gateway, gatewayReady, openBrowser, showConsoleOnFailure } from "./gateway";

/**
 * Group D's screens as an operator uses them, on a mini-program of this file's own: created, its
 * owner's authorization, a version committed, the privacy guide, domains (an IP address refused
 * at its field) and a category until the preflight check finds nothing; submitted, withdrawn,
 * submitted again, expedited and released, each after its question; a second version released in
 * phases, reverted, released and rolled back; the steps with WeChat's answers, the quota, and the
 * screen on a phone in the dark; a fleet rollout of three started from the list, watched to its end
 * while the cron is fired. SCREENSHOTS=1 writes docs/screenshots/console-miniprograms-*.png.
 */

let gateway: Gateway;
const SCREENSHOTS = process.env.SCREENSHOTS === "1";
const stamp = Date.now().toString(36);
const name = `Harbour ${stamp}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let id: number;
let appId: string;
/** The questions the console asked before a change, each answered OK. */
const questions: string[] = [];

/** A screenshot once every section has loaded. */
async function shot(name: string) {
  await poll(() => page.locator("main [aria-busy=true]:visible").count()).toBe(0);
  if (SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: true });
}

/** Group D as the owner from Node, for what the mini-program's owner does on WeChat's side (D3, D4); the answer's data. */
async function deposits<T = unknown>(path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${gateway.base}/deposits${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${gateway.ownerToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${path}: ${text}`).toBe(200);
  return (JSON.parse(text) as { data: T }).data;
}

/** WeChat's side: how the sandbox decides the next audit. */
async function steer(delaySeconds: number, app = appId) {
  const res = await fetch(`${gateway.base}/wechat-sandbox/steer`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ appId: app, outcome: "pass", delaySeconds }),
  });
  expect(res.status).toBe(200);
}

/**
 * A mini-program authorized (the owner's consent on the sandbox's page), named and profiled through
 * the API, as a rollout needs it; `ready` ones with a privacy guide and an approved category too.
 */
async function profiled(label: string, ready: boolean) {
  const named = `${label} ${stamp}`;
  const { id: made } = await deposits<{ id: number }>("/minipram/create", { name: named });
  const { authorizeUrl } = await deposits<{ authorizeUrl: string }>("/minipram/authorize", { id: made });
  const consent = await fetch(authorizeUrl, { redirect: "manual" });
  expect((await fetch(new URL(consent.headers.get("Location")!, authorizeUrl))).status).toBe(200);
  await deposits("/wxa/nameverify", { id: made, name: named });
  const sample = `${gateway.base}/wechat-sandbox/sample.png`;
  await deposits("/wxa/update", { id: made, name: named, icon: sample, license: sample, licenseType: "business", explain: "Boats to the islands" });
  if (ready) {
    await deposits("/wxa/privacy/set", {
      id: made,
      ownerSetting: { contactEmail: "privacy@ferry.example", noticeMethod: "A pop-up on first use" },
      settings: ["UserInfo", "Location", "PhoneNumber"].map((privacyKey) => ({ privacyKey, privacyText: `To sell you tickets (${privacyKey})` })),
    });
    await deposits("/wxa/category/add", { id: made, categories: [{ first: 2, second: 201 }] });
    const listed = await deposits<{ Data: { Id: number; AppId: string }[] }>("/minipram/list", { pageSize: 100 });
    await steer(600, listed.Data.find((mp) => mp.Id === made)!.AppId);
  }
  return named;
}

/** The scheduler's run every 5 minutes, now (the gateway's development trigger): the rollouts' steps that are due go to the queue. */
async function fireCron() {
  const res = await fetch(`${gateway.base}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`, { method: "POST" });
  expect(res.status).toBe(200);
}

/** Waits for what the console shows after a call (a loaded gateway answers in seconds, not milliseconds). */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
const heading = () => page.locator("h1#screen-title");
const release = () => page.locator("section:has(> h2#release)");
const stage = () => page.locator("main .badge").first();
const said = () => page.locator("main [role=status]").first();

beforeAll(async () => {
  gateway = await gatewayReady();
  browser = await openBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on("dialog", (dialog) => {
    questions.push(dialog.message());
    void dialog.accept();
  });
  await page.goto(`${gateway.base}/admin/#token=${gateway.ownerToken}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
  await heading().filter({ hasText: "Dashboard" }).waitFor({ timeout: 20_000 });
});

showConsoleOnFailure(() => page);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("the console's mini-programs", () => {
  it("creates one, and its owner authorizes the platform from the link on its page", async () => {
    await page.getByRole("link", { name: "Mini-programs" }).click();
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create" }).click();
    await poll(() => heading().textContent()).toBe(name);
    id = Number(page.url().split("/").pop());
    await poll(() => stage().textContent()).toContain("Configured");

    // Another person's session finds nothing of it (as an unknown id), and the cookie alone writes nothing.
    const theirs = await fetch(`${gateway.base}/admin/api/deposits/minipram/steps`, {
      method: "POST",
      headers: { Authorization: `Bearer ${gateway.viewerToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id }),
    });
    expect(theirs.status).toBe(404);
    const forged = await page.evaluate(
      async (body) =>
        (await fetch("/admin/api/deposits/minipram/create", { method: "POST", headers: { "Content-Type": "application/json" }, body })).status,
      JSON.stringify({ name: `Forged ${stamp}` }),
    );
    expect(forged).toBe(403);

    await page.getByRole("button", { name: "Make the authorization link" }).click();
    const [owner] = await Promise.all([context.waitForEvent("page"), page.getByRole("link", { name: "Open the authorization page" }).click()]);
    await owner.waitForLoadState("domcontentloaded");
    expect(await owner.locator("body").innerText()).toMatch(/authorized/i);
    await owner.close();

    await page.getByRole("link", { name: "All mini-programs" }).click();
    const row = page.locator("tr", { hasText: name });
    await poll(() => row.innerText()).toContain("Authorized");
    appId = (await row.locator("code").textContent())!;
    expect(appId).toMatch(/^wxsbx/);
    await poll(() => page.locator("section:has(> h2#quota)").innerText()).toMatch(/\d+ of \d+ submissions left, \d+ of \d+ expedites/);

    // The owner's name and profile (D3, D4) are theirs to give: through the API.
    await deposits("/wxa/nameverify", { id, name });
    await deposits("/wxa/update", {
      id,
      name,
      icon: `${gateway.base}/wechat-sandbox/sample.png`,
      license: `${gateway.base}/wechat-sandbox/sample.png`,
      licenseType: "business",
      explain: "Fresh fish from the harbour",
    });
    await row.getByRole("link", { name }).click();
    await poll(() => stage().textContent()).toBe("Profile set");
  });

  it("commits a version, then fills the privacy guide, domains and a category until nothing blocks the audit", async () => {
    await page.getByLabel("Template").selectOption("101");
    await page.getByRole("button", { name: "Commit", exact: true }).click();
    await poll(() => stage().textContent()).toBe("Code committed");
    const preflight = release().locator(".alert").first();
    await poll(() => preflight.innerText()).toContain("WeChat would refuse a submission now");
    expect(await preflight.innerText()).toContain("privacy (blocks the submission)");
    expect(await release().getByRole("button", { name: "Submit for audit" }).count()).toBe(1);

    const privacy = page.locator("form:has(> h2#privacy)");
    await poll(() => privacy.innerText()).toContain("The committed code uses: UserInfo, Location, PhoneNumber");
    await privacy.getByLabel("Contact email").fill("privacy@harbour.example");
    await privacy.getByLabel("How users are told").fill("A pop-up on first use");
    await privacy.getByLabel("What UserInfo is used for").fill("Your name on your orders");
    await privacy.getByLabel("What Location is used for").fill("The nearest harbour stall");
    await privacy.getByLabel("What PhoneNumber is used for").fill("Pick-up notices by text message");
    await privacy.getByRole("button", { name: "Save the privacy guide" }).click();
    await poll(() => privacy.locator("[role=status]").textContent()).toBe("The privacy guide is saved.");

    const domains = page.locator("form:has(> h2#domains)");
    const requests = domains.getByLabel("Request domains");
    await requests.fill("https://10.0.0.1");
    await domains.getByRole("button", { name: "Save the domains" }).click();
    await poll(() => requests.getAttribute("aria-invalid")).toBe("true");
    expect(await domains.locator(".field-error").innerText()).toMatch(/IP address/i);
    await requests.fill(`https://api-${stamp}.harbour.example`);
    await domains.getByLabel("Webview domains").fill(`https://www-${stamp}.harbour.example`);
    await domains.getByRole("button", { name: "Save the domains" }).click();
    await poll(() => domains.locator("[role=status]").textContent()).toBe("The domains are saved.");
    expect(await requests.getAttribute("aria-invalid")).toBeNull();

    const categories = page.locator("section:has(> h2#categories)");
    await categories.getByLabel("Add a category").selectOption({ label: "Tools / Bookings" });
    await categories.getByRole("button", { name: "Add" }).click();
    await poll(() => categories.locator("ul").innerText()).toContain("Tools / Bookings: approved");
    await poll(() => release().locator(".alert").first().innerText()).toContain("Ready for audit: nothing WeChat would refuse was found.");
    await shot("console-miniprograms-settings");
  });

  it("submits, withdraws, submits again, expedites and releases, each after its question", async () => {
    await steer(600);
    await release().getByRole("button", { name: "Submit for audit" }).click();
    await poll(() => release().innerText()).toContain("is in audit");
    expect(questions.at(-1)).toBe(`Submit ${name} to WeChat's audit? It uses one of the platform's submissions of this month.`);

    await release().getByRole("button", { name: "Withdraw the audit" }).click();
    await poll(() => release().innerText()).toContain("is withdrawn");
    expect(questions.at(-1)).toContain("The submission is not given back to the quota.");

    await steer(600);
    await release().getByRole("button", { name: "Submit for audit" }).click();
    await poll(() => release().innerText()).toContain("is in audit");
    await release().getByRole("button", { name: "Expedite" }).click();
    await poll(() => stage().textContent()).toBe("Audit passed");
    expect(questions.at(-1)).toContain("It uses one of the platform's expedites of this month.");

    await release().getByRole("button", { name: "Release to everyone" }).click();
    await poll(() => stage().textContent()).toBe("Released");
    expect(questions.at(-1)).toBe(`Release ${name} to all its users now?`);
    expect(await said().textContent()).toBe("Released.");
  });

  it("releases a second version in phases, reverts it, releases it and rolls it back; the steps say each", async () => {
    await page.getByLabel("Template").selectOption("102");
    await page.getByRole("button", { name: "Commit", exact: true }).click();
    await poll(() => stage().textContent()).toBe("Code committed");
    await steer(0);
    await release().getByRole("button", { name: "Submit for audit" }).click();
    await poll(() => stage().textContent()).toBe("Audit passed");

    await release().getByLabel("Share of users (%)").fill("10");
    await release().getByRole("button", { name: "Release in phases" }).click();
    await poll(() => release().innerText()).toContain("Now released to 10 % of its users.");
    expect(await stage().textContent()).toBe("Phased release");
    expect(questions.at(-1)).toBe(`Release ${name} to 10 % of its users?`);

    await release().getByRole("button", { name: "Revert the phased release" }).click();
    await poll(() => stage().textContent()).toBe("Audit passed");
    await release().getByRole("button", { name: "Release to everyone" }).click();
    await poll(() => stage().textContent()).toBe("Released");

    await release().getByLabel("Version", { exact: true }).selectOption({ index: 0 });
    await release().getByRole("button", { name: "Roll back" }).click();
    await poll(() => said().textContent()).toMatch(/^Rolled back to /);
    expect(questions.at(-1)).toMatch(/^Roll .+ back to .+ WeChat allows one rollback per release\.$/);

    const steps = page.locator("section:has(> h2#timeline)");
    await poll(() => steps.locator("ol > li > strong").first().textContent()).toBe("Rolling back the release");
    const names = await steps.locator("ol > li > strong").allInnerTexts();
    // In words, newest first; WeChat's code for each under "Request and answer".
    for (const step of [
      "Rolling back the release",
      "Reverting the phased release",
      "A phased release",
      "D9 release",
      "Expediting the audit",
      "Withdrawing the audit",
      "D6 audit submission",
      "D5 code commit",
      "Setting the privacy guide",
      "Adding a category",
      "Authorized on WeChat by its owner",
      "The configuration made",
    ])
      expect(names, step).toContain(step);
    expect(names, "the reads are hidden").not.toContain("Reading domains");
    const newest = steps.locator("ol > li").first();
    expect(await newest.innerText()).toMatch(/Rolling back the release: done/);
    expect(await newest.locator("summary").innerText()).toBe("Request and answer (rollback)");
    await shot("console-miniprograms-release");
  });

  it("fits a phone in the dark", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload({ waitUntil: "domcontentloaded" });
    await poll(() => heading().textContent()).toBe(name);
    await poll(() => stage().textContent()).toBe("Released");
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    await shot("console-miniprograms-phone-dark");
  });

  it("rolls a version out to three from the list, after a question, and shows each one's progress until the rollout ends", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    // Two ready for audit (expedited, so WeChat decides at once); the third has no privacy guide, and the preflight stops it.
    const fleet = await Promise.all([profiled("Ferry North", true), profiled("Ferry South", true), profiled("Ferry West", false)]);
    await page.goto(`${gateway.base}/admin/miniprograms`, { waitUntil: "domcontentloaded" });
    for (const mp of fleet) await page.getByLabel(`Roll out to ${mp}`).check();
    const form = page.locator("form:has(> h2#rollout)");
    await form.getByLabel("Template").selectOption("101");
    await form.getByLabel("Audits to expedite").fill("2");
    await form.getByRole("button", { name: "Review the rollout of 3 mini-programs" }).click();
    const question = form.getByRole("region", { name: "What the rollout will do" });
    await poll(() => question.innerText()).toMatch(/^Roll Shop [\d.]+ out to 3 mini-programs: /);
    for (const mp of fleet) expect(await question.innerText()).toContain(mp);
    expect(await question.innerText()).toMatch(/3 of the platform's submissions of this month, which has \d+ left/);
    expect(await question.innerText()).toContain("Up to 2 audits are expedited");
    expect(await question.innerText()).toContain("released to 10 %, then 50 % of users, each share held 60 minutes");
    await shot("console-miniprograms-fleet-start");
    await form.getByRole("button", { name: "Start the rollout" }).click();
    await poll(() => heading().textContent()).toMatch(/^Rollout \d+: template 101 /);
    const rolloutId = Number(page.url().split("/").pop());
    const rowOf = (mp: string) => page.locator("table.fleet tbody tr", { hasText: mp });
    const states = () => Promise.all(fleet.map((mp) => rowOf(mp).locator("td").nth(1).innerText()));
    await poll(states).toEqual(["Waiting to start", "Waiting to start", "Waiting to start"]);

    // Another person's session finds no such rollout; without a credential nothing answers.
    const theirs = await fetch(`${gateway.base}/admin/api/deposits/fleet/rollouts/${rolloutId}`, {
      headers: { Authorization: `Bearer ${gateway.viewerToken}` },
    });
    expect(theirs.status).toBe(404);
    expect((await fetch(`${gateway.base}/admin/api/deposits/fleet/rollouts/${rolloutId}`)).status).toBe(401);

    // Each run of the scheduler takes one step: commit, then preflight and submission (expedited), then the release; the
    // next closes the rollout. Some are followed through the API (the page reads every 5 seconds): the page shows the rest by itself.
    const counts = async () => {
      const res = await fetch(`${gateway.base}/deposits/fleet/rollouts/${rolloutId}`, { headers: { Authorization: `Bearer ${gateway.ownerToken}` } });
      return (await res.json<{ data: { counts: Record<string, number> } }>()).data.counts;
    };
    await fireCron();
    await expect.poll(async () => (await counts()).committed).toBe(3);
    await fireCron();
    await poll(states).toEqual(["In WeChat's audit (expedited)", "In WeChat's audit (expedited)", "Stopped"]);
    expect(await rowOf(fleet[2]).innerText()).toContain("privacy: The privacy guide has no contact or no notice method");
    await fireCron();
    await expect.poll(async () => (await counts()).released).toBe(2);
    await fireCron();
    await poll(() => page.locator("section:has(> h2#rollout-summary) [role=status]").innerText()).toMatch(/^Finished /);
    expect(await page.locator("#rollout-summary").textContent()).toBe("3 of 3 finished");
    expect(await states()).toEqual(["Released (expedited)", "Released (expedited)", "Stopped"]);
    expect(await rowOf(fleet[0]).innerText()).toContain("Released to everyone at once: nothing was online for a phased release");
    expect(await page.locator(".counts").textContent()).toBe("2 released · 1 stopped");
    await shot("console-miniprograms-fleet");

    await page.getByRole("link", { name: "All rollouts" }).click();
    await poll(() => page.locator("tr", { hasText: `Rollout ${rolloutId}:` }).innerText()).toContain("3 of 3 finished: 2 released · 1 stopped");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${gateway.base}/admin/miniprograms/rollouts/${rolloutId}`, { waitUntil: "domcontentloaded" });
    await poll(() => page.locator("table.fleet tbody tr").count()).toBe(3);
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    await shot("console-miniprograms-fleet-phone-dark");
  }, 90_000);
});
