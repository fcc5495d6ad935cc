/**
 * Which network addresses an outbound request may reach. The rule is "public unicast only,
 * unless the administrator allow-listed it": everything that is not globally reachable
 * (IANA special-purpose registries) is refused, because a request made on a user's behalf from
 * inside the household network must not become a way to read that network (SSRF), the cloud
 * metadata service at 169.254.169.254, or the Larder process itself on loopback.
 *
 * The tables are written out here rather than taken from ipaddr.js's `range()` so that the
 * policy is reviewable in one place and cannot change silently with a dependency upgrade;
 * ipaddr.js is used only to parse and to match CIDRs.
 */
import { domainToASCII } from "node:url";
import ipaddr from "ipaddr.js";

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr<T> = [T, number];

function v4(cidr: string): Cidr<ipaddr.IPv4> {
  return ipaddr.IPv4.parseCIDR(cidr);
}
function v6(cidr: string): Cidr<ipaddr.IPv6> {
  return ipaddr.IPv6.parseCIDR(cidr);
}

/** IPv4 ranges that are not globally reachable, most specific reason first. */
const BLOCKED_V4: ReadonlyArray<[string, Cidr<ipaddr.IPv4>]> = [
  ["unspecified", v4("0.0.0.0/8")],
  ["private", v4("10.0.0.0/8")],
  ["carrier-grade NAT", v4("100.64.0.0/10")],
  ["loopback", v4("127.0.0.0/8")],
  ["link-local", v4("169.254.0.0/16")],
  ["private", v4("172.16.0.0/12")],
  ["IETF protocol assignments", v4("192.0.0.0/24")],
  ["documentation", v4("192.0.2.0/24")],
  ["6to4 relay anycast", v4("192.88.99.0/24")],
  ["private", v4("192.168.0.0/16")],
  ["benchmarking", v4("198.18.0.0/15")],
  ["documentation", v4("198.51.100.0/24")],
  ["documentation", v4("203.0.113.0/24")],
  ["multicast", v4("224.0.0.0/4")],
  ["broadcast", v4("255.255.255.255/32")],
  ["reserved", v4("240.0.0.0/4")],
];

/** Everything public in IPv6 lives in 2000::/3; the rest is refused with one of these labels. */
const GLOBAL_UNICAST_V6 = v6("2000::/3");
const NAMED_NON_GLOBAL_V6: ReadonlyArray<[string, Cidr<ipaddr.IPv6>]> = [
  ["unspecified", v6("::/128")],
  ["loopback", v6("::1/128")],
  ["IPv4-translated", v6("::ffff:0:0:0/96")],
  ["IPv4-compatible (deprecated)", v6("::/96")],
  ["NAT64 local-use", v6("64:ff9b:1::/48")],
  ["discard-only", v6("100::/64")],
  ["segment routing", v6("5f00::/16")],
  ["unique-local", v6("fc00::/7")],
  ["link-local", v6("fe80::/10")],
  ["site-local (deprecated)", v6("fec0::/10")],
  ["multicast", v6("ff00::/8")],
];
/** Non-global ranges inside 2000::/3. */
const BLOCKED_GLOBAL_V6: ReadonlyArray<[string, Cidr<ipaddr.IPv6>]> = [
  // Teredo tunnels to an arbitrary IPv4 client behind NAT; refused whole rather than decoded,
  // since nothing a recipe manager fetches legitimately lives there.
  ["Teredo", v6("2001::/32")],
  ["IETF protocol assignments", v6("2001::/23")],
  ["documentation", v6("2001:db8::/32")],
  ["documentation", v6("3fff::/20")],
  ["6bone (returned)", v6("3ffe::/16")],
];
const MAPPED_V6 = v6("::ffff:0:0/96");
const NAT64_WKP = v6("64:ff9b::/96");
const SIX_TO_FOUR = v6("2002::/16");

function embeddedV4(parts: number[], hi: number): ipaddr.IPv4 {
  const a = parts[hi];
  const b = parts[hi + 1];
  return new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
}

/**
 * Why `ip` must not be contacted, or null when it is public unicast. Addresses that carry an
 * IPv4 address inside IPv6 (mapped, NAT64, 6to4) are judged by the IPv4 address they lead to,
 * since that is where the packets end up.
 */
export function blockedRange(ip: IpAddress): string | null {
  if (ip.kind() === "ipv4") {
    const addr = ip as ipaddr.IPv4;
    for (const [label, cidr] of BLOCKED_V4) if (addr.match(cidr)) return label;
    return null;
  }
  const addr = ip as ipaddr.IPv6;
  const inner = (prefix: string, hi: number): string | null => {
    const r = blockedRange(embeddedV4(addr.parts, hi));
    return r === null ? null : `${prefix} ${r}`;
  };
  if (addr.match(MAPPED_V6)) return inner("IPv4-mapped", 6);
  if (addr.match(NAT64_WKP)) return inner("NAT64", 6);
  if (addr.match(SIX_TO_FOUR)) return inner("6to4", 1);
  if (!addr.match(GLOBAL_UNICAST_V6)) {
    for (const [label, cidr] of NAMED_NON_GLOBAL_V6) if (addr.match(cidr)) return label;
    return "reserved";
  }
  for (const [label, cidr] of BLOCKED_GLOBAL_V6) if (addr.match(cidr)) return label;
  return null;
}

/** Parse a resolver result or allow-list entry; IPv4-mapped IPv6 is unwrapped so "127.0.0.1" matches "::ffff:127.0.0.1". */
export function parseAddress(text: string): IpAddress | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return null;
  return ipaddr.process(bare);
}

/**
 * The IP a URL host denotes, if it is a literal. Expects WHATWG-normalised hosts (URL has already
 * turned 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 into dotted quads), so only canonical
 * dotted quads and bracketed IPv6 count; anything else is a name and goes through resolution,
 * whose results are vetted as well.
 */
export function hostLiteral(hostname: string): IpAddress | null {
  if (hostname.startsWith("[")) return parseAddress(hostname);
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? ipaddr.IPv4.parse(hostname) : null;
}

/** Lower-case, without IPv6 brackets or the trailing root dot, for allow-list comparison. */
export function normaliseHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}

/**
 * LARDER_FETCH_ALLOW, parsed. Entries are host names (exact; `*.example.lan` for any
 * subdomain), IP addresses, or CIDR ranges. An allowed host name admits whatever it resolves
 * to; an allowed address or range admits itself whichever name led there.
 */
export class AllowList {
  private readonly hosts = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly ranges: Array<Cidr<IpAddress>> = [];

  constructor(entries: readonly string[] = []) {
    for (const raw of entries) {
      const entry = raw.trim();
      if (!entry) continue;
      if (entry.includes("/")) {
        this.ranges.push(parseCidrEntry(entry));
        continue;
      }
      const ip = parseAddress(entry);
      if (ip) {
        this.ranges.push([ip, ip.kind() === "ipv4" ? 32 : 128]);
        continue;
      }
      // URL hosts arrive punycoded, so entries typed in Unicode must be too.
      const host = normaliseHost(entry);
      const wildcard = host.startsWith("*.");
      const ascii = domainToASCII(wildcard ? host.slice(2) : host);
      if (!ascii || !/^[a-z0-9_.-]+$/.test(ascii))
        throw new Error(`LARDER_FETCH_ALLOW: cannot understand entry "${raw}"`);
      if (wildcard) this.suffixes.push(`.${ascii}`);
      else this.hosts.add(ascii);
    }
  }

  get isEmpty(): boolean {
    return this.hosts.size === 0 && this.suffixes.length === 0 && this.ranges.length === 0;
  }

  allowsHost(hostname: string): boolean {
    const h = normaliseHost(hostname);
    return this.hosts.has(h) || this.suffixes.some((s) => h.endsWith(s));
  }

  allowsAddress(ip: IpAddress): boolean {
    return this.ranges.some(([base, bits]) => base.kind() === ip.kind() && ip.match(base, bits));
  }
}

function parseCidrEntry(entry: string): Cidr<IpAddress> {
  let parsed: Cidr<IpAddress>;
  try {
    parsed = ipaddr.parseCIDR(entry);
  } catch {
    throw new Error(`LARDER_FETCH_ALLOW: invalid CIDR range "${entry}"`);
  }
  const [base, bits] = parsed;
  // Keep mapped ranges comparable with the unwrapped addresses parseAddress produces.
  if (base.kind() === "ipv6" && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(base as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return parsed;
}

export interface TargetVerdict {
  allowed: boolean;
  /** Log-only explanation when refused. */
  reason?: string;
}

/**
 * Judge one hop: the URL host and EVERY address it resolved to. One bad address refuses the lot,
 * rather than filtering it out, so a name that mixes public and private records (a common
 * rebinding set-up) is treated as hostile instead of being half-trusted.
 */
export function judgeTarget(
  hostname: string,
  addresses: readonly IpAddress[],
  allow: AllowList,
): TargetVerdict {
  if (allow.allowsHost(hostname)) return { allowed: true };
  if (addresses.length === 0) return { allowed: false, reason: `${hostname} resolved to no address` };
  for (const ip of addresses) {
    if (allow.allowsAddress(ip)) continue;
    const range = blockedRange(ip);
    if (range) return { allowed: false, reason: `${hostname} -> ${ip.toString()} is ${range}` };
  }
  return { allowed: true };
}
