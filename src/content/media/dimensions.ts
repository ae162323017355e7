/**
 * An image's width and height read from its header, never by decoding it: a few bytes of a PNG,
 * GIF or WebP, and at most one pass over a JPEG's marker segments (each skipped by its length).
 * A file whose header does not say its size is undefined.
 */
export interface Dimensions {
  width: number;
  height: number;
}

/** What an upload may declare: a browser decodes every pixel of an image it shows, so a decompression bomb is refused before it is stored. */
export const MAX_IMAGE_SIDE = 12_000;
export const MAX_IMAGE_PIXELS = 50_000_000;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

function png(b: Uint8Array): Dimensions | undefined {
  if (b.length < 24 || ascii(b, 12, 16) !== "IHDR") return undefined;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): Dimensions | undefined {
  return b.length < 10 ? undefined : { width: u16le(b, 6), height: u16le(b, 8) };
}

function webp(b: Uint8Array): Dimensions | undefined {
  if (b.length < 30) return undefined;
  const chunk = ascii(b, 12, 16);
  if (chunk === "VP8X") return { width: 1 + u24le(b, 24), height: 1 + u24le(b, 27) };
  if (chunk === "VP8 ") return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  return undefined;
}

/** The first start-of-frame segment's size; markers without a length (RSTn, TEM) are stepped over. */
function jpeg(b: Uint8Array): Dimensions | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: u16be(b, i + 7), height: u16be(b, i + 5) };
    if (marker === 0xd9 || marker === 0xda) return undefined;
    i += 2 + u16be(b, i + 2);
  }
  return undefined;
}

const READERS: Record<string, (b: Uint8Array) => Dimensions | undefined> = {
  "image/png": png,
  "image/gif": gif,
  "image/webp": webp,
  "image/jpeg": jpeg,
};

export function imageDimensions(bytes: Uint8Array, contentType: string): Dimensions | undefined {
  const size = READERS[contentType]?.(bytes);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}
