/**
 * The resource-exhaustion check of docs/intelligence.md: the largest input each group I text and
 * image endpoint accepts, sent 8 at a time for a minute to `wrangler dev`, while `/health` is
 * timed every 250 ms and the runtime's memory is read every 5 s. Passes when every `/health`
 * answers within 100 ms (p99; the maximum is printed too) and memory ends where it settled.
 *
 *   npm run load [-- --seconds 60 --concurrency 8 --port 8790]
 */
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { encode } from "fast-png";
import { MAX_SUMMARY_SENTENCES, TEXT_LIMITS } from "../../src/intelligence/params";
import { MAX_LOGO_SIDE } from "../../src/intelligence/qrcode";
import { users } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { createLocalKey, findOrCreateLocalUser } from "../lib/keys";
import { ensureDevVars, fail, startLocalServer, step, withLocalBindings, wrangler } from "../lib/local";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    concurrency: { type: "string", default: "8" },
    port: { type: "string", default: "8790" },
  },
});
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const base = `http://127.0.0.1:${values.port}`;
const HEALTH_BUDGET_MS = 100;

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
  const text = prose(TEXT_LIMITS.summarize);
  const sentences = text.split(/(?<=\.)\s/);
  return sentences.slice(0, MAX_SUMMARY_SENTENCES).join(" ").slice(0, TEXT_LIMITS.summarize);
})();

const CASES: { path: string; bizContent: Record<string, unknown> }[] = [
  { path: "/std/ai/summarize", bizContent: { text: summaryText, maxLength: 2000, minLength: 0, engine: "embedded" } },
  { path: "/std/ai/sentiment", bizContent: { text: prose(TEXT_LIMITS.sentiment), engine: "embedded" } },
  { path: "/std/ai/ner", bizContent: { text: prose(TEXT_LIMITS.ner) } },
  { path: "/std/ai/qrcode/custom", bizContent: { data: "x".repeat(1200), size: 2048, logoBase64: largestLogo() } },
  { path: "/std/ai/language/detect", bizContent: { text: prose(TEXT_LIMITS.language) } },
  { path: "/std/ai/classify", bizContent: { text: prose(TEXT_LIMITS.classify), classifier: "topic", engine: "embedded" } },
  { path: "/std/ai/keywords", bizContent: { text: distinctWords(TEXT_LIMITS.keywords), maxKeywords: 100 } },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

ensureDevVars();
step("load: preparing the local D1");
wrangler(["d1", "migrations", "apply", "DB", "--local"]);
const key = await withLocalBindings(async (env) => {
  const db = database(env);
  const user = await findOrCreateLocalUser(db, "load@localhost");
  // The check is of the service's bounds, not of its rate limits.
  await db.update(users).set({ plan: "internal" }).where(eq(users.id, user.id));
  return createLocalKey(db, env.KEY_ENCRYPTION_KEY, { email: "load@localhost", name: "load", plan: "internal", scopes: ["ai:read"] });
});

step(`load: starting wrangler dev on port ${values.port}`);
const server = startLocalServer(values.port, { AI_ENGINE: "embedded" });

try {
  for (let i = 0; ; i++) {
    if (i === 120) fail("wrangler dev did not become ready in 60 s");
    if (
      await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const send = (c: (typeof CASES)[number]) =>
    fetch(base + c.path, {
      method: "POST",
      headers: { "X-API-Key": key.token, "X-API-Secret": key.secret, "Content-Type": "application/json" },
      body: JSON.stringify({ bizContent: c.bizContent }),
    });
  step("load: one of each case first, so that every engine is loaded before the clock starts");
  for (const c of CASES) {
    const response = await send(c);
    const text = await response.text();
    if (response.status !== 200) fail(`load: ${c.path} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  const settled = server.memoryMiB();
  step(`load: ${CASES.length} endpoints, ${CONCURRENCY} at a time for ${SECONDS} s; runtime memory ${settled ?? "?"} MiB`);

  const deadline = performance.now() + SECONDS * 1000;
  const perPath = new Map<string, { count: number; errors: number; ms: number[] }>(CASES.map((c) => [c.path, { count: 0, errors: 0, ms: [] }]));
  let next = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const c = CASES[next++ % CASES.length]!;
      const t0 = performance.now();
      const response = await send(c);
      const body = await response.text();
      const stats = perPath.get(c.path)!;
      if (response.status !== 200 && stats.errors === 0) step(`load: ${c.path} answered ${response.status}: ${body.slice(0, 200)}`);
      stats.count++;
      stats.ms.push(performance.now() - t0);
      if (response.status !== 200) stats.errors++;
    }
  };
  const health: number[] = [];
  const healthFailures: string[] = [];
  const memory: number[] = [];
  const poll = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(10_000) }).catch((error: unknown) => String(error));
      if (typeof response === "string") healthFailures.push(response);
      else if (!response.ok) healthFailures.push(`status ${response.status}`);
      else await response.arrayBuffer();
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const sampleMemory = async () => {
    let reported = performance.now();
    while (performance.now() < deadline) {
      const mib = server.memoryMiB();
      if (mib !== undefined) memory.push(mib);
      if (performance.now() - reported > 10_000) {
        reported = performance.now();
        const done = [...perPath.values()].reduce((n, s) => n + s.count, 0);
        step(
          `load: ${Math.round((deadline - performance.now()) / 1000)} s left; ${done} requests, /health max so far ${Math.max(...health).toFixed(0)} ms, memory ${mib ?? "?"} MiB`,
        );
      }
      await new Promise((r) => setTimeout(r, 5000));
    }
  };
  await Promise.all([...Array.from({ length: CONCURRENCY }, worker), poll(), sampleMemory()]);
  const ended = server.memoryMiB();

  console.table(
    [...perPath].map(([path, s]) => {
      const sorted = [...s.ms].sort((a, b) => a - b);
      return {
        path,
        requests: s.count,
        errors: s.errors,
        p50: `${percentile(sorted, 50).toFixed(0)} ms`,
        max: `${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
      };
    }),
  );
  health.sort((a, b) => a - b);
  const healthP99 = percentile(health, 99);
  const errors = [...perPath.values()].reduce((n, s) => n + s.errors, 0);
  const summary =
    `/health ${health.length} polls: p50 ${percentile(health, 50).toFixed(0)} ms, p99 ${healthP99.toFixed(0)} ms, max ${(health.at(-1) ?? 0).toFixed(0)} ms, ` +
    `${healthFailures.length} failed; memory ${settled ?? "?"} MiB settled, ${Math.max(...memory)} MiB at most, ${ended ?? "?"} MiB at the end; ${errors} non-200 answers`;
  const passed = healthP99 <= HEALTH_BUDGET_MS && healthFailures.length === 0 && errors === 0;
  step(`load: ${passed ? "passed" : "FAILED"}: ${summary}`);
  if (!passed) process.exitCode = 1;
} finally {
  server.stop();
}
