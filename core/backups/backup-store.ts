/**
 * Backups on disk, in `.larder/backups/`, without an open Larder (the CLI uses this directly while it
 * holds the folder's lock; the server goes through BackupsService). Only names this module makes
 * (`larder_YYYY.MM.DD.HH.MM.SS.zip`, with `_N` when two land in the same second, and
 * `larder_before-restore_YYYY…` for the one a restore takes of the data it replaces) can be downloaded,
 * restored or deleted: a name is checked against that pattern before it is joined to any path.
 */
import { randomBytes } from "node:crypto";
import { copyFile, link, lstat, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { BadRequestError, NotFoundError } from "../errors.js";
import { DataFolder, ensurePrivateDirs } from "../storage/data-folder.js";
import { writeFileAtomic } from "../storage/atomic-write.js";
import { formatBytes } from "../maintenance/disk.js";
import { writeBackup, type Manifest, type WriteBackupOptions } from "./archive.js";
import { sniffBackup, verifyBackup } from "./read-backup.js";
import { checkFreeSpace, discardStaged, stageBackup, swapInStaged, type RestoreHook } from "./restore.js";
import { runInPool } from "../workers/pool.js";

const BACKUP_NAME = String.raw`larder_(?:before-restore_)?\d{4}\.\d{2}\.\d{2}\.\d{2}\.\d{2}\.\d{2}(_\d{1,3})?\.zip`;
export const BACKUP_NAME_RE = new RegExp(`^${BACKUP_NAME}$`);
/** A backup being written (create) or an upload being taken in (adopt): renamed once complete. */
const PARTIAL_RE = new RegExp(String.raw`^${BACKUP_NAME}(\.[0-9a-f]{8})?\.partial$`);

/** A backup someone asked for (or the nightly job), or the one a restore takes of what it replaces. */
export type BackupKind = "plain" | "before-restore";

export interface BackupFileInfo {
  name: string;
  /** ISO date-time of the file's last change. */
  date: string;
  size: string;
  bytes: number;
}

/** 400 for a name that could never be ours (`../`, `/abs`, NUL …); the name itself otherwise. */
export function checkBackupName(name: unknown): string {
  if (typeof name !== "string" || !BACKUP_NAME_RE.test(name)) {
    throw new BadRequestError(
      "Invalid backup name: only backups Larder made (larder_YYYY.MM.DD.HH.MM.SS.zip, larder_before-restore_YYYY.MM.DD.HH.MM.SS.zip) can be used",
    );
  }
  return name;
}

function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}.${p(d.getUTCMonth() + 1)}.${p(d.getUTCDate())}.${p(d.getUTCHours())}.${p(d.getUTCMinutes())}.${p(d.getUTCSeconds())}`;
}

export class BackupStore {
  readonly folder: DataFolder;

  constructor(root: string | DataFolder) {
    this.folder = typeof root === "string" ? new DataFolder(root) : root;
  }

  get dir(): string {
    return this.folder.backupsDir;
  }

  /**
   * Remove the partial files of backups a killed process was writing. Only for whoever opens the folder
   * to write (it holds the folder, so no backup of another process is in progress); returns the bytes freed.
   */
  async removeLeftovers(): Promise<number> {
    let freed = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (!PARTIAL_RE.test(name)) continue;
      const st = await lstat(join(this.dir, name)).catch(() => null);
      if (!st?.isFile()) continue;
      await rm(join(this.dir, name), { force: true });
      freed += st.size;
    }
    return freed;
  }

  /** Every backup, newest first. Files of other names (partial writes, things put there by hand) are left out. */
  async list(): Promise<BackupFileInfo[]> {
    const out: BackupFileInfo[] = [];
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (!BACKUP_NAME_RE.test(name)) continue;
      const st = await lstat(join(this.dir, name)).catch(() => null);
      if (!st?.isFile()) continue;
      out.push({ name, date: st.mtime.toISOString(), size: formatBytes(st.size), bytes: st.size });
    }
    // Newest first: by time, then by the `_N` that orders backups made in one second.
    const seq = (n: string) => Number(/_(\d+)\.zip$/.exec(n)?.[1] ?? 0);
    return out.sort(
      (a, b) => b.date.localeCompare(a.date) || seq(b.name) - seq(a.name) || (a.name < b.name ? 1 : -1),
    );
  }

  /** The path of an existing backup: 400 for a bad name, 404 for one that is not there. */
  async pathOf(name: unknown): Promise<string> {
    const p = join(this.dir, checkBackupName(name));
    const st = await lstat(p).catch(() => null);
    if (!st?.isFile()) throw new NotFoundError("Backup not found");
    return p;
  }

  /** A fresh name: the time, and `_N` when a backup of that second exists. */
  private async freshName(kind: BackupKind = "plain", now = new Date()): Promise<string> {
    const base = `larder_${kind === "before-restore" ? "before-restore_" : ""}${stamp(now)}`;
    const taken = new Set(await readdir(this.dir).catch(() => [] as string[]));
    for (let i = 0; i < 1000; i++) {
      const name = i === 0 ? `${base}.zip` : `${base}_${i}.zip`;
      if (!taken.has(name) && !taken.has(`${name}.partial`)) return name;
    }
    throw new BadRequestError("Too many backups in one second");
  }

  /**
   * Write a new backup. The zip is written as `<name>.partial` and renamed once complete. `kind`
   * "before-restore" names it so a person sees it holds the data a restore replaced.
   */
  async create(
    opts: Partial<WriteBackupOptions> & { kind?: BackupKind } = {},
  ): Promise<{ name: string; manifest: Manifest; bytes: number }> {
    await ensurePrivateDirs(this.folder);
    const name = await this.freshName(opts.kind);
    const partial = join(this.dir, `${name}.partial`);
    const secrets = opts.secrets ?? false;
    // On a thread of the worker pool unless the caller watches it (progress) or supplies the stream:
    // compressing tens of thousands of files, and the zip's directory of them all written at the end
    // in one go (a second and more at 50,000 recipes), stay off the server's event loop.
    const manifest =
      opts.openStream || opts.onProgress
        ? await writeBackup(this.folder.root, partial, { ...opts, secrets })
        : await runInPool({ op: "backup", root: this.folder.root, target: partial, secrets });
    await rename(partial, join(this.dir, name));
    return { name, manifest, bytes: (await stat(join(this.dir, name))).size };
  }

  async remove(name: unknown): Promise<void> {
    await rm(await this.pathOf(name));
  }

  /** Read and check a backup; throws InvalidBackupError saying what is wrong. */
  async verify(name: unknown): Promise<Manifest> {
    return verifyBackup(await this.pathOf(name));
  }

  /** verify, and whether the disk has room to unpack it beside the live data (507 when not). */
  async verifyForRestore(name: unknown): Promise<Manifest> {
    const manifest = await this.verify(name);
    await checkFreeSpace(this.folder.root, manifest);
    return manifest;
  }

  /**
   * Take an uploaded zip (a temp file; the caller removes it) into the backups folder under a fresh
   * name, once it is known to be a Larder backup that verifies. A Mealie backup is reported as such
   * for the caller to hand to the migration.
   */
  async adopt(file: string): Promise<{ kind: "larder"; name: string } | { kind: "mealie" }> {
    const kind = await sniffBackup(file).catch(() => "unknown" as const);
    if (kind === "mealie") return { kind: "mealie" };
    await verifyBackup(file);
    await ensurePrivateDirs(this.folder);
    const name = await this.freshName();
    const tmp = join(this.dir, `${name}.${randomBytes(4).toString("hex")}.partial`);
    // A second name for the upload's bytes rather than a copy of them (a backup can be gigabytes); a
    // copy where the two folders are on different file systems.
    const linked =
      (await lstat(file)).isFile() &&
      (await link(file, tmp).then(
        () => true,
        () => false,
      ));
    if (!linked) await copyFile(file, tmp);
    await rename(tmp, join(this.dir, name));
    return { kind: "larder", name };
  }

  /**
   * Restore a backup into the folder: stage (verifying every file; a damaged backup changes nothing),
   * then swap. The caller makes sure nothing else writes to the folder meanwhile.
   */
  async restore(name: unknown, hook?: RestoreHook): Promise<Manifest> {
    const manifest = await this.stage(name, hook);
    await this.swapStaged(name, hook);
    return manifest;
  }

  /**
   * Unpack a backup into `.larder/restore/staging/`, verifying every file as it is written. Nothing
   * live is touched, so the server keeps serving while this runs; a damaged backup leaves nothing.
   */
  async stage(name: unknown, hook?: RestoreHook): Promise<Manifest> {
    return stageBackup(this.folder.root, await this.pathOf(name), hook);
  }

  /** Make the staged backup the folder's tracked tree (restore.ts) and end every session. */
  async swapStaged(name: unknown, hook?: RestoreHook): Promise<void> {
    await swapInStaged(this.folder.root, checkBackupName(name), hook);
    // Sessions belong to the data that was live: none survives a restore.
    await writeFileAtomic(this.folder.sessionsJson, JSON.stringify({ sessions: {} }, null, 2) + "\n", {
      tmpDir: this.folder.tmpDir,
      mode: 0o600,
    });
  }

  /** Drop what stage unpacked when its swap never began (restore.ts). */
  async discardStaged(): Promise<void> {
    await discardStaged(this.folder.root);
  }

  /** Keep the newest `keep` backups, delete the rest; returns the names deleted. */
  async prune(keep: number): Promise<string[]> {
    const all = await this.list();
    const doomed = all.slice(Math.max(0, keep));
    for (const b of doomed) await rm(join(this.dir, b.name), { force: true });
    return doomed.map((b) => b.name);
  }
}
