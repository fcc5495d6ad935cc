/**
 * The backup zip (decision 0070): the data folder's tracked tree (everything but `.git/` and
 * `.larder/`), optionally the per-machine secrets of `.larder/`, and `larder-backup.json`, a manifest
 * with the format version, the Larder version, counts and the sha256 of every file. Reading it:
 * read-backup.ts.
 */
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { Readable, Writable } from "node:stream";
import { z } from "zod";
import { LarderError } from "../errors.js";
import { newZipArchive } from "../util/zip-archive.js";

export const MANIFEST_NAME = "larder-backup.json";
/** Bumped when a backup's layout changes in a way an older Larder cannot restore. */
export const BACKUP_FORMAT_VERSION = 1;
/** Top-level entries never backed up nor replaced by a restore. */
export const UNTRACKED_TOP = new Set([".git", ".larder"]);
/**
 * Files of `.larder/` that a backup with secrets carries: what a restored site needs to keep signing
 * in its people (JWT secret, password hashes, API tokens, notifier credentials). Sessions, the lock,
 * caches, temp files, logs and backups never travel.
 */
export const SECRET_FILES = ["secrets.json", "credentials.json", "api-tokens.json", "notifier-urls.json"];

export const Manifest = z.object({
  format: z.literal("larder-backup"),
  formatVersion: z.number().int().positive(),
  larderVersion: z.string(),
  createdAt: z.string(),
  includesSecrets: z.boolean(),
  counts: z.object({ files: z.number().int(), recipes: z.number().int(), groups: z.number().int() }),
  files: z.record(
    z.string(),
    z.object({ size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ),
});
export type Manifest = z.infer<typeof Manifest>;

/** A backup that cannot be restored: 400 with a message saying why. */
export class InvalidBackupError extends LarderError {
  constructor(message: string) {
    super(message, 400);
  }
}

export function larderVersion(): string {
  let dir = dirname(new URL(import.meta.url).pathname);
  for (let i = 0; i < 5; i++) {
    const p = join(dir, "package.json");
    if (existsSync(p)) {
      try {
        const v = JSON.parse(readFileSync(p, "utf8")) as { name?: string; version?: string };
        if (v.name === "larder" && v.version) return v.version;
      } catch {
        // keep looking
      }
    }
    dir = dirname(dir);
  }
  return "unknown";
}

/** How far reading may run ahead of the output, in bytes (see writeBackup). */
const MAX_BEHIND_BYTES = 32 * 1024 * 1024;
/** Files read between two turns of the event loop. */
const YIELD_EVERY = 64;

/** Relative paths (forward slashes) of the files a backup takes, sorted. */
export async function collectFiles(root: string, opts: { secrets: boolean }): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const abs = join(dir, e.name);
      if (dir === root && UNTRACKED_TOP.has(e.name)) continue;
      // Symlinks are not followed nor stored: a restore never creates one.
      if (e.isDirectory()) await walk(abs);
      else if (e.isFile()) out.push(relative(root, abs).split(sep).join("/"));
    }
  };
  await walk(root);
  if (opts.secrets) {
    for (const name of SECRET_FILES) {
      const st = await lstat(join(root, ".larder", name)).catch(() => null);
      if (st?.isFile()) out.push(`.larder/${name}`);
    }
  }
  return out.sort();
}

/**
 * Resolves once `ok()` holds, checked whenever the archive finishes an entry or passes a chunk on, or
 * when the archive or its output fails (nothing more will move then).
 */
function until(archive: Readable, out: Writable, ok: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (ok()) done();
    };
    const done = () => {
      archive.off("entry", check);
      archive.off("data", check);
      archive.off("error", done);
      out.off("error", done);
      resolve();
    };
    archive.on("entry", check);
    archive.on("data", check);
    archive.once("error", done);
    out.once("error", done);
    check();
  });
}

export interface WriteBackupOptions {
  secrets: boolean;
  /** Where the bytes go (tests inject a stream that fails like a full disk). */
  openStream?: (path: string) => Writable;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Write the backup of `root` to `target`. On any failure (ENOSPC included) the partial file is
 * removed and the error rethrown; the caller writes to a temporary name and renames on success.
 */
export async function writeBackup(root: string, target: string, opts: WriteBackupOptions): Promise<Manifest> {
  const files = await collectFiles(root, { secrets: opts.secrets });
  const archive = await newZipArchive();
  const out = opts.openStream ? opts.openStream(target) : createWriteStream(target, { mode: 0o600 });
  const written = new Promise<void>((resolve, reject) => {
    out.on("close", () => resolve());
    out.on("finish", () => resolve());
    out.on("error", reject);
    archive.on("error", reject);
  });
  // An error before anyone awaits `written` must not become an unhandled rejection.
  written.catch(() => undefined);
  archive.pipe(out);
  try {
    const manifest: Manifest = {
      format: "larder-backup",
      formatVersion: BACKUP_FORMAT_VERSION,
      larderVersion: larderVersion(),
      createdAt: new Date().toISOString(),
      includesSecrets: opts.secrets,
      counts: { files: 0, recipes: 0, groups: 0 },
      files: {},
    };
    // Bytes read and not yet through the archive, or through it and not yet taken by the output:
    // reading stops while the archive is this far behind, so a folder of large images is never held
    // in memory whole.
    const pending: number[] = [];
    let pendingBytes = 0;
    archive.on("entry", () => (pendingBytes -= pending.shift() ?? 0));
    const behind = () => pendingBytes + archive.readableLength;
    let i = 0;
    for (const rel of files) {
      // Read in one call, not four awaited ones (open, stat, read, close): at 50,000 recipe files the
      // hops were a third of a backup's time. A turn of the event loop every few files keeps the
      // server answering meanwhile.
      const data = readFileSync(join(root, rel));
      manifest.files[rel] = { size: data.length, sha256: createHash("sha256").update(data).digest("hex") };
      pending.push(data.length);
      pendingBytes += data.length;
      archive.append(data, { name: rel, mode: 0o644 });
      opts.onProgress?.(++i, files.length);
      // Fail fast when the stream has already failed (a full disk): no point reading the rest.
      if (out.destroyed || out.errored) break;
      if (behind() > MAX_BEHIND_BYTES) await until(archive, out, () => behind() <= MAX_BEHIND_BYTES / 2);
      else if (i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    manifest.counts = {
      files: files.length,
      recipes: files.filter((f) => /^groups\/[^/]+\/recipes\/[^/]+\.md$/.test(f)).length,
      groups: files.filter((f) => /^groups\/[^/]+\/group\.json$/.test(f)).length,
    };
    archive.append(JSON.stringify(manifest, null, 2) + "\n", { name: MANIFEST_NAME });
    await archive.finalize();
    await written;
    if (out.errored) throw out.errored;
    return manifest;
  } catch (e) {
    archive.abort();
    out.destroy();
    await rm(target, { force: true });
    throw e;
  }
}

/** Why a path in a backup may not be restored, or null. */
export function unsafeBackupPath(name: string): string | null {
  const parts = name.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) return `an unsafe path (${name})`;
  if (parts[0] === ".git") return `a path inside .git (${name})`;
  if (parts[0] === ".larder" && !(parts.length === 2 && SECRET_FILES.includes(parts[1]))) {
    return `a per-machine file that never travels (${name})`;
  }
  return null;
}
