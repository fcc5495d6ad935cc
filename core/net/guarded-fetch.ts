/**
 * The one way Larder talks to addresses users type: recipe import by URL, image download, recipe
 * actions, webhooks and notifiers all go through `createGuardedFetcher(config)`. Mealie shipped
 * SSRF four times because each feature made its own requests with its own (or no) checks; here
 * the checks live in one place and cannot be skipped by a feature that forgets them.
 *
 * Per hop: parse the URL (http/https only), resolve the host ourselves, refuse unless EVERY
 * address is public or allow-listed, then connect to exactly those vetted addresses through a
 * `lookup` hook, so the socket never performs a second DNS query a rebinding server could answer
 * differently. Redirects are followed here, hop by hop, through the same checks.
 */
import type { Readable } from "node:stream";
import type { Config } from "../config.js";
import { ACCEPT_ENCODING, bodyStream, collect, contentTypeMatches } from "./body.js";
import {
  BadContentTypeError,
  HttpStatusError,
  ResponseTooLargeError,
  TooManyRedirectsError,
} from "./errors.js";
import { AllowList } from "./ip-policy.js";
import { FetchScope } from "./scope.js";
import {
  parseUrl,
  publicUrl,
  sendHop,
  systemResolver,
  vetTarget,
  type Hop,
  type Resolver,
} from "./transport.js";

export type { ResolvedAddress, Resolver } from "./transport.js";

/** Per-request options; none of them can widen what may be reached. */
export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Overrides the configured User-Agent, e.g. for sites that refuse unknown agents. */
  userAgent?: string;
  /** `follow` (default) re-checks each hop; `manual` returns the 3xx response itself. */
  redirect?: "follow" | "manual";
  /** Redirects followed before TooManyRedirectsError. Default 5. */
  maxRedirects?: number;
  /** Until the TCP (and TLS) connection of each hop is up. Default 10 s. */
  connectTimeoutMs?: number;
  /** The whole fetch, redirects and body included (for `stream`, until the stream ends). Default 30 s. */
  timeoutMs?: number;
  /** Cap on bytes received and on bytes after decompression. Default 10 MiB. */
  maxBytes?: number;
  /** Required media type(s) of the final response, e.g. "image/*" or ["text/html", "application/xhtml+xml"]. */
  contentType?: string | readonly string[];
  /** Throw HttpStatusError unless the final status is 2xx (or 3xx with redirect: "manual"). Default true. */
  throwHttpErrors?: boolean;
  signal?: AbortSignal;
  /** Return the body as a capped Readable instead of a Buffer, e.g. to write a download to disk. */
  stream?: boolean;
  /** Extra CA certificates to trust, e.g. a household's own CA for Home Assistant. */
  ca?: string | Buffer | Array<string | Buffer>;
}

/** Who may be reached and as whom; fixed when the fetcher is created. */
export interface FetchPolicy {
  /** LARDER_FETCH_ALLOW entries: host names, `*.suffix`, IPs or CIDR ranges. */
  allow?: readonly string[] | AllowList;
  userAgent?: string;
  resolver?: Resolver;
}

export type GuardedFetchOptions = RequestOptions & FetchPolicy;

interface ResponseMeta {
  status: number;
  statusText: string;
  headers: Headers;
  /** Final URL after redirects, without credentials. */
  url: string;
  /** Every URL redirected to, in order. */
  redirects: string[];
  /** The vetted address the final hop was sent to (as resolved; the socket may prefer another vetted one). */
  address: string;
}
export interface GuardedResponse extends ResponseMeta {
  body: Buffer;
}
export interface GuardedStreamResponse extends ResponseMeta {
  body: Readable;
}

export interface GuardedFetcher {
  (url: string | URL, options: RequestOptions & { stream: true }): Promise<GuardedStreamResponse>;
  (url: string | URL, options?: RequestOptions & { stream?: false }): Promise<GuardedResponse>;
}

export const DEFAULTS = {
  maxRedirects: 5,
  connectTimeoutMs: 10_000,
  timeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  userAgent: "Larder/0.1 (+https://github.com/larder)",
} as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers we compute ourselves; a caller-supplied value would desynchronise framing or decoding. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
  "te",
  "trailer",
  "accept-encoding",
]);
/** Dropped when a redirect turns the request into a body-less GET (fetch spec "request-body-header name"). */
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location"];
/** Credentials must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** Bind the policy from configuration (LARDER_FETCH_ALLOW, LARDER_USER_AGENT). Invalid allow entries throw here, at startup. */
export function createGuardedFetcher(
  config: Partial<Pick<Config, "fetchAllow" | "fetchUserAgent">> & { resolver?: Resolver },
): GuardedFetcher {
  const policy: FetchPolicy = {
    allow: new AllowList(config.fetchAllow ?? []),
    userAgent: config.fetchUserAgent,
    resolver: config.resolver,
  };
  return ((url: string | URL, options: RequestOptions = {}) =>
    fetchWithPolicy(url, options, policy)) as GuardedFetcher;
}

export function guardedFetch(
  url: string | URL,
  options: GuardedFetchOptions & { stream: true },
): Promise<GuardedStreamResponse>;
export function guardedFetch(
  url: string | URL,
  options?: GuardedFetchOptions & { stream?: false },
): Promise<GuardedResponse>;
export function guardedFetch(
  url: string | URL,
  options: GuardedFetchOptions = {},
): Promise<GuardedResponse | GuardedStreamResponse> {
  return fetchWithPolicy(url, options, options);
}

function requestHeaders(
  url: URL,
  opts: RequestOptions,
  policy: FetchPolicy,
  accept: readonly string[] | null,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    const name = k.toLowerCase();
    if (!RESERVED_HEADERS.has(name)) headers[name] = v;
  }
  headers["user-agent"] = opts.userAgent ?? policy.userAgent ?? DEFAULTS.userAgent;
  headers["accept-encoding"] = ACCEPT_ENCODING;
  headers.accept ??= accept ? accept.join(", ") : "*/*";
  if ((url.username || url.password) && !headers.authorization) {
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
  }
  return headers;
}

/** The next hop after a redirect, with browsers' method and header rules. */
function redirectHop(prev: Hop, status: number, next: URL): Hop {
  const headers = { ...prev.headers };
  let { method, body } = prev;
  if (
    ((status === 301 || status === 302) && method === "POST") ||
    (status === 303 && method !== "GET" && method !== "HEAD")
  ) {
    method = "GET";
    body = undefined;
    for (const h of BODY_HEADERS) delete headers[h];
  }
  if (next.origin !== prev.url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
  if (body) headers["content-length"] = String(body.length);
  else delete headers["content-length"];
  return { url: next, method, headers, body };
}

function responseHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // A header the WHATWG Headers class rejects (invalid bytes) is dropped rather than failing the fetch.
    }
  }
  return headers;
}

async function fetchWithPolicy(
  input: string | URL,
  opts: RequestOptions,
  policy: FetchPolicy,
): Promise<GuardedResponse | GuardedStreamResponse> {
  const startUrl = parseUrl(input);
  const allow = policy.allow instanceof AllowList ? policy.allow : new AllowList(policy.allow ?? []);
  const resolver = policy.resolver ?? systemResolver;
  const maxRedirects = opts.maxRedirects ?? DEFAULTS.maxRedirects;
  const maxBytes = opts.maxBytes ?? DEFAULTS.maxBytes;
  const accept =
    opts.contentType === undefined
      ? null
      : typeof opts.contentType === "string"
        ? [opts.contentType]
        : opts.contentType;
  const timeoutMs = opts.timeoutMs ?? DEFAULTS.timeoutMs;
  const scope = new FetchScope(publicUrl(startUrl), timeoutMs, opts.signal);
  let handedOff = false;
  try {
    const bodyBuf = opts.body === undefined ? undefined : Buffer.from(opts.body);
    const method = (opts.method ?? "GET").toUpperCase();
    let hop: Hop = {
      url: startUrl,
      method,
      headers: requestHeaders(startUrl, opts, policy, accept),
      body: bodyBuf,
    };
    if (bodyBuf) hop.headers["content-length"] = String(bodyBuf.length);
    else if (method === "POST" || method === "PUT" || method === "PATCH") hop.headers["content-length"] = "0";
    const redirects: string[] = [];

    for (;;) {
      if (scope.signal.aborted) throw scope.signal.reason;
      scope.currentUrl = publicUrl(hop.url);
      const target = await vetTarget(hop.url, allow, resolver, scope);
      const res = await sendHop(
        hop,
        target,
        { connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs, ca: opts.ca },
        scope,
      );
      const status = res.statusCode ?? 0;
      const location = res.headers.location;

      if (REDIRECT_STATUSES.has(status) && location && opts.redirect !== "manual") {
        res.destroy();
        if (redirects.length >= maxRedirects) throw new TooManyRedirectsError(scope.currentUrl, maxRedirects);
        const next = parseUrl(location, hop.url);
        hop = redirectHop(hop, status, next);
        redirects.push(publicUrl(next));
        continue;
      }

      const ok =
        (status >= 200 && status < 300) || (opts.redirect === "manual" && status >= 300 && status < 400);
      if (opts.throwHttpErrors !== false && !ok) {
        res.destroy();
        throw new HttpStatusError(scope.currentUrl, status);
      }
      const contentType = res.headers["content-type"];
      if (accept && !contentTypeMatches(contentType, accept)) {
        res.destroy();
        throw new BadContentTypeError(scope.currentUrl, contentType ?? null, accept);
      }
      const bodyless = hop.method === "HEAD" || status === 204 || status === 304;
      const declared = Number(res.headers["content-length"]);
      if (!bodyless && Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        throw new ResponseTooLargeError(scope.currentUrl, maxBytes, "declared");
      }

      // From here on an abort must also kill the response body, not just the request.
      const unsubscribe = scope.onAbort((reason) => res.destroy(reason));
      const body = await bodyStream(res, {
        url: scope.currentUrl,
        maxBytes,
        bodyless,
        mapError: (err) => scope.mapError(err),
      });
      const meta: ResponseMeta = {
        status,
        statusText: res.statusMessage ?? "",
        headers: responseHeaders(res.rawHeaders),
        url: scope.currentUrl,
        redirects,
        address: res.socket?.remoteAddress ?? target.addresses[0].address,
      };
      if (opts.stream) {
        handedOff = true;
        body.once("close", () => {
          unsubscribe();
          scope.dispose();
        });
        return { ...meta, body };
      }
      try {
        return { ...meta, body: await collect(body) };
      } finally {
        unsubscribe();
      }
    }
  } catch (err) {
    throw scope.mapError(err);
  } finally {
    if (!handedOff) scope.dispose();
  }
}
