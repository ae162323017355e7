import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { unstable_readConfig, type Unstable_Config } from "wrangler";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { availableParallelism } from "node:os";
import { cataloguePart, seedParts } from "./seed";
import { buildConsole } from "./scripts/build/lib/console-build";
import { buildTemplateEngine } from "./scripts/build/lib/template-engine";
import RewritersFirst from "./test/rewriters-first";

/** The published data sets of ../shared/data, for full-load tests, when the checkout has them. */
function sharedData(file: string): string {
  const path = `../shared/data/${file}`;
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

// The carrier adapter's test touches no storage: it runs with the shared files. The seed's own
// test rewrites tax rates, as the refresh jobs do; the HS search loads the full nomenclature.
/** A theme folder's text files, by their path inside it. */
function themeFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name);
        return [relative(dir, path), readFileSync(path, "utf8")];
      }),
  );
}

/** A `[[queues.consumers]]` entry of wrangler.toml: wrangler's type (its readConfig is typed from a package it does not ship). */
type QueueConsumer = NonNullable<Unstable_Config["queues"]["consumers"]>[number];

// Refresh jobs rewrite the reference data, and pickups leave queued work behind: their files run in
// the shared workerd, each (and the file after it) from emptied storage, its ids past any an earlier
// file used (test/setup.ts).
const JOBS = [
  ...readdirSync("test/scheduler", { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => `test/scheduler/${file}`),
  ...["eu-vat-job", "corrections-kept", "feed-jobs", "seed-corrections", "rate-webhooks"].map((name) => `test/tax/${name}.test.ts`),
  ...["feed-jobs", "shipped-catalogues"].map((name) => `test/reference/${name}.test.ts`),
  ...["outbox", "submission", "task-lifecycle", "webhook-delivery", "faults"].map((name) => `test/pickup/${name}.test.ts`),
];
const FUZZ = "test/fuzz/**/*.test.ts";
const WORKERS = Math.max(3, availableParallelism());

const BROWSER = "test/browser/**";
// Browser files that wait on the wall clock: a post scheduled 10 s ahead, the rollout page's 5 s
// refresh. Started first, their waits overlap the other files' work (a clean clone's order is by size).
const CLOCK_WAITING = ["test/browser/reader-previews.test.ts", "test/browser/console-miniprograms.test.ts"];
const SCRIPTS = "test/scripts/**/*.test.ts";

// Each test file loads the Worker's module graph into a fresh workerd over RPC, one module per
// round trip: pre-bundled dependencies make that a handful of modules instead of some 300. Set on
// the workerd projects alone: on the root it bundled them a second time, for no project (1 s a clean run).
const PRE_BUNDLED = {
  optimizer: {
    ssr: {
      enabled: true,
      include: [
        "zod",
        "drizzle-orm",
        "drizzle-orm/d1",
        "drizzle-orm/sqlite-core",
        "hono",
        "hono/body-limit",
        "hono/cookie",
        "hono/http-exception",
        "jose",
        "@hono/zod-openapi",
        "drizzle-orm/batch",
        "drizzle-zod",
        "hono/utils/http-status",
        "eld/small",
        "compromise",
        "compromise-dates",
        "sentiment/languages/en/index.js",
        "markdown-it",
        "stdnum",
        "uqr",
        "unpdf",
        "@pdfme/pdf-lib",
        "@xmldom/xmldom",
        "fflate",
        "fast-png",
        "jpeg-js",
      ],
    },
  },
};

// wrangler.toml's [assets] directory must hold the console before the pool starts.
await buildConsole();
// The template engine's WebAssembly with its memory bounded, as the Worker build writes it.
buildTemplateEngine();

/**
 * wrangler gives the pool the settings of a .dev.vars beside wrangler.toml, under these bindings:
 * one a developer added there (`npm run dev` writes the four they override) changes what tests see.
 */
function noteDevVars<T extends { miniflare: { bindings: Record<string, unknown> } }>(options: T): T {
  const leaked = existsSync(".dev.vars")
    ? [...readFileSync(".dev.vars", "utf8").matchAll(/^\s*([A-Z][A-Z0-9_]*)\s*=/gm)]
        .map((match) => match[1]!)
        .filter((name) => !(name in options.miniflare.bindings))
    : [];
  // Said once: the pool asks for its options at every workerd it starts, and the config is evaluated once per project.
  if (leaked.length && !process.env.DEV_VARS_NOTED)
    process.stderr.write(`› .dev.vars sets ${leaked.join(", ")}: the tests see it too; remove it there for a run as CI's (docs/testing.md)\n`);
  process.env.DEV_VARS_NOTED = "1";
  return options;
}

/** The pool's options: the Worker, its bindings and the test data, built once in Node. */
const poolOptions = (async () => ({
  wrangler: { configPath: "./wrangler.toml" },
  // The tests load the TypeScript source; wrangler.toml's main is the built Worker.
  main: "./src/index.ts",
  miniflare: {
    // Queue batches handed over at once instead of after wrangler's 5 s wait: wrangler.toml's
    // consumers and retries, without the idle seconds in every pickup test.
    queueConsumers: Object.fromEntries(
      (unstable_readConfig({ config: "./wrangler.toml" }).queues.consumers ?? []).map((consumer: QueueConsumer) => [
        consumer.queue,
        {
          maxBatchSize: consumer.max_batch_size,
          maxBatchTimeout: 0,
          maxRetries: consumer.max_retries,
          deadLetterQueue: consumer.dead_letter_queue,
        },
      ]),
    ),
    bindings: {
      TEST_MIGRATIONS: await readD1Migrations("./migrations"),
      // Built here, in Node: some seed sources read their data files at run time.
      TEST_SEED: (await seedParts({ catalogues: false })).flatMap((part) => part.statements),
      // The full HS codes and units, for the files that load them (test/helpers/catalogues.ts).
      TEST_CATALOGUES: cataloguePart().flatMap((part) => part.statements),
      // The default theme's files by path, for the files that install it in the test R2.
      TEST_DEFAULT_THEME: themeFiles("themes/default"),
      KEY_ENCRYPTION_KEY: "dGVzdC1vbmx5LWtleS1lbmNyeXB0aW9uLWtleS0zMmI=",
      JWT_SECRET: "test-only-jwt-secret",
      CASDOOR_CLIENT_SECRET: "test-only-client-secret",
      CASDOOR_ENDPOINT: "https://idp.test",
      OAUTH_REDIRECT_URL: "https://gateway.test/auth/callback",
      FRONTEND_CALLBACK_URL: "https://app.test/auth/callback",
      PUBLIC_ORIGIN: "https://gateway.test",
      SERVICE_HOSTS: "api.gateway.test,console.gateway.test",
      ADMIN_EMAILS: "root@example.com",
      // A small hourly figure keeps the hourly-limit test short; the defaults are tested apart.
      RATE_LIMITS: JSON.stringify({ perHour: { reference: 5 } }),
      // A person's admin calls a minute, low enough for a test to pass it; the default (600) is tested apart.
      CONSOLE_REQUESTS_PER_MINUTE: "120",
      // Production's rules for webhook targets: https only, no private addresses.
      ENVIRONMENT: "test",
      // Every ad impression written at once, so that a test sees it.
      AD_FLUSH_SECONDS: "0",
      ENCYCLOPEDIA_FEED_URL: "https://feeds.test/encyclopedia.json",
      CHINA_FEED_URL: "https://feeds.test/china.json",
      REFERENCE_FEED_URL: "https://feeds.test/reference.json",
      SHARED_HS_CSV: sharedData("harmonized-system.csv"),
      SHARED_HS_SECTIONS_CSV: sharedData("sections.csv"),
      SHARED_UNITS_CSV: sharedData("unece-units-of-measure.csv"),
    },
  },
}))();

export default defineConfig({
  plugins: [
    // The pool asks for its options at every workerd it starts: they are made once.
    cloudflareTest(() => poolOptions.then(noteDevVars)),
    // Each workerd receives every module over a WebSocket with its source map inlined: the
    // dependencies' maps (eld's alone is 4 MB) were half of the 160 MB a run sent, for stack
    // traces into bundled libraries. Vite keeps a loaded map unless the code changes, hence the
    // newline.
    {
      name: "no-source-maps-for-dependencies",
      transform: {
        order: "post",
        handler(code, id) {
          if (id.includes("/node_modules/")) return { code: `${code}\n`, map: { mappings: "" } };
        },
      },
    },
  ],
  test: {
    setupFiles: ["./test/setup.ts"],
    provide: { storageRewritingFiles: JOBS },
    sequence: { sequencer: RewritersFirst },
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache) for the next run:
    // 2.6 MB of eld alone took seconds to transform in each project's Vite server.
    experimental: { fsModuleCache: true },
    // The first call of a group I engine loads it (as a new isolate does); on two busy cores that
    // can pass vitest's default of 5 s.
    testTimeout: 20_000,
    // Three at a time on two cores: the files wait on the clock and the browser files on Chromium
    // and the gateway (docs/testing.md).
    maxWorkers: WORKERS,
    // Loading the Worker into a new workerd costs seconds per file, so the files share one and its
    // storage (docs/testing.md says how a file gets its data), the files of JOBS included. The
    // workerd files run first, while the browser files' gateway starts (test/browser/global-setup.ts),
    // and the browser files after them.
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          isolate: false,
          deps: PRE_BUNDLED,
          sequence: { groupOrder: 0 },
          include: ["test/**/*.test.ts"],
          exclude: [FUZZ, BROWSER, SCRIPTS],
        },
      },
      // The admin console in headless Chromium against `wrangler dev` (test/browser/global-setup.ts):
      // Node, not workerd, and none of the pool's bindings.
      {
        test: {
          name: "browser",
          include: ["test/browser/*.test.ts"],
          maxWorkers: WORKERS + 1,
          sequence: { groupOrder: 1 },
          provide: { clockWaitingFiles: CLOCK_WAITING },
          environment: "node",
          // The files share their Node workers (each new one loads Playwright's client again): their state is Chromium's.
          isolate: false,
          globalSetup: ["test/browser/global-setup.ts"],
          testTimeout: 30_000,
          // A screen that waits on a write to `wrangler dev` on a busy machine.
          expect: { poll: { timeout: 15_000 } },
          // The first beforeAll waits for the gateway, should it still be starting (global-setup.ts).
          hookTimeout: 180_000,
        },
      },
      // The command-line scripts as a developer runs them: Node, no bindings.
      { test: { name: "scripts", include: [SCRIPTS], environment: "node", testTimeout: 60_000, maxWorkers: WORKERS, sequence: { groupOrder: 0 } } },
      // `npm run fuzz` (a CI stage of its own): thousands of requests, so not in `npm test`.
      {
        extends: true,
        test: {
          name: "fuzz",
          isolate: true,
          deps: PRE_BUNDLED,
          include: [FUZZ],
          testTimeout: 600_000,
          provide: { fuzzCases: Number(process.env.FUZZ_CASES ?? 30), fuzzSeed: Number(process.env.FUZZ_SEED ?? 20261122) },
        },
      },
    ],
    // Request logs are noise when a test passes and evidence when it fails.
    silent: process.env.FUZZ_VERBOSE ? false : "passed-only",
  },
});
