/** T8 with TAX_NUMBER_LIVE_CHECK on: VIES and HMRC faked at the HTTP boundary, their answers kept for when they are down. */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import type { TaxNumberCheck } from "../../src/tax/schema";
import { secretHeaders } from "../helpers/requests";
import { TAX, getTax, taxKey } from "./fixtures";

const VIES = "https://vies.test/rest-api";
const HMRC = "https://hmrc.test";
const live = { ...env, TAX_NUMBER_LIVE_CHECK: "on", VIES_API_URL: VIES, HMRC_API_URL: HMRC };
const withHmrc = { ...live, HMRC_CLIENT_ID: "client-1", HMRC_CLIENT_SECRET: "secret-1" };

let headers: Record<string, string>;
beforeAll(async () => {
  headers = secretHeaders(await taxKey());
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function check(number: string, bindings: typeof env = live) {
  const context = createExecutionContext();
  const res = await worker.fetch(new Request(`https://gateway.test${TAX}/taxnumber/${number}`, { headers }), bindings, context);
  await waitOnExecutionContext(context);
  expect(res.status).toBe(200);
  return (await res.json<{ data: TaxNumberCheck }>()).data;
}

type Served = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;
/** The services at the HTTP boundary; every URL they were asked, in order. */
function serve(answer: Served) {
  const asked: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    asked.push(url);
    return answer(url, init);
  });
  return asked;
}

const viesValid = { isValid: true, requestDate: "2026-11-26+01:00", userError: "VALID", name: "EXAMPLE GMBH", address: "HAUPTSTR. 1\n10115 BERLIN" };

describe("T8 asks VIES and HMRC when configured", () => {
  it("stays offline by default: the answer says so", async () => {
    const { body } = await getTax<TaxNumberCheck>("/taxnumber/DE136695976");
    expect(body.data).toMatchObject({ valid: true, source: "offline", service: null, registered: null, consultedAt: null, ageSeconds: null });
  });

  it("gives VIES's answer with the time it was consulted, the name and the address", async () => {
    const asked = serve(() => Response.json(viesValid));
    const answer = await check("DE 136 695 976");
    expect(asked).toEqual([`${VIES}/ms/DE/vat/136695976`]);
    expect(answer).toMatchObject({
      valid: true,
      countryCode: "DE",
      source: "live",
      service: "VIES",
      registered: true,
      name: "EXAMPLE GMBH",
      address: "HAUPTSTR. 1 10115 BERLIN",
      ageSeconds: 0,
      liveError: null,
    });
    expect(Date.now() - Date.parse(answer.consultedAt!)).toBeLessThan(60_000);
    expect(answer.rates.length).toBeGreaterThan(0);
  });

  it("when VIES is down, gives its last answer with its age and why", async () => {
    serve(() => Response.json(viesValid));
    const first = await check("DE136695976");
    vi.restoreAllMocks();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(first.consultedAt!) + 3_600_000);
    serve(() => new Response("busy", { status: 503 }));
    expect(await check("DE136695976")).toMatchObject({
      source: "cache",
      registered: true,
      name: "EXAMPLE GMBH",
      consultedAt: first.consultedAt,
      ageSeconds: 3600,
      liveError: "VIES answered HTTP 503",
    });
  });

  it("a member state's register that is down (MS_UNAVAILABLE) and nothing kept: the offline verdict, and why", async () => {
    serve(() => Response.json({ isValid: false, userError: "MS_UNAVAILABLE" }));
    expect(await check("EL094259216")).toMatchObject({
      valid: true,
      countryCode: "GR",
      source: "offline",
      service: "VIES",
      registered: null,
      liveError: "VIES: MS_UNAVAILABLE",
    });
  });

  it("does not wait on a service that does not answer: the request carries a deadline, a timeout is said in words", async () => {
    let signal: AbortSignal | null | undefined;
    serve((_, init) => {
      signal = init?.signal;
      throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    });
    expect(await check("XI432525179")).toMatchObject({ service: "VIES", source: "offline", liveError: "VIES did not answer within 3 s" });
    expect(signal).toBeInstanceOf(AbortSignal);
  });

  it("says a number VIES does not know is not registered, and does not ask about a number with wrong check digits", async () => {
    const asked = serve(() => Response.json({ isValid: false, userError: "INVALID", name: "---", address: "---" }));
    expect(await check("DE136695976")).toMatchObject({ source: "live", registered: false, name: null, address: null });
    expect(await check("DE136695977")).toMatchObject({ valid: false, source: "offline", service: null });
    expect(asked).toHaveLength(1);
  });

  it("asks HMRC for a UK number with the application's token, only when its credentials are set", async () => {
    const asked = serve((url, init) => {
      if (url === `${HMRC}/oauth/token`) {
        // The token request's body is the URLSearchParams the module sends as a form.
        expect((init?.body as URLSearchParams).toString()).toContain("grant_type=client_credentials");
        return Response.json({ access_token: "token-1", expires_in: 14400 });
      }
      expect(new Headers(init?.headers).get("Authorization")).toBe("Bearer token-1");
      if (url.endsWith("/432525179"))
        return Response.json({
          target: { name: "EXAMPLE LTD", vatNumber: "432525179", address: { line1: "1 HIGH STREET", postcode: "SW1A 1AA", countryCode: "GB" } },
        });
      return Response.json({ code: "NOT_FOUND" }, { status: 404 });
    });
    expect(await check("GB432525179")).toMatchObject({ source: "offline", service: null });
    expect(asked).toEqual([]);
    expect(await check("GB432525179", withHmrc)).toMatchObject({
      source: "live",
      service: "HMRC",
      registered: true,
      name: "EXAMPLE LTD",
      address: "1 HIGH STREET, SW1A 1AA, GB",
    });
    expect(asked).toEqual([`${HMRC}/oauth/token`, `${HMRC}/organisations/vat/check-vat-number/lookup/432525179`]);
  });
});
