import { decode as decodePng, encode as encodePng } from "fast-png";
import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import { readBack } from "../../src/intelligence/qrcode";
import { callAi } from "../helpers/intelligence";

type Qr = {
  qrImageBase64: string;
  mimeType: string;
  width: number;
  height: number;
  errorCorrection: string;
  encodedData: string;
  version: number;
  decoded: boolean;
};

const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

/** Decodes the PNG with jsQR, a decoder independent of the encoder. */
function scan(base64: string) {
  const png = decodePng(bytesOf(base64));
  const rgba = new Uint8ClampedArray(png.width * png.height * 4);
  for (let i = 0; i < png.width * png.height; i++) {
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = png.data[i * png.channels + c]!;
    rgba[i * 4 + 3] = 255;
  }
  return { png, text: jsQR(rgba, png.width, png.height)?.data };
}

/** Decodes an SVG answer from its path alone (one `M x yhWv1Hxz` a run of dark modules), redrawn at 2 pixels a module. */
function scanSvg(svg: string) {
  const modules = Number(/viewBox="0 0 (\d+)/.exec(svg)![1]);
  const side = modules * 2;
  const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y, width] of /<path [^>]*d="([^"]*)"/.exec(svg)![1]!.matchAll(/M(\d+) (\d+)h(\d+)v1H\d+z/g)) {
    for (let dy = 0; dy < 2; dy++) {
      for (let px = Number(x) * 2; px < (Number(x) + Number(width)) * 2; px++)
        rgba.fill(0, ((Number(y) * 2 + dy) * side + px) * 4, ((Number(y) * 2 + dy) * side + px) * 4 + 3);
    }
  }
  return jsQR(rgba, side, side)?.data;
}

function logoPng(size: number) {
  const data = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) data.set([220, 30, 60, 255], i * 4);
  let binary = "";
  for (const b of encodePng({ width: size, height: size, data, channels: 4, depth: 8 })) binary += String.fromCharCode(b);
  return btoa(binary);
}

const base64Of = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** An image bomb: a PNG signature and IHDR declaring width × height, and nothing to decode. */
function pngDeclaring(width: number, height: number) {
  const bytes = new Uint8Array(128);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return base64Of(bytes);
}

/** A JPEG whose baseline frame header (after an APP0 segment) declares width × height. */
function jpegDeclaring(width: number, height: number) {
  const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof0 = [0xff, 0xc0, 0, 11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
  return base64Of(new Uint8Array([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]));
}

describe("I5 QR codes", () => {
  it("draws a PNG of the requested size that decodes to the data", async () => {
    const { status, body } = await callAi<Qr>("/qrcode/custom", { data: "https://example.com/order/12345", size: 256, errorCorrection: "m" });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      mimeType: "image/png",
      width: 256,
      height: 256,
      errorCorrection: "M",
      encodedData: "https://example.com/order/12345",
    });
    const { png, text } = scan(body.data.qrImageBase64);
    expect([png.width, png.height]).toEqual([256, 256]);
    expect(text).toBe("https://example.com/order/12345");
  });

  it.each(["L", "Q", "H"])("decodes at error correction %s with custom colours", async (level) => {
    const { body } = await callAi<Qr>("/qrcode/custom", {
      data: `level ${level} ✓ ünïcode`,
      errorCorrection: level,
      foregroundColor: "#1a237e",
      backgroundColor: "#fffde7",
    });
    expect(body.data.errorCorrection).toBe(level);
    const { png, text } = scan(body.data.qrImageBase64);
    expect(text).toBe(`level ${level} ✓ ünïcode`);
    expect([...png.data.subarray(0, 3)]).toEqual([0xff, 0xfd, 0xe7]);
  });

  it("centres a logo, forces H and still decodes", async () => {
    const { body } = await callAi<Qr>("/qrcode/custom", {
      data: "https://example.com/with-logo",
      size: 400,
      errorCorrection: "L",
      logoBase64: logoPng(64),
    });
    expect(body.data.errorCorrection).toBe("H");
    const { png, text } = scan(body.data.qrImageBase64);
    expect(text).toBe("https://example.com/with-logo");
    const centre = (200 * 400 + 200) * png.channels;
    expect([...png.data.subarray(centre, centre + 3)]).toEqual([220, 30, 60]);
  });

  // One colour in each layout a PNG can hold: the logo's pixels reach the code whatever the layout.
  it.each([
    ["grey", { channels: 1, depth: 8, data: new Uint8Array(32 * 32).fill(90) }, [90, 90, 90]],
    ["grey with alpha", { channels: 2, depth: 8, data: new Uint8Array(32 * 32 * 2).map((_, i) => (i % 2 ? 255 : 90)) }, [90, 90, 90]],
    ["16-bit RGB", { channels: 3, depth: 16, data: new Uint16Array(32 * 32 * 3).map((_, i) => [220, 30, 60][i % 3]! * 256 + 128) }, [220, 30, 60]],
    [
      "a palette",
      {
        channels: 1,
        depth: 8,
        data: new Uint8Array(32 * 32).fill(1),
        palette: [
          [0, 0, 0],
          [20, 120, 200],
        ],
      },
      [20, 120, 200],
    ],
  ] as const)("draws a logo in %s", async (_layout, image, colour) => {
    const logo = encodePng({
      width: 32,
      height: 32,
      ...image,
      data: image.data,
      palette: "palette" in image ? image.palette.map((c) => [...c]) : undefined,
    });
    const { body } = await callAi<Qr>("/qrcode/custom", { data: "https://example.com/layouts", size: 400, logoBase64: base64Of(logo) });
    const { png, text } = scan(body.data.qrImageBase64);
    expect(text).toBe("https://example.com/layouts");
    const centre = (200 * 400 + 200) * png.channels;
    expect([...png.data.subarray(centre, centre + 3)]).toEqual(colour);
  });

  it.each([
    [{ data: "x", size: 63 }, "bizContent.size: must be at least 64"],
    [{ data: "x", size: 2049 }, "bizContent.size: must be at most 2048"],
    [{ data: "x", foregroundColor: "black" }, "foregroundColor: must be a hex colour such as #000000 or #000"],
    [{ data: "x", backgroundColor: "#12345" }, "backgroundColor: must be a hex colour such as #FFFFFF or #FFF"],
    [{ data: "x", foregroundColor: "#EEEEEE" }, "foregroundColor: too close to backgroundColor for a scanner (contrast ratio below 3:1)"],
    [{ data: "x", errorCorrection: "X" }, "bizContent.errorCorrection: must be one of L, M, Q, H"],
    [{ data: "x", format: "gif" }, "bizContent.format: must be png or svg"],
    [{ data: "x".repeat(3000), errorCorrection: "H" }, "data: too long for a QR code at error correction H"],
    [{ data: "x".repeat(1000), size: 64 }, "size: this data needs a QR code of"],
    [{ data: "x", logoBase64: "not base64!" }, "logoBase64: is not valid base64"],
    [{ data: "x", logoBase64: btoa("GIF89a fake") }, "logoBase64: the logo must be a PNG or JPEG image"],
    // Image bombs are refused by their header, before a pixel is allocated.
    [{ data: "x", logoBase64: pngDeclaring(16384, 16384) }, "logoBase64: the logo is 16384×16384; at most 512×512 pixels"],
    [{ data: "x", logoBase64: pngDeclaring(65535, 65535) }, "logoBase64: the logo is 65535×65535; at most 512×512 pixels"],
    [{ data: "x", logoBase64: pngDeclaring(4096, 1) }, "logoBase64: the logo is 4096×1; at most 512×512 pixels"],
    [{ data: "x", logoBase64: pngDeclaring(513, 512) }, "logoBase64: the logo is 513×512; at most 512×512 pixels"],
    [{ data: "x", logoBase64: jpegDeclaring(20000, 20000) }, "logoBase64: the logo is 20000×20000; at most 512×512 pixels"],
    [{ data: "x", logoBase64: base64Of(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])) }, "logoBase64: the image header gives no size"],
    [{ data: "x", logoBase64: pngDeclaring(64, 64) }, "logoBase64: the logo could not be decoded"],
  ])("refuses %j with 400", async (params, message) => {
    const { status, body } = await callAi("/qrcode/custom", params);
    expect(status).toBe(400);
    expect(body.msg.startsWith(message), body.msg).toBe(true);
  });

  it("says every code it returns was decoded, with a logo or without", async () => {
    for (const params of [{ data: "plain" }, { data: "with a logo", logoBase64: logoPng(48) }]) {
      const { status, body } = await callAi<Qr>("/qrcode/custom", params);
      expect(status).toBe(200);
      expect(body.data.decoded).toBe(true);
      expect(scan(body.data.qrImageBase64).text).toBe(params.data);
    }
  });

  it("draws the same code as SVG with `format: svg`: its modules decode to the data, its colours and size as asked", async () => {
    const { status, body } = await callAi<Qr>("/qrcode/custom", {
      data: "https://example.com/svg",
      size: 320,
      format: "SVG",
      foregroundColor: "#1a237e",
      backgroundColor: "#fffde7",
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ mimeType: "image/svg+xml", width: 320, height: 320, decoded: true });
    const svg = new TextDecoder().decode(bytesOf(body.data.qrImageBase64));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="320" height="320" viewBox="0 0 (\d+) \1"/);
    expect(svg).toContain('fill="#fffde7"');
    expect(svg).toContain('<path fill="#1a237e"');
    expect(scanSvg(svg)).toBe("https://example.com/svg");
  });

  it("draws an SVG's logo as an image over its pad, in the centre", async () => {
    const { body } = await callAi<Qr>("/qrcode/custom", { data: "https://example.com/svg-logo", format: "svg", logoBase64: logoPng(64) });
    expect(body.data.errorCorrection).toBe("H");
    const svg = new TextDecoder().decode(bytesOf(body.data.qrImageBase64));
    const modules = Number(/viewBox="0 0 (\d+)/.exec(svg)![1]);
    const image =
      /<image x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" preserveAspectRatio="none" href="data:image\/png;base64,([^"]+)"\/>/.exec(
        svg,
      );
    expect(image).not.toBeNull();
    const [x, , width] = image!.slice(1, 4).map(Number) as [number, number, number];
    expect(Math.abs(x + width / 2 - modules / 2)).toBeLessThan(1);
    const logo = decodePng(bytesOf(image![5]!));
    expect([...logo.data.subarray(0, 3)]).toEqual([220, 30, 60]);
  });

  it("decodes the largest content at the largest size, and at H with a logo, within the isolate's second", async () => {
    for (const params of [
      { data: "7".repeat(7089), size: 2048, errorCorrection: "L" },
      { data: "7".repeat(3057), size: 2048, errorCorrection: "H", logoBase64: logoPng(512) },
    ]) {
      const started = Date.now();
      const { status, body } = await callAi<Qr>("/qrcode/custom", params);
      expect(status, body.msg).toBe(200);
      expect(body.data).toMatchObject({ version: 40, decoded: true });
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  it("refuses data with a lone surrogate with a 400 that says so, not a code that reads back otherwise", async () => {
    // A lone surrogate has no UTF-8 form: a code would read as U+FFFD, not as what was asked for.
    const { status, body } = await callAi<Qr>("/qrcode/custom", { data: "order \ud800 42" });
    expect(status).toBe(400);
    expect(body.msg).toBe("data: holds a lone surrogate (half of a UTF-16 pair), which no QR code can carry");
    expect(body.data).toBeNull();
  });

  it("reads nothing back from a code whose centre is covered past what its error correction recovers", async () => {
    const { body } = await callAi<Qr>("/qrcode/custom", { data: "https://example.com/covered", size: 290, errorCorrection: "H" });
    const png = decodePng(bytesOf(body.data.qrImageBase64));
    const stride = 290 * 3 + 1;
    const scanlines = new Uint8Array(stride * 290);
    for (let y = 0; y < 290; y++)
      for (let x = 0; x < 290 * 3; x++) scanlines[y * stride + 1 + x] = png.data[y * 290 * png.channels + ((x / 3) | 0) * png.channels + (x % 3)]!;
    const modules = body.data.version * 4 + 17 + 8;
    expect(await readBack(scanlines, 290, modules, [0, 0, 0], [255, 255, 255])).toBe("https://example.com/covered");
    // A logo half the code's side, where the service draws one of about a quarter.
    for (let y = 72; y < 218; y++) scanlines.fill(255, y * stride + 1 + 72 * 3, y * stride + 1 + 218 * 3);
    expect(await readBack(scanlines, 290, modules, [0, 0, 0], [255, 255, 255])).toBeUndefined();
  });

  it("counts against the hourly QR limit of 500", async () => {
    const { createTestKey } = await import("../helpers/credentials");
    const { headers } = await callAi("/qrcode/custom", { data: "x" }, await createTestKey({ scopes: ["ai:read"], plan: "free" }));
    expect(headers.get("RateLimit-Policy")).toContain('"hour";q=500;w=3600');
  });
});
