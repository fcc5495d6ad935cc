/**
 * Reading a backup zip from its file, one entry at a time (decision 0198): verifying it hashes every
 * file as it streams by, and restoring it writes each file into the staging folder as it streams by,
 * so neither ever holds the archive or its files in memory. Nothing in the zip is trusted: every entry
 * goes through the import guards (core/imports/safe-zip.ts) and must be a file the manifest lists,
 * with the manifest's size and sha256, at a path a restore may write.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Transform, Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Entry } from "yauzl";
import {
  collectEntry,
  entryProblem,
  UnsafeZipError,
  ZipFileReader,
  type ZipLimits,
} from "../imports/safe-zip.js";
import {
  BACKUP_FORMAT_VERSION,
  InvalidBackupError,
  Manifest,
  MANIFEST_NAME,
  unsafeBackupPath,
} from "./archive.js";

/**
 * Limits for a backup. Its files are streamed, never held, so the bounds are the manifest's and the
 * disk's: a restore checks the free space first (restore.ts). The ratio still refuses a zip bomb.
 */
export const BACKUP_ZIP_LIMITS: ZipLimits = {
  maxEntries: 1_000_000,
  maxTotalBytes: 2 ** 40,
  maxEntryBytes: 2 ** 40,
  maxRatio: 200,
};

/** The manifest is read into memory: a million files' names and hashes fit well within this. */
const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;
/** Entries streamed at once: small files are mostly waiting on the disk. */
const IN_FLIGHT = 8;

/** Where a restore writes one file of the backup. */
export interface BackupFileTarget {
  path: string;
  mode: number;
}

const isDir = (e: Entry): boolean => e.fileName.endsWith("/");

/** Run `use` over the opened zip; the guards' refusals become InvalidBackupError. */
async function withZip<T>(path: string, use: (zip: ZipFileReader) => Promise<T>): Promise<T> {
  let zip: ZipFileReader | null = null;
  try {
    zip = await ZipFileReader.open(path);
    return await use(zip);
  } catch (e) {
    if (e instanceof UnsafeZipError)
      throw new InvalidBackupError(`${e.message}. The backup is damaged or not a Larder backup.`);
    throw e;
  } finally {
    zip?.close();
  }
}

function checkEntry(e: Entry, count: number): void {
  if (count > BACKUP_ZIP_LIMITS.maxEntries)
    throw new UnsafeZipError(`more than ${BACKUP_ZIP_LIMITS.maxEntries} entries`);
  const why = entryProblem(e, BACKUP_ZIP_LIMITS);
  if (why) throw new UnsafeZipError(why);
}

function parseManifest(raw: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new InvalidBackupError(`The backup's ${MANIFEST_NAME} is not valid JSON`);
  }
  const version = (json as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof version === "number" && version > BACKUP_FORMAT_VERSION) {
    const by = (json as { larderVersion?: unknown }).larderVersion;
    throw new InvalidBackupError(
      `The backup has format version ${version}${typeof by === "string" ? ` (written by Larder ${by})` : ""}; this Larder reads format version ${BACKUP_FORMAT_VERSION} and older. Restore it with a Larder that supports format version ${version}.`,
    );
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) throw new InvalidBackupError(`The backup's ${MANIFEST_NAME} is not a valid manifest`);
  return parsed.data;
}

/** The manifest, found through the central directory, after every entry passed the guards. */
async function manifestOf(zip: ZipFileReader): Promise<Manifest> {
  let found: Entry | null = null;
  let count = 0;
  for await (const e of zip.entries()) {
    checkEntry(e, ++count);
    if (e.fileName === MANIFEST_NAME) found = e;
    else if (!isDir(e)) {
      const why = unsafeBackupPath(e.fileName);
      if (why) throw new InvalidBackupError(`The backup contains ${why}`);
    }
  }
  if (!found) throw new InvalidBackupError(`Not a Larder backup: ${MANIFEST_NAME} is missing`);
  if (found.uncompressedSize > MANIFEST_MAX_BYTES)
    throw new InvalidBackupError(`The backup's ${MANIFEST_NAME} is larger than ${MANIFEST_MAX_BYTES} bytes`);
  return parseManifest(
    await collectEntry(await zip.openStream(found), found.uncompressedSize, found.fileName),
  );
}

/** Entries up to this size are read whole, hashed and written in one call; larger ones stream. */
const WHOLE_BYTES = 1024 * 1024;

/** Stream an entry into `sink` (or nowhere), hashing it on the way. */
async function streamed(
  stream: NodeJS.ReadableStream,
  sink: Writable | null,
  name: string,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const out = sink ?? new Writable({ write: (_c, _e, done) => done() });
  await pipeline(stream as Readable, tap, out).catch((err: unknown) => {
    throw new UnsafeZipError(`entry ${name}: ${err instanceof Error ? err.message : String(err)}`);
  });
  return { size, sha256: hash.digest("hex") };
}

/** A file that cannot be written where its path says (a file where a folder must be, or twice): a damaged backup, not a server error. */
function laidOut(e: unknown): never {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR")
    throw new InvalidBackupError(`The backup's files cannot be laid out as folders: ${(e as Error).message}`);
  throw e;
}

/**
 * Check every file of the backup against its manifest, streaming each through sha256; with `target`,
 * also write each to where it says (creating folders, never overwriting). Throws InvalidBackupError
 * at the first file that is unlisted, twice in the zip, of another size or checksum, or missing.
 */
async function eachFile(
  path: string,
  target?: (name: string) => BackupFileTarget,
  beforeFiles?: (manifest: Manifest) => Promise<void>,
): Promise<Manifest> {
  return withZip(path, async (zip) => {
    const manifest = await manifestOf(zip);
    await beforeFiles?.(manifest);
    const want = new Map(Object.entries(manifest.files));
    // A second reader for the files: the first one's directory has been walked to its end.
    const files = await ZipFileReader.open(path);
    const seen = new Set<string>();
    const madeDirs = new Set<string>();
    const inFlight = new Set<Promise<void>>();
    let failure: unknown = null;
    const one = async (e: Entry): Promise<void> => {
      const name = e.fileName;
      const listed = want.get(name);
      if (!listed)
        throw new InvalidBackupError(`The backup contains a file its manifest does not list: ${name}`);
      if (seen.has(name)) throw new InvalidBackupError(`The backup contains ${name} twice`);
      seen.add(name);
      const t = target?.(name);
      if (t) {
        const dir = dirname(t.path);
        if (!madeDirs.has(dir)) {
          await mkdir(dir, { recursive: true });
          madeDirs.add(dir);
        }
      }
      const stream = await files.openStream(e);
      let got: { size: number; sha256: string };
      if (e.uncompressedSize <= WHOLE_BYTES) {
        const data = await collectEntry(stream, e.uncompressedSize, name);
        got = { size: data.length, sha256: createHash("sha256").update(data).digest("hex") };
        if (got.size === listed.size && got.sha256 === listed.sha256 && t)
          await writeFile(t.path, data, { flag: "wx", mode: t.mode });
      } else {
        got = await streamed(
          stream,
          t ? createWriteStream(t.path, { flags: "wx", mode: t.mode }) : null,
          name,
        );
      }
      if (got.size !== listed.size || got.sha256 !== listed.sha256)
        throw new InvalidBackupError(`Checksum mismatch for ${name}: the backup is damaged`);
    };
    try {
      let count = 0;
      for await (const e of files.entries()) {
        checkEntry(e, ++count);
        if (isDir(e) || e.fileName === MANIFEST_NAME) continue;
        const why = unsafeBackupPath(e.fileName);
        if (why) throw new InvalidBackupError(`The backup contains ${why}`);
        const p: Promise<void> = one(e)
          .catch(laidOut)
          .then(
            () => void inFlight.delete(p),
            (err: unknown) => {
              inFlight.delete(p);
              failure ??= err;
            },
          );
        inFlight.add(p);
        if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
        if (failure) break;
      }
    } finally {
      await Promise.all(inFlight);
      files.close();
    }
    if (failure) throw failure;
    for (const name of want.keys())
      if (!seen.has(name)) throw new InvalidBackupError(`The backup is incomplete: ${name} is missing`);
    return manifest;
  });
}

/**
 * Read and verify a backup file: a readable zip, no unsafe entry, a manifest this Larder understands,
 * every listed file present with its size and checksum, nothing unlisted, every path a tracked path
 * (or an allowed secret). Returns the manifest; throws InvalidBackupError with the reason.
 */
export function verifyBackup(path: string): Promise<Manifest> {
  return eachFile(path);
}

/**
 * verifyBackup, writing each file to `target(name)` as it is checked; `beforeFiles` sees the manifest
 * before any file is read or written (and may refuse). The caller removes what was written when this
 * throws.
 */
export function extractBackup(
  path: string,
  target: (name: string) => BackupFileTarget,
  beforeFiles?: (manifest: Manifest) => Promise<void>,
): Promise<Manifest> {
  return eachFile(path, target, beforeFiles);
}

/** What kind of zip this is: ours, a Mealie backup (database.json + data/), or neither. */
export async function sniffBackup(path: string): Promise<"larder" | "mealie" | "unknown"> {
  return withZip(path, async (zip) => {
    let database = false;
    let data = false;
    let count = 0;
    for await (const e of zip.entries()) {
      checkEntry(e, ++count);
      if (e.fileName === MANIFEST_NAME) return "larder";
      // Mealie's layout, possibly inside one wrapper folder (a Safari-mangled zip).
      const stripped = e.fileName.replace(/^(?!data\/)(?!database\.json)[^/]+\//, "");
      database ||= stripped === "database.json";
      data ||= stripped.startsWith("data/") && !isDir(e);
    }
    return database && data ? "mealie" : "unknown";
  });
}
