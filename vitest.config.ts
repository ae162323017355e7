import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations("./migrations"),
          KEY_ENCRYPTION_KEY: "dGVzdC1vbmx5LWtleS1lbmNyeXB0aW9uLWtleS0zMmI=",
          JWT_SECRET: "test-only-jwt-secret",
        },
      },
    })),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["./test/setup.ts"],
    // Request logs are noise when a test passes and evidence when it fails.
    silent: "passed-only",
  },
});
