import { WeChatError, WeChatUnavailable } from "./errors";

/**
 * WeChat's open platform API over HTTP: the real one, a fake in the tests, or the sandbox
 * (sandbox.ts), which answers the same requests. `fetch` is where requests go: the global fetch
 * for WeChat, the sandbox's own handler for the sandbox, so that cron jobs reach it too.
 */
export interface WeChatTransport {
  base: string;
  fetch: (request: Request) => Promise<Response>;
}

export const WECHAT_API = "https://api.weixin.qq.com";
const TIMEOUT_MS = 10_000;
/** WeChat's "system busy" (-1), a timeout or a 5xx are tried again after these pauses. */
const RETRY_PAUSES_MS = [300, 1000];

export interface WeChatAnswer {
  errcode?: number;
  errmsg?: string;
  [field: string]: unknown;
}

type Query = Record<string, string>;

/** A JSON call; an answer with a non-zero errcode throws WeChatError (after retries for -1). */
export async function callWeChat<T extends WeChatAnswer>(transport: WeChatTransport, path: string, query: Query, body?: unknown): Promise<T> {
  const response = await send(transport, path, query, body === undefined ? undefined : { type: "application/json", bytes: JSON.stringify(body) });
  return answerOf<T>(response);
}

/** A call whose success is an image (QR codes); a JSON answer is WeChat's error. */
export async function fetchWeChatImage(transport: WeChatTransport, path: string, query: Query, body?: unknown): Promise<Uint8Array> {
  const response = await send(transport, path, query, body === undefined ? undefined : { type: "application/json", bytes: JSON.stringify(body) });
  if ((response.headers.get("Content-Type") ?? "").includes("json")) {
    await answerOf(response);
    throw new WeChatError(-2, "WeChat answered JSON where an image was expected");
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** An image upload as temporary material (cgi-bin/media/upload): its media_id. */
export async function uploadWeChatMedia(
  transport: WeChatTransport,
  accessToken: string,
  image: { bytes: Uint8Array; type: string; filename: string },
): Promise<string> {
  const form = new FormData();
  form.append("media", new Blob([image.bytes], { type: image.type }), image.filename);
  const response = await send(transport, "/cgi-bin/media/upload", { access_token: accessToken, type: "image" }, { form });
  return (await answerOf<{ media_id: string }>(response)).media_id;
}

type Body = { type: string; bytes: string } | { form: FormData };

async function send(transport: WeChatTransport, path: string, query: Query, body: Body | undefined): Promise<Response> {
  const url = new URL(`${transport.base.replace(/\/$/, "")}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  for (let attempt = 0; ; attempt++) {
    const request = new Request(url, {
      method: body ? "POST" : "GET",
      headers: body && "type" in body ? { "Content-Type": body.type } : {},
      body: body ? ("form" in body ? body.form : body.bytes) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    let response: Response | undefined;
    try {
      response = await transport.fetch(request);
    } catch {
      response = undefined;
    }
    const busy = !response || response.status >= 500 || (await isBusy(response));
    if (!busy) return response!;
    if (attempt >= RETRY_PAUSES_MS.length) {
      if (!response) throw new WeChatUnavailable(`WeChat did not answer ${path}`);
      if (response.status >= 500) throw new WeChatUnavailable(`WeChat answered ${path} with HTTP ${response.status}`);
      return response;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSES_MS[attempt]));
  }
}

/** Whether WeChat said "system busy" (-1); the body is read from a clone, the response stays whole. */
async function isBusy(response: Response): Promise<boolean> {
  if (!(response.headers.get("Content-Type") ?? "").includes("json")) return false;
  const answer = (await response
    .clone()
    .json()
    .catch(() => null)) as WeChatAnswer | null;
  return answer?.errcode === -1;
}

async function answerOf<T extends WeChatAnswer>(response: Response): Promise<T> {
  const answer = (await response.json().catch(() => null)) as T | null;
  if (!answer || typeof answer !== "object") throw new WeChatUnavailable(`WeChat answered HTTP ${response.status} without JSON`);
  if (answer.errcode !== undefined && answer.errcode !== 0) throw new WeChatError(answer.errcode, String(answer.errmsg ?? ""));
  return answer;
}
