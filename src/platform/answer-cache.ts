import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { toHex } from "./crypto";
import type { AppEnv } from "./env";
import { IsolateCache } from "./isolate-cache";

/**
 * The one cache of answers. An answer is kept under its namespace (`reference`, `site/12`), a
 * version that changes whenever what it shows may change (a data version, a site's content version
 * and the moment its next scheduled content goes live), and the request (method, path, sorted query
 * and, for a POST query, its body's digest). Nothing is ever invalidated: a change is a new version,
 * so a new key. Tiers: this isolate's memory (optional, small answers), then the edge (Cache API).
 * Every answer carries an ETag (the version and the body's digest); a matching If-None-Match is a
 * 304; `X-Cache` says HIT or MISS. Each kind of answer has one Cache-Control policy (below). A text
 * answer kept in the isolate is gzipped at the first request that prefers gzip to Brotli, and that
 * copy is kept with it.
 */

export type AnswerKind = "data" | "content" | "page";

interface Policy {
  /** Who may keep it: the caller's browser alone, or shared caches too. */
  audience: "private" | "public";
  /** Seconds a browser uses it without asking; 0: it revalidates each time. */
  maxAge: number;
  /** Seconds after that it may show it while revalidating in the background. */
  staleSeconds: number;
  edgeSeconds: number;
  /** Request headers that change the answer for a browser's cache (`Vary`). */
  vary?: string;
}

const POLICIES: Record<AnswerKind, Policy> = {
  // T and O: changes only with a job run; clients revalidate with their ETag each time.
  data: { audience: "private", maxAge: 0, staleSeconds: 0, edgeSeconds: 86_400 },
  // C1–C4: per key; a minute in the browser, revalidated in the background.
  content: { audience: "private", maxAge: 60, staleSeconds: 300, edgeSeconds: 60 },
  // Tenant pages: public, and revalidated at each view with their ETag (a kept page answers 304 in
  // microseconds), so that an unpublished or corrected content is gone from a reader's next page,
  // as the console tells its editor. A page differs for a reader whose cookie opened a preview.
  page: { audience: "public", maxAge: 0, staleSeconds: 0, edgeSeconds: 60, vary: "Cookie" },
};

/**
 * The Cache-Control of an answer that may change in `secondsLeft` (a scheduled content goes live):
 * a browser neither uses it nor shows it stale past that moment.
 */
function clientCacheControl(kind: AnswerKind, secondsLeft = Infinity): string {
  const { audience, maxAge, staleSeconds } = POLICIES[kind];
  if (maxAge === 0) return `${audience}, no-cache`;
  const fresh = Math.min(maxAge, secondsLeft);
  const stale = Math.min(staleSeconds, secondsLeft - fresh);
  return `${audience}, max-age=${fresh}${stale > 0 ? `, stale-while-revalidate=${stale}` : ""}`;
}

/** Whole seconds from now to `until` (none: no such moment), rounded down so that nothing outlives it. */
const secondsUntil = (until: string | undefined) => (until ? Math.max(0, Math.floor((Date.parse(until) - Date.now()) / 1000)) : Infinity);

export interface Answer {
  /** Encoded once: a hot answer is sent as the bytes it was. */
  body: Uint8Array<ArrayBuffer>;
  /** A text answer this isolate keeps, worth compressing: sent gzipped to clients that take gzip but not Brotli. */
  gzippable?: boolean;
  /** Its body gzipped, made at the first such request and kept with the answer. */
  gzipped?: Uint8Array<ArrayBuffer>;
  contentType: string;
  etag: string;
  /** What the caller stored beside the answer (the ads a page showed), given back on a hit. */
  note: string;
  /** A request header the answer varies on beyond its kind's (`Accept` for a content's address). */
  vary?: string;
}

/** A freshly computed answer; `keep: false` (an error page, a preview) is answered but not kept. */
export interface Fresh {
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string;
  status: ContentfulStatusCode;
  keep: boolean;
  note?: string;
  /** A request header the answer varies on beyond its kind's: kept with it, sent on every hit. */
  vary?: string;
  /** Headers of the fresh answer only (a preview's `X-Robots-Tag`). */
  headers?: Record<string, string>;
}

export interface AnswerSpec {
  namespace: string;
  version: string;
  kind: AnswerKind;
  /** Keep answers up to 256 KiB in the isolate too (the hottest reads). */
  inIsolate?: boolean;
  /** What else the answer depends on beyond method, path and query (a POST query's body). */
  vary?: string;
  /** Neither looked up nor kept (a preview, for whoever has its link): answered `private, no-store`. */
  bypass?: boolean;
  /**
   * The moment what this version shows changes by itself (the site's next scheduled content goes
   * live). The version changes then, so no tier looks this answer up after it; the edge keeps it no
   * longer, and the browser's Cache-Control ends there too.
   */
  until?: string;
}

const kept = new IsolateCache<Answer>(500);
const KEPT_BODY_BYTES = 256 * 1024;
/** Below this a gzipped body saves less than a packet's headers cost. */
const GZIP_MIN_BYTES = 1024;
const TEXTUAL = /^text\/|json|xml/;
const NOTE_HEADER = "X-Answer-Note";
const VARY_HEADER = "X-Answer-Vary";

export const digestHex = async (data: string | Uint8Array) =>
  toHex(await crypto.subtle.digest("SHA-1", typeof data === "string" ? new TextEncoder().encode(data) : data));

/** The path and sorted query of a request: a URL without a query or fragment (a page's, most often) is not parsed. */
function pathAndQuery(c: Context<AppEnv>): string {
  const href = c.req.url;
  if (!href.includes("?") && !href.includes("#")) return `${href.slice(href.indexOf("/", href.indexOf("//") + 2))}?`;
  const url = new URL(href);
  url.searchParams.sort();
  return `${url.pathname}?${url.searchParams.toString()}`;
}

async function keyOf(c: Context<AppEnv>, spec: AnswerSpec): Promise<string> {
  // The body's digest is a path segment: the Cache API drops a URL's fragment from its keys.
  const vary = spec.vary ? await digestHex(spec.vary) : "-";
  return `https://answers.invalid/${spec.namespace}/${spec.version}/${c.req.method}/${vary}${pathAndQuery(c)}`;
}

/** Keeps an answer in this isolate where its spec asks and its size allows: the answer as kept. */
function keepInIsolate(key: string, answer: Answer, spec: AnswerSpec): Answer {
  if (!spec.inIsolate || answer.body.length > KEPT_BODY_BYTES) return answer;
  const held = { ...answer, gzippable: answer.body.length >= GZIP_MIN_BYTES && TEXTUAL.test(answer.contentType) };
  kept.set(key, held);
  return held;
}

/** A gzipped body is another representation: its own strong validator (RFC 9110 §8.8.3). */
const gzipEtag = (etag: string) => `${etag.slice(0, -1)}-gzip"`;

/**
 * What the client itself accepts: the edge hands a Worker `br, gzip` whatever the client said (a
 * client that said nothing too), and keeps the client's own header in `cf.clientAcceptEncoding`.
 */
function clientAcceptEncoding(c: Context<AppEnv>): string | undefined {
  const cf = c.req.raw.cf;
  const original = cf && "clientAcceptEncoding" in cf ? cf.clientAcceptEncoding : undefined;
  return typeof original === "string" ? original : c.req.header("Accept-Encoding");
}

/**
 * Whether to send the kept gzip (RFC 9110 §12.5.3): gzip named, or covered by `*`, with a quality
 * above zero and not below the one the client gives identity, and Brotli not taken as readily. A
 * client that takes Brotli (a browser) gets the plain bytes, which the edge compresses smaller
 * than gzip; API clients and scripts mostly ask for gzip alone. A client that names no coding gets
 * the plain bytes, as from most servers: a plain HTTP request must not receive bytes it never asked for.
 */
function prefersGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding || (!acceptEncoding.includes("gzip") && !acceptEncoding.includes("*"))) return false;
  const quality: Record<string, number> = {};
  for (const part of acceptEncoding.split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    quality[coding] = q === undefined ? 1 : Number(q.slice(2)) || 0;
  }
  const gzip = quality.gzip ?? quality["*"] ?? 0;
  const brotli = quality.br ?? quality["*"] ?? 0;
  return gzip > 0 && gzip >= (quality.identity ?? 0) && gzip > brotli;
}

/**
 * The kept answer's body gzipped for a caller that prefers gzip, else undefined. Compressed at the
 * first such request and kept with the answer, so that a hot answer is not compressed again, and
 * never for the browsers (Brotli) that most pages go to.
 */
async function gzippedFor(c: Context<AppEnv>, answer: Answer): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!answer.gzippable || !prefersGzip(clientAcceptEncoding(c))) return undefined;
  if (!answer.gzipped) {
    const stream = new Response(answer.body).body!.pipeThrough(new CompressionStream("gzip"));
    answer.gzipped = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  return answer.gzipped;
}

/** How an answer is sent to this request: 304 to a caller whose copy is current, else its body, gzipped if the caller prefers. */
async function representation(c: Context<AppEnv>, answer: Answer, spec: AnswerSpec, hit: boolean, extra: Record<string, string> = {}) {
  const cacheControl = clientCacheControl(spec.kind, secondsUntil(spec.until));
  const vary = [POLICIES[spec.kind].vary, answer.vary, answer.gzippable && "Accept-Encoding"].filter(Boolean).join(", ");
  const gzipped = await gzippedFor(c, answer);
  const headers: Record<string, string> = {
    ETag: gzipped ? gzipEtag(answer.etag) : answer.etag,
    "Cache-Control": cacheControl,
    ...(vary ? { Vary: vary } : {}),
    "X-Cache": hit ? "HIT" : "MISS",
    ...extra,
  };
  // Either representation's validator says the caller's copy is current.
  const asked = c.req.header("If-None-Match");
  if (asked === answer.etag || (answer.gzippable && asked === gzipEtag(answer.etag))) return { status: 304 as const, headers, body: null };
  headers["Content-Type"] = answer.contentType;
  if (gzipped) headers["Content-Encoding"] = "gzip";
  // `manual`: gzipped bytes are sent as they are; the runtime would otherwise compress them again.
  return { status: 200 as const, headers, body: gzipped ?? answer.body, encodeBody: gzipped ? ("manual" as const) : ("automatic" as const) };
}

/** Through Hono's context, which adds the headers middleware set before the handler (a rate limit's). */
async function respond(c: Context<AppEnv>, answer: Answer, spec: AnswerSpec, hit: boolean, extra: Record<string, string> = {}): Promise<Response> {
  const sent = await representation(c, answer, spec, hit, extra);
  if (sent.body === null) return c.body(null, 304, sent.headers);
  const made = c.body(sent.body, 200, sent.headers);
  return sent.encodeBody === "manual" ? new Response(made.body, { status: 200, headers: made.headers, encodeBody: "manual" }) : made;
}

/**
 * The answer to this request under `spec` when this isolate keeps it (`spec.inIsolate`), else
 * undefined: what a caller may answer before any other work (a site's page before its router).
 */
export async function keptAnswer(c: Context<AppEnv>, spec: AnswerSpec, onHit: (note: string) => void = () => {}): Promise<Response | undefined> {
  const found = isolateHit(spec, await keyOf(c, spec), onHit);
  if (!found) return undefined;
  // Asked before any middleware has set a header (the platform's first layer): one Response, made at once.
  const { status, headers, body, encodeBody } = await representation(c, found, spec, true);
  return new Response(body, { status, headers, encodeBody });
}

/** The answer this isolate keeps under `key`, its note told to `onHit`. */
function isolateHit(spec: AnswerSpec, key: string, onHit: (note: string) => void): Answer | undefined {
  const found = spec.inIsolate && !spec.bypass ? kept.get(key) : undefined;
  if (found) onHit(found.note);
  return found;
}

/**
 * The answer to this request under `spec`, from the isolate or the edge, or computed, kept and
 * answered. `compute` may return a Response: it is answered as it is and not kept (a status the
 * cache does not hold, an answer of another type). `onHit` learns the note of a kept answer.
 */
export async function versionedAnswer(
  c: Context<AppEnv>,
  spec: AnswerSpec,
  compute: () => Promise<Fresh | Response>,
  onHit: (note: string) => void = () => {},
): Promise<Response> {
  const key = await keyOf(c, spec);
  const inIsolate = isolateHit(spec, key, onHit);
  if (inIsolate) return respond(c, inIsolate, spec, true);
  const edge = spec.bypass ? undefined : await caches.default.match(key);
  if (edge) {
    const answer: Answer = {
      body: new Uint8Array(await edge.arrayBuffer()),
      contentType: edge.headers.get("Content-Type")!,
      etag: edge.headers.get("ETag")!,
      note: edge.headers.get(NOTE_HEADER) ?? "",
      vary: edge.headers.get(VARY_HEADER) ?? undefined,
    };
    const held = keepInIsolate(key, answer, spec);
    onHit(answer.note);
    return respond(c, held, spec, true);
  }
  const fresh = await compute();
  if (fresh instanceof Response) return fresh;
  // Copied into a buffer of its own: the encoder's may be shared, and a kept answer must not change.
  const body = typeof fresh.body === "string" ? new Uint8Array(new TextEncoder().encode(fresh.body)) : fresh.body;
  if (spec.bypass || !fresh.keep || fresh.status !== 200) {
    return c.body(body, fresh.status, { "Content-Type": fresh.contentType, "Cache-Control": "private, no-store", ...fresh.headers });
  }
  const made: Answer = {
    body,
    contentType: fresh.contentType,
    etag: `"${spec.version}-${(await digestHex(body)).slice(0, 16)}"`,
    note: fresh.note ?? "",
    vary: fresh.vary,
  };
  const stored = new Response(made.body, {
    headers: {
      "Content-Type": made.contentType,
      ETag: made.etag,
      [NOTE_HEADER]: made.note,
      ...(made.vary ? { [VARY_HEADER]: made.vary } : {}),
      // At least a second: the Cache API does not keep an answer of max-age=0.
      "Cache-Control": `max-age=${Math.max(1, Math.min(POLICIES[spec.kind].edgeSeconds, secondsUntil(spec.until)))}`,
    },
  });
  c.executionCtx.waitUntil(caches.default.put(key, stored));
  return respond(c, keepInIsolate(key, made, spec), spec, false, fresh.headers);
}
