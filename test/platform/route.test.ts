import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { handleError } from "../../src/platform/errors";
import { createRouter } from "../../src/platform/openapi";
import { Prebuilt, type TenantGroup, tenantRoutes } from "../../src/platform/route";

const group: TenantGroup = { tags: ["Test"], security: [{ Bearer: [] }], errors: [400, 401] };
const answer = z.object({ n: z.number().int() });

describe("tenantRoutes: one definition with its handler, { success, data }", () => {
  it("writes the guard's note into the summary, runs the guard first and hands its result to the handler", async () => {
    const router = createRouter();
    const route = tenantRoutes(router, group);
    const order: string[] = [];
    route({
      method: "post",
      path: "/things/{id}",
      summary: "Make a thing",
      summaryEnd: "; one a call",
      guard: {
        note: "owner",
        check: async () => {
          order.push("guard");
          return { role: "owner" };
        },
      },
      request: { params: z.object({ id: z.string() }) },
      data: answer.extend({ role: z.string() }),
      answer: "Made",
      status: 201,
      errors: [409],
      handle: async (c, guarded) => {
        order.push("handler");
        return { n: Number(c.req.valid("param").id), role: guarded.role };
      },
    });

    const res = await router.request("/things/7", { method: "POST" });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ success: true, data: { n: 7, role: "owner" } });
    expect(order).toEqual(["guard", "handler"]);

    const operation = router.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "t" } }).paths?.["/things/{id}"]?.post;
    expect(operation?.summary).toBe("Make a thing (owner); one a call");
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(["201", "400", "401", "409"]);
  });

  it("returns a prebuilt answer (a cached one) as it is", async () => {
    const router = createRouter();
    const route = tenantRoutes(router, group);
    route({
      method: "get",
      path: "/cached",
      summary: "A cached thing",
      data: answer,
      answer: "The thing",
      handle: async () => new Prebuilt<{ n: number }>(new Response('{"success":true,"data":{"n":1}}', { headers: { "X-Cache": "HIT" } })),
    });
    const res = await router.request("/cached");
    expect(res.headers.get("X-Cache")).toBe("HIT");
    expect(await res.json()).toEqual({ success: true, data: { n: 1 } });
  });

  it("answers any invalid request with the route's one text when it fixes one, else names the field", async () => {
    const router = createRouter();
    router.onError(handleError);
    const route = tenantRoutes(router, group);
    const spec = { method: "post", request: { params: z.object({ id: z.string().regex(/^\d+$/) }) }, data: answer, answer: "The thing" } as const;
    route({ ...spec, path: "/fixed/{id}", summary: "Fixed text", invalid: "the id is required", handle: async () => ({ n: 1 }) });
    route({ ...spec, path: "/named/{id}", summary: "Named field", handle: async () => ({ n: 1 }) });
    // Outside the app no surface is set: errors answer in the data envelope.
    const message = async (path: string) => (await (await router.request(path, { method: "POST" })).json<{ msg: string }>()).msg;
    expect(await message("/fixed/x")).toBe("the id is required");
    expect(await message("/named/x")).toMatch(/^id: /);
  });

  it("does not compile a handler whose answer is not the documented data (npm run typecheck)", () => {
    const router = createRouter();
    const route = tenantRoutes(router, group);
    route({
      method: "get",
      path: "/wrong",
      summary: "A wrong answer",
      data: answer,
      answer: "Never",
      // @ts-expect-error n is documented as a number
      handle: async () => ({ n: "1" }),
    });
    route({
      method: "get",
      path: "/wrong-cached",
      summary: "A wrong cached answer",
      data: answer,
      answer: "Never",
      // @ts-expect-error a cached answer of other data
      handle: async () => new Prebuilt<{ m: number }>(new Response()),
    });
    const document = router.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "t" } });
    expect(Object.keys(document.paths ?? {})).toEqual(["/wrong", "/wrong-cached"]);
  });

  it("documents a public redirect without a body, and a route's own text for an error status", async () => {
    const router = createRouter();
    const route = tenantRoutes(router, { tags: ["Test"], errors: [400] });
    route({
      method: "get",
      path: "/away",
      summary: "Go elsewhere",
      data: z.never(),
      answer: "Redirect to the other place",
      status: 302,
      errors: [502],
      errorTexts: { 502: "The other place is down" },
      handle: async (c) => new Prebuilt<never>(c.redirect("https://example.com/", 302)),
    });

    const res = await router.request("/away");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("https://example.com/");

    const operation = router.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "t" } }).paths?.["/away"]?.get;
    expect(operation?.security).toBeUndefined();
    expect(operation?.responses?.["302"]).toEqual({ description: "Redirect to the other place" });
    expect(operation?.responses?.["502"]?.description).toBe("The other place is down");
    expect(operation?.responses?.["400"]?.description).toBe("Bad parameters: `message` names the field and the rule");
  });
  it("describes an error status in the group's words, and a route's own words over the group's", async () => {
    const router = createRouter();
    const route = tenantRoutes(router, {
      tags: ["Test"],
      errors: [400, 404],
      errorTexts: { 404: "No such thing in this group", 400: "Group's 400" },
    });
    const handle = async () => ({ n: 1 });
    route({ method: "get", path: "/grouped", summary: "Grouped", data: answer, answer: "A thing", handle });
    route({ method: "get", path: "/own", summary: "Own", data: answer, answer: "A thing", errorTexts: { 400: "The route's 400" }, handle });

    const paths = router.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "t" } }).paths;
    expect(paths?.["/grouped"]?.get?.responses?.["404"]?.description).toBe("No such thing in this group");
    expect(paths?.["/grouped"]?.get?.responses?.["400"]?.description).toBe("Group's 400");
    expect(paths?.["/own"]?.get?.responses?.["400"]?.description).toBe("The route's 400");
    expect(paths?.["/own"]?.get?.responses?.["404"]?.description).toBe("No such thing in this group");
  });
});
