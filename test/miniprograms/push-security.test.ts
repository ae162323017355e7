import { env, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PUSH_BODY_BYTES } from "../../src/miniprograms/push";
import { signedPush } from "../../src/miniprograms/sandbox";
import { upstreamOf } from "../../src/miniprograms/upstream";
import { encryptMessage, messageSignature, querySignature, xmlFields, xmlOf } from "../../src/miniprograms/wechat/message-crypto";
import type { TestKey } from "../helpers/credentials";
import { authorizedMiniprogram, componentAppId, deposits, miniprogramKey, ORIGIN, pushTicket } from "../helpers/miniprograms";

const RECEIVERS = ["/wechat/component/events", "/wechat/miniprogram/events/x"];
const component = () => upstreamOf(env, () => {}).component;
const now = () => Math.floor(Date.now() / 1000);
const ticketRow = async () =>
  (await env.DB.prepare("SELECT sealed_value, updated_at FROM wechat_credentials WHERE name = 'component_verify_ticket'").first<{
    sealed_value: string;
    updated_at: string;
  }>())!;

/** A query WeChat could have signed (signature over token, timestamp and nonce), for any body. */
async function signedQuery(body: string, timestamp = String(now())) {
  const { messageToken } = component();
  const nonce = crypto.randomUUID().slice(0, 10);
  const encrypted = xmlFields(body).Encrypt ?? "";
  return {
    timestamp,
    nonce,
    signature: await querySignature(messageToken, timestamp, nonce),
    msg_signature: await messageSignature(messageToken, timestamp, nonce, encrypted),
    encrypt_type: "aes",
  };
}

/** A verify ticket push's body as WeChat encrypts it, dated `timestamp`. */
async function ticketPushAt(timestamp: string, ticket: string): Promise<string> {
  const { appId, encodingAesKey } = component();
  const event = { AppId: appId, CreateTime: Number(timestamp), InfoType: "component_verify_ticket", ComponentVerifyTicket: ticket };
  return xmlOf({ AppId: appId, Encrypt: await encryptMessage(xmlOf(event), appId, encodingAesKey) });
}

const send = (path: string, query: Record<string, string>, body: string) =>
  SELF.fetch(`${ORIGIN}${path}?${new URLSearchParams(query).toString()}`, { method: "POST", body, headers: { "Content-Type": "text/xml" } });

/** How long a request takes, with its answer's status. */
async function timed(request: () => Promise<Response>) {
  const started = performance.now();
  const res = await request();
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

/** Bodies that made the old reader backtrack, or that would make a careless scanner rescan, filled up to `size`. */
const adversarialBodies = (size: number) => ({
  "CDATA sections and no closing tag": `<a>${"<![CDATA[x]]>".repeat(Math.floor((size - 3) / 13))}`,
  "CDATA openings never closed": `<a>${"<![CDATA[".repeat(Math.floor((size - 3) / 9))}`,
  "opening tags only": "<Encrypt>".repeat(Math.floor(size / 9)),
  "an element never closed": `<Encrypt>${"x".repeat(size - 9)}`,
  "angle brackets only": "<".repeat(size),
});

describe("API4 · WeChat push receivers: a body that freezes the isolate", () => {
  it("answers the issue's 393-byte body at once, with a 4xx, on both receivers", async () => {
    const body = `<a>${"<![CDATA[x]]>".repeat(30)}`;
    expect(body).toHaveLength(393);
    for (const path of RECEIVERS) {
      const answer = await timed(() => send(path, { timestamp: String(now()), nonce: "n", msg_signature: "0".repeat(40) }, body));
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.ms).toBeLessThan(1000);
    }
  });

  it("answers adversarial bodies of the accepted size quickly with a 4xx, unsigned or with a good query signature", async () => {
    for (const [shape, body] of Object.entries(adversarialBodies(PUSH_BODY_BYTES))) {
      expect(body.length, shape).toBeLessThanOrEqual(PUSH_BODY_BYTES);
      for (const path of RECEIVERS) {
        for (const query of [{ timestamp: String(now()), nonce: "n", msg_signature: "0".repeat(40) }, await signedQuery(body)]) {
          const answer = await timed(() => send(path, query, body));
          expect(answer.status, `${shape} on ${path}`).toBeGreaterThanOrEqual(400);
          expect(answer.status, `${shape} on ${path}`).toBeLessThan(500);
          expect(answer.ms, `${shape} on ${path}`).toBeLessThan(1000);
        }
      }
    }
  });

  it("refuses a body over the accepted size with 413, before reading it", async () => {
    const res = await send(RECEIVERS[0]!, await signedQuery(""), "x".repeat(PUSH_BODY_BYTES + 1));
    expect(res.status).toBe(413);
  });

  it("refuses an unsigned query before the body is read: no signature, a wrong one, or one for another timestamp", async () => {
    const body = xmlOf({ AppId: componentAppId(), Encrypt: "x" });
    const good = await signedQuery(body);
    const { signature: _, ...unsigned } = good;
    const missing = await send(RECEIVERS[0]!, unsigned, body);
    expect([missing.status, await missing.text()]).toEqual([
      400,
      "A push needs timestamp, nonce, signature and msg_signature in its query, and an Encrypt element",
    ]);
    const wrong = await send(RECEIVERS[0]!, { ...good, signature: "0".repeat(40) }, body);
    expect([wrong.status, await wrong.text()]).toEqual([401, "The push's signature does not match"]);
    const moved = await send(RECEIVERS[0]!, { ...good, timestamp: String(Number(good.timestamp) - 1) }, body);
    expect(moved.status).toBe(401);
  });
});

/** Every regular expression literal in group D's sources, as the tests see the files. */
const sources = import.meta.glob<string>("../../src/miniprograms/**/*.ts", { query: "?raw", import: "default", eager: true });
const REGEX_LITERAL = /(?<=[(,=:!&|?]\s*)\/(?![*/])((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\[\n])+)\/([dgimsuy]*)/g;
const regexLiterals = Object.entries(sources).flatMap(([file, text]) =>
  [...text.matchAll(REGEX_LITERAL)].map((m) => ({ file, regex: new RegExp(m[1]!, m[2]!.replace("g", "")) })),
);

/** Long inputs built from what each pattern looks for, each ending in what it may not expect. */
function adversarialInputs(regex: RegExp): string[] {
  const pieces = [
    "a",
    "0",
    "_",
    "-",
    " ",
    "x.",
    "<",
    ">",
    "<a>",
    "</a>",
    "<![CDATA[x]]>",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&",
    "|",
    ".",
    "/",
    "@@@",
    "aaaaaaaaaaaaaaaaaaaa",
  ];
  const literals = regex.source.match(/[A-Za-z0-9_<>!&|.@-]+/g) ?? [];
  // Short ones first: a pattern that backtracks exponentially shows it at 400 characters, where it
  // still ends; a quadratic one takes seconds at the accepted body size.
  return [400, PUSH_BODY_BYTES - 10].flatMap((length) =>
    [...pieces, ...literals].flatMap((piece) => {
      const pump = piece.repeat(Math.floor(length / piece.length));
      return ["", "<a>", "a"].flatMap((prefix) => ["!", "\u0000", ""].map((suffix) => prefix + pump + suffix));
    }),
  );
}

describe("API4 · group D's regular expressions over request input: no catastrophic backtracking", () => {
  it("finds the patterns to try (the XML reader's and the route parameters')", () => {
    expect(regexLiterals.length).toBeGreaterThanOrEqual(8);
    expect(regexLiterals.map((r) => r.regex.source)).toContain("^[0-9a-f]{64}$");
  });

  it("answers every regular expression literal of src/miniprograms well within a second on adversarial inputs up to the accepted body size", () => {
    for (const { file, regex } of regexLiterals) {
      for (const input of adversarialInputs(regex)) {
        const started = performance.now();
        regex.test(input);
        input.replace(new RegExp(regex.source, `${regex.flags}g`), "");
        // Linear patterns take a millisecond or two here; the margin is for a loaded machine.
        expect(performance.now() - started, `${file}: /${regex.source}/ on ${JSON.stringify(input.slice(0, 40))}…`).toBeLessThan(250);
      }
    }
  });

  it("reads WeChat's XML in one pass: adversarial bodies of 16 times the accepted size in under a second", () => {
    const read = (size: number) => {
      const started = performance.now();
      for (const body of Object.values(adversarialBodies(size))) xmlFields(body);
      return performance.now() - started;
    };
    read(PUSH_BODY_BYTES); // warm up
    expect(read(16 * PUSH_BODY_BYTES)).toBeLessThan(1000);
  });
});

let key: TestKey;
// The first request loads the Worker: seconds on a loaded machine, more than the default 10 s hook timeout.
beforeAll(async () => {
  key = await miniprogramKey();
}, 30_000);

describe("API2 · WeChat pushes: replays", () => {
  const ticketPush = (ticket = `ticket@@@sandbox-${crypto.randomUUID()}`) =>
    signedPush(component(), { AppId: componentAppId(), CreateTime: now(), InfoType: "component_verify_ticket", ComponentVerifyTicket: ticket });
  const deliver = (path: string, message: { query: Record<string, string>; body: string }) => send(path, message.query, message.body);

  it("takes a signed push once, and refuses the same push sent again", async () => {
    const message = await ticketPush();
    const first = await deliver(RECEIVERS[0]!, message);
    expect([first.status, await first.text()]).toEqual([200, "success"]);
    const stored = await ticketRow();
    const again = await deliver(RECEIVERS[0]!, message);
    expect([again.status, await again.text()]).toEqual([401, "This push was received before (its timestamp and nonce were used)"]);
    expect(await ticketRow()).toEqual(stored);
    expect(await env.KV.get(`wechat-push:${message.query.timestamp}:${message.query.nonce}`)).toBe("1");
  });

  // The clock stands still in the window tests: on a loaded machine a second passes between signing and checking.
  const clockStill = () => vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  afterEach(() => vi.useRealTimers());

  it("refuses a push signed in 2001, or more than 300 seconds away from the server's time, changing nothing", async () => {
    clockStill();
    await pushTicket();
    const before = await ticketRow();
    for (const timestamp of ["978307200", String(now() - 301), String(now() + 301)]) {
      const body = await ticketPushAt(timestamp, "ticket@@@sandbox-old");
      const res = await send(RECEIVERS[0]!, await signedQuery(body, timestamp), body);
      expect([res.status, await res.text()], timestamp).toEqual([401, "The push's timestamp is more than 300 seconds away from the server's time"]);
    }
    expect(await ticketRow()).toEqual(before);
  });

  it("takes a push within the window: 299 seconds old", async () => {
    clockStill();
    const timestamp = String(now() - 299);
    const body = await ticketPushAt(timestamp, `ticket@@@sandbox-${crypto.randomUUID()}`);
    const res = await send(RECEIVERS[0]!, await signedQuery(body, timestamp), body);
    expect([res.status, await res.text()]).toEqual([200, "success"]);
  });

  it("does not spend a nonce on a push whose message signature fails", async () => {
    const message = await ticketPush();
    const forged = await deliver(RECEIVERS[0]!, { ...message, query: { ...message.query, msg_signature: "0".repeat(40) } });
    expect(forged.status).toBe(401);
    const genuine = await deliver(RECEIVERS[0]!, message);
    expect([genuine.status, await genuine.text()]).toEqual([200, "success"]);
  });

  it("takes only one of two identical pushes sent at the same moment", async () => {
    const message = await ticketPush();
    const statuses = await Promise.all([deliver(RECEIVERS[0]!, message), deliver(RECEIVERS[0]!, message)].map(async (p) => (await p).status));
    expect(statuses.sort()).toEqual([200, 401]);
  });

  it("refuses a replayed unauthorized event: the mini-program authorized again stays authorized", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Replayed Shop");
    const revoke = await signedPush(component(), { AppId: componentAppId(), CreateTime: now(), InfoType: "unauthorized", AuthorizerAppid: appId });
    expect(await (await deliver(RECEIVERS[0]!, revoke)).text()).toBe("success");
    expect((await deposits<{ stage: string }>("/minipram/steps", key, { id })).body.data.stage).toBe("configured");
    // The owner authorizes the same mini-program again (WeChat keeps its app id; the sandbox would make a new one).
    await env.DB.prepare("UPDATE miniprograms SET stage = 'authorized', authorizer_app_id = ? WHERE id = ?").bind(appId, Number(id)).run();
    const replay = await deliver(RECEIVERS[0]!, revoke);
    expect(replay.status).toBe(401);
    const row = (await env.DB.prepare("SELECT stage, authorizer_app_id FROM miniprograms WHERE id = ?").bind(Number(id)).first())!;
    expect(row).toEqual({ stage: "authorized", authorizer_app_id: appId });
  });

  it("refuses a replayed audit event on a mini-program's receiver", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Audited Twice");
    await env.DB.prepare("UPDATE miniprograms SET stage = 'audit_submitted', audit_id = '9', audit_status = 2 WHERE id = ?").bind(Number(id)).run();
    const fail = await signedPush(component(), {
      ToUserName: "gh_x",
      FromUserName: "o_x",
      CreateTime: now(),
      MsgType: "event",
      Event: "weapp_audit_fail",
      Reason: "Blurry",
      FailTime: now(),
    });
    expect(await (await deliver(`/wechat/miniprogram/events/${appId}`, fail)).text()).toBe("success");
    expect((await deliver(`/wechat/miniprogram/events/${appId}`, fail)).status).toBe(401);
  });
});
