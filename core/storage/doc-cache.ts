/**
 * JSON documents opened on first use, one per group or household folder, for services whose
 * documents the groups registry does not hold (ratings, cookbooks, recipe actions). Reads stay
 * synchronous: `open()` loads every existing document at start, and a document not loaded yet (a
 * household created since) reads as its defaults while it loads in the background.
 */
import type { z } from "zod";
import { JsonDoc } from "./json-doc.js";

export interface DocCacheOptions<T> {
  schema: z.ZodType<T>;
  defaults: () => T;
  tmpDir: string;
  arraysSortedBy?: readonly string[];
  /** Called once per document when it is loaded (to subscribe to its changes). */
  onLoad?: (path: string, doc: JsonDoc<T>) => void;
  onError?: (path: string, e: unknown) => void;
}

export class DocCache<T> {
  private readonly docs = new Map<string, JsonDoc<T>>();
  private readonly opening = new Map<string, Promise<JsonDoc<T>>>();

  constructor(private readonly opts: DocCacheOptions<T>) {}

  /** The document at `path`, loading it if needed. */
  get(path: string): Promise<JsonDoc<T>> {
    const hit = this.docs.get(path);
    if (hit) return Promise.resolve(hit);
    let p = this.opening.get(path);
    if (!p) {
      p = JsonDoc.open(path, {
        schema: this.opts.schema,
        defaults: this.opts.defaults,
        tmpDir: this.opts.tmpDir,
        arraysSortedBy: this.opts.arraysSortedBy,
      }).then(
        (doc) => {
          this.opening.delete(path);
          this.docs.set(path, doc);
          this.opts.onLoad?.(path, doc);
          return doc;
        },
        (e: unknown) => {
          this.opening.delete(path);
          throw e;
        },
      );
      this.opening.set(path, p);
    }
    return p;
  }

  /** The loaded document, or null (then loading starts, so the next read has it). */
  peek(path: string): JsonDoc<T> | null {
    const hit = this.docs.get(path);
    if (hit) return hit;
    this.get(path).catch((e: unknown) => this.opts.onError?.(path, e));
    return null;
  }

  /** The current data, or the defaults while the document is not loaded. */
  data(path: string): T {
    return this.peek(path)?.data ?? this.opts.defaults();
  }

  loaded(): JsonDoc<T>[] {
    return [...this.docs.values()];
  }

  /** Resolves when every pending write of every loaded document has settled. */
  async idle(): Promise<void> {
    await Promise.all([...this.opening.values()].map((p) => p.catch(() => undefined)));
    await Promise.all(this.loaded().map((d) => d.idle()));
  }
}
