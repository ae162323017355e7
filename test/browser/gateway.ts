import { existsSync, readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join, relative } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterEach, inject } from "vitest";
import type { GatewayPlace, GatewayReady } from "./global-setup";

export type Gateway = GatewayPlace & Omit<GatewayReady, "error">;

/**
 * The browser tests' gateway, once it answers: global-setup.ts starts it while the workerd files
 * run and writes its ready file; a file's `beforeAll` waits here should it still be starting.
 */
export async function gatewayReady(timeoutMs = 150_000): Promise<Gateway> {
  const place = inject("gateway");
  const until = Date.now() + timeoutMs;
  while (!existsSync(place.readyFile)) {
    if (Date.now() > until) throw new Error(`the browser tests' gateway did not start within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const ready = JSON.parse(readFileSync(place.readyFile, "utf8")) as GatewayReady;
  if (ready.error) throw new Error(`the browser tests' gateway did not start: ${ready.error}`);
  return { ...place, ...ready };
}

/** After a failed test, the console's address and text in the log: what the screen said when it failed. */
export function showConsoleOnFailure(page: () => Page | undefined) {
  afterEach(async (context) => {
    const shown = page();
    if (context.task.result?.state !== "fail" || !shown) return;
    const text = await shown
      .locator("main")
      .innerText({ timeout: 2000 })
      .catch(() => "(no page)");
    console.error(`the console at ${shown.url()}:\n${text}`);
  });
}

// Contexts whose first console tab signed in: their later tabs share that session.
const signedIn = new WeakSet<BrowserContext>();

/**
 * Opens the console at `path` in `tab`, signed in as the demo tenant's owner by the first tab of its
 * context only: every sign-in starts a console session, a person keeps the newest 50, and the browser
 * files all sign in as that owner (a file that signs out starts its sessions itself).
 */
export async function openConsole(tab: Page, gateway: Pick<Gateway, "base" | "ownerToken">, path: string) {
  const first = !signedIn.has(tab.context());
  signedIn.add(tab.context());
  // The next tab must find the session's cookie: the sign-in is done when the console's POST /session is answered.
  const started =
    first && tab.waitForResponse((answer) => answer.request().method() === "POST" && answer.url().endsWith("/session"), { timeout: 60_000 });
  await tab.goto(`${gateway.base}/admin${path}${first ? `#token=${gateway.ownerToken}` : ""}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
  await started;
}

/** The suite's Chromium (global-setup.ts launches it once); `close()` on it ends this file's connection only. */
export const openBrowser = async (): Promise<Browser> => chromium.connect((await gatewayReady()).browserEndpoint);

/** The default theme's files by their path inside it, as a tenant would zip them for an upload. */
export function defaultThemeFiles(): Record<string, Uint8Array> {
  const dir = "themes/default";
  const files: Record<string, Uint8Array> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = new Uint8Array(readFileSync(path));
  }
  return files;
}

/**
 * An address of a tenant site fetched from Node, whose resolver (unlike Chromium's) does not know
 * `*.localhost`: the request goes to the gateway's address with the site's Host header.
 */
export function fromSite(
  gateway: Pick<Gateway, "base" | "siteBase">,
  pathOrUrl: string,
): Promise<{ status: number; type: string; text: string; bytes: number }> {
  const url = new URL(pathOrUrl, gateway.siteBase);
  const server = new URL(gateway.base);
  return new Promise((resolve, reject) => {
    // A connection of its own: Node's agent keeps sockets alive, and one the gateway closed as idle just
    // as a request went out on it answered "socket hang up" (seen once in a full run).
    const req = request(
      { host: "127.0.0.1", port: server.port, path: `${url.pathname}${url.search}`, headers: { Host: url.host }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] ?? "", text: body.toString("utf8"), bytes: body.length });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/**
 * The admin API of the demo tenant as its owner, from Node: `body` as JSON, or bytes sent as `type`
 * (a zip, an image). Anything but a success throws, with the answer.
 */
export async function ownerAdmin<T>(
  gateway: Pick<Gateway, "base" | "tenantId" | "ownerToken">,
  method: string,
  path: string,
  body?: unknown,
  type = "application/json",
): Promise<T> {
  const send = () =>
    fetch(`${gateway.base}/admin/api/tenants/${gateway.tenantId}${path}`, {
      method,
      headers: { Authorization: `Bearer ${gateway.ownerToken}`, ...(body === undefined ? {} : { "Content-Type": type }) },
      body: body === undefined ? undefined : body instanceof Uint8Array ? body : JSON.stringify(body),
    });
  let res = await send();
  // wrangler dev's own answer when its Worker reloaded during a write (seen once in CI): it asks for the request again.
  if (res.status === 503 && (await res.clone().text()).startsWith("Your worker restarted mid-request")) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    res = await send();
  }
  const parsed = await res.json<{ success: boolean; data: T }>();
  if (!res.ok || !parsed.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed.data;
}
