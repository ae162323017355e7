/**
 * Whether an address may be the target of a request the service makes for a caller. Addresses
 * are parsed into bytes, so every spelling of one address (IPv4-mapped, hex, compressed) is the
 * same address; IPv6 forms that carry an IPv4 address (mapped, translated, NAT64, 6to4) are
 * judged by the IPv4 address they carry, and the deprecated IPv4-compatible form is refused. Ranges from the IANA IPv4 and IPv6
 * special-purpose address registries that are not globally reachable are refused.
 */

type Block = [network: number[], prefixLength: number];

/** IPv4 special-purpose ranges that are not global (RFC 6890 and its updates). */
const IPV4_BLOCKED: Block[] = [
  [[0, 0, 0, 0], 8], // "this network"
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local, cloud metadata
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast (deprecated)
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, and the broadcast address
];

/** IPv6 ranges refused outright; everything outside 2000::/3 is refused as well. */
const IPV6_BLOCKED: Block[] = [
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64], // discard-only
  [[0x20, 0x01, 0x00, 0x00], 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x3f, 0xff], 20], // documentation
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48], // local-use NAT64
];

function inBlock(bytes: number[], [network, length]: Block): boolean {
  for (let bit = 0; bit < length; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((bytes[bit >> 3]! & mask) !== ((network[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

export function parseIPv6(text: string): number[] | undefined {
  let body = text.replace(/^\[|\]$/g, "").toLowerCase();
  if (body.includes("%")) return undefined; // zone ids name an interface of this machine
  let tail: number[] = [];
  const lastColon = body.lastIndexOf(":");
  if (body.slice(lastColon + 1).includes(".")) {
    const v4 = parseIPv4(body.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4;
    body = `${body.slice(0, lastColon + 1)}0:0`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const bytes = all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** The IPv4 address an IPv6 address carries, for the forms that route to IPv4. */
function embeddedIPv4(bytes: number[]): number[] | undefined {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const last4 = bytes.slice(12, 16);
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return last4; // ::ffff:0:0/96, mapped
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return last4; // ::ffff:0:0:0/96, translated
  if (inBlock(bytes, [[0x00, 0x64, 0xff, 0x9b], 96])) return last4; // NAT64 well-known prefix
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6); // 6to4
  return undefined;
}

/** True when the address is not a global unicast address the service may call. */
export function isNonPublicAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4) return IPV4_BLOCKED.some((block) => inBlock(v4, block));
  const v6 = parseIPv6(address);
  if (!v6) return true; // what cannot be read is not trusted
  // ::/96: the unspecified and loopback addresses, and the deprecated IPv4-compatible form.
  if (v6.slice(0, 12).every((b) => b === 0)) return true;
  const carried = embeddedIPv4(v6);
  if (carried) return IPV4_BLOCKED.some((block) => inBlock(carried, block));
  if ((v6[0]! & 0xe0) !== 0x20) return true; // outside 2000::/3: ULA, link-local, site-local, multicast, reserved
  return IPV6_BLOCKED.some((block) => inBlock(v6, block));
}

/**
 * The caller's address as Cloudflare's edge gives it (`CF-Connecting-IP`, which replaces any value
 * a client sends), or undefined without one: local development and tests, or a header that is not
 * an address (never used as a counter's key).
 */
export function clientAddress(header: string | undefined): string | undefined {
  if (header === undefined || header.length > 45) return undefined;
  return parseIPv4(header) || parseIPv6(header) ? header : undefined;
}

/** A CIDR range (`203.0.113.0/24`, `2001:db8::/32`; a bare address is its own range), or undefined when it is not one. */
export function parseCidr(text: string): Block | undefined {
  const [address, length, ...rest] = text.split("/");
  if (rest.length > 0 || address === undefined) return undefined;
  const bytes = parseIPv4(address) ?? (address.includes(":") ? parseIPv6(address) : undefined);
  if (!bytes) return undefined;
  const bits = bytes.length * 8;
  if (length !== undefined && !/^(0|[1-9]\d{0,2})$/.test(length)) return undefined;
  const prefix = length === undefined ? bits : Number(length);
  return prefix <= bits ? [bytes, prefix] : undefined;
}

/** Whether an address lies in one of the ranges; an IPv4 address sent in its IPv6-mapped form is matched as IPv4. */
export function addressInRanges(address: string, ranges: string[]): boolean {
  const v6 = parseIPv4(address) ? undefined : parseIPv6(address);
  const mapped = v6 && v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff ? v6.slice(12) : undefined;
  const bytes = parseIPv4(address) ?? mapped ?? v6;
  if (!bytes) return false;
  return ranges.some((range) => {
    const block = parseCidr(range);
    return block !== undefined && block[0].length === bytes.length && inBlock(bytes, block);
  });
}
