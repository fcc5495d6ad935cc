/**
 * Fetching a recipe page through the guarded fetcher: a browser's User-Agent (many sites refuse
 * others), HTML or JSON only, a size cap enforced while the body streams in, and a timeout that
 * answers 408 as Mealie does.
 */
import type { PluginContext } from "../../../core/plugins/kinds.js";
import { FetchTimeoutError, HttpStatusError } from "../../../core/net/index.js";
import { PageStatusError, ScrapeTimeoutError } from "../../../core/imports/errors.js";

export const BROWSER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
export const PAGE_TIMEOUT_MS = 15_000;
export const PAGE_MAX_BYTES = 10 * 1024 * 1024;
const PAGE_TYPES = [
  "text/html",
  "application/xhtml+xml",
  "application/ld+json",
  "application/json",
  "text/plain",
] as const;

/** The first `http(s)://…` or `www.…` token of what the user pasted (Mealie accepts text around it). */
export function urlIn(text: string): string | null {
  const m = /(https?:\/\/[^\s<>"']+|www\.[^\s<>"']+)/i.exec(text);
  if (!m) return null;
  return m[1].startsWith("www.") ? `https://${m[1]}` : m[1];
}

export async function fetchPage(
  url: string,
  ctx: PluginContext,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<{ html: string; url: string }> {
  try {
    const res = await ctx.fetch(url, {
      userAgent: BROWSER_USER_AGENT,
      headers: {
        Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "Accept-Language": "en-US,en;q=0.7,*;q=0.5",
      },
      timeoutMs: opts.timeoutMs ?? ctx.config.importTimeoutMs ?? PAGE_TIMEOUT_MS,
      maxBytes: opts.maxBytes ?? PAGE_MAX_BYTES,
      contentType: PAGE_TYPES,
      signal: ctx.signal,
    });
    return { html: decode(res.body, res.headers.get("content-type")), url: res.url };
  } catch (e) {
    if (e instanceof FetchTimeoutError) throw new ScrapeTimeoutError();
    if (e instanceof HttpStatusError) throw new PageStatusError(e.url, e.upstreamStatus);
    throw e;
  }
}

/** Byte-order marks and their encodings; a page that starts with one is in it whatever it says (as browsers read it). */
const BOMS: ReadonlyArray<[number[], string]> = [
  [[0xef, 0xbb, 0xbf], "utf-8"],
  [[0xff, 0xfe], "utf-16le"],
  [[0xfe, 0xff], "utf-16be"],
];

/** Bytes → text by a byte-order mark, else the header's charset, else the page's `<meta charset>`, else UTF-8. */
export function decode(body: Buffer, contentType: string | null): string {
  for (const [bom, encoding] of BOMS)
    if (bom.every((b, i) => body[i] === b)) return new TextDecoder(encoding).decode(body);
  const fromHeader = /charset=["']?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  if (fromHeader) {
    try {
      return new TextDecoder(fromHeader).decode(body);
    } catch {
      // an unknown label: go on as if there were none
    }
  }
  // Bytes that are valid UTF-8 are UTF-8 whatever the page claims: a wrong <meta charset> is common,
  // and Latin-1 text is almost never valid UTF-8 by accident.
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    // not UTF-8
  }
  const head = body.subarray(0, 4096).toString("latin1");
  const fromMeta = /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(head)?.[1];
  try {
    return new TextDecoder(fromMeta ?? "windows-1252").decode(body);
  } catch {
    return new TextDecoder("windows-1252").decode(body);
  }
}
