import { existsSync, readFileSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { inject } from "vitest";
import type { GatewayPlace, GatewayReady } from "./global-setup";

export type Gateway = GatewayPlace & Omit<GatewayReady, "error">;

/**
 * The browser tests' gateway, once it answers: global-setup.ts starts it beside the workerd
 * projects and writes its ready file; a file's `beforeAll` waits here (wrangler's build and the
 * seed take some 20 s on two busy cores).
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

/** The suite's Chromium (global-setup.ts launches it once); `close()` on it ends this file's connection only. */
export const openBrowser = (): Promise<Browser> => chromium.connect(inject("gateway").browserEndpoint);
