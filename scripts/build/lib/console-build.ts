import { build } from "vite";

/**
 * Builds the admin console (console/, Vite) into public/admin, the Worker's static assets. Run by
 * the Worker's build (so `npm run dev` and a deploy serve the current console) and by the tests.
 */
export async function buildConsole(): Promise<void> {
  await build({ configFile: "console/vite.config.ts", logLevel: "warn" });
}
