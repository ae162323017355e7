import type { MiddlewareHandler } from "hono";
import { setAnswerHeaders } from "./answer-headers";
import { requestsInFlight } from "./in-flight";
import { requestDatabase } from "./database";
import type { AppEnv } from "./env";
import { logger } from "./logging";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** An answer this slow is logged even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

/** More than the largest body any route takes (a theme's zip, 20 MB). */
const MAX_DRAINED_BYTES = 32 * 1024 * 1024;

/**
 * A body refused before it was read (a bad query, a wrong role) is read to its end: left unread, the
 * runtime can drop the connection and fail the caller's next request on it ("Your worker restarted
 * mid-request", a 503, after a refused upload). At most MAX_DRAINED_BYTES are read.
 */
async function drainUnreadBody(request: Request) {
  if (!request.body || request.bodyUsed) return;
  // Workers type a request's body as ReadableStream<any>; its chunks are bytes.
  await drainBody((request.body as ReadableStream<Uint8Array>).getReader());
}

/** Reads the rest of a body begun with `reader` (`read` bytes so far) and drops it, up to MAX_DRAINED_BYTES in all. */
export async function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>, read = 0) {
  try {
    while (read <= MAX_DRAINED_BYTES) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
    // A body past any route's limit, or one that never ends: given up on, not read forever.
    await reader.cancel();
  } catch {
    // The caller went away: nothing left to read.
  }
}

/**
 * Takes the caller's X-Request-Id when it is sane, else makes one; puts the request's services
 * (database, bound log) on the context; echoes the id, and logs the request when it failed or was slow.
 */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header("X-Request-Id");
  const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  const log = logger({ requestId });
  c.set("requestId", requestId);
  c.set("log", log);
  const { db, session } = requestDatabase(c.env, c.req.method, c.req.header("X-D1-Bookmark"));
  c.set("db", db);
  const started = Date.now();
  await requestsInFlight.countWhileAnswered(c.req.raw, next);
  await drainUnreadBody(c.req.raw);
  const bookmark = session.getBookmark();
  const headers: [string, string][] = [["X-Request-Id", requestId]];
  if (bookmark) headers.push(["X-D1-Bookmark", bookmark]);
  setAnswerHeaders(c, headers);
  const ms = Date.now() - started;
  // Every invocation is in Workers' own logs (observability in wrangler.toml): the Worker writes
  // a line of its own for what needs a look, a client error, a failure or a slow answer.
  if (c.res.status >= 400 || ms >= SLOW_REQUEST_MS)
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms, keyId: c.get("principal")?.keyId });
};
