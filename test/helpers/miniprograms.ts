import { env, SELF } from "cloudflare:test";
import { signedPush } from "../../src/miniprograms/sandbox";
import { syncTemplates } from "../../src/miniprograms/service";
import { SANDBOX_PATH, upstreamOf } from "../../src/miniprograms/upstream";
import { database } from "../../src/platform/database";
import { createTestKey, type TestKey } from "./credentials";
import { oncePerStorage } from "./fresh-storage";

export const ORIGIN = "https://gateway.test";
const background = (work: Promise<unknown>) => void work.catch(() => undefined);

/** Group D's context for calling its services directly (the sandbox upstream of the tests). */
export const miniprogramContext = () => ({ db: database(env), env, upstream: upstreamOf(env, background) });

export interface DAnswer<T = Record<string, unknown>> {
  status: number;
  body: { success: boolean; data: T; error?: { code: string; message: string } };
}

/** A D endpoint, as a client calls it: POST, JSON, Bearer API key. */
export async function deposits<T = Record<string, unknown>>(path: string, key: Pick<TestKey, "token">, body?: unknown): Promise<DAnswer<T>> {
  const res = await SELF.fetch(`${ORIGIN}/deposits${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key.token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json<DAnswer<T>["body"]>() };
}

/** WeChat's push, signed and encrypted as WeChat does, sent to a receiver over HTTP. */
export async function push(
  path: string,
  event: Record<string, string | number>,
  tamper: (p: { query: Record<string, string>; body: string }) => void = () => {},
) {
  const signed = await signedPush(upstreamOf(env, background).component, event);
  const message = { query: { ...signed.query, encrypt_type: "aes" } as Record<string, string>, body: signed.body };
  tamper(message);
  return SELF.fetch(`${ORIGIN}${path}?${new URLSearchParams(message.query).toString()}`, {
    method: "POST",
    body: message.body,
    headers: { "Content-Type": "text/xml" },
  });
}

export const componentAppId = () => upstreamOf(env, background).component.appId;

/** A verify ticket through the receiver, as WeChat sends one every 10 minutes. */
export async function pushTicket(ticket = `ticket@@@sandbox-${crypto.randomUUID()}`) {
  const res = await push("/wechat/component/events", {
    AppId: componentAppId(),
    CreateTime: Math.floor(Date.now() / 1000),
    InfoType: "component_verify_ticket",
    ComponentVerifyTicket: ticket,
  });
  if ((await res.text()) !== "success") throw new Error("the ticket push was refused");
}

const syncTemplatesOnce = oncePerStorage(() => syncTemplates(miniprogramContext()));

/** A key with group D's scopes, a verify ticket, and the sandbox's templates in D1. */
export async function miniprogramKey(scopes = ["miniprogram:*"]): Promise<TestKey> {
  await pushTicket();
  await syncTemplatesOnce();
  return createTestKey({ scopes });
}

/** The sandbox's steering of the next audit. */
export async function steerAudit(appId: string, outcome: "pass" | "fail", delaySeconds = 0, reason?: string) {
  const res = await SELF.fetch(`${ORIGIN}${SANDBOX_PATH}/steer`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ appId, outcome, delaySeconds, reason }),
  });
  if (res.status !== 200) throw new Error(`steering answered ${res.status}`);
}

/** A configuration authorized through the sandbox's authorization page and the owner's redirect. */
export async function authorizedMiniprogram(key: TestKey, name = "Demo Shop"): Promise<{ id: string; appId: string }> {
  const created = await deposits<{ id: number }>("/minipram/create", key, { name });
  const id = String(created.body.data.id);
  const link = await deposits<{ authorizeUrl: string }>("/minipram/authorize", key, { id });
  const consent = await SELF.fetch(link.body.data.authorizeUrl, { redirect: "manual" });
  const back = await SELF.fetch(consent.headers.get("Location")!);
  if (back.status !== 200) throw new Error(`the authorization redirect answered ${back.status}: ${await back.text()}`);
  const listed = await deposits<{ Data: { Id: number; AppId: string }[] }>("/minipram/list", key, { pageSize: 100 });
  return { id, appId: listed.body.data.Data.find((m) => m.Id === Number(id))!.AppId };
}

/** What a submission needs besides the commit: a privacy guide covering what the sandbox's templates use, and an approved category. */
export async function readyForAudit(key: Pick<TestKey, "token">, id: string) {
  const privacy = await deposits("/wxa/privacy/set", key, {
    id,
    ownerSetting: { contactEmail: "privacy@shop.example", noticeMethod: "A pop-up on first use" },
    settings: ["UserInfo", "Location", "PhoneNumber", "Album"].map((privacyKey) => ({ privacyKey, privacyText: `To serve you (${privacyKey})` })),
  });
  const category = await deposits("/wxa/category/add", key, { id, categories: [{ first: 2, second: 201 }] });
  for (const answer of [privacy, category])
    if (answer.body.data?.errcode !== 0) throw new Error(`readyForAudit answered ${answer.status} ${JSON.stringify(answer.body)}`);
}
