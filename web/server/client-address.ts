/**
 * The client's address for throttling (decision 0018). The socket's peer is the client unless it is
 * one of the configured trusted proxies (LARDER_TRUSTED_PROXIES); then X-Forwarded-For is read from
 * the right, skipping trusted hops, and the first address not trusted is the client. A header from
 * anyone else is ignored: a client choosing its own address would choose a new one per guess.
 */
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

const cache = new Map<string, BlockList>();

function trustedList(entries: readonly string[]): BlockList {
  const key = entries.join(",");
  let list = cache.get(key);
  if (list) return list;
  list = new BlockList();
  for (const raw of entries) {
    const [addr, bits] = raw.split("/");
    const family = isIP(addr) === 6 ? "ipv6" : "ipv4";
    if (!isIP(addr)) continue;
    if (bits === undefined) list.addAddress(addr, family);
    else list.addSubnet(addr, Number(bits), family);
  }
  cache.set(key, list);
  return list;
}

function normalise(address: string): string {
  const a = address.trim().replace(/^\[|\]$/g, "");
  // An IPv4 client on a dual-stack socket is reported as ::ffff:a.b.c.d.
  return a.startsWith("::ffff:") && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
}

export function clientAddress(req: IncomingMessage, trustedProxies: readonly string[]): string {
  const header = req.headers["x-forwarded-for"];
  return clientAddressOf(
    req.socket.remoteAddress,
    Array.isArray(header) ? header.join(",") : (header ?? null),
    trustedProxies,
  );
}

/**
 * clientAddress from the socket's peer and the X-Forwarded-For header (the UI's pages have no req).
 * The peer is undefined once the client has hung up (React Router passes `socket.remoteAddress` as it is,
 * typed as a string): such a request is counted under no address instead of failing the page with a 500.
 */
export function clientAddressOf(
  remote: string | undefined,
  forwardedFor: string | null,
  trustedProxies: readonly string[],
): string {
  const peer = normalise(remote ?? "");
  if (trustedProxies.length === 0) return peer;
  const list = trustedList(trustedProxies);
  if (!isTrusted(list, peer)) return peer;
  const hops = (forwardedFor ?? "").split(",").map(normalise).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) return peer;
    if (!isTrusted(list, hops[i])) return hops[i];
  }
  return hops[0] ?? peer;
}
