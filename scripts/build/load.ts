/**
 * The soak of docs/operations.md ("Load and soak"): mixed traffic against `wrangler dev` on
 * loopback for a bounded time (data reads with a secret and signed, content reads, tenant site
 * pages, admin writes, pickups) while the largest input each group I endpoint accepts is sent
 * without pause, `/health` is timed every 250 ms, and the isolate's heap is read through the inspector (workerd's RSS beside it).
 * Progress every 5 s; at the end a table per kind and the verdict on the targets: no errors but
 * documented 429s, the isolate's heap flat after warm-up, `/health` p99 within 100 ms.
 *
 *   npm run load [-- --seconds 120 --rate 60 --concurrency 16 --heavy 2 --port 8790]
 */
import { createHmac, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { encode } from "fast-png";
import { createDemoTenant } from "../../seed/content-demo";
import { tenants } from "../../src/content/schema";
import { MAX_SUMMARY_SENTENCES, TEXT_LIMITS } from "../../src/intelligence/params";
import { quietInspector } from "./lib/inspector";
import { pickupSubmission } from "./lib/pickup-submission";
import { MAX_LOGO_SIDE } from "../../src/intelligence/qrcode";
import { createApp } from "../../src/pickup/apps";
import { issueAccessToken } from "../../src/platform/auth/jwt";
import { users } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { runSeed } from "../dev/seed";
import { createLocalKey, findOrCreateLocalUser } from "../lib/keys";
import { ensureDevVars, fail, startLocalServer, step, withLocalBindings, wrangler } from "../lib/local";
import { installTheme } from "../lib/themes";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "120" },
    // The mixed traffic's arrivals a second, whatever the answers' speed (a soak, not a saturation
    // test); 0 makes `--concurrency` closed-loop workers that send as fast as they are answered.
    rate: { type: "string", default: "60" },
    // The mixed requests in flight at most (or, with `--rate 0`, the closed-loop workers), and the workers sending only the largest group I inputs.
    concurrency: { type: "string", default: "16" },
    heavy: { type: "string", default: "2" },
    port: { type: "string", default: "8790" },
    // Kinds whose name contains one of these comma-separated words (which kind makes memory grow?).
    only: { type: "string" },
  },
});
/** A flag's whole number, at least `least`: anything else stops the run before it starts anything. */
function wholeFlag(name: "seconds" | "rate" | "concurrency" | "heavy", least: number): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < least) fail(`--${name} takes a whole number of at least ${least}, not "${values[name]}"`);
  return value;
}
const SECONDS = wholeFlag("seconds", 1);
const RATE = wholeFlag("rate", 0);
const CONCURRENCY = wholeFlag("concurrency", 0);
const HEAVY = wholeFlag("heavy", 0);
// The paced traffic waits for a free place when it is behind: it needs one at least.
if (RATE > 0 && CONCURRENCY < 1) fail("--concurrency is the mixed requests in flight at most: at least 1 with --rate above 0");
const base = `http://127.0.0.1:${values.port}`;
const HEALTH_BUDGET_MS = 100;
const PROGRESS_EVERY_MS = 5000;
/** A request without an answer this long counts as failed; the largest inputs queue behind each other for seconds. */
const ANSWER_WITHIN_MS = 60_000;
/** Memory is taken as settled after this share of the run, and flat when it ends within MEMORY_DRIFT of that. */
const WARM_UP_SHARE = 0.25;
const MEMORY_DRIFT = 0.15;

// ---------------------------------------------------------------- the largest inputs of group I

const SENTENCES = [
  "Maria Garcia flew from Lisbon to Berlin on 3 March 2025 to meet the board of Acme.",
  "The company reported revenue of $4.2 million, up 12 percent on the year before.",
  "Contact sales@example.com or call +1 415 555 0100 before Friday for a quote.",
  "Critics said the new film was warm, funny and far too long for its own good.",
  "John Smith, the mayor of Springfield, opened the new library on Tuesday afternoon.",
];
/** English prose of exactly `characters`, the same few sentences over and over: TextRank's densest graph. */
const prose = (characters: number) =>
  SENTENCES.join(" ")
    .repeat(Math.ceil(characters / 400))
    .slice(0, characters);
/** Distinct made-up words: the largest word graph the keyword ranker can be given. */
function distinctWords(characters: number): string {
  const words: string[] = [];
  for (let i = 0, length = 0; length < characters; i++) {
    const word = `w${(i * 2654435761) % 4294967296}`.slice(0, 9) + (i % 12 === 11 ? "." : "");
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ").slice(0, characters);
}
/** The largest logo accepted, noise so that it does not compress away. */
function largestLogo(): string {
  const data = new Uint8Array(MAX_LOGO_SIDE * MAX_LOGO_SIDE * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
  return Buffer.from(encode({ width: MAX_LOGO_SIDE, height: MAX_LOGO_SIDE, data, channels: 3 })).toString("base64");
}
/** The longest text of at most MAX_SUMMARY_SENTENCES sentences. */
const summaryText = (() => {
  const sentences = prose(TEXT_LIMITS.summarize).split(/(?<=\.)\s/);
  return sentences.slice(0, MAX_SUMMARY_SENTENCES).join(" ").slice(0, TEXT_LIMITS.summarize);
})();

const LARGEST_INPUTS: { path: string; bizContent: Record<string, unknown> }[] = [
  { path: "/std/ai/summarize", bizContent: { text: summaryText, maxLength: 2000, minLength: 0, engine: "embedded" } },
  { path: "/std/ai/sentiment", bizContent: { text: prose(TEXT_LIMITS.sentiment), engine: "embedded" } },
  { path: "/std/ai/ner", bizContent: { text: prose(TEXT_LIMITS.ner) } },
  { path: "/std/ai/qrcode/custom", bizContent: { data: "x".repeat(1200), size: 2048, logoBase64: largestLogo() } },
  { path: "/std/ai/language/detect", bizContent: { text: prose(TEXT_LIMITS.language) } },
  { path: "/std/ai/classify", bizContent: { text: prose(TEXT_LIMITS.classify), classifier: "topic", engine: "embedded" } },
  { path: "/std/ai/keywords", bizContent: { text: distinctWords(TEXT_LIMITS.keywords), maxKeywords: 100 } },
];

// ---------------------------------------------------------------- setup: credentials, a tenant, an app

ensureDevVars();
/**
 * The soak's own local state, removed at the end: its thousands of drafts and pickups stay out of
 * `npm run dev`'s database. In memory where the machine has /dev/shm: on disk, the local D1's sync
 * of each write held every request of the isolate (`/health` p99 103 ms under admin writes alone,
 * 40 ms in memory), a cost of the local simulator, since production's D1 is not in the Worker's process.
 */
const state = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "gateway-load-"));
process.on("exit", () => rmSync(state, { recursive: true, force: true }));
step(`load: preparing a local D1 of its own in ${state} (migrations, seed)`);
wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
await runSeed("local", state);
const setup = await withLocalBindings(
  async (env) => {
    const db = database(env);
    const user = await findOrCreateLocalUser(db, "load@localhost");
    // The soak checks the service's bounds, not its plan limits: the user, its key, app and tenant are unlimited.
    await db.update(users).set({ plan: "internal" }).where(eq(users.id, user.id));
    const key = await createLocalKey(db, env.KEY_ENCRYPTION_KEY, { email: "load@localhost", name: "load", plan: "internal" });
    const app = await createApp(db, env.KEY_ENCRYPTION_KEY, user.id, { name: "load", hot_api_key: "sandbox" });
    const tenant = await createDemoTenant(db, user.id, { name: "Load", slug: `load-${Date.now().toString(36)}`, demo: true });
    await db.update(tenants).set({ plan: "internal" }).where(eq(tenants.id, tenant.tenantId));
    await installTheme(env, tenant.siteId, "themes/default");
    const ownerJwt = await issueAccessToken(env, user.casdoorId);
    return { key, appToken: app.appToken, tenant, ownerJwt };
  },
  { persistTo: state },
);

/** The pickups' webhook receiver, on a free port: answers every notification at once. */
const receiver = createServer((req, res) => req.resume().on("end", () => res.end()));
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// ---------------------------------------------------------------- the kinds of traffic

interface Call {
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}
interface Kind {
  name: string;
  request: () => Call;
}

const json = (path: string, body: unknown, headers: Record<string, string>): Call => ({
  path,
  method: "POST",
  body: JSON.stringify(body),
  headers: { ...headers, "Content-Type": "application/json" },
});
const withSecret = { "X-API-Key": setup.key.token, "X-API-Secret": setup.key.secret };
/** docs/authentication.md's signature: the parameters sorted, then timestamp and nonce, HMAC-SHA256 by the secret. */
function signedHeaders(params: Record<string, string>): Record<string, string> {
  const timestamp = String(Date.now());
  const nonce = randomUUID().replaceAll("-", "");
  const pairs = Object.keys(params)
    .sort()
    .map((name) => `${name}=${params[name]}`);
  const signature = createHmac("sha256", setup.key.secret)
    .update([...pairs, `timestamp=${timestamp}`, `nonce=${nonce}`].join("&"))
    .digest("hex");
  return { "X-API-Key": setup.key.token, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Signature": signature };
}
let serial = 0;
let pages = 0;
const unique = () => `${process.pid}-${Date.now()}-${++serial}`;

const LIGHT: Kind[] = [
  { name: "T2 tax rate, secret", request: () => ({ path: "/std/api/bigdata/taxrate/country/DE", headers: withSecret }) },
  { name: "O1 countries, secret", request: () => ({ path: "/std/open/country/list", headers: withSecret }) },
  { name: "T2 tax rate, signed", request: () => ({ path: "/std/api/bigdata/taxrate/country/FR", headers: signedHeaders({}) }) },
  {
    name: "C1 contents, tenant key",
    request: () => ({ path: `/api/mcp/contents?siteId=${setup.tenant.siteId}`, headers: { "X-API-Key": setup.tenant.token } }),
  },
  {
    name: "site page, rendered",
    // A query the page ignores but the cache key holds, so that every other request renders the theme.
    request: () => ({ path: `/?soak=${++pages % 2 === 0 ? "cached" : pages}`, headers: { Host: `${setup.tenant.siteSlug}.localhost` } }),
  },
  {
    name: "admin write (draft)",
    request: () => {
      const n = unique();
      return json(
        `/admin/api/tenants/${setup.tenant.tenantId}/contents`,
        { siteId: setup.tenant.siteId, title: `Soak ${n}`, slug: `soak-${n}`, language: "en" },
        { Authorization: `Bearer ${setup.ownerJwt}` },
      );
    },
  },
  {
    name: "P1 pickup submission",
    request: () =>
      json("/api/v1/carrier/pickup/submit", pickupSubmission("soak", unique(), receiverUrl), { Authorization: `appToken ${setup.appToken}` }),
  },
];
// Each body written once: stringifying megabytes per request would stall this process, whose own
// event loop times every answer, `/health`'s among them.
const HEAVY_KINDS: Kind[] = LARGEST_INPUTS.map((input) => {
  const call = json(input.path, { bizContent: input.bizContent }, withSecret);
  return { name: `I ${input.path.replace("/std/ai/", "")}, largest input`, request: () => call };
});
const HEALTH: Kind = { name: "/health (every 250 ms)", request: () => ({ path: "/health" }) };

// ---------------------------------------------------------------- measuring

interface Tally {
  ms: number[];
  /** Answers other than 2xx by status; 0 for no answer (a dropped connection, or none within ANSWER_WITHIN_MS). */
  failures: Map<number, number>;
}
const chosen = (kinds: Kind[]) => {
  const words = values.only?.split(",").map((word) => word.trim().toLowerCase());
  return words ? kinds.filter((kind) => words.some((word) => kind.name.toLowerCase().includes(word))) : kinds;
};
const LIGHT_RUN = chosen(LIGHT);
const HEAVY_RUN = chosen(HEAVY_KINDS);
const tallies = new Map<Kind, Tally>([...LIGHT_RUN, ...HEAVY_RUN, HEALTH].map((kind) => [kind, { ms: [], failures: new Map() }]));

/** node:http rather than fetch: fetch may not set Host, which names the tenant site (`<slug>.localhost`). */
const agent = new Agent({ keepAlive: true });
function statusOf(call: Call): Promise<number> {
  return new Promise((resolve) => {
    const sent = request(base + call.path, { method: call.method ?? "GET", headers: call.headers, agent, timeout: ANSWER_WITHIN_MS }, (response) =>
      response.resume().on("end", () => resolve(response.statusCode ?? 0)),
    );
    sent.on("timeout", () => sent.destroy()).on("error", () => resolve(0));
    sent.end(call.body);
  });
}

async function send(kind: Kind): Promise<number> {
  const t0 = performance.now();
  const status = await statusOf(kind.request());
  const tally = tallies.get(kind)!;
  tally.ms.push(performance.now() - t0);
  if (status < 200 || status > 299) tally.failures.set(status, (tally.failures.get(status) ?? 0) + 1);
  return status;
}

const formatMs = (ms: number) => `${ms < 10 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const sortedMs = (kind: Kind) => [...tallies.get(kind)!.ms].sort((a, b) => a - b);
const totalRequests = () => [...tallies.values()].reduce((n, t) => n + t.ms.length, 0);
/** Failures that are not a documented 429 (a rate limit, with Retry-After). */
const errorCount = () =>
  [...tallies.values()].reduce((n, t) => n + [...t.failures].filter(([status]) => status !== 429).reduce((m, [, c]) => m + c, 0), 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- the run

step(`load: starting wrangler dev on port ${values.port}`);
const INSPECTOR_PORT = Number(values.port) + 1;
const server = startLocalServer(values.port, { AI_ENGINE: "embedded" }, ["--persist-to", state, "--inspector-port", String(INSPECTOR_PORT)]);
try {
  for (let i = 0; (await statusOf({ path: "/health" })) !== 200; i++) {
    if (i === 120) fail("wrangler dev did not become ready in 60 s");
    await sleep(500);
  }
  step("load: one request of each kind first, so that every group's code and engine is loaded before the clock starts");
  for (const kind of [...LIGHT_RUN, ...HEAVY_RUN]) {
    const t0 = performance.now();
    const status = await send(kind);
    if (status < 200 || status > 299) fail(`load: ${kind.name} answered ${status}`);
    step(`load:   ${kind.name}: ${formatMs(performance.now() - t0)}`);
  }
  for (const tally of tallies.values()) tally.ms.length = 0;
  // Attached before the clock starts: attaching holds the isolate for a second or more.
  const inspector = await quietInspector(INSPECTOR_PORT).catch((error: unknown) => {
    step(`load: the isolate's heap cannot be read (${error instanceof Error ? error.message : String(error)}); workerd's RSS only`);
    return undefined;
  });

  const mixed =
    RATE > 0 ? `mixed traffic at ${RATE} requests/s (at most ${CONCURRENCY} in flight)` : `${CONCURRENCY} closed-loop workers of mixed traffic`;
  step(`load: ${SECONDS} s: ${mixed}, ${HEAVY} workers of the largest group I inputs, /health every 250 ms`);
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  const loop = (kinds: Kind[], offset: number) => async () => {
    for (let i = offset; performance.now() < deadline; i++) await send(kinds[i % kinds.length]!);
  };
  /** Mixed requests that could not leave at their time because `--concurrency` were still unanswered. */
  let late = 0;
  /** The mixed traffic at RATE arrivals a second, round the kinds, as many clients would send it. */
  const paced = async (kinds: Kind[]) => {
    const inFlight = new Set<Promise<number>>();
    for (let i = 0; started + (i * 1000) / RATE < deadline; i++) {
      await sleep(started + (i * 1000) / RATE - performance.now());
      if (inFlight.size >= CONCURRENCY) {
        late++;
        await Promise.race(inFlight);
      }
      const sent: Promise<number> = send(kinds[i % kinds.length]!).finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    }
    await Promise.all(inFlight);
  };
  const pollHealth = async () => {
    while (performance.now() < deadline) await Promise.all([send(HEALTH), sleep(250)]);
  };
  const memory: { at: number; mib: number }[] = [];
  /** The Worker isolate's JavaScript heap in use (MiB), read through the inspector: what production's 128 MB limit counts. */
  const heap: { at: number; mib: number }[] = [];
  const report = async () => {
    let lastCount = 0;
    let lastAt = started;
    while (performance.now() < deadline) {
      await sleep(Math.min(PROGRESS_EVERY_MS, deadline - performance.now()));
      const now = performance.now();
      const mib = server.memoryMiB();
      if (mib !== undefined) memory.push({ at: now - started, mib });
      const used = await inspector?.call<{ usedSize: number }>("Runtime.getHeapUsage").then(
        (usage) => Math.round(usage.usedSize / 2 ** 20),
        () => undefined,
      );
      if (used !== undefined) heap.push({ at: now - started, mib: used });
      const count = totalRequests();
      const health = sortedMs(HEALTH);
      step(
        `load: ${((now - started) / 1000).toFixed(0).padStart(4)} s  ${((count - lastCount) / ((now - lastAt) / 1000)).toFixed(0).padStart(4)} req/s  ` +
          `/health p99 ${formatMs(percentile(health, 99)).padStart(7)}  heap ${used ?? "?"} MiB  workerd ${mib ?? "?"} MiB  errors ${errorCount()}`,
      );
      lastCount = count;
      lastAt = now;
    }
  };
  await Promise.all([
    ...(!LIGHT_RUN.length ? [] : RATE > 0 ? [paced(LIGHT_RUN)] : Array.from({ length: CONCURRENCY }, (_, w) => loop(LIGHT_RUN, w)())),
    ...(HEAVY_RUN.length ? Array.from({ length: HEAVY }, (_, w) => loop(HEAVY_RUN, w * 3)()) : []),
    pollHealth(),
    report(),
  ]);
  const seconds = (performance.now() - started) / 1000;

  console.log(`\nwrangler dev on loopback, ${seconds.toFixed(0)} s, ${mixed}, ${HEAVY} heavy workers\n`);
  console.table(
    [...tallies]
      .filter(([, tally]) => tally.ms.length > 0)
      .map(([kind, tally]) => {
        const sorted = [...tally.ms].sort((a, b) => a - b);
        return {
          kind: kind.name,
          requests: sorted.length,
          "req/s": Number((sorted.length / seconds).toFixed(1)),
          p50: formatMs(percentile(sorted, 50)),
          p99: formatMs(percentile(sorted, 99)),
          "not 2xx": [...tally.failures].map(([status, count]) => `${status || "no answer"} × ${count}`).join(", ") || "-",
        };
      }),
  );
  const healthP99 = percentile(sortedMs(HEALTH), 99);
  // The heap is a sawtooth between collections: the highest reading of the second quarter against that of the last.
  const highest = (from: number, to: number) =>
    Math.max(...heap.filter((h) => h.at >= from * SECONDS * 1000 && h.at <= to * SECONDS * 1000).map((h) => h.mib));
  const settled = highest(WARM_UP_SHARE, 2 * WARM_UP_SHARE);
  const ended = highest(1 - WARM_UP_SHARE, 1.01);
  const memoryFlat = Number.isFinite(settled) && Number.isFinite(ended) && ended <= settled * (1 + MEMORY_DRIFT);
  const errors = errorCount();
  const mixedSent = LIGHT_RUN.reduce((n, kind) => n + tallies.get(kind)!.ms.length, 0);
  const verdicts = [
    { target: "no errors but documented 429s", measured: `${errors} errors`, met: errors === 0 },
    // A machine that cannot keep the rate turns the soak into a saturation test: that run says nothing of the targets below.
    ...(RATE > 0 && LIGHT_RUN.length
      ? [
          {
            target: `the mixed traffic at ${RATE} requests/s (≤ 1 % sent late)`,
            measured: `${(mixedSent / seconds).toFixed(1)} requests/s, ${late} of ${mixedSent} late`,
            met: late <= mixedSent / 100,
          },
        ]
      : []),
    {
      target: `the isolate's heap flat after warm-up (≤ +${MEMORY_DRIFT * 100} %)`,
      measured:
        `heap at most ${settled} MiB in the second quarter, ${ended} MiB in the last (workerd's RSS, with the local D1, KV and queues: ` +
        `${memory.at(0)?.mib ?? "?"} → ${memory.at(-1)?.mib ?? "?"} MiB)`,
      met: memoryFlat,
    },
    {
      target: `/health p99 ≤ ${HEALTH_BUDGET_MS} ms`,
      measured: `p99 ${formatMs(healthP99)}, max ${formatMs(sortedMs(HEALTH).at(-1) ?? 0)}`,
      met: healthP99 <= HEALTH_BUDGET_MS,
    },
  ];
  console.log(`\nTotal ${totalRequests()} requests, ${(totalRequests() / seconds).toFixed(0)} req/s. Targets:`);
  console.table(verdicts.map((v) => ({ ...v, met: v.met ? "yes" : "NO" })));
  const passed = verdicts.every((v) => v.met);
  inspector?.close();
  step(`load: ${passed ? "passed" : "FAILED"}`);
  if (!passed) process.exitCode = 1;
} finally {
  server.stop();
  receiver.close();
  agent.destroy();
}
