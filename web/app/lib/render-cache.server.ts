/**
 * Rendered pages remembered by what they were rendered from (decision 0115). React's server render of a
 * page is a pure function of the router's data for the request (every matched route's loader data, the
 * URL, the status) and of the response's CSP nonce: the same inputs give the same bytes. So a page is
 * stored under a hash of those inputs, with the nonce cut out of it, and served again with a fresh nonce
 * when the same inputs come back, without React.
 *
 * Viewer-dependent data (the session, favourites, ratings, menu permissions, comments) is part of the
 * loader data, so it is part of the key: two viewers share an entry only when everything their page was
 * rendered from is equal, byte for byte, and then the page is the same for both. Nothing goes stale: a
 * changed recipe, preference or session changes the loader data, hence the key. A value the key cannot
 * describe exactly (a Map, a class instance, a pending promise, a function) makes the page uncacheable
 * rather than risk two different pages under one key.
 */
import { createHash } from "node:crypto";

/** Default bound of the stored pages, in bytes (UTF-8): about a thousand recipe pages. */
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

/** A page with its nonce cut out: the bytes between the nonce's places. */
type Parts = Buffer[];

function split(page: Buffer, nonce: Buffer): Parts {
  const parts: Parts = [];
  let from = 0;
  for (let at = page.indexOf(nonce); at >= 0; at = page.indexOf(nonce, from)) {
    parts.push(page.subarray(from, at));
    from = at + nonce.length;
  }
  parts.push(page.subarray(from));
  return parts;
}

export class RenderCache {
  private readonly pages = new Map<string, { parts: Parts; bytes: number }>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number = DEFAULT_MAX_BYTES) {}

  get size(): number {
    return this.pages.size;
  }

  /** The stored page for this key with `nonce` where the nonce was, or null. */
  get(key: string, nonce: string): Buffer | null {
    const hit = this.pages.get(key);
    if (!hit) {
      this.misses++;
      return null;
    }
    this.hits++;
    // Least recently used goes first: a hit moves the page to the end.
    this.pages.delete(key);
    this.pages.set(key, hit);
    const n = Buffer.from(nonce);
    const out: Buffer[] = [];
    hit.parts.forEach((p, i) => (i === 0 ? out.push(p) : out.push(n, p)));
    return Buffer.concat(out);
  }

  /** Stores a page rendered with `nonce` (which is cut out of it). */
  set(key: string, page: Buffer, nonce: string): void {
    if (page.length > this.maxBytes / 8) return;
    const old = this.pages.get(key);
    if (old) {
      this.pages.delete(key);
      this.bytes -= old.bytes;
    }
    // A copy: the rendered chunks may be views of a larger pooled buffer.
    const parts = split(Buffer.from(page), Buffer.from(nonce));
    this.pages.set(key, { parts, bytes: page.length });
    this.bytes += page.length;
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
