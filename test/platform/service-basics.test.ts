import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { createTestKey } from "../helpers/credentials";
import { call, secretHeaders } from "../helpers/requests";

describe("service basics", () => {
  it("answers /health without authentication", async () => {
    const res = await call("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", version: "dev" });
  });

  it("echoes a sane X-Request-Id and makes one otherwise", async () => {
    const given = await call("/health", { headers: { "X-Request-Id": "trace-123" } });
    expect(given.headers.get("X-Request-Id")).toBe("trace-123");
    const made = await call("/health", { headers: { "X-Request-Id": "bad id with spaces" } });
    expect(made.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers an unknown data route with a 404 envelope", async () => {
    const res = await call("/std/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 404, msg: "Not found", data: null });
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
  });

  it("answers a known path asked with a method it does not take with 405, its envelope and Allow", async () => {
    const key = await createTestKey();
    const deleted = await call("/std/api/bigdata/taxrate/country/DE/standard", { method: "DELETE", headers: secretHeaders(key) });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get("Allow")).toBe("GET, HEAD");
    expect(await deleted.json()).toEqual({
      code: 405,
      msg: "DELETE is not a method of /std/api/bigdata/taxrate/country/DE/standard: it takes GET or HEAD",
      data: null,
    });
    const read = await call("/std/ai/summarize", { headers: secretHeaders(key) });
    expect(read.status).toBe(405);
    expect(read.headers.get("Allow")).toBe("POST");
    expect((await read.json<{ msg: string }>()).msg).toBe("GET is not a method of /std/ai/summarize: it takes POST only");
    const account = await call("/api/users/me", { method: "POST", headers: { Authorization: `Bearer ${key.token}` } });
    expect(account.status).toBe(405);
    expect(await account.json()).toEqual({ detail: expect.stringMatching(/^POST is not a method of \/api\/users\/me: it takes /) });
    // A POST with no body to a path that takes GET is told the method, not that bizContent is missing.
    const posted = await call("/std/api/bigdata/taxrate/country/DE/standard", { method: "POST", headers: secretHeaders(key) });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("Allow")).toBe("GET, HEAD");
    // A POST route still says what is wrong with its body.
    const empty = await call("/std/open/country/special", { method: "POST", headers: secretHeaders(key) });
    expect(empty.status).toBe(400);
    expect((await empty.json<{ msg: string }>()).msg).toBe("bizContent is required");
    // Groups C and D say it in their envelope, the code a client can branch on; a GET of a list
    // that takes an empty POST body too is a 405, not a failure.
    for (const method of ["GET", "HEAD"]) {
      const listed = await call("/deposits/minipram/list", { method, headers: { Authorization: `Bearer ${key.token}` } });
      expect(listed.status, method).toBe(405);
      expect(listed.headers.get("Allow")).toBe("POST");
      if (method === "GET")
        expect(await listed.json()).toEqual({
          success: false,
          error: { code: "method_not_allowed", message: "GET is not a method of /deposits/minipram/list: it takes POST only" },
        });
    }
    // Who calls is checked first, and a path no route has is still a 404.
    expect((await call("/std/api/bigdata/taxrate/country/DE/standard", { method: "DELETE" })).status).toBe(401);
    expect((await call("/std/api/bigdata/taxrate/country/DE/standard/nothing", { headers: secretHeaders(key) })).status).toBe(404);
  });

  it("answers an unknown account route with {detail}", async () => {
    const res = await call("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
  });

  it("answers an unknown tenant route with the tenant error shape", async () => {
    const res = await call("/deposits/nothing-here", { method: "POST" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: { code: "not_found", message: "Not found" } });
  });

  it("refuses a body over 1 MiB with 413 in the envelope", async () => {
    const res = await call("/std/open/country/list", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ bizContent: { pad: "x".repeat(1024 * 1024) } }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 413, msg: "Request body is larger than 1 MB, the most this takes", data: null });
  });

  // Left half read, it broke the connection: under wrangler dev the caller's next request on it was a 503,
  // "Your worker restarted mid-request" (a theme upload after a refused one, the fuzzing of PUT /api/users/{id}).
  it("reads a body sent without a length to its end when it refuses it as over 1 MiB", async () => {
    const total = 3 * 1024 * 1024;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        sent += 64 * 1024;
      },
    });
    const context = createExecutionContext();
    const request = new Request("https://gateway.test/api/users/1", { method: "PUT", headers: { "Content-Type": "application/json" }, body });
    const res = await worker.fetch(request, env, context);
    await waitOnExecutionContext(context);
    expect(res.status).toBe(413);
    expect(sent).toBe(total);
  });
});
