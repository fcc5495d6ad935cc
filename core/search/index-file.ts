/**
 * A group's search index saved in the machine's cache folder (`.larder/cache/search-<group>.bin`), so
 * that a start takes it up instead of tokenising every recipe again (decision 0196). Like the recipe
 * index cache beside it, it is private to the machine and disposable: anything doubtful about it (an
 * other format, a checksum, parts that do not hold together) means building the index as before.
 *
 * Each document carries the stamp it was added with (RecipeSearchIndex.add): the caller compares the
 * stamps with the recipes it holds and indexes again whatever differs (core/recipes/recipe-list.ts).
 *
 * Layout: magic, a JSON part (format, group, the dictionary's terms and grams, each document's id and
 * folded name), the gram and postings lists as typed arrays (4-byte aligned), each document's stamp,
 * then a CRC-32 of everything before it.
 */
import { readFileSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import * as fold from "./fold.js";
import * as fuzzy from "./fuzzy.js";
import * as searchable from "./searchable.js";
import type { PackedLists } from "./regions.js";
import type { SearchIndexImage } from "./recipe-search.js";
import { RecipeSearchIndex } from "./recipe-search.js";

const MAGIC = Buffer.from("LARDERSI", "latin1");
/** Bump when the file's layout or the meaning of its parts changes. */
const FILE_VERSION = 2;

let codeFingerprint: string | null = null;

/**
 * The code that decides what an index holds: tokenising and folding, the fields read, the grams, and
 * the index's own add. A Larder that builds differently never takes up an index built by another.
 */
function searchCodeFingerprint(): string {
  if (codeFingerprint !== null) return codeFingerprint;
  const sources: string[] = [];
  for (const mod of [fold, fuzzy, searchable] as Record<string, unknown>[])
    for (const key of Object.keys(mod).sort()) {
      const v = mod[key];
      if (typeof v === "function") sources.push(key, String(v));
    }
  const proto = RecipeSearchIndex.prototype as unknown as Record<string, unknown>;
  for (const key of ["add", "flush", "createTerm"]) sources.push(key, String(proto[key]));
  codeFingerprint = (crc32(sources.join("\u0000")) >>> 0).toString(16);
  return codeFingerprint;
}

interface JsonPart {
  format: string;
  group: string;
  terms: (string | null)[];
  grams: string[];
  docIds: (string | null)[];
  docNames: string[];
}

export class SearchIndexFiles {
  /** `format`: what else the caller's stamps depend on (its recipe reader, how it makes entries). */
  constructor(
    private readonly cacheDir: string,
    private readonly format: string,
  ) {}

  private fullFormat(): string {
    return `${FILE_VERSION}:${searchCodeFingerprint()}:${this.format}`;
  }

  pathOf(groupSlug: string): string {
    return join(this.cacheDir, `search-${groupSlug}.bin`);
  }

  /** The saved index of a group, or null when there is none or it cannot be trusted. */
  read(groupSlug: string): SearchIndexImage | null {
    let buf: Buffer;
    try {
      buf = readFileSync(this.pathOf(groupSlug));
    } catch {
      return null;
    }
    try {
      return decode(buf, this.fullFormat(), groupSlug);
    } catch {
      return null;
    }
  }

  /** Save a group's index: a temp file renamed over the old one, so a reader sees one or the other. */
  async write(groupSlug: string, image: SearchIndexImage): Promise<void> {
    const data = encode(image, this.fullFormat(), groupSlug);
    const target = this.pathOf(groupSlug);
    // One name: one server holds the folder (its lock), and a leftover of a killed write is replaced.
    const tmp = `${target}.tmp`;
    await mkdir(this.cacheDir, { recursive: true, mode: 0o700 });
    // No fsync: a file torn by a crash fails its checksum and the index is built again. Created
    // exclusively, so a link put where the temp file goes is replaced, never followed.
    await rm(tmp, { force: true });
    try {
      const fh = await open(tmp, "wx", 0o600);
      try {
        await fh.writeFile(data);
      } finally {
        await fh.close();
      }
      await rename(tmp, target);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

export function encode(image: SearchIndexImage, format: string, groupSlug: string): Buffer {
  const json: JsonPart = {
    format,
    group: groupSlug,
    terms: image.terms,
    grams: image.grams,
    docIds: image.docIds,
    docNames: image.docNames,
  };
  const jsonBytes = Buffer.from(JSON.stringify(json), "utf8");
  const parts: Buffer[] = [MAGIC, u32(jsonBytes.length), jsonBytes, Buffer.alloc(pad4(jsonBytes.length))];
  for (const lists of [image.gramTerms, image.postings]) {
    parts.push(u32(lists.len.length), u32(lists.ints.length));
    parts.push(bytesOf(lists.len), bytesOf(lists.ints), bytesOf(lists.bytes));
    parts.push(Buffer.alloc(pad4(lists.bytes.length)));
  }
  parts.push(u32(image.docStamps.length), bytesOf(image.docStamps));
  const body = Buffer.concat(parts);
  return Buffer.concat([body, u32(crc32(body) >>> 0)]);
}

export function decode(buf: Buffer, format: string, groupSlug: string): SearchIndexImage {
  if (buf.length < MAGIC.length + 8 || !buf.subarray(0, MAGIC.length).equals(MAGIC))
    throw new Error("search index file: not one");
  const end = buf.length - 4;
  if (crc32(buf.subarray(0, end)) >>> 0 !== buf.readUInt32LE(end))
    throw new Error("search index file: checksum");
  let at = MAGIC.length;
  const jsonLength = buf.readUInt32LE(at);
  at += 4;
  if (at + jsonLength > end) throw new Error("search index file: truncated");
  const json = JSON.parse(buf.toString("utf8", at, at + jsonLength)) as JsonPart;
  if (json.format !== format || json.group !== groupSlug) throw new Error("search index file: other format");
  at += jsonLength + pad4(jsonLength);
  const lists: PackedLists[] = [];
  for (let i = 0; i < 2; i++) {
    if (at + 8 > end) throw new Error("search index file: truncated");
    const keys = buf.readUInt32LE(at);
    const total = buf.readUInt32LE(at + 4);
    at += 8;
    const need = keys * 4 + total * 5;
    if (at + need > end) throw new Error("search index file: truncated");
    // Copied out of the file's buffer: the index keeps its arrays, not the whole file.
    const len = new Int32Array(keys);
    new Uint8Array(len.buffer).set(buf.subarray(at, at + keys * 4));
    at += keys * 4;
    const ints = new Int32Array(total);
    new Uint8Array(ints.buffer).set(buf.subarray(at, at + total * 4));
    at += total * 4;
    const bytes = new Uint8Array(total);
    bytes.set(buf.subarray(at, at + total));
    at += total + pad4(total);
    lists.push({ len, ints, bytes });
  }
  if (at + 4 > end) throw new Error("search index file: truncated");
  const nStamps = buf.readUInt32LE(at);
  at += 4;
  if (at + nStamps * 8 !== end) throw new Error("search index file: stamps and the end differ");
  const docStamps = new Float64Array(nStamps);
  new Uint8Array(docStamps.buffer).set(buf.subarray(at, end));
  for (const part of [json.terms, json.grams, json.docIds, json.docNames])
    if (!Array.isArray(part)) throw new Error("search index file: a part is not a list");
  return {
    terms: json.terms,
    grams: json.grams,
    docIds: json.docIds,
    docNames: json.docNames,
    docStamps,
    gramTerms: lists[0],
    postings: lists[1],
  };
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

function bytesOf(a: Int32Array | Uint8Array | Float64Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}
