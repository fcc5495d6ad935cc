/**
 * One hop of a guarded fetch: URL checks, resolving and vetting the target, and sending the
 * request pinned to the vetted addresses. Kept apart from the redirect loop so the security
 * critical path is short enough to review in one sitting.
 */
import dns from "node:dns";
import type { IncomingMessage } from "node:http";
import type { LookupFunction } from "node:net";
import { BlockedTargetError, FetchFailedError, FetchTimeoutError, InvalidUrlError } from "./errors.js";
import { hostLiteral, judgeTarget, parseAddress, type AllowList, type IpAddress } from "./ip-policy.js";
import type { FetchScope } from "./scope.js";

/**
 * Node's own modules rather than ES module namespaces: building the namespace of node:http reads every
 * export, and one is a getter that loads undici, a tenth of a second of every server start although
 * most starts never fetch anything (decision 0139).
 */
const http = process.getBuiltinModule("node:http");
/** node:https (and TLS under it) when the first https fetch goes out: ~20 ms a start that most starts never use. */
const https = () => process.getBuiltinModule("node:https");

export interface ResolvedAddress {
  address: string;
  family?: number;
}
/** Name → addresses. Injectable so tests (and odd deployments) need not touch real DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => dns.promises.lookup(hostname, { all: true });

export function parseUrl(input: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new InvalidUrlError(String(input).slice(0, 200), "not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidUrlError(publicUrl(url), `scheme ${url.protocol} is not allowed`);
  }
  return url;
}

export function publicUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

export interface VettedTarget {
  /** Host for the socket: the name (so SNI and Host stay the original) or the bare IP literal. */
  connectHost: string;
  addresses: Array<{ address: string; family: number }>;
}

export async function vetTarget(
  url: URL,
  allow: AllowList,
  resolver: Resolver,
  scope: FetchScope,
): Promise<VettedTarget> {
  const literal = hostLiteral(url.hostname);
  const connectHost = url.hostname.replace(/^\[|\]$/g, "");
  let resolved: ResolvedAddress[];
  if (literal) {
    resolved = [{ address: connectHost }];
  } else {
    try {
      resolved = await scope.race(resolver(url.hostname));
    } catch (err) {
      throw scope.mapError(err);
    }
  }
  const parsed: IpAddress[] = [];
  const addresses: VettedTarget["addresses"] = [];
  for (const r of resolved) {
    const ip = parseAddress(r.address);
    if (!ip)
      throw new FetchFailedError(publicUrl(url), `resolver returned "${r.address}" for ${url.hostname}`);
    parsed.push(ip);
    addresses.push({ address: r.address, family: r.address.includes(":") ? 6 : 4 });
  }
  const verdict = judgeTarget(url.hostname, parsed, allow);
  if (!verdict.allowed) throw new BlockedTargetError(publicUrl(url), verdict.reason ?? "blocked");
  return { connectHost, addresses };
}

/**
 * A `lookup` for http(s).request that answers only with the addresses already vetted. Node calls
 * it with `all: true` when happy-eyeballs (autoSelectFamily) is on, and without otherwise.
 */
export function pinnedLookup(target: VettedTarget): LookupFunction {
  return (hostname, options, callback) => {
    const f = options.family;
    const wanted = f === 4 || f === "IPv4" ? 4 : f === 6 || f === "IPv6" ? 6 : 0;
    const list = target.addresses.filter((a) => wanted === 0 || a.family === wanted);
    process.nextTick(() => {
      if (hostname !== target.connectHost || list.length === 0) {
        const err: NodeJS.ErrnoException = new Error(`no vetted address for ${hostname}`);
        err.code = "ENOTFOUND";
        callback(err, "", 0);
      } else if (options.all) {
        callback(null, list);
      } else {
        callback(null, list[0].address, list[0].family);
      }
    });
  };
}

export interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Send one request to a vetted target and resolve with the response head. */
export function sendHop(
  hop: Hop,
  target: VettedTarget,
  opts: { connectTimeoutMs: number; ca?: string | Buffer | Array<string | Buffer> },
  scope: FetchScope,
): Promise<IncomingMessage> {
  const isHttps = hop.url.protocol === "https:";
  const { connectTimeoutMs } = opts;
  return new Promise((resolve, reject) => {
    const req = (isHttps ? https() : http).request({
      host: target.connectHost,
      port: hop.url.port || (isHttps ? 443 : 80),
      path: hop.url.pathname + hop.url.search,
      method: hop.method,
      headers: { ...hop.headers, host: hop.url.host },
      lookup: pinnedLookup(target),
      // A private agent per request: no pooled socket from an earlier (differently vetted) hop is
      // reused, and no environment-configured proxy (Node 24 NODE_USE_ENV_PROXY) is consulted.
      agent: false,
      ...(isHttps && !hostLiteral(hop.url.hostname) ? { servername: target.connectHost } : {}),
      ...(isHttps && opts.ca ? { ca: opts.ca } : {}),
    });
    const connectTimer = setTimeout(
      () => req.destroy(new FetchTimeoutError(publicUrl(hop.url), "connect", connectTimeoutMs)),
      connectTimeoutMs,
    );
    const unsubscribe = scope.onAbort((reason) => req.destroy(reason));
    const cleanup = (): void => {
      clearTimeout(connectTimer);
      unsubscribe();
    };
    req.once("socket", (socket) => {
      socket.once(isHttps ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    });
    req.once("response", (res) => {
      cleanup();
      resolve(res);
    });
    req.once("error", (err) => {
      cleanup();
      reject(scope.mapError(err));
    });
    req.end(hop.body);
  });
}
