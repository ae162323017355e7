import { describe, expect, it } from "vitest";
import { isNonPublicAddress, parseIPv6 } from "../../src/platform/ip-ranges";

describe("API7 · addresses the service may call", () => {
  it.each([
    // IPv4 special-purpose ranges
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "127.0.0.1",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.170",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.0.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    // IPv6 special-purpose ranges
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fec0::1",
    "ff02::1",
    "100::1",
    "2001::1",
    "2001:2::1",
    "2001:db8::1",
    "3fff::1",
    "64:ff9b:1::1",
    "[::1]",
    // IPv6 spellings of private IPv4 addresses
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "0:0:0:0:0:ffff:a9fe:a9fe",
    "::ffff:0:a9fe:a9fe",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "2002:a9fe:a9fe::",
    "2002:0a00:0001::1",
    "::a9fe:a9fe",
    "::8.8.8.8",
    // what cannot be read is not trusted
    "fe80::1%eth0",
    "not-an-address",
    "1.2.3",
    "256.1.1.1",
    "1:2:3:4:5:6:7:8:9",
  ])("refuses %s", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows %s", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it("reads every spelling of one IPv6 address as the same bytes", () => {
    const spellings = ["::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "0:0:0:0:0:ffff:a9fe:a9fe", "[::FFFF:A9FE:A9FE]"];
    const bytes = spellings.map(parseIPv6);
    for (const b of bytes) expect(b).toEqual(bytes[0]);
    expect(bytes[0]!.slice(12)).toEqual([169, 254, 169, 254]);
  });
});
