/**
 * Reading an uploaded export safely. Nothing is ever extracted to disk: entries are read into memory on
 * demand. An entry whose name climbs out (`../`), is absolute or holds a NUL, or that is a symbolic
 * link, is passed over (decision 0280): it is never listed, so no reader can ask for it and nothing is
 * read or written from it, and the migration report names it as skipped. An archive with more than
 * MAX_SKIPPED such entries is refused whole: no app writes that. The declared sizes together are capped
 * before anything is read; each read is capped too, by its declared size first and while it inflates
 * (zip bombs, gzip bombs), and a read over its cap fails that entry alone. yauzl checks each entry's
 * inflated size against the size the archive declares.
 */
import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import yauzl from "yauzl";
import { openBlockZip } from "../../../core/imports/zip-block-reader.js";
import { MigrationInputError } from "./errors.js";

const gunzipAsync = promisify(gunzip);

export interface ArchiveLimits {
  /** Largest inflated size of one entry, for a read that gives no cap of its own. */
  maxEntryBytes: number;
  /**
   * Largest inflated size of all entries together (as declared, checked before reading anything), or
   * `maxTotalRatio` times the zip's own size when that is more: pictures do not compress, so a large
   * site's backup inflates to little more than it weighs, while a bomb inflates to hundreds of times.
   */
  maxTotalBytes: number;
  maxTotalRatio: number;
  /** Entries of the central directory, folders included (decision 0279). */
  maxEntries: number;
  /** Deepest nesting of archives within archives (Tandoor: one level). */
  maxDepth: number;
}

export const DEFAULT_LIMITS: ArchiveLimits = {
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 4 * 1024 * 1024 * 1024,
  maxTotalRatio: 4,
  maxEntries: 500_000,
  maxDepth: 2,
};

/** What a reader is told besides the archive: where to say how many recipes it found. */
export interface ReaderContext {
  onTotal?: (total: number) => void;
}

/** A file inside an archive, by its normalised path (forward slashes, no leading `./`). */
export interface ArchiveEntry {
  path: string;
  size: number;
  /** Its size in the archive, where it is compressed (a zip's entries). */
  packed?: number;
}

/** An entry passed over for its name or kind, with why. */
export interface SkippedEntry {
  name: string;
  why: string;
}

/** Unsafe entries an archive may hold before it is refused whole. */
export const MAX_SKIPPED = 100;

/** A read-only view of an export: a zip, or a single bare file (My Recipe Box's CSV). */
export interface Archive {
  readonly entries: readonly ArchiveEntry[];
  /** Entries passed over as unsafe, this archive's and those of the zips read within it. */
  readonly skipped: SkippedEntry[];
  has(path: string): boolean;
  read(path: string, maxBytes?: number): Promise<Buffer>;
  readText(path: string, maxBytes?: number): Promise<string>;
  close(): void;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why this entry name is refused, or null when it is fine. */
export function unsafeEntryName(name: string): string | null {
  if (name.includes("\0")) return "a NUL byte in its name";
  if (name.includes("\\")) return "a backslash in its name";
  if (name.startsWith("/") || /^[a-zA-Z]:/.test(name)) return "an absolute path";
  if (name.split("/").some((part) => part === "..")) return "a '..' path segment";
  return null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The entry's name. Without the UTF-8 flag the zip format says CP437, and yauzl decodes it so; but
 * macOS's Archive Utility and many Linux tools write UTF-8 without setting the flag, which CP437 turns
 * into "Cr├¿me" and which no longer matches the names a recipe file refers to. Bytes that are valid
 * UTF-8 are read as UTF-8 (CP437 text with accents almost never is), others as CP437. yauzl is asked
 * not to decode names itself: it would stop the whole listing at the first unsafe one.
 */
function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileNameRaw;
  const flagged = (entry.generalPurposeBitFlag & 0x800) !== 0;
  const decoded = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
  // An Info-ZIP Unicode Path field (0x7075) already gave yauzl the name in UTF-8.
  if (flagged || raw.every((b) => b < 0x80) || entry.extraFields.some((f) => f.id === 0x7075)) return decoded;
  try {
    return utf8.decode(raw).replace(/\\/g, "/");
  } catch {
    return decoded;
  }
}

/** Note an unsafe entry; past MAX_SKIPPED the archive is refused. Zips read twice note theirs once. */
function skip(skipped: SkippedEntry[], name: string, why: string): void {
  if (skipped.some((s) => s.name === name)) return;
  if (skipped.length >= MAX_SKIPPED)
    throw new MigrationInputError(
      `The archive is refused: more than ${MAX_SKIPPED} of its entries have unsafe names or are links`,
    );
  skipped.push({ name, why });
}

/**
 * A path not yet taken in the archive. A zip may hold two entries of one name (Python's zipfile writes
 * both, and Tandoor names each recipe's zip after the recipe); the second is another recipe, and is
 * kept as "Name (2).zip" rather than hidden behind the first.
 */
function distinctPath(path: string, taken: ReadonlyMap<string, unknown>): string {
  if (!taken.has(path)) return path;
  const dot = path.lastIndexOf(".");
  const cut = dot > path.lastIndexOf("/") + 1 ? dot : path.length;
  for (let n = 2; ; n++) {
    const next = `${path.slice(0, cut)} (${n})${path.slice(cut)}`;
    if (!taken.has(next)) return next;
  }
}

/** An entry's name as a report shows it: control characters (a NUL) escaped, a long name cut. */
export function shownName(name: string): string {
  const escaped = name.replace(
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}

function refuse(name: string, why: string): never {
  throw new MigrationInputError(`The archive is refused: entry '${name}' has ${why}`);
}

/**
 * What is kept of each file entry between listing and reading: its name and the five numbers yauzl
 * needs to open it again. yauzl's own Entry holds its raw name, extra fields and comment besides, about
 * a kilobyte each: 300,000 of them (a Mealie backup of 50,000 recipes) held 160 MB of heap.
 */
interface ZipRecord extends ArchiveEntry {
  packed: number;
  at: number;
  method: number;
  flags: number;
}

function entryFor(r: ZipRecord): yauzl.Entry {
  return Object.assign(new yauzl.Entry(), {
    fileName: r.path,
    uncompressedSize: r.size,
    compressedSize: r.packed,
    relativeOffsetOfLocalHeader: r.at,
    compressionMethod: r.method,
    generalPurposeBitFlag: r.flags,
  });
}

const YAUZL_OPTIONS = {
  lazyEntries: true,
  autoClose: false,
  decodeStrings: false,
  validateEntrySizes: true,
  strictFileNames: false,
};

/**
 * A zip file is read through 1 MiB blocks (core's block reader, decision 0198): yauzl reads the central
 * directory a few dozen bytes at a time, and opening a 300,000-entry backup read by read took 70 seconds.
 */
async function openYauzl(source: string | Buffer): Promise<yauzl.ZipFile> {
  if (typeof source !== "string")
    return new Promise((res, rej) =>
      yauzl.fromBuffer(source, YAUZL_OPTIONS, (err, z) =>
        err || !z ? rej(err ?? new Error("no zip")) : res(z),
      ),
    );
  return openBlockZip(yauzl, source, YAUZL_OPTIONS, (err) => err ?? new Error("no zip"));
}

/** The zip's size in bytes: the buffer's, or the file's as yauzl found it. */
function zipBytes(source: string | Buffer, zip: yauzl.ZipFile): number {
  return typeof source === "string" ? (zip as unknown as { fileSize: number }).fileSize : source.length;
}

/**
 * Open a zip (from a file or from bytes), checking every entry before anything is read. A zip read
 * within another notes its unsafe entries in the outer one's `skipped`, under `prefix` (its path there).
 */
export async function openZip(
  source: string | Buffer,
  limits: ArchiveLimits = DEFAULT_LIMITS,
  depth = 0,
  within?: { skipped: SkippedEntry[]; prefix: string },
): Promise<Archive> {
  const skipped = within?.skipped ?? [];
  if (depth > limits.maxDepth)
    throw new MigrationInputError("The archive is refused: archives are nested too deeply");
  let zip: yauzl.ZipFile;
  try {
    zip = await openYauzl(source);
  } catch (e) {
    throw new MigrationInputError(
      `The upload is not a zip archive this migration can read (${(e as Error).message})`,
    );
  }
  // Folders count too: each costs a read of the directory, though nothing is kept of it.
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new MigrationInputError(`The archive is refused: more than ${limits.maxEntries} entries`);
  }
  const byPath = new Map<string, ZipRecord>();
  try {
    let total = 0;
    const maxTotal = Math.max(limits.maxTotalBytes, limits.maxTotalRatio * zipBytes(source, zip));
    await new Promise<void>((res, rej) => {
      zip.on("error", rej);
      zip.on("end", () => res());
      zip.on("entry", (entry: yauzl.Entry) => {
        try {
          const name = entryName(entry);
          const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
          const unsafe = unsafeEntryName(name);
          const bad = unsafe ? `it has ${unsafe}` : mode === S_IFLNK ? "it is a symbolic link" : null;
          if (bad) skip(skipped, `${within?.prefix ?? ""}${name}`, bad);
          else if (!name.endsWith("/")) {
            // An entry too large to read is refused when a reader asks for it, with the cap of that
            // read: a backup's 100 MB database.json or a recipe's video must not cost the whole archive.
            total += entry.uncompressedSize;
            if (total > maxTotal)
              throw new MigrationInputError(
                `The archive is refused: it inflates to more than ${maxTotal} bytes`,
              );
            const path = distinctPath(name.replace(/^(\.\/)+/, ""), byPath);
            byPath.set(path, {
              path,
              size: entry.uncompressedSize,
              packed: entry.compressedSize,
              at: entry.relativeOffsetOfLocalHeader,
              method: entry.compressionMethod,
              flags: entry.generalPurposeBitFlag,
            });
          }
          zip.readEntry();
        } catch (e) {
          rej(e as Error);
        }
      });
      zip.readEntry();
    });
  } catch (e) {
    zip.close();
    if (e instanceof MigrationInputError) throw e;
    throw new MigrationInputError(`The zip archive cannot be read (${(e as Error).message})`);
  }
  const entries: readonly ArchiveEntry[] = [...byPath.values()];
  const read = async (path: string, maxBytes = limits.maxEntryBytes): Promise<Buffer> => {
    const found = byPath.get(path);
    if (!found) throw new MigrationInputError(`The archive has no entry '${path}'`);
    if (found.size > maxBytes) refuse(path, `an inflated size over ${maxBytes} bytes`);
    const stream = await new Promise<NodeJS.ReadableStream>((res, rej) =>
      zip.openReadStream(entryFor(found), (err, s) =>
        err || !s ? rej(err ?? new Error("no stream")) : res(s),
      ),
    );
    const chunks: Buffer[] = [];
    let got = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        got += chunk.length;
        // yauzl already stops at the declared size; this guards a lying declaration all the same.
        if (got > maxBytes) {
          (stream as unknown as { destroy?: () => void }).destroy?.();
          refuse(path, `an inflated size over ${maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      if (e instanceof MigrationInputError) throw e;
      throw new MigrationInputError(
        `Entry '${path}' of the archive cannot be read (${(e as Error).message})`,
      );
    }
    return Buffer.concat(chunks);
  };
  return {
    entries,
    skipped,
    has: (p) => byPath.has(p),
    read,
    readText: async (p, max) => decodeText(await read(p, max)),
    close: () => zip.close(),
  };
}

/** A single bare file seen as an archive of one entry (My Recipe Box uploads a CSV, not a zip). */
export function singleFile(name: string, data: Buffer): Archive {
  return {
    entries: [{ path: name, size: data.length }],
    skipped: [],
    has: (p) => p === name,
    read: async (p) => {
      if (p !== name) throw new MigrationInputError(`The archive has no entry '${p}'`);
      return data;
    },
    readText: async (p) => {
      if (p !== name) throw new MigrationInputError(`The archive has no entry '${p}'`);
      return decodeText(data);
    },
    close: () => undefined,
  };
}

/** Does this look like a zip (local file header or empty-archive signature)? */
export function isZip(head: Buffer): boolean {
  return (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    (head[2] === 3 || head[2] === 5) &&
    (head[3] === 4 || head[3] === 6)
  );
}

/** Inflate gzip, refusing output over `maxBytes` as it inflates (zlib stops at the cap). */
export async function gunzipCapped(data: Buffer, maxBytes: number, what: string): Promise<Buffer> {
  try {
    return await gunzipAsync(data, { maxOutputLength: maxBytes });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError) {
      throw new MigrationInputError(`${what} is refused: it inflates to more than ${maxBytes} bytes`);
    }
    throw new MigrationInputError(`${what} is not valid gzip data (${(e as Error).message})`);
  }
}

/**
 * Text as exports write it: UTF-8 mostly, sometimes with a BOM, UTF-16 from some Windows tools, and
 * Latin-1 from older ones (bytes that are not valid UTF-8).
 */
export function decodeText(data: Buffer): string {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return data.subarray(3).toString("utf8");
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder("utf-16le").decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder("utf-16be").decode(data.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return new TextDecoder("windows-1252").decode(data);
  }
}

/**
 * Safari's "Compress" wraps an export in a folder and adds `__MACOSX/` resource forks and `.DS_Store`
 * files; those are never part of the export.
 */
export function isJunk(path: string): boolean {
  const parts = path.split("/");
  return parts[0] === "__MACOSX" || parts.some((p) => p === ".DS_Store" || p.startsWith("._"));
}

const byDir = new WeakMap<Archive, Map<string, ArchiveEntry[]>>();
const byNfc = new WeakMap<Archive, Map<string, string>>();

/**
 * The entries directly in a folder of the archive. Grouped once per archive: a reader looking for each
 * recipe's picture among all entries made an export of thousands of recipes quadratic.
 */
export function entriesIn(archive: Archive, dir: string): readonly ArchiveEntry[] {
  let dirs = byDir.get(archive);
  if (!dirs) {
    dirs = new Map();
    for (const e of archive.entries) {
      const d = dirname(e.path);
      const list = dirs.get(d);
      if (list) list.push(e);
      else dirs.set(d, [e]);
    }
    byDir.set(archive, dirs);
  }
  return dirs.get(dir) ?? [];
}

/**
 * The entry's path whose name is `path` once both are in composed form (NFC), or else once both are
 * also in lower case, or null. A page made on Windows or a Mac, whose file systems ignore case, can link
 * `images/Pie.JPG` to a file stored as `images/pie.jpg`, and only the app's own file system knew.
 */
export function pathByNfc(archive: Archive, path: string): string | null {
  let paths = byNfc.get(archive);
  if (!paths) {
    paths = new Map();
    for (const e of archive.entries) {
      const k = e.path.normalize("NFC");
      if (!paths.has(k)) paths.set(k, e.path);
    }
    // Exact names first: a lower-cased key never hides an entry that has that very name.
    for (const e of archive.entries) {
      const k = `\u0000${e.path.normalize("NFC").toLowerCase()}`;
      if (!paths.has(k)) paths.set(k, e.path);
    }
    byNfc.set(archive, paths);
  }
  const k = path.normalize("NFC");
  return paths.get(k) ?? paths.get(`\u0000${k.toLowerCase()}`) ?? null;
}

/**
 * The entry a page's link (`<img src>`) points at: relative to the page's folder, URL-encoded (a stray
 * '%' is taken as written), with backslashes from exports written on Windows, and composed or decomposed
 * (a Mac's zip may store a name decomposed while the page has it composed). Null when there is none.
 */
export function linkedEntry(archive: Archive, base: string, src: string): string | null {
  let rel = src.replace(/\\/g, "/");
  try {
    rel = decodeURI(rel);
  } catch {
    /* a '%' that is part of the file name */
  }
  const path = [base, rel.replace(/^\.?\//, "")].filter(Boolean).join("/");
  if (archive.has(path)) return path;
  return pathByNfc(archive, path);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}
export function stem(path: string): string {
  const b = basename(path);
  const i = b.lastIndexOf(".");
  return i <= 0 ? b : b.slice(0, i);
}

const IMAGE_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
};
export function imageType(path: string): string | null {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return IMAGE_TYPES[ext] ?? null;
}

/**
 * A folder of files seen as an archive (the CLI's `larder migrate --from cooklang ./recipes/`). Symbolic
 * links are refused like symlink entries in a zip: an export folder has none, and following one could
 * read files from anywhere.
 */
export async function openFolder(root: string, limits: ArchiveLimits = DEFAULT_LIMITS): Promise<Archive> {
  const { lstat, readdir, readFile } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const sizes = new Map<string, number>();
  let total = 0;
  const walk = async (rel: string): Promise<void> => {
    for (const d of await readdir(join(root, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${d.name}` : d.name;
      const st = await lstat(join(root, p));
      if (st.isSymbolicLink()) refuse(p, "a symbolic link");
      if (st.isDirectory()) await walk(p);
      else if (st.isFile()) {
        if (sizes.size >= limits.maxEntries)
          throw new MigrationInputError(`The folder is refused: more than ${limits.maxEntries} files`);
        total += st.size;
        if (total > limits.maxTotalBytes)
          throw new MigrationInputError(`The folder is refused: more than ${limits.maxTotalBytes} bytes`);
        sizes.set(p, st.size);
      }
    }
  };
  await walk("");
  const read = async (p: string, maxBytes = limits.maxEntryBytes): Promise<Buffer> => {
    const size = sizes.get(p);
    if (size === undefined) throw new MigrationInputError(`The folder has no file '${p}'`);
    if (size > maxBytes) refuse(p, `a size over ${maxBytes} bytes`);
    return readFile(join(root, p));
  };
  return {
    entries: [...sizes.entries()].map(([path, size]) => ({ path, size })),
    skipped: [],
    has: (p) => sizes.has(p),
    read,
    readText: async (p, max) => decodeText(await read(p, max)),
    close: () => undefined,
  };
}

/**
 * A zip inside the upload (Tandoor's recipe zips, Cook'n's cookbooks), opened from its bytes. Its errors
 * name the entry: openZip's own speak of "the upload", which is whole; this one entry of it is not.
 */
export async function openInnerZip(archive: Archive, path: string, maxBytes: number): Promise<Archive> {
  const bytes = await archive.read(path, maxBytes);
  if (!isZip(bytes)) throw new Error(`${path} in the export is not a zip archive`);
  try {
    return await openZip(bytes, undefined, 1, { skipped: archive.skipped, prefix: `${path}/` });
  } catch (e) {
    throw new Error(`${path} in the export cannot be read as a zip (${(e as Error).message})`);
  }
}

/** A format's single file, for the formats that take one upload as one recipe file or one CSV. */
export interface BareFile {
  /** The name the file is read under (readers look for their files by name). */
  name: string;
  /** For a file with a signature of its own: whether these first bytes are one. */
  head?: (head: Buffer) => boolean;
}

/** Open what was uploaded or named: a folder, a zip, or (for formats that allow it) one bare file. */
export async function openUpload(
  path: string,
  opts: { bareFile?: BareFile; label: string },
): Promise<Archive> {
  const { open, stat } = await import("node:fs/promises");
  const st = await stat(path);
  if (st.isDirectory()) return openFolder(path);
  const fh = await open(path, "r");
  try {
    const head = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    if (isZip(head)) return openZip(path);
    const bare = opts.bareFile;
    if (!bare)
      throw new MigrationInputError(
        `The upload is not a zip archive: a ${opts.label} migration expects a zip. Check the migration type.`,
      );
    if (bare.head && !bare.head(head))
      throw new MigrationInputError(
        `The upload is neither a zip archive nor a single ${opts.label} recipe. Check the migration type.`,
      );
    if (st.size > DEFAULT_LIMITS.maxEntryBytes)
      throw new MigrationInputError(
        `The file is refused: it is larger than ${DEFAULT_LIMITS.maxEntryBytes} bytes`,
      );
    const data = Buffer.alloc(st.size);
    await fh.read(data, 0, st.size, 0);
    return singleFile(bare.name, data);
  } finally {
    await fh.close();
  }
}
