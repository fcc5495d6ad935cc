/**
 * Pages answered before React Router runs (decision 0160). The render cache (render-cache.server.ts) keys
 * a page by its loaders' output, so a repeat view still routed, ran every loader and encoded their data
 * before finding its stored page. Here a page is also found by an earlier key: the request itself (its
 * URL and every header a loader or the render reads, whole) under core's change count, which moves
 * whenever anything a loader reads has changed (core/storage/change-count.ts). While the count stands
 * still and the same request comes back, the loaders would return what they returned, so the page is
 * the one they led to.
 *
 * Only time moves a page without a change: the day is in the key (as in the render cache's key), and a
 * session can expire, so the viewer is authenticated again on every early answer and must be the one the
 * page was rendered for (with their profile picture on disk or not, as then: a file core does not watch). Only pages whose every loader is known to read nothing else are indexed
 * (`EARLY_ROUTES`); any other page, a page answered with headers of its own (a cookie set), and every
 * request but a GET go the whole way as before.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { AppLoadContext } from "react-router";
import { SESSION_COOKIE, readCookie } from "../../server/edge.js";
import { hasAvatarFile } from "./session.server.js";

type Larder = AppLoadContext["larder"];

/**
 * Route chains whose loaders read only the request's URL and `EARLY_HEADERS`, the date, and core state
 * that moves the change count: the recipe page (root: session, language, colour scheme, theme, app info;
 * group layout: the drawer's cookbooks; the recipe: recipe, ratings, comments, recipe actions, menu).
 */
export const EARLY_ROUTES: ReadonlySet<string> = new Set(
  [["root", "routes/g.$groupSlug", "routes/g.$groupSlug.r.$slug"]].map((ids) => ids.join(" ")),
);

/**
 * The request headers pages are rendered from, each taken whole: the address (host, and the proxy's),
 * the cookies (session, language, colour scheme, stylesheets cached), the language asked for, the user
 * agent (bots get the whole document at once) and whether a browser loads the page (its stylesheets
 * inline on a first visit, decision 0309). Accept-Encoding and If-None-Match only choose how the page
 * is sent.
 */
const EARLY_HEADERS = [
  "host",
  "x-forwarded-host",
  "x-forwarded-proto",
  "cookie",
  "accept-language",
  "user-agent",
  "sec-fetch-dest",
];

/** A request's early key: its URL, the keyed headers and the day, joined by a byte no header may hold. */
export function earlyKey(req: IncomingMessage): string {
  const parts = [
    req.url ?? "/",
    (req.socket as TLSSocket | undefined)?.encrypted ? "https" : "http",
    new Date().toISOString().slice(0, 10),
  ];
  for (const name of EARLY_HEADERS) {
    const v = req.headers[name];
    parts.push(Array.isArray(v) ? v.join("\n") : (v ?? ""));
  }
  return parts.join("\n");
}

/**
 * Who the session cookie signs in, as the loaders would find it: a user with the session or token, and
 * whether their profile picture is on disk (pages read the file, which may be put there by hand), or
 * "-" for nobody (no cookie, an expired or revoked session).
 */
export async function viewerOf(larder: Larder, cookieHeader: string | undefined): Promise<string> {
  const token = readCookie(cookieHeader, SESSION_COOKIE);
  if (!token) return "-";
  const actor = await larder.auth.authenticateToken(token);
  if (!actor || actor.kind !== "user") return "-";
  const { user, sessionId, tokenId, integrationId } = actor;
  const avatar = hasAvatarFile(larder, user.id) ? "avatar" : "";
  return [user.id, sessionId ?? "", tokenId ?? "", integrationId ?? "", avatar].join(" ");
}

/** What a request that missed brings to its render: the key and viewer it was looked up with, and when. */
export interface Ticket {
  count: number;
  key: string;
  viewer: string;
}

/** The ticket of the request being rendered, for the entry to index the page it stores under. */
export const ticketScope = new AsyncLocalStorage<Ticket>();

interface EarlyEntry {
  renderKey: string;
  viewer: string;
}

/** Default bound of the index: a few times the render cache's thousand pages (entries are small). */
export const DEFAULT_MAX_ENTRIES = 20_000;

/**
 * Early keys → the render cache's key of the page and the viewer it was rendered for, all under one
 * change count: when the count moves every entry is dropped at once (none can be reached any more).
 */
export class EarlyIndex {
  #count = -1;
  readonly #entries = new Map<string, EarlyEntry>();
  hits = 0;

  constructor(readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The entry for this key under this count, or null (a new count empties the index). */
  lookup(count: number, key: string): EarlyEntry | null {
    if (count !== this.#count) {
      this.#entries.clear();
      this.#count = count;
      return null;
    }
    return this.#entries.get(key) ?? null;
  }

  /**
   * Indexes the page a ticket's request was rendered into, if nothing changed since the ticket was
   * taken (`countNow`): a page rendered across a change may show either side of it.
   */
  remember(ticket: Ticket, renderKey: string, countNow: number): void {
    if (ticket.count !== countNow || ticket.count !== this.#count) return;
    this.#entries.delete(ticket.key);
    this.#entries.set(ticket.key, { renderKey, viewer: ticket.viewer });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }
}
