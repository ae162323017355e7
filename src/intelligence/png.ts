import { pauseForOtherRequests } from "./compute-gate";

/**
 * A PNG writer for 8-bit RGB images. The pixels are deflated by the runtime's own zlib
 * (`CompressionStream`), native code where deflating in JavaScript took most of a second. Native
 * is not off the isolate's thread: the stream deflates what it is given in one go, so it is given
 * DEFLATE_CHUNK bytes at a time, with a turn for other requests between them.
 */

/** Bytes per row of an image laid out as PNG scanlines: a filter byte (0, none), then RGB pixels. */
export const scanlineStride = (width: number) => width * 3 + 1;

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return crc;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typeBytes = new TextEncoder().encode(type);
  out.set(typeBytes, 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, (crc32(data, crc32(typeBytes)) ^ 0xffffffff) >>> 0);
  return out;
}

/** A 2048-pixel code is 12 MB of scanlines: deflated whole, it held the isolate for about 100 ms. */
const DEFLATE_CHUNK = 512 * 1024;

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new CompressionStream("deflate");
  const deflated = new Response(stream.readable).arrayBuffer();
  const writer = stream.writable.getWriter();
  for (let at = 0; at < bytes.length; at += DEFLATE_CHUNK) {
    await writer.write(bytes.subarray(at, at + DEFLATE_CHUNK));
    await pauseForOtherRequests();
  }
  await writer.close();
  return new Uint8Array(await deflated);
}

/** Encodes `scanlines` (height rows of `scanlineStride(width)` bytes) as a PNG file. */
export async function encodeRgbPng(width: number, height: number, scanlines: Uint8Array): Promise<Uint8Array> {
  const deflated = await deflate(scanlines);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const parts = [SIGNATURE, chunk("IHDR", header), chunk("IDAT", deflated), chunk("IEND", new Uint8Array())];
  const file = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((offset, part) => (file.set(part, offset), offset + part.length), 0);
  return file;
}
