import { copyFileSync, mkdirSync } from "node:fs";

/** Where wrangler.toml's [assets] serve the docs page's vendored files from. */
const VENDOR_DIR = "public/docs/vendor";
const FILES = ["swagger-ui-bundle.js", "swagger-ui.css"];

/**
 * Copies Swagger UI's prebuilt files from node_modules into the static assets, so /docs works
 * offline and from the Worker's own origin. Run by the Worker build and by the test config.
 */
export function copyDocsAssets(): void {
  mkdirSync(VENDOR_DIR, { recursive: true });
  for (const file of FILES) copyFileSync(`node_modules/swagger-ui-dist/${file}`, `${VENDOR_DIR}/${file}`);
}
