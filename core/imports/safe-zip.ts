/**
 * Reading an uploaded zip without trusting it. Refused outright: entry names that climb out (`../x`),
 * absolute or drive-letter paths, symlinks, encrypted entries, more than `maxEntries` entries, a total
 * uncompressed size over `maxTotalBytes`, and any entry whose expansion ratio exceeds `maxRatio` (a
 * zip bomb). Declared sizes are not trusted either: yauzl checks each entry's real size against its
 * header while inflating, and we count bytes as they come. Nothing is written to disk: the entries a
 * caller asks for are returned as buffers.
 */
import type { Readable } from "node:stream";
import { LarderError } from "../errors.js";

export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxEntryBytes: number;
  /** Uncompressed ÷ compressed size above which an entry (over 64 KiB) is refused. */
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 2000,
  maxTotalBytes: 512 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
  maxRatio: 200,
};

/** The zip library's own words ("End of central directory record signature not found") say nothing to a person. */
const UNREADABLE = "not a readable zip (the file is not a zip archive, or it is cut short or damaged)";

export class UnsafeZipError extends LarderError {
  constructor(message: string) {
    super(`Refused archive: ${message}`, 400);
  }
}

export interface ZipEntryInfo {
  name: string;
  size: number;
  compressedSize: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why this entry name is unsafe, or null. */
export function unsafeEntryName(name: string): string | null {
  if (name.includes("\0")) return "a name with a NUL byte";
  if (name.startsWith("/") || name.startsWith("\\") || /^[a-zA-Z]:/.test(name))
    return `an absolute path (${name})`;
  if (name.split(/[\\/]/).some((p) => p === "..")) return `a path that leaves the archive (${name})`;
  return null;
}

/**
 * Why one entry of the central directory may not be read (unsafe name, symbolic link, encryption,
 * too large, a zip bomb), or null. The total and the count are the caller's to add up.
 */
export function entryProblem(e: import("yauzl").Entry, limits: ZipLimits): string | null {
  const why = unsafeEntryName(e.fileName);
  if (why) return `it contains ${why}`;
  const mode = (e.externalFileAttributes >>> 16) & 0xffff;
  if ((mode & S_IFMT) === S_IFLNK) return `it contains a symbolic link (${e.fileName})`;
  if (e.generalPurposeBitFlag & 0x1) return `it contains an encrypted entry (${e.fileName})`;
  if (e.uncompressedSize > limits.maxEntryBytes)
    return `an entry is larger than ${limits.maxEntryBytes} bytes (${e.fileName})`;
  if (e.uncompressedSize > 64 * 1024 && e.uncompressedSize > Math.max(1, e.compressedSize) * limits.maxRatio)
    return `an entry expands more than ${limits.maxRatio} times (${e.fileName}): a zip bomb?`;
  return null;
}

/**
 * A zip file on disk, its entries read one at a time (decision 0198): for archives too large to hold
 * in memory. Nothing is checked here; callers apply entryProblem to every entry they take.
 */
export class ZipFileReader {
  /** An error the zip reported while no entry was asked for: an EventEmitter's unheard error would end the process. */
  private failed: Error | null = null;

  private constructor(private readonly zip: import("yauzl").ZipFile) {
    zip.on("error", (err: Error) => (this.failed ??= err));
  }

  static async open(path: string): Promise<ZipFileReader> {
    const yauzl = (await import("yauzl")).default;
    const { openBlockZip } = await import("./zip-block-reader.js");
    const zip = await openBlockZip(
      yauzl,
      path,
      {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: true,
        validateEntrySizes: true,
        strictFileNames: false,
      },
      () => new UnsafeZipError(UNREADABLE),
    );
    return new ZipFileReader(zip);
  }

  get entryCount(): number {
    return this.zip.entryCount;
  }

  /** The central directory's entries in order; an unreadable directory throws UnsafeZipError. */
  async *entries(): AsyncGenerator<import("yauzl").Entry> {
    const zip = this.zip;
    for (;;) {
      if (this.failed) throw new UnsafeZipError(this.failed.message);
      const next = await new Promise<import("yauzl").Entry | null>((resolve, reject) => {
        const done = (): void => {
          zip.off("entry", onEntry);
          zip.off("end", onEnd);
          zip.off("error", onError);
        };
        const onEntry = (e: import("yauzl").Entry): void => (done(), resolve(e));
        const onEnd = (): void => (done(), resolve(null));
        const onError = (err: Error): void => (done(), reject(new UnsafeZipError(err.message)));
        zip.on("entry", onEntry);
        zip.on("end", onEnd);
        zip.on("error", onError);
        zip.readEntry();
      });
      if (!next) return;
      yield next;
    }
  }

  /** The entry's bytes as a stream, inflated; yauzl fails it when they differ from the declared size. */
  openStream(entry: import("yauzl").Entry): Promise<NodeJS.ReadableStream> {
    return openEntryStream(this.zip, entry);
  }

  close(): void {
    this.zip.close();
  }
}

/**
 * List the archive and read the entries `want` picks. Throws UnsafeZipError for any of the attacks
 * above, before reading a single picked entry when the central directory already tells.
 */
export async function readZip(
  data: Buffer,
  want: (entry: ZipEntryInfo, all: readonly ZipEntryInfo[]) => boolean,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<{ entries: ZipEntryInfo[]; files: Map<string, Buffer> }> {
  // yauzl is CommonJS: its exports are the namespace's `default` both in Node and in the bundle, whose
  // chunk for it has nothing else (a named `fromBuffer` there is undefined, and every zip was refused).
  const yauzl = (await import("yauzl")).default;
  type ZipFile = import("yauzl").ZipFile;
  type Entry = import("yauzl").Entry;
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    // strictFileNames off: we judge names ourselves, to say why; decodeStrings keeps names as text.
    yauzl.fromBuffer(
      data,
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false },
      (err, z) => (err || !z ? reject(new UnsafeZipError(UNREADABLE)) : resolve(z)),
    ),
  ).catch((e: unknown) => {
    throw e instanceof UnsafeZipError ? e : new UnsafeZipError(String(e));
  });
  try {
    if (zip.entryCount > limits.maxEntries)
      throw new UnsafeZipError(`more than ${limits.maxEntries} entries`);
    const raw: Entry[] = [];
    await new Promise<void>((resolve, reject) => {
      zip.on("entry", (e: Entry) => {
        raw.push(e);
        zip.readEntry();
      });
      zip.on("end", () => resolve());
      zip.on("error", (err: Error) => {
        // yauzl's own name checks (absolute, `..`) land here too.
        reject(new UnsafeZipError(err.message));
      });
      zip.readEntry();
    });
    let total = 0;
    for (const e of raw) {
      const why = entryProblem(e, limits);
      if (why) throw new UnsafeZipError(why);
      total += e.uncompressedSize;
      if (total > limits.maxTotalBytes)
        throw new UnsafeZipError(`it expands to more than ${limits.maxTotalBytes} bytes`);
    }
    const entries = raw
      .filter((e) => !e.fileName.endsWith("/"))
      .map((e) => ({ name: e.fileName, size: e.uncompressedSize, compressedSize: e.compressedSize }));
    const files = new Map<string, Buffer>();
    for (const e of raw) {
      if (e.fileName.endsWith("/")) continue;
      const info = { name: e.fileName, size: e.uncompressedSize, compressedSize: e.compressedSize };
      if (!want(info, entries)) continue;
      files.set(e.fileName, await readEntry(zip, e, limits.maxEntryBytes));
    }
    return { entries, files };
  } finally {
    zip.close();
  }
}

function readEntry(zip: import("yauzl").ZipFile, entry: import("yauzl").Entry, max: number): Promise<Buffer> {
  return openEntryStream(zip, entry).then((stream) =>
    collectEntry(stream, Math.min(max, entry.uncompressedSize), entry.fileName),
  );
}

/** An entry's bytes as a stream, inflated; yauzl fails it when they differ from the declared size. */
function openEntryStream(
  zip: import("yauzl").ZipFile,
  entry: import("yauzl").Entry,
): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) =>
      err || !stream
        ? reject(
            new UnsafeZipError(`entry ${entry.fileName} cannot be read (${err?.message ?? "no stream"})`),
          )
        : resolve(stream),
    ),
  );
}

/** The bytes of an entry's stream, refused past `max` of them (what the entry declares, or less). */
export function collectEntry(stream: NodeJS.ReadableStream, max: number, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    stream.on("data", (c: Buffer) => {
      n += c.length;
      if (n > max) {
        (stream as Readable).destroy();
        reject(new UnsafeZipError(`entry ${name} is larger than it declares`));
      } else chunks.push(c);
    });
    stream.on("error", (e: Error) => reject(new UnsafeZipError(`entry ${name}: ${e.message}`)));
    stream.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  });
}
