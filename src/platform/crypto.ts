import { IsolateCache } from "./isolate-cache";
import { badRequest } from "./errors";
// Web Crypto only, so the same code runs in the Worker and in the Node scripts.

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const encoder = new TextEncoder();

export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Each byte's two hex digits, made once: key and signature digests are written in hex on the hot path. */
const HEX_OF_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  let hex = "";
  for (const byte of new Uint8Array(bytes)) hex += HEX_OF_BYTE[byte]!;
  return hex;
}

export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = new Uint8Array(bytes);
  let binary = "";
  // In slices: spreading megabytes into one call overflows the argument limit.
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  // A plain loop: Uint8Array.from with a mapping function is about ten times slower on large inputs.
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A base64 request field (a data: URL prefix and line breaks allowed), or a 400 naming the field. */
export function decodeBase64Field(value: string, field: string): Uint8Array<ArrayBuffer> {
  const body = value.replace(/^data:[\w.+/-]+;base64,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 === 1) throw badRequest(`${field}: is not valid base64`);
  return fromBase64(body);
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Imported HMAC keys by their secret, per isolate: a signed request's key is imported once, not per request. */
const hmacKeys = new IsolateCache<Promise<CryptoKey>>(1000);

export async function hmacSha256Hex(secret: string, text: string): Promise<string> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    hmacKeys.set(secret, key);
  }
  return toHex(await crypto.subtle.sign("HMAC", await key, encoder.encode(text)));
}

/** Compares without an early exit, so the time taken does not tell how much of a guess was right. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  let diff = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) diff |= left[i]! ^ (right[i] ?? 0);
  return diff === 0;
}

const aesKeys = new Map<string, Promise<CryptoKey>>();

function aesKey(keyBase64: string): Promise<CryptoKey> {
  let key = aesKeys.get(keyBase64);
  if (!key) {
    const raw = fromBase64(keyBase64);
    if (raw.length !== 32) throw new Error("KEY_ENCRYPTION_KEY must be 32 bytes, base64-encoded");
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    aesKeys.set(keyBase64, key);
  }
  return key;
}

/** AES-256-GCM; the result is `v1.<iv>.<ciphertext>` in base64, so the key can be rotated later. */
export async function encryptSecret(plain: string, keyBase64: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await aesKey(keyBase64), encoder.encode(plain));
  return `v1.${toBase64(iv)}.${toBase64(sealed)}`;
}

export async function decryptSecret(sealed: string, keyBase64: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("unknown secret format");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, await aesKey(keyBase64), fromBase64(data));
  return new TextDecoder().decode(plain);
}
