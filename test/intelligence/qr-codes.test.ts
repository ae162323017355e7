import { decode as decodePng, encode as encodePng } from "fast-png";
import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import { callAi } from "../helpers/intelligence";

type Qr = { qrImageBase64: string; mimeType: string; width: number; height: number; errorCorrection: string; encodedData: string; version: number };

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

function logoPng(size: number) {
  const data = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) data.set([220, 30, 60, 255], i * 4);
  let binary = "";
  for (const b of encodePng({ width: size, height: size, data, channels: 4, depth: 8 })) binary += String.fromCharCode(b);
  return btoa(binary);
}

describe("I5 QR codes", () => {
  it("draws a PNG of the requested size that decodes to the data", async () => {
    const { status, body } = await callAi<Qr>("/qrcode/custom", { data: "https://example.com/order/12345", size: 256, errorCorrection: "m" });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ mimeType: "image/png", width: 256, height: 256, errorCorrection: "M", encodedData: "https://example.com/order/12345" });
    const { png, text } = scan(body.data.qrImageBase64);
    expect([png.width, png.height]).toEqual([256, 256]);
    expect(text).toBe("https://example.com/order/12345");
  });

  it.each(["L", "Q", "H"])("decodes at error correction %s with custom colours", async (level) => {
    const { body } = await callAi<Qr>("/qrcode/custom", { data: `level ${level} ✓ ünïcode`, errorCorrection: level, foregroundColor: "#1a237e", backgroundColor: "#fffde7" });
    expect(body.data.errorCorrection).toBe(level);
    const { png, text } = scan(body.data.qrImageBase64);
    expect(text).toBe(`level ${level} ✓ ünïcode`);
    expect([...png.data.subarray(0, 3)]).toEqual([0xff, 0xfd, 0xe7]);
  });

  it("centres a logo, forces H and still decodes", async () => {
    const { body } = await callAi<Qr>("/qrcode/custom", { data: "https://example.com/with-logo", size: 400, errorCorrection: "L", logoBase64: logoPng(64) });
    expect(body.data.errorCorrection).toBe("H");
    const { png, text } = scan(body.data.qrImageBase64);
    expect(text).toBe("https://example.com/with-logo");
    const centre = (200 * 400 + 200) * png.channels;
    expect([...png.data.subarray(centre, centre + 3)]).toEqual([220, 30, 60]);
  });

  it.each([
    [{ data: "x", size: 63 }, "bizContent.size: must be at least 64"],
    [{ data: "x", size: 2049 }, "bizContent.size: must be at most 2048"],
    [{ data: "x", foregroundColor: "black" }, "foregroundColor: must be a hex colour such as #000000 or #000"],
    [{ data: "x", backgroundColor: "#12345" }, "backgroundColor: must be a hex colour such as #FFFFFF or #FFF"],
    [{ data: "x", foregroundColor: "#EEEEEE" }, "foregroundColor: too close to backgroundColor for a scanner (contrast ratio below 3:1)"],
    [{ data: "x", errorCorrection: "X" }, "bizContent.errorCorrection: must be one of L, M, Q, H"],
    [{ data: "x".repeat(3000), errorCorrection: "H" }, "data: too long for a QR code at error correction H"],
    [{ data: "x".repeat(1000), size: 64 }, "size: this data needs a QR code of"],
    [{ data: "x", logoBase64: "not base64!" }, "logoBase64: is not valid base64"],
    [{ data: "x", logoBase64: btoa("GIF89a fake") }, "logoBase64: the logo must be a PNG or JPEG image"],
  ])("refuses %j with 400", async (params, message) => {
    const { status, body } = await callAi("/qrcode/custom", params);
    expect(status).toBe(400);
    expect(body.msg.startsWith(message)).toBe(true);
  });

  it("counts against the hourly QR limit of 500", async () => {
    const { createTestKey } = await import("../helpers/credentials");
    const { headers } = await callAi("/qrcode/custom", { data: "x" }, await createTestKey({ scopes: ["ai:read"], plan: "free" }));
    expect(headers.get("RateLimit-Policy")).toContain('"hour";q=500;w=3600');
  });
});
