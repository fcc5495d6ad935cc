import { describe, expect, it } from "vitest";
import {
  AllowList,
  blockedRange,
  hostLiteral,
  judgeTarget,
  parseAddress,
  type IpAddress,
} from "./ip-policy.js";

function ip(text: string): IpAddress {
  const parsed = parseAddress(text);
  if (!parsed) throw new Error(`test bug: ${text} is not an address`);
  return parsed;
}

describe("blockedRange", () => {
  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.254", "carrier-grade NAT"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["169.254.169.254", "link-local"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.10", "documentation"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["192.168.1.20", "private"],
    ["198.18.0.1", "benchmarking"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.99", "documentation"],
    ["224.0.0.251", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "multicast"],
    ["::7f00:1", "IPv4-compatible (deprecated)"],
    ["::ffff:0:7f00:1", "IPv4-translated"],
    ["64:ff9b:1::a00:1", "NAT64 local-use"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["2001:2::1", "IETF protocol assignments"],
    ["3fff::1", "documentation"],
    ["4000::1", "reserved"],
  ])("%s is %s", (addr, label) => {
    expect(blockedRange(ip(addr))).toBe(label);
  });

  it("judges IPv4 embedded in IPv6 by the IPv4 address it leads to", () => {
    // parseAddress unwraps mapped addresses; blockedRange also copes with them unwrapped.
    expect(blockedRange(ip("::ffff:127.0.0.1"))).toBe("loopback");
    expect(blockedRange(ip("::ffff:7f00:1"))).toBe("loopback");
    expect(blockedRange(ip("::ffff:169.254.169.254"))).toBe("link-local");
    expect(blockedRange(ip("64:ff9b::10.0.0.1"))).toBe("NAT64 private");
    expect(blockedRange(ip("64:ff9b::169.254.169.254"))).toBe("NAT64 link-local");
    expect(blockedRange(ip("2002:c0a8:0101::1"))).toBe("6to4 private");
    expect(blockedRange(ip("2002:7f00:0001::1"))).toBe("6to4 loopback");
    // …and lets their public counterparts through (NAT64 is how IPv6-only hosts reach IPv4 sites).
    expect(blockedRange(ip("64:ff9b::93.184.215.14"))).toBeNull();
    expect(blockedRange(ip("2002:5db8:d70e::1"))).toBeNull();
  });

  it.each([
    "93.184.215.14",
    "1.1.1.1",
    "8.8.8.8",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "2606:4700::1111",
    "2a00:1450:4001::200e",
  ])("%s is public", (addr) => {
    expect(blockedRange(ip(addr))).toBeNull();
  });
});

describe("hostLiteral", () => {
  // The WHATWG URL parser does the normalisation; these pin that it does so for every form we rely on.
  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://0x7f.0.0.1/", "127.0.0.1"],
    ["http://127.0.0.1./", "127.0.0.1"],
    ["http://%31%32%37.0.0.1/", "127.0.0.1"],
    ["http://0/", "0.0.0.0"],
    ["http://[::ffff:127.0.0.1]/", "127.0.0.1"],
    ["http://[::ffff:7f00:1]/", "127.0.0.1"],
    ["http://[0:0:0:0:0:ffff:127.0.0.1]/", "127.0.0.1"],
    ["http://[::1]/", "::1"],
    ["http://0xa9fea9fe/", "169.254.169.254"],
  ])("%s is the literal %s", (url, expected) => {
    const literal = hostLiteral(new URL(url).hostname);
    expect(literal?.toString()).toBe(expected);
    expect(blockedRange(literal!)).not.toBeNull();
  });

  it("treats names as names", () => {
    expect(hostLiteral("example.com")).toBeNull();
    expect(hostLiteral("localhost")).toBeNull();
  });
});

describe("AllowList", () => {
  const list = new AllowList([
    "homeassistant.lan",
    "*.kitchen.lan",
    "192.168.1.10",
    "10.20.0.0/16",
    "fd00::/8",
    "Bücher.example",
  ]);

  it("matches host names exactly or by wildcard suffix, case- and trailing-dot-insensitively", () => {
    expect(list.allowsHost("homeassistant.lan")).toBe(true);
    expect(list.allowsHost("HomeAssistant.LAN.")).toBe(true);
    expect(list.allowsHost("evil-homeassistant.lan")).toBe(false);
    expect(list.allowsHost("oven.kitchen.lan")).toBe(true);
    expect(list.allowsHost("kitchen.lan")).toBe(false);
    expect(list.allowsHost("xn--bcher-kva.example")).toBe(true);
  });

  it("matches addresses and ranges, including IPv4-mapped forms", () => {
    expect(list.allowsAddress(ip("192.168.1.10"))).toBe(true);
    expect(list.allowsAddress(ip("::ffff:192.168.1.10"))).toBe(true);
    expect(list.allowsAddress(ip("192.168.1.11"))).toBe(false);
    expect(list.allowsAddress(ip("10.20.3.4"))).toBe(true);
    expect(list.allowsAddress(ip("10.21.0.1"))).toBe(false);
    expect(list.allowsAddress(ip("fd00::5"))).toBe(true);
    expect(new AllowList(["::ffff:127.0.0.0/104"]).allowsAddress(ip("127.0.0.1"))).toBe(true);
  });

  it("rejects entries it cannot understand instead of silently ignoring them", () => {
    expect(() => new AllowList(["10.0.0.0/99"])).toThrow(/CIDR/);
    expect(() => new AllowList(["http://x/"])).toThrow();
    expect(new AllowList([" ", ""]).isEmpty).toBe(true);
  });
});

describe("judgeTarget", () => {
  const none = new AllowList();

  it("refuses when any one resolved address is blocked", () => {
    const verdict = judgeTarget("mixed.test", [ip("93.184.215.14"), ip("10.0.0.1")], none);
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toContain("10.0.0.1");
  });

  it("refuses a name that resolved to nothing", () => {
    expect(judgeTarget("void.test", [], none).allowed).toBe(false);
  });

  it("allows public addresses, allow-listed addresses, and anything an allow-listed name resolves to", () => {
    expect(judgeTarget("a.test", [ip("93.184.215.14"), ip("2606:4700::1111")], none).allowed).toBe(true);
    expect(judgeTarget("a.test", [ip("127.0.0.1")], new AllowList(["127.0.0.1"])).allowed).toBe(true);
    expect(judgeTarget("a.test", [ip("::1")], new AllowList(["127.0.0.1"])).allowed).toBe(false);
    expect(judgeTarget("ha.lan", [ip("192.168.1.5"), ip("fd00::5")], new AllowList(["ha.lan"])).allowed).toBe(
      true,
    );
  });
});
