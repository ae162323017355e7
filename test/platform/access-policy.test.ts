import { describe, expect, it } from "vitest";
import { accessRuleFor } from "../../src/platform/auth/access-policy";
import { call } from "../helpers/requests";

const PUBLIC = ["/health", "/openapi.json", "/docs", "/auth/login", "/auth/callback", "/auth/refresh"];

describe("access policy", () => {
  it("has a rule for every documented route, and only the expected ones are public", async () => {
    const doc = (await (await call("/openapi.json")).json()) as { paths: Record<string, unknown> };
    const paths = [...Object.keys(doc.paths), "/openapi.json", "/docs"];
    const publicPaths = paths.filter((path) => accessRuleFor(path).credential === "public");
    expect(publicPaths.sort()).toEqual([...PUBLIC].sort());
    for (const path of paths) expect(accessRuleFor(path).prefix, path).not.toBe("");
  });

  it("matches whole path segments only", () => {
    expect(accessRuleFor("/api/tokens/5").resource).toBe("tokens");
    expect(accessRuleFor("/api/tokensx").credential).toBe("public");
  });
});
