import { constantTimeEqual, hmacSha256Hex, sha256Hex } from "../crypto";

export const SIGNATURE_WINDOW_MS = 300_000;
export const NONCE_TTL_SECONDS = 600;

/** One signed parameter as the string to sign holds it: a query parameter's value, or a top-level key of bizContent. */
export type SignedParam = [name: string, value: string];

/** A bizContent value in the string to sign: a string as it is, objects and arrays as compact JSON (JSON.stringify). */
export function signedValue(value: unknown): string {
  if (typeof value === "string") return value;
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** `name=value` pairs sorted by name (a query parameter sent twice by value too), joined with `&`, then `timestamp=…&nonce=…`. */
export function signingString(params: SignedParam[], timestamp: string, nonce: string): string {
  const byNameThenValue = ([a, x]: SignedParam, [b, y]: SignedParam) => (a !== b ? (a < b ? -1 : 1) : x < y ? -1 : x > y ? 1 : 0);
  const pairs = [...params].sort(byNameThenValue).map(([name, value]) => `${name}=${value}`);
  pairs.push(`timestamp=${timestamp}`, `nonce=${nonce}`);
  return pairs.join("&");
}

/**
 * Version 2 also binds the request's method and path, so a signature made for one request cannot
 * be replayed on another with the same parameters: `METHOD\npath\n` before the version 1 string.
 */
export function signingStringV2(method: string, path: string, params: SignedParam[], timestamp: string, nonce: string): string {
  return `${method.toUpperCase()}\n${path}\n${signingString(params, timestamp, nonce)}`;
}

/**
 * Accepts the documented HMAC-SHA256 keyed by the secret, and plain SHA-256 of the string followed
 * by the secret, which the interface's other client example computes.
 */
export async function signatureMatches(secret: string, canonical: string, presented: string): Promise<boolean> {
  const given = presented.toLowerCase();
  const [hmac, plain] = await Promise.all([hmacSha256Hex(secret, canonical), sha256Hex(canonical + secret)]);
  // Both comparisons always run, so the time taken does not say which method was close.
  const hmacOk = constantTimeEqual(hmac, given);
  const plainOk = constantTimeEqual(plain, given);
  return hmacOk || plainOk;
}
