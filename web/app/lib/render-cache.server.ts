/**
 * Rendered pages remembered by what they were rendered from (decisions 0115, 0120). React's server render
 * of a page is a pure function of the router's data for the request (every matched route's loader data,
 * the URL, the status): the same inputs give the same bytes. So a page is stored under a hash of those
 * inputs and served again, byte for byte, when the same inputs come back, without React.
 *
 * Viewer-dependent data (the session, favourites, ratings, menu permissions, comments) is part of the
 * loader data, so it is part of the key: two viewers share an entry only when everything their page was
 * rendered from is equal, byte for byte, and then the page is the same for both. Nothing goes stale: a
 * changed recipe, preference or session changes the loader data, hence the key. A value the key cannot
 * describe exactly (a Map, a class instance, a pending promise, a function) makes the page uncacheable
 * rather than risk two different pages under one key.
 *
 * A stored page carries no nonce: it was rendered with a secret one, and then sealed — each inline script
 * that carried that nonce is named in the page's Content-Security-Policy by its SHA-256 hash instead, and
 * the nonce attributes are removed. Only scripts React rendered with the nonce are hashed, so a script
 * that reached the HTML through content (a sanitiser bypass) is still refused by the browser. As the
 * bytes never change, each is compressed once (brotli, gzip) when first asked for, not on every answer.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

/** Default bound of the stored pages, in bytes (their HTML and compressed forms): about a thousand recipe pages. */
export const DEFAULT_MAX_BYTES = 96 * 2 ** 20;

class Uncacheable extends Error {}

/**
 * JSON of the render inputs that is exact: every value that JSON would blur (undefined, NaN, ±Infinity,
 * -0, a Date) gets a tagged form, and anything that is not plain data throws Uncacheable.
 */
function exactJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    // JSON.stringify has already called toJSON: look at the original value.
    const raw = this[key];
    if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
      if (raw instanceof Date) return { $date: raw.getTime() };
      const proto = Object.getPrototypeOf(raw) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new Uncacheable();
    }
    switch (typeof v) {
      case "undefined":
        return { $undefined: 1 };
      case "number":
        return Number.isFinite(v) && !Object.is(v, -0) ? v : { $number: String(Object.is(v, -0) ? "-0" : v) };
      case "string":
      case "boolean":
        return v;
      case "object":
        return v;
      default:
        throw new Uncacheable();
    }
  });
}

/** The cache key of a render's inputs, or null when they cannot be described exactly. */
export function renderKey(inputs: unknown): string | null {
  try {
    return createHash("sha256").update(exactJson(inputs)).digest("base64url");
  } catch (e) {
    if (e instanceof Uncacheable) return null;
    throw e;
  }
}

/** The CSP source of an inline script's text: what the browser computes over it (CSP level 2). */
export const scriptHash = (text: string): string => scriptHashOf(Buffer.from(text, "utf8"));

/** The same, over a script's UTF-8 bytes. */
const scriptHashOf = (bytes: Uint8Array): string =>
  `sha256-${createHash("sha256").update(bytes).digest("base64")}`;

/** A page rendered with a nonce, made fixed: the nonce attributes gone, its inline scripts named by hash. */
export interface SealedPage {
  html: Buffer;
  /** CSP hash sources of the inline scripts that carried the nonce, each once. */
  scriptHashes: string[];
}

const ATTR = Buffer.from(' nonce="');
const LT = 0x3c;
const GT = 0x3e;
const QUOTE = 0x22;
const END_TAG = Buffer.from("</");
const SCRIPT = "script";

/** Where the first "</script" (in any case) at or after `from` starts, or -1. */
function scriptEndAt(page: Buffer, from: number): number {
  for (let at = page.indexOf(END_TAG, from); at >= 0; at = page.indexOf(END_TAG, at + 2)) {
    if (page.toString("latin1", at + 2, at + 2 + SCRIPT.length).toLowerCase() === SCRIPT) return at;
  }
  return -1;
}

/**
 * Seals a page rendered with `nonce` (see the top of this file), or null when the nonce appears anywhere
 * but in a `nonce="…"` attribute (then the page is not stored: its bytes would not be understood). Works
 * on the page's UTF-8 bytes as rendered: every byte looked for is ASCII, which never occurs inside a
 * multi-byte character, and a script's hash is over its UTF-8 bytes, as the browser computes it.
 */
export function sealPage(rendered: string | Buffer, nonce: string): SealedPage | null {
  const page = typeof rendered === "string" ? Buffer.from(rendered) : rendered;
  const hashes = new Set<string>();
  const kept: Buffer[] = [];
  const nonceBytes = Buffer.from(nonce);
  let from = 0;
  for (let at = page.indexOf(nonceBytes); at >= 0; at = page.indexOf(nonceBytes, at + nonceBytes.length)) {
    const attrStart = at - ATTR.length;
    if (attrStart < 0 || !page.subarray(attrStart, at).equals(ATTR) || page[at + nonceBytes.length] !== QUOTE)
      return null;
    const attrEnd = at + nonceBytes.length + 1;
    // React escapes "<" and ">" in attribute values: the nearest ones bound this start tag.
    const tagStart = page.lastIndexOf(LT, attrStart);
    const tagEnd = page.indexOf(GT, attrEnd);
    if (tagStart < from || tagEnd < 0) return null;
    const tag = page.toString("latin1", tagStart, tagEnd + 1);
    if (/^<script[\s>]/i.test(tag) && !/\ssrc=/i.test(tag)) {
      // The browser ends a script's text at the first "</script", in any case.
      const end = scriptEndAt(page, tagEnd + 1);
      if (end < 0) return null;
      hashes.add(scriptHashOf(page.subarray(tagEnd + 1, end)));
    }
    kept.push(page.subarray(from, attrStart));
    from = attrEnd;
  }
  if (from === 0) return { html: page, scriptHashes: [] };
  kept.push(page.subarray(from));
  return { html: Buffer.concat(kept), scriptHashes: [...hashes] };
}

export type Encoding = "br" | "gzip" | "identity";

/**
 * The encoding to send a page in: brotli, else gzip, when Accept-Encoding allows it (a q of 0 refuses),
 * else none. Other codings are left to the edge's compression middleware.
 */
export function preferredEncoding(acceptEncoding: string | null): Encoding {
  if (!acceptEncoding) return "identity";
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const allowed = (name: string) => (q.get(name) ?? (name === "identity" ? 1 : (q.get("*") ?? 0))) > 0;
  if (allowed("br")) return "br";
  if (allowed("gzip")) return "gzip";
  return "identity";
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compression made once per stored page: a little more effort than on the fly pays over many answers. */
function compress(html: Buffer, encoding: "br" | "gzip"): Promise<Buffer> {
  return encoding === "br"
    ? brotli(html, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: 5,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: html.length,
        },
      })
    : gzipAsync(html, { level: 6 });
}

/** A page as stored: fixed bytes, the CSP that goes with them, and compressed forms as they are made. */
export class StoredPage {
  readonly csp: string;
  /** Strong validator of the bytes (their render inputs' key), for If-None-Match. */
  readonly etag: string;
  bytes: number;
  readonly forms = new Map<"br" | "gzip", Promise<Buffer>>();

  constructor(
    readonly key: string,
    readonly html: Buffer,
    csp: string,
  ) {
    this.csp = csp;
    this.etag = `"${key.slice(0, 32)}"`;
    this.bytes = html.length;
  }
}

export class RenderCache {
  private readonly pages = new Map<string, StoredPage>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number = DEFAULT_MAX_BYTES) {}

  get size(): number {
    return this.pages.size;
  }

  /** The stored page for this key, or null. */
  get(key: string): StoredPage | null {
    const hit = this.pages.get(key);
    if (!hit) {
      this.misses++;
      return null;
    }
    this.hits++;
    // Least recently used goes first: a hit moves the page to the end.
    this.pages.delete(key);
    this.pages.set(key, hit);
    return hit;
  }

  /** Stores a page (not one over an eighth of the bound: it would push out too many others). */
  set(page: StoredPage): void {
    if (page.bytes > this.maxBytes / 8) return;
    const old = this.pages.get(page.key);
    if (old) {
      this.pages.delete(page.key);
      this.bytes -= old.bytes;
    }
    this.pages.set(page.key, page);
    this.bytes += page.bytes;
    this.evict();
  }

  /** The page's bytes in `encoding`, compressed the first time it is asked for and kept with the page. */
  body(page: StoredPage, encoding: Encoding): Promise<Buffer> {
    if (encoding === "identity") return Promise.resolve(page.html);
    let form = page.forms.get(encoding);
    if (!form) {
      form = compress(page.html, encoding);
      page.forms.set(encoding, form);
      void form.then((b) => {
        page.bytes += b.length;
        if (this.pages.get(page.key) === page) {
          this.bytes += b.length;
          this.evict();
        }
      });
    }
    return form;
  }

  private evict(): void {
    for (const [k, v] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(k);
      this.bytes -= v.bytes;
    }
  }

  clear(): void {
    this.pages.clear();
    this.bytes = 0;
  }
}
