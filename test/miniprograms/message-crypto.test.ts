import { describe, expect, it } from "vitest";
import {
  decryptMessage,
  encryptMessage,
  messageSignature,
  querySignature,
  signatureMatches,
  xmlFields,
  xmlOf,
} from "../../src/miniprograms/wechat/message-crypto";

const KEY = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
const OTHER_KEY = "ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zyxwvut";
const APP = "wx1234567890abcdef";

describe("WeChat's message encryption", () => {
  it.each([0, 1, 11, 12, 13, 27, 28, 44, 100, 1000])("opens what it seals, whatever the padding (%i bytes of message)", async (length) => {
    const message = "x".repeat(length);
    const sealed = await encryptMessage(message, APP, KEY);
    expect(atob(sealed).length % 32).toBe(0);
    expect(await decryptMessage(sealed, APP, KEY)).toBe(message);
  });

  it("keeps UTF-8 text whole", async () => {
    const message = xmlOf({ Reason: "名称与已有小程序重复", Note: "a ]]> inside" });
    expect(xmlFields(await decryptMessage(await encryptMessage(message, APP, KEY), APP, KEY))).toEqual({
      Reason: "名称与已有小程序重复",
      Note: "a ]]> inside",
    });
  });

  it("refuses a message for another app id, under another key, or cut short", async () => {
    const sealed = await encryptMessage("<xml/>", APP, KEY);
    await expect(decryptMessage(sealed, "wxanother", KEY)).rejects.toThrow(`the message is for app id ${APP}, not ours`);
    await expect(decryptMessage(sealed, APP, OTHER_KEY)).rejects.toThrow(/does not decrypt|padding|length|UTF-8|app id/);
    await expect(decryptMessage(sealed.slice(0, 20), APP, KEY)).rejects.toThrow();
    await expect(decryptMessage("not base64!", APP, KEY)).rejects.toThrow("the message is not base64");
  });

  it("signs the sorted token, timestamp, nonce (and ciphertext, for msg_signature) with SHA-1, and checks in constant time", async () => {
    const sha1 = async (text: string) =>
      [...new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");
    // sha1("123" + "abc" + "nonce" + "token"), the four sorted; the query's signature without the ciphertext.
    const expected = await sha1("123abcnoncetoken");
    expect(await messageSignature("token", "123", "nonce", "abc")).toBe(expected);
    expect(await querySignature("token", "123", "nonce")).toBe(await sha1("123noncetoken"));
    expect(signatureMatches(await messageSignature("token", "123", "nonce", "abc"), expected.toUpperCase())).toBe(true);
    expect(signatureMatches(await messageSignature("token", "124", "nonce", "abc"), expected)).toBe(false);
  });

  it("reads WeChat's flat XML, CDATA or not", () => {
    expect(xmlFields("<xml><AppId><![CDATA[wx1]]></AppId><CreateTime>1700000000</CreateTime><Note>a &amp; b</Note></xml>")).toEqual({
      AppId: "wx1",
      CreateTime: "1700000000",
      Note: "a & b",
    });
  });

  it("reads only elements that hold text, and stops at what is never closed", () => {
    expect(xmlFields('<?xml version="1.0"?><xml><A><B>b</B></A><C x="1">c</C><D/><E>e</F><G><![CDATA[g]]></G></xml>')).toEqual({ B: "b", G: "g" });
    expect(xmlFields("<xml><A>a</A><B><![CDATA[never closed</B><C>c</C></xml>")).toEqual({ A: "a" });
    expect(xmlFields("<xml><A>a</A><B")).toEqual({ A: "a" });
    expect(xmlFields("<a>" + "<![CDATA[x]]>".repeat(30))).toEqual({});
  });
});
