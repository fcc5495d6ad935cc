/**
 * The admin's backups (mealie-api-notes §10, spec §7 "Backups"; decisions 0070–0072), actor-first.
 * Storage and the restore itself are in backup-store.ts and restore.ts; this adds permissions, the
 * download token, Mealie backups handed to the migration, the nightly job, and the reload of the
 * open Larder after a restore.
 */
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import { adminOf } from "../users/accounts-service.js";
import { BadRequestError } from "../errors.js";
import { refuseInDemo } from "../policy/demo.js";
import { BackupStore, checkBackupName } from "./backup-store.js";
import type { RestoreHook } from "./restore.js";
import { guardedRestore } from "./guarded-restore.js";
import type { Writable } from "node:stream";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "exports" | "folder" | "log" | "migrations" | "reload" | "whileRestoring">;

export interface SuccessResponse {
  message: string;
  error: false;
}

export class BackupsService {
  readonly store: BackupStore;
  /** Tests only: the stream a backup is written to (a full disk is simulated with it). */
  openStream: ((path: string) => Writable) | undefined;
  /** Tests only: called between the steps of a restore. */
  restoreHook: RestoreHook | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly larder: Deps) {
    this.store = new BackupStore(larder.folder);
  }

  /** One backup or restore at a time: they read or replace the whole folder. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.running.then(fn, fn);
    this.running = next.catch(() => undefined);
    return next;
  }

  /** GET /admin/backups: Mealie's AllBackups (`templates` is always empty in Larder). */
  async list(
    actor: Actor,
  ): Promise<{ imports: Array<{ name: string; date: string; size: string }>; templates: string[] }> {
    adminOf(actor);
    return {
      imports: (await this.store.list()).map(({ name, date, size }) => ({ name, date, size })),
      templates: [],
    };
  }

  /** POST /admin/backups. */
  async create(actor: Actor, opts: { secrets?: boolean } = {}): Promise<SuccessResponse & { name: string }> {
    adminOf(actor);
    const { name } = await this.serial(() =>
      this.store.create({ secrets: opts.secrets ?? false, openStream: this.openStream }),
    );
    return { message: `Backup created: ${name}`, error: false, name };
  }

  /** GET /admin/backups/{file_name}: a file token for /api/utils/download. */
  async downloadToken(actor: Actor, name: string): Promise<{ fileToken: string }> {
    adminOf(actor);
    await this.store.pathOf(name);
    return {
      fileToken: await this.larder.exports.tokens.signFile(`.larder/backups/${checkBackupName(name)}`),
    };
  }

  async remove(actor: Actor, name: string): Promise<SuccessResponse> {
    adminOf(actor);
    refuseInDemo(this.larder.config, "deleteBackup");
    await this.store.remove(name);
    return { message: `Backup deleted: ${name}`, error: false };
  }

  async verify(actor: Actor, name: string): Promise<SuccessResponse> {
    adminOf(actor);
    const m = await this.store.verify(name);
    return {
      message: `Backup ${name} is complete: ${m.counts.files} files, ${m.counts.recipes} recipes`,
      error: false,
    };
  }

  /**
   * POST /admin/backups/upload: a Larder backup is checked and kept under a fresh name; a Mealie
   * backup (database.json + data/) goes to the Mealie-backup migration into the admin's group.
   */
  async upload(actor: Actor, file: string, onFinished?: () => Promise<void>): Promise<SuccessResponse> {
    adminOf(actor);
    refuseInDemo(this.larder.config, "uploadBackup");
    const adopted = await this.store.adopt(file);
    if (adopted.kind === "larder") {
      await onFinished?.();
      return { message: `Backup uploaded: ${adopted.name}`, error: false };
    }
    const type = "mealie_backup";
    const { report } = await this.larder.migrations.start(actor, {
      type,
      path: file,
      addMigrationTag: false,
      onFinished,
    });
    return {
      message: `This is a Mealie backup: it is being migrated into your group (report ${report.id})`,
      error: false,
    };
  }

  /**
   * POST /admin/backups/{file_name}/restore. The backup is verified before anything closes, and the
   * live data backed up (guarded-restore.ts); then the services close (nothing writes during the swap),
   * the tracked tree is swapped, and the same Larder object reopens over the restored folder, so the
   * HTTP server keeps serving (decision 0071). Restored data that will not open is swapped back out.
   */
  async restore(actor: Actor, name: string): Promise<SuccessResponse & { before: string }> {
    adminOf(actor);
    refuseInDemo(this.larder.config, "restoreBackup");
    return this.serial(async () => {
      const { before } = await this.stageThenSwap(name);
      return {
        message: `Restored ${name}; the data it replaced is kept as ${before}; every session has ended: sign in again`,
        error: false,
        before,
      };
    });
  }

  /**
   * Unpack (and so verify) the backup while the site still serves, then close the services only for
   * the swap (decision 0198). A damaged backup, or one the disk has no room for, closes nothing.
   */
  private stageThenSwap(name: string): Promise<{ before: string }> {
    return this.larder.whileRestoring(() =>
      guardedRestore(this.store, name, {
        reopen: (swap, undo) => this.larder.reload(swap, undo),
        log: this.larder.log,
        hook: this.restoreHook,
        openStream: this.openStream,
      }),
    );
  }

  /**
   * The demo's scheduled reset (core/demo/demo-service.ts): no actor, as the scheduler is the site
   * itself. The baseline zip is adopted under a fresh name, restored like any backup, then removed.
   */
  async restoreFromFile(file: string): Promise<void> {
    const adopted = await this.store.adopt(file);
    if (adopted.kind !== "larder") throw new BadRequestError("The demo baseline is not a Larder backup");
    try {
      const { before } = await this.serial(() => this.stageThenSwap(adopted.name));
      // A demo's data is thrown away on purpose: its resets would otherwise pile up backups.
      await this.store.remove(before).catch(() => undefined);
    } finally {
      // The services were reopened over the same folder, so this store's path still holds.
      await this.store.remove(adopted.name).catch(() => undefined);
    }
  }

  /** The nightly job: a backup once a day at LARDER_BACKUP_SCHEDULE, keeping LARDER_BACKUP_KEEP. */
  async runScheduled(now = new Date()): Promise<string | null> {
    const at = this.larder.config.backupSchedule;
    if (!at) return null;
    const [h, m] = at.split(":").map(Number);
    const due = new Date(now);
    due.setHours(h, m, 0, 0);
    if (now < due) return null;
    // Remembered on disk: a backup made since today's time means today's is done (restarts included).
    const newest = (await this.store.list())[0];
    if (newest && Date.parse(newest.date) >= due.getTime()) return null;
    const { name } = await this.serial(() =>
      this.store.create({ secrets: false, openStream: this.openStream }),
    );
    const keep = Math.max(1, this.larder.config.backupKeep);
    const pruned = await this.store.prune(keep);
    this.larder.log.info(
      `nightly backup ${name}${pruned.length ? `; ${pruned.length} older removed (keeping ${keep})` : ""}`,
    );
    return name;
  }
}

export function requireBackupName(name: string | undefined): string {
  if (!name) throw new BadRequestError("Invalid backup name");
  return name;
}
