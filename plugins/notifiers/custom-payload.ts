/**
 * Apprise's "custom" notifiers (`json://`, `form://`): a POST of a small payload to any HTTP endpoint.
 * URL options follow Apprise: `method=`, `+Header=value` adds a request header, `-name=value` adds a
 * query parameter to the request, `:key=value` renames a payload field (or adds a new one; an empty
 * value removes the field). Mealie's event fields arrive as extras and are added the same way.
 */
import type { Notification, NotifierContext, PluginContext } from "../../core/plugins/kinds.js";
import {
  basicAuth,
  invalid,
  origin,
  parseAppriseUrl,
  SEND_TIMEOUT_MS,
  type AppriseUrl,
} from "./apprise-url.js";

const METHODS = new Set(["POST", "GET", "PUT", "PATCH", "DELETE", "HEAD"]);
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE_RE = /^[\t\x20-\x7e\x80-\xff]*$/;

export interface CustomRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  payload: Record<string, string | unknown[]>;
}

function read(raw: string, secureScheme: string): { u: AppriseUrl; secure: boolean; method: string } {
  const u = parseAppriseUrl(raw);
  if (!u.host) throw invalid(u.scheme, "a host is required");
  const method = (u.query.get("method") ?? "POST").toUpperCase();
  if (!METHODS.has(method)) throw invalid(u.scheme, `method must be one of ${[...METHODS].join(", ")}`);
  // A header that cannot be sent is refused on save, not discovered by the HTTP stack at send time.
  for (const [k, v] of u.query) {
    if (!k.startsWith("+")) continue;
    if (!HEADER_NAME_RE.test(k.slice(1)))
      throw invalid(u.scheme, `${JSON.stringify(k.slice(1))} is not a header name`);
    if (!HEADER_VALUE_RE.test(v))
      throw invalid(u.scheme, `the value of header ${k.slice(1)} holds a line break or control character`);
  }
  return { u, secure: u.scheme === secureScheme, method };
}

export function customEndpoints(raw: string, secureScheme: string): string[] {
  const { u, secure } = read(raw, secureScheme);
  return [origin(u, secure)];
}

/** The request a custom notifier makes for one notification. */
export function customRequest(raw: string, secureScheme: string, n: Notification): CustomRequest {
  const { u, secure, method } = read(raw, secureScheme);
  const target = new URL(`${origin(u, secure)}/${u.path.map(encodeURIComponent).join("/")}`);
  const headers: Record<string, string> = { ...basicAuth(u) };
  const payload: Record<string, string | unknown[]> = {
    version: "1.0",
    title: n.title,
    message: n.body,
    attachments: [],
    type: "info",
  };
  const remap = (key: string, value: string): void => {
    if (key in payload) {
      const current = payload[key];
      delete payload[key];
      if (value) payload[value] = current;
    } else if (key) {
      payload[key] = value;
    }
  };
  for (const [k, v] of u.query) {
    if (k.startsWith("+") && k.length > 1) headers[k.slice(1)] = v;
    else if (k.startsWith("-") && k.length > 1) target.searchParams.append(k.slice(1), v);
    else if (k.startsWith(":")) remap(k.slice(1), v);
  }
  // Mealie appends its fields as `:key=value` options after the user's, so they win.
  for (const [k, v] of Object.entries(n.extras)) {
    delete payload[k];
    payload[k] = v;
  }
  return { url: target.href, method, headers, payload };
}

export async function sendCustom(
  req: CustomRequest,
  body: string,
  contentType: string,
  ctx: NotifierContext | PluginContext,
): Promise<void> {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  await ctx.fetch(req.url, {
    method: req.method,
    headers: { ...(hasBody ? { "Content-Type": contentType } : {}), ...req.headers },
    body: hasBody ? body : undefined,
    timeoutMs: SEND_TIMEOUT_MS,
    maxBytes: 256 * 1024,
    signal: ctx.signal,
  });
}
