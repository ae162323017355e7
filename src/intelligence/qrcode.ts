import { decode as decodePng } from "fast-png";
import { decode as decodeJpeg } from "jpeg-js";
import { encode as encodeQr } from "uqr";
import { pauseForOtherRequests } from "./compute-gate";
import { encodeRgbPng, scanlineStride } from "./png";
import { toBase64 } from "../platform/crypto";
import { badRequest } from "../platform/errors";
import type { ErrorCorrection, QrFormat } from "./vocabulary";

export interface QrOptions {
  data: string;
  size: number;
  foreground: Rgb;
  background: Rgb;
  errorCorrection: ErrorCorrection;
  logo?: Uint8Array;
  /** PNG (the default) or SVG. */
  format?: QrFormat;
}

export interface QrImage {
  /** The image file: a PNG, or an SVG document's UTF-8 bytes. */
  file: Uint8Array;
  mimeType: "image/png" | "image/svg+xml";
  width: number;
  height: number;
  errorCorrection: ErrorCorrection;
  version: number;
}

export type Rgb = [number, number, number];

/** `#RGB` or `#RRGGBB`. */
export function parseHexColor(value: string): Rgb | undefined {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value);
  if (!match) return undefined;
  const hex = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join("") : match[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

/** WCAG contrast ratio of two colours: 1 (same) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const luminance = (rgb: Rgb) => {
    const [r, g, bl] = rgb.map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as Rgb;
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The quiet zone the QR specification asks for, in modules. */
const QUIET_ZONE = 4;
/** Below this many pixels per module, phone cameras stop reading the code reliably. */
const MIN_PIXELS_PER_MODULE = 2;
/** The logo covers at most this share of the code's side: about 7% of its area, well within H's 30% recovery. */
const LOGO_SIDE_SHARE = 0.26;
/** A logo is drawn at most about 530 px a side (26% of a 2048-pixel code): a larger one adds decoding work and no detail. */
export const MAX_LOGO_SIDE = 512;

interface Rgba {
  width: number;
  height: number;
  /** 4 bytes a pixel. */
  pixels: Uint8Array;
}

const uint16 = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const uint32 = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;

/** JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic), which carry the size. */
const JPEG_FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** The size an image's header declares, read before any pixel is decoded (or undefined if none). */
export function declaredImageSize(bytes: Uint8Array, type: "png" | "jpeg"): { width: number; height: number } | undefined {
  if (type === "png") {
    const ihdr = bytes.length >= 24 && String.fromCharCode(...bytes.subarray(12, 16)) === "IHDR";
    return ihdr ? { width: uint32(bytes, 16), height: uint32(bytes, 20) } : undefined;
  }
  for (let at = 2; at + 9 < bytes.length;) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (JPEG_FRAME_MARKERS.has(marker)) return { height: uint16(bytes, at + 5), width: uint16(bytes, at + 7) };
    at += 2 + uint16(bytes, at + 2);
  }
  return undefined;
}

function decodeLogo(bytes: Uint8Array): Rgba {
  const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!isPng && !isJpeg) throw badRequest("logoBase64: the logo must be a PNG or JPEG image");
  // Refused by what the header declares: a few bytes can declare gigabytes of pixels.
  const declared = declaredImageSize(bytes, isPng ? "png" : "jpeg");
  if (!declared || declared.width === 0 || declared.height === 0) throw badRequest("logoBase64: the image header gives no size");
  if (declared.width > MAX_LOGO_SIDE || declared.height > MAX_LOGO_SIDE) {
    throw badRequest(`logoBase64: the logo is ${declared.width}×${declared.height}; at most ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} pixels`);
  }
  try {
    if (isJpeg) {
      const image = decodeJpeg(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 1.1, maxMemoryUsageInMB: 16 });
      return { width: image.width, height: image.height, pixels: image.data };
    }
    const image = decodePng(bytes);
    return { width: image.width, height: image.height, pixels: toRgba(image.data, image.channels, image.depth, image.palette) };
  } catch {
    throw badRequest("logoBase64: the logo could not be decoded");
  }
}

function toRgba(data: ArrayLike<number>, channels: number, depth: number, palette?: number[][]): Uint8Array {
  const count = palette ? data.length : data.length / channels;
  const out = new Uint8Array(count * 4);
  const scale = depth === 16 ? 1 / 257 : depth < 8 ? 255 / (2 ** depth - 1) : 1;
  // Byte by byte, no array per pixel: a 512-pixel logo is 262,144 pixels, and allocating for each held the isolate.
  for (let i = 0, to = 0; i < count; i++, to += 4) {
    if (palette) {
      const entry = palette[data[i]!];
      out[to] = entry?.[0] ?? 0;
      out[to + 1] = entry?.[1] ?? 0;
      out[to + 2] = entry?.[2] ?? 0;
      out[to + 3] = entry?.[3] ?? 255;
      continue;
    }
    const at = i * channels;
    if (channels >= 3) {
      out[to] = Math.round(data[at]! * scale);
      out[to + 1] = Math.round(data[at + 1]! * scale);
      out[to + 2] = Math.round(data[at + 2]! * scale);
      out[to + 3] = channels === 4 ? Math.round(data[at + 3]! * scale) : 255;
    } else {
      out[to] = out[to + 1] = out[to + 2] = Math.round(data[at]! * scale);
      out[to + 3] = channels === 2 ? Math.round(data[at + 1]! * scale) : 255;
    }
  }
  return out;
}

/**
 * The QR code as an RGB PNG of exactly `size` pixels a side, with a 4-module quiet zone. A logo
 * is scaled into the centre over a background-coloured pad and blended by its alpha; the error
 * correction is then H whatever was asked, so the covered modules are recovered.
 */
export async function renderQrCode(options: QrOptions): Promise<QrImage> {
  // Half of a UTF-16 pair has no UTF-8 form: its code would read back as U+FFFD.
  if (/\p{Cs}/u.test(options.data)) throw badRequest("data: holds a lone surrogate (half of a UTF-16 pair), which no QR code can carry");
  const errorCorrection = options.logo ? "H" : options.errorCorrection;
  let qr: ReturnType<typeof encodeQr>;
  try {
    qr = encodeQr(options.data, { ecc: errorCorrection, border: QUIET_ZONE });
  } catch {
    throw badRequest(`data: too long for a QR code at error correction ${errorCorrection}`);
  }
  await pauseForOtherRequests();
  const modules = qr.size;
  if (options.size < modules * MIN_PIXELS_PER_MODULE) {
    throw badRequest(
      `size: this data needs a QR code of ${modules} modules (with the quiet zone), at least ${modules * MIN_PIXELS_PER_MODULE} pixels`,
    );
  }
  const { size, foreground, background } = options;
  const stride = scanlineStride(size);
  const image = new Uint8Array(stride * size);
  const moduleAt = (pixel: number) => Math.min(modules - 1, Math.floor((pixel * modules) / size));
  for (let y = 0; y < size; y++) {
    const start = y * stride;
    // Rows of pixels within one row of modules are alike: draw the first, copy it for the rest.
    if (y > 0 && moduleAt(y) === moduleAt(y - 1)) {
      image.copyWithin(start, start - stride, start);
      continue;
    }
    const row = qr.data[moduleAt(y)]!;
    // Byte by byte: a 2048-pixel row is 6,144 bytes, and a typed-array set per pixel cost ten times more.
    for (let x = 0, at = start + 1; x < size; x++, at += 3) {
      const colour = row[moduleAt(x)] ? foreground : background;
      image[at] = colour[0];
      image[at + 1] = colour[1];
      image[at + 2] = colour[2];
    }
  }
  let box: LogoBox | undefined;
  if (options.logo) {
    await pauseForOtherRequests();
    const logo = decodeLogo(options.logo);
    await pauseForOtherRequests();
    box = drawLogo(image, size, modules, logo, background);
  }
  await pauseForOtherRequests();
  const read = await readBack(image, size, modules, foreground, background);
  if (read !== options.data) throw badRequest(unreadable(box !== undefined));
  const file = options.format === "svg" ? await svgOf(qr.data, image, size, options, box) : await encodeRgbPng(size, size, image);
  const mimeType = options.format === "svg" ? "image/svg+xml" : "image/png";
  return { file, mimeType, width: size, height: size, errorCorrection, version: qr.version };
}

/** Why a drawn code did not read back as its data: the logo covered too much, else the encoder and decoder disagree. */
const unreadable = (withLogo: boolean) =>
  withLogo
    ? "logoBase64: with this logo the code does not read back as the data, so none is returned; use a simpler logo or a larger size"
    : "data: the code drawn for this text does not read back as it, so none is returned";

/** Pixels a module in the image the decoder reads: a version-40 code (185 modules) is 370 pixels a side, read in about 100 ms. */
const CHECK_PIXELS_PER_MODULE = 2;

const luminance = ([r, g, b]: Rgb) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/**
 * What a scanner reads from the drawn code: the pixel at the centre of each module, light or dark
 * by the midpoint of the two colours' luminance, redrawn at CHECK_PIXELS_PER_MODULE and decoded by
 * jsQR, a decoder independent of the encoder. Its work is bounded by the number of modules, not by
 * `size`: a 2048-pixel code costs what a 370-pixel one does. Undefined when nothing decodes.
 */
export async function readBack(scanlines: Uint8Array, size: number, modules: number, foreground: Rgb, background: Rgb): Promise<string | undefined> {
  const { default: jsQR } = await import("jsqr");
  const stride = scanlineStride(size);
  const threshold = (luminance(foreground) + luminance(background)) / 2;
  const side = modules * CHECK_PIXELS_PER_MODULE;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let my = 0; my < modules; my++) {
    const y = Math.floor(((my + 0.5) * size) / modules);
    for (let mx = 0; mx < modules; mx++) {
      const at = y * stride + 1 + Math.floor(((mx + 0.5) * size) / modules) * 3;
      if (luminance([scanlines[at]!, scanlines[at + 1]!, scanlines[at + 2]!]) >= threshold) continue;
      for (let dy = 0; dy < CHECK_PIXELS_PER_MODULE; dy++) {
        const row = (my * CHECK_PIXELS_PER_MODULE + dy) * side + mx * CHECK_PIXELS_PER_MODULE;
        pixels.fill(0, row * 4, (row + CHECK_PIXELS_PER_MODULE) * 4);
        for (let dx = 0; dx < CHECK_PIXELS_PER_MODULE; dx++) pixels[(row + dx) * 4 + 3] = 255;
      }
    }
  }
  // A light code on a dark ground is read inverted, as a scanner that reads it does.
  const inversionAttempts = luminance(foreground) < luminance(background) ? "dontInvert" : "onlyInvert";
  return jsQR(pixels, side, side, { inversionAttempts })?.data;
}

const hexOf = (rgb: Rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, "0")).join("")}`;

/**
 * The code as SVG: one unit a module (a run of dark modules in a row is one rectangle of the path),
 * drawn at `size` pixels. A logo is the drawn pixels of its box, as a PNG, over its background
 * pad: the SVG shows what was read back.
 */
async function svgOf(matrix: boolean[][], scanlines: Uint8Array, size: number, options: QrOptions, box: LogoBox | undefined): Promise<Uint8Array> {
  const modules = matrix.length;
  const runs: string[] = [];
  matrix.forEach((row, y) => {
    for (let x = 0; x < modules; x++) {
      if (!row[x]) continue;
      const start = x;
      while (row[x + 1]) x++;
      runs.push(`M${start} ${y}h${x - start + 1}v1H${start}z`);
    }
  });
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${modules} ${modules}" shape-rendering="crispEdges">`,
    `<rect width="${modules}" height="${modules}" fill="${hexOf(options.background)}"/>`,
    `<path fill="${hexOf(options.foreground)}" d="${runs.join("")}"/>`,
  ];
  if (box) {
    const unit = (pixels: number) => +((pixels * modules) / size).toFixed(3);
    const stride = scanlineStride(size);
    const logoStride = scanlineStride(box.width);
    const logo = new Uint8Array(logoStride * box.height);
    for (let y = 0; y < box.height; y++) {
      const from = (box.top + y) * stride + 1 + box.left * 3;
      logo.set(scanlines.subarray(from, from + box.width * 3), y * logoStride + 1);
    }
    const padded = { x: box.left - box.pad, y: box.top - box.pad, side: [box.width + 2 * box.pad, box.height + 2 * box.pad] };
    parts.push(
      `<rect x="${unit(padded.x)}" y="${unit(padded.y)}" width="${unit(padded.side[0]!)}" height="${unit(padded.side[1]!)}" fill="${hexOf(options.background)}"/>`,
      `<image x="${unit(box.left)}" y="${unit(box.top)}" width="${unit(box.width)}" height="${unit(box.height)}" preserveAspectRatio="none" href="data:image/png;base64,${toBase64(await encodeRgbPng(box.width, box.height, logo))}"/>`,
    );
  }
  parts.push("</svg>\n");
  return new TextEncoder().encode(parts.join(""));
}

/** Where a logo was drawn, in pixels: its box, and the background pad around it. */
interface LogoBox {
  left: number;
  top: number;
  width: number;
  height: number;
  pad: number;
}

/** Draws into PNG scanlines (see png.ts), so pixel (x, y) starts at y × stride + 1 + 3x. */
function drawLogo(pixels: Uint8Array, size: number, modules: number, logo: Rgba, background: Rgb): LogoBox {
  const stride = scanlineStride(size);
  const codeSide = (size * (modules - 2 * QUIET_ZONE)) / modules;
  const box = Math.floor(codeSide * LOGO_SIDE_SHARE);
  const fit = Math.min(box / logo.width, box / logo.height);
  const width = Math.max(1, Math.round(logo.width * fit));
  const height = Math.max(1, Math.round(logo.height * fit));
  const pad = Math.ceil(size / modules);
  const left = Math.floor((size - width) / 2);
  const top = Math.floor((size - height) / 2);
  for (let y = top - pad; y < top + height + pad; y++) {
    for (let x = left - pad, at = y * stride + 1 + x * 3; x < left + width + pad; x++, at += 3) {
      pixels[at] = background[0];
      pixels[at + 1] = background[1];
      pixels[at + 2] = background[2];
    }
  }
  for (let y = 0; y < height; y++) {
    const sy = Math.min(logo.height - 1, Math.floor(y / fit));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(logo.width - 1, Math.floor(x / fit));
      const from = (sy * logo.width + sx) * 4;
      const alpha = logo.pixels[from + 3]! / 255;
      const to = (top + y) * stride + 1 + (left + x) * 3;
      for (let c = 0; c < 3; c++) pixels[to + c] = Math.round(logo.pixels[from + c]! * alpha + background[c]! * (1 - alpha));
    }
  }
  return { left, top, width, height, pad };
}
