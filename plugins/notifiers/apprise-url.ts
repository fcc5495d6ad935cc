/**
 * Reading Apprise URLs (`scheme://user:password@host:port/path/segments?options`), shared by the
 * built-in notifiers.
 */
import { PluginInputError } from "../../core/plugins/registry.js";
import type { PluginContext } from "../../core/plugins/kinds.js";

export interface AppriseUrl {
  /** Lower case, without the colon. */
  scheme: string;
  user: string;
  password: string;
  /** Lower case, IPv6 in brackets; http URLs built from it are normalised by WHATWG. */
  host: string;
  /** The host as written (case kept): for URLs whose "host" is really a name, like `ntfy://MyTopic`. */
  hostAsWritten: string;
  port: number | null;
  /** Decoded, non-empty path segments. */
  path: string[];
  query: URLSearchParams;
}

/** A URL that cannot be used, reported to whoever saved it (422). */
export function invalid(scheme: string, why: string): PluginInputError {
  return new PluginInputError(`Invalid ${scheme}:// URL: ${why}`, 422);
}

export function parseAppriseUrl(raw: string): AppriseUrl {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^?]*)(?:\?(.*))?$/is.exec(raw.trim());
  if (!m) throw new PluginInputError("Not an Apprise URL (expected scheme://…)", 422);
  const scheme = m[1].toLowerCase();
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw invalid(scheme, "it holds a broken %-escape");
    }
  };
  // Apprise has no fragments: `#` names a Slack channel. Parsed as an opaque (non-http) URL, so that a
  // numeric webhook id is not read as an IPv4 address; the endpoints built from it are http URLs again.
  let u: URL;
  try {
    u = new URL(`apprise://${m[2].replace(/#/g, "%23")}`);
  } catch {
    throw invalid(scheme, "it cannot be parsed");
  }
  // Apprise's `+Header` and `:field` options: `+` is a character here, not a space.
  const query = new URLSearchParams();
  for (const part of (m[3] ?? "").split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    query.append(decode(eq < 0 ? part : part.slice(0, eq)), decode(eq < 0 ? "" : part.slice(eq + 1)));
  }
  return {
    scheme,
    user: decode(u.username),
    password: decode(u.password),
    host: decode(u.hostname).toLowerCase(),
    hostAsWritten: decode(u.hostname),
    port: u.port ? Number(u.port) : null,
    path: u.pathname.split("/").filter(Boolean).map(decode),
    query,
  };
}

/** `http(s)://host[:port]` of a parsed URL. */
export function origin(u: AppriseUrl, secure: boolean): string {
  return `${secure ? "https" : "http"}://${u.host}${u.port ? `:${u.port}` : ""}`;
}

/** A yes/no option as Apprise reads them ("yes", "true", "1", "on"). */
export function flag(query: URLSearchParams, name: string, fallback = false): boolean {
  const v = query.get(name);
  if (v === null || v === "") return fallback;
  return /^(1|y|yes|true|on)$/i.test(v.trim());
}

/** A service's API base: the configured one (LARDER_NOTIFY_API_<KEY>) or its public address. */
export function apiBase(ctx: Pick<PluginContext, "config">, key: string, fallback: string): string {
  return (ctx.config.notifyApi[key] ?? fallback).replace(/\/+$/, "");
}

/** Basic authorization header for user/password in the URL, if any. */
export function basicAuth(u: AppriseUrl): Record<string, string> {
  if (!u.user && !u.password) return {};
  return { Authorization: `Basic ${Buffer.from(`${u.user}:${u.password}`).toString("base64")}` };
}

/** Time given to one delivery, as Mealie gives a webhook. */
export const SEND_TIMEOUT_MS = 15_000;
