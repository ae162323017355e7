import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** The admin console, built into the Worker's static assets (public/admin): no CDN, works offline. */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/admin/",
  // The production build also when the tests (NODE_ENV=test) make it: no JSX source locations.
  mode: "production",
  // Hono's JSX for the DOM: the Worker's own framework, and no React to ship.
  oxc: { jsx: { runtime: "automatic", importSource: "hono/jsx/dom", development: false } },
  build: {
    outDir: fileURLToPath(new URL("../public/admin", import.meta.url)),
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    reportCompressedSize: false,
  },
  logLevel: "warn",
});
