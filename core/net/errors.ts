/**
 * Typed failures of the guarded fetcher. Each carries the HTTP status a caller should answer with
 * (web/api maps LarderError.status directly), a stable `code` for logs and the CLI, and a public
 * `message` that never echoes resolved internal addresses: telling a user "10.0.0.7 is private"
 * would turn the refusal itself into an oracle for mapping the household network. The precise
 * reason lives in `reason`, meant for server logs only.
 */
import { LarderError } from "../errors.js";

export type FetchErrorCode =
  | "invalid_url"
  | "blocked_target"
  | "timeout"
  | "too_large"
  | "bad_content_type"
  | "http_status"
  | "too_many_redirects"
  | "fetch_failed";

export abstract class OutboundFetchError extends LarderError {
  abstract readonly code: FetchErrorCode;
  constructor(
    message: string,
    status: number,
    /** The URL being fetched when the failure happened (credentials stripped). */
    readonly url: string,
    /** Log-only detail; may name internal addresses. */
    readonly reason: string = message,
  ) {
    super(message, status);
  }
}

/** Not a parseable absolute URL, or a scheme other than http/https. */
export class InvalidUrlError extends OutboundFetchError {
  readonly code = "invalid_url";
  constructor(url: string, reason: string) {
    super("Invalid URL", 400, url, reason);
  }
}

/** The host is, or resolves to, an address outside the public internet and not allow-listed. */
export class BlockedTargetError extends OutboundFetchError {
  readonly code = "blocked_target";
  constructor(url: string, reason: string) {
    // Mealie's wording, so existing clients keep matching on it.
    super("Url is not from an allowed domain", 400, url, reason);
  }
}

export class FetchTimeoutError extends OutboundFetchError {
  readonly code = "timeout";
  constructor(
    url: string,
    /** `connect`: no (TLS) connection within connectTimeoutMs; `total`: the whole fetch overran. */
    readonly phase: "connect" | "total",
    readonly timeoutMs: number,
  ) {
    super("The remote server took too long to respond", 408, url, `${phase} timeout after ${timeoutMs} ms`);
  }
}

export class ResponseTooLargeError extends OutboundFetchError {
  readonly code = "too_large";
  constructor(
    url: string,
    readonly limit: number,
    /** `declared`: Content-Length said so; `wire`: bytes received; `decoded`: bytes after decompression. */
    readonly phase: "declared" | "wire" | "decoded",
  ) {
    super(
      `The remote response is larger than ${limit} bytes`,
      413,
      url,
      `${phase} size exceeded ${limit} bytes`,
    );
  }
}

export class BadContentTypeError extends OutboundFetchError {
  readonly code = "bad_content_type";
  constructor(
    url: string,
    readonly contentType: string | null,
    readonly expected: readonly string[],
  ) {
    super(`Unsupported content type ${contentType ?? "(none)"}; expected ${expected.join(", ")}`, 415, url);
  }
}

/** The final response had a status the caller did not accept (by default: anything but 2xx). */
export class HttpStatusError extends OutboundFetchError {
  readonly code = "http_status";
  constructor(
    url: string,
    readonly upstreamStatus: number,
  ) {
    super(`The remote server answered ${upstreamStatus}`, 502, url);
  }
}

export class TooManyRedirectsError extends OutboundFetchError {
  readonly code = "too_many_redirects";
  constructor(
    url: string,
    readonly maxRedirects: number,
  ) {
    super(`Too many redirects (more than ${maxRedirects})`, 502, url);
  }
}

/** Network-level failure: DNS, refused/reset connection, TLS, malformed or undecodable response. */
export class FetchFailedError extends OutboundFetchError {
  readonly code = "fetch_failed";
  constructor(
    url: string,
    reason: string,
    /** The underlying error's `code` (ENOTFOUND, ECONNREFUSED, …) when there was one. */
    readonly errno?: string,
  ) {
    super("Could not fetch the remote resource", 502, url, reason);
  }
}
