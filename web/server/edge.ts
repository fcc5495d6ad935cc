/**
 * The HTTP edge shared by /api (web/api/handler.ts) and the UI (web/app/lib/session.server.ts): cookies
 * parsed and written with the `cookie` package, the session cookie's attributes, and the same-origin
 * rule for unsafe requests. web/server/server.ts applies that rule once, before either side runs, so no
 * route has to remember to opt in. Pure functions only: the UI's server bundle carries a copy of it.
 */
import anyAscii from "any-ascii";
import { create as contentDisposition } from "content-disposition";
import { parse, serialize, type SerializeOptions } from "cookie";

export const SESSION_COOKIE = "mealie.access_token";
export const UNSAFE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const CROSS_ORIGIN_REFUSED = "Cross-origin request refused";

/** One cookie's value from a Cookie header, or null; a malformed header never throws. */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  return parse(header)[name] ?? null;
}

/** A Set-Cookie value; every cookie Larder sets is Path-scoped, HttpOnly unless told and SameSite=Lax. */
export function serializeCookie(name: string, value: string, opts: SerializeOptions = {}): string {
  return serialize(name, value, { path: "/", httpOnly: true, sameSite: "lax", ...opts });
}

/** Whether the browser reached us over https (directly, through a proxy, or by configuration). */
export function isSecure(url: string, forwardedProto: string | null | undefined, baseUrl: string): boolean {
  return url.startsWith("https:") || forwardedProto === "https" || baseUrl.startsWith("https:");
}

/** Set-Cookie for the session token the API and the UI share (maxAge in seconds; 0 clears it). */
export function sessionCookie(
  token: string,
  maxAge: number,
  secure: boolean,
  name = SESSION_COOKIE,
  path = "/",
): string {
  return serializeCookie(name, token, { maxAge: Math.max(0, Math.floor(maxAge)), secure, path });
}

/** The headers the same-origin rule reads, from node:http or from a Fetch Request alike. */
export interface OriginHeaders {
  host?: string | null;
  origin?: string | null;
  referer?: string | null;
  authorization?: string | null;
  cookie?: string | null;
}

/**
 * Unsafe requests must come from our own pages, because the session cookie rides along on cross-site form
 * posts. True when Origin (or, without it, Referer) names this host or the configured base URL's host;
 * a request with neither, or with `Origin: null`, is not same-origin.
 */
export function isSameOrigin(h: OriginHeaders, baseUrl?: string): boolean {
  const from = h.origin ?? h.referer;
  if (!from || from === "null") return false;
  let fromHost: string;
  try {
    fromHost = new URL(from).host;
  } catch {
    return false;
  }
  if (h.host && fromHost === h.host) return true;
  if (baseUrl) {
    try {
      return new URL(baseUrl).host === fromHost;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * The one same-origin rule, for every request before it is routed; returns why it is refused, or null.
 * - UI pages: every unsafe request (a login post carries no session yet, but a forged one signs the
 *   victim in to the attacker's account, so it is refused too).
 * - /api: unsafe requests authenticated by the session cookie. A bearer token or no credentials at all is
 *   a script or an app, which the browser's cookie cannot be borrowed by.
 */
export function crossOriginRefusal(
  method: string,
  api: boolean,
  h: OriginHeaders,
  baseUrl?: string,
): string | null {
  if (!UNSAFE_METHODS.has(method.toUpperCase())) return null;
  if (api) {
    if (h.authorization && /^bearer\s+\S/i.test(h.authorization)) return null;
    // A script sends no Origin. A browser does, on every cross-site post: one to /api/auth/token would
    // set the attacker's session cookie in the victim's browser (login CSRF), so it is refused too.
    if (readCookie(h.cookie, SESSION_COOKIE) === null && !h.origin) return null;
  }
  return isSameOrigin(h, baseUrl) ? null : CROSS_ORIGIN_REFUSED;
}

/**
 * A Content-Disposition header for a download (RFC 6266): the real name in `filename*` (UTF-8), and a
 * transliterated ASCII `filename` for old clients ("Crème brûlée.pdf" → "Creme brulee.pdf").
 */
export function attachment(filename: string, type: "attachment" | "inline" = "attachment"): string {
  const fallback = anyAscii(filename).replace(/[^\x20-\x7e]|["\\%]/g, "_");
  // Always quoted, as Mealie (Starlette) sends it; a token needs no escaping inside quotes.
  return contentDisposition(filename, { type, fallback }).replace(
    /; filename=([^";]+)(?=;|$)/,
    '; filename="$1"',
  );
}
