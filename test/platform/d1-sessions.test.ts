import { describe, expect, it } from "vitest";
import { accountJson, bearer, createUser, sessionFor } from "../helpers/accounts";
import { call } from "../helpers/requests";

describe("D1 sessions per request", () => {
  it("answers a request that read D1 with the session's bookmark, and takes one back", async () => {
    const jwt = await sessionFor(await createUser());
    const created = await accountJson("POST", "/api/tokens", jwt, { name: "bookmarked" });
    expect(created.status).toBe(201);
    const bookmark = created.headers.get("X-D1-Bookmark");
    expect(bookmark).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);
    // Read-your-writes from any replica: the bookmark of the write, sent back.
    const key = await created.json<{ token: string }>();
    const listed = await call("/api/tokens", { headers: { ...bearer(key.token), "X-D1-Bookmark": bookmark! } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("X-D1-Bookmark")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);
  });

  it("ignores a bookmark that is not one, rather than failing the request", async () => {
    const jwt = await sessionFor(await createUser());
    for (const bookmark of ["not a bookmark!", "x".repeat(500), "00000000-00000017"]) {
      const res = await call("/api/users/me", { headers: { ...bearer(jwt), "X-D1-Bookmark": bookmark } });
      expect(res.status, bookmark.slice(0, 20)).toBe(200);
    }
  });
});
