import { constantTimeEqual, fromBase64, toBase64, toHex } from "../../platform/crypto";

/**
 * WeChat's message encryption for the open platform's pushes: SHA-1 signatures over the sorted token,
 * timestamp and nonce (`signature`), and with the ciphertext (`msg_signature`), and AES-256-CBC with the EncodingAESKey, its first 16
 * bytes as the IV, over random(16) ‖ length(4, big-endian) ‖ message ‖ app id, padded PKCS#7 to
 * 32 bytes. WebCrypto pads to 16 on its own, so the blocks are handled here (see encrypt/decrypt).
 */

const BLOCK = 32;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export class MessageCryptoError extends Error {}

/** The 32-byte key of a 43-character EncodingAESKey. */
export function aesKeyOf(encodingAesKey: string): Uint8Array<ArrayBuffer> {
  const key = fromBase64(`${encodingAesKey}=`);
  if (encodingAesKey.length !== 43 || key.length !== 32) throw new MessageCryptoError("EncodingAESKey must be 43 characters of base64 (32 bytes)");
  return key;
}

const sortedSha1 = async (parts: string[]) => toHex(await crypto.subtle.digest("SHA-1", encoder.encode([...parts].sort().join(""))));

/** A push's msg_signature: over the token, timestamp, nonce and ciphertext. */
export const messageSignature = (token: string, timestamp: string, nonce: string, encrypted: string): Promise<string> =>
  sortedSha1([token, timestamp, nonce, encrypted]);

/** A push's signature: over the token, timestamp and nonce only, so it is checked before the body is read. */
export const querySignature = (token: string, timestamp: string, nonce: string): Promise<string> => sortedSha1([token, timestamp, nonce]);

/** Compares a signature we computed with the one given (hex, either case), in constant time. */
export const signatureMatches = (expected: string, given: string): boolean => constantTimeEqual(expected, given.toLowerCase());

const importKey = (key: Uint8Array<ArrayBuffer>) => crypto.subtle.importKey("raw", key, "AES-CBC", false, ["encrypt", "decrypt"]);

/** Encrypts a message as WeChat does (the sandbox's pushes, and the tests). */
export async function encryptMessage(message: string, appId: string, encodingAesKey: string): Promise<string> {
  const key = aesKeyOf(encodingAesKey);
  const body = encoder.encode(message);
  const app = encoder.encode(appId);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, body.length);
  const plain = concat([crypto.getRandomValues(new Uint8Array(16)), length, body, app]);
  const pad = BLOCK - (plain.length % BLOCK);
  const padded = concat([plain, new Uint8Array(pad).fill(pad)]);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: key.slice(0, 16) }, await importKey(key), padded));
  // WebCrypto appended a block of its own padding; CBC's earlier blocks do not depend on it.
  return toBase64(sealed.slice(0, padded.length));
}

/** Decrypts a push's `Encrypt` field and checks it names our app id; returns the inner XML. */
export async function decryptMessage(encrypted: string, expectedAppId: string, encodingAesKey: string): Promise<string> {
  const key = aesKeyOf(encodingAesKey);
  let sealed: Uint8Array<ArrayBuffer>;
  try {
    sealed = fromBase64(encrypted);
  } catch {
    throw new MessageCryptoError("the message is not base64");
  }
  if (sealed.length === 0 || sealed.length % BLOCK !== 0) throw new MessageCryptoError("the message is not whole AES blocks");
  const cryptoKey = await importKey(key);
  // WebCrypto insists on its own 16-byte padding: add one block that decrypts to exactly that
  // (E(0x10… XOR last ciphertext block)), so what it strips is ours and WeChat's padding is left.
  const last = sealed.slice(sealed.length - 16);
  const extra = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: last }, cryptoKey, new Uint8Array(16).fill(16))).slice(0, 16);
  let plain: Uint8Array;
  try {
    plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv: key.slice(0, 16) }, cryptoKey, concat([sealed, extra])));
  } catch {
    throw new MessageCryptoError("the message does not decrypt with this EncodingAESKey");
  }
  const pad = plain[plain.length - 1]!;
  if (pad < 1 || pad > BLOCK || plain.length < 20 + pad) throw new MessageCryptoError("the message's padding is wrong");
  const unpadded = plain.subarray(0, plain.length - pad);
  const length = new DataView(unpadded.buffer, unpadded.byteOffset + 16, 4).getUint32(0);
  if (20 + length > unpadded.length) throw new MessageCryptoError("the message's length field is wrong");
  try {
    const message = decoder.decode(unpadded.subarray(20, 20 + length));
    const appId = decoder.decode(unpadded.subarray(20 + length));
    if (appId !== expectedAppId) throw new MessageCryptoError(`the message is for app id ${appId}, not ours`);
    return message;
  } catch (error) {
    if (error instanceof MessageCryptoError) throw error;
    throw new MessageCryptoError("the message is not UTF-8");
  }
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * The fields of WeChat's flat XML (`<xml><Name><![CDATA[value]]></Name>…</xml>`), by name: each
 * element holding only text and CDATA sections; nested elements are not read. One pass, each
 * character looked at a bounded number of times, so no body can make it slow (it sees bodies
 * before their signature is checked); an unclosed CDATA section or tag ends the reading.
 */
export function xmlFields(xml: string): Record<string, string> {
  const fields: Record<string, string> = {};
  // The element whose value is being read, and the value so far; null between leaf elements.
  let open: string | null = null;
  let value: string[] = [];
  let at = 0;
  while (at < xml.length) {
    if (xml.startsWith("<![CDATA[", at)) {
      const end = xml.indexOf("]]>", at + 9);
      if (end === -1) break;
      value.push(xml.slice(at + 9, end));
      at = end + 3;
    } else if (xml[at] === "<") {
      const end = xml.indexOf(">", at + 1);
      if (end === -1) break;
      const tag = xml.slice(at + 1, end);
      if (tag.startsWith("/")) {
        if (open !== null && tag.slice(1) === open) fields[open] = value.join("");
        open = null;
      } else {
        open = NAME.test(tag) ? tag : null;
        value = [];
      }
      at = end + 1;
    } else {
      const end = xml.indexOf("<", at);
      const stop = end === -1 ? xml.length : end;
      value.push(decodeEntities(xml.slice(at, stop)));
      at = stop;
    }
  }
  return fields;
}

const NAME = /^[A-Za-z_]\w*$/;

const decodeEntities = (text: string) =>
  text.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[name]!);

/** Flat XML as WeChat writes it, every value in CDATA. */
export function xmlOf(fields: Record<string, string | number>): string {
  const cdata = (value: string) => `<![CDATA[${value.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
  return `<xml>${Object.entries(fields)
    .map(([name, value]) => `<${name}>${typeof value === "number" ? value : cdata(value)}</${name}>`)
    .join("")}</xml>`;
}
