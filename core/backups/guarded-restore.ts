/**
 * A restore that can be taken back. The backup is unpacked and checked first (a damaged one changes
 * nothing and leaves no backup behind); then the data it replaces is backed up as
 * `larder_before-restore_<time>.zip`; then the swap, and the folder is opened again. A restored folder
 * that passed every check and still does not open (a file where Larder needs a folder, a secrets file
 * that is not JSON) is replaced by that backup and opened again, and the caller is told why, rather
 * than left with a site that cannot serve.
 */
import type { Writable } from "node:stream";
import { LarderError } from "../errors.js";
import type { Logger } from "../log/logger.js";
import type { BackupStore } from "./backup-store.js";
import { restoreInterrupted } from "./restore-paths.js";
import type { RestoreHook } from "./restore.js";

/**
 * Close whatever uses the folder, run `swap`, and open the folder again. When it will not open,
 * run `undo` (which puts the data from before back) and open it once more; throw only when that
 * fails as well.
 */
export type ReopenAround = (
  swap: () => Promise<void>,
  undo: (why: unknown) => Promise<void>,
) => Promise<void>;

/** The restored data would not open, and the data from before is back. */
export class RestoreUndoneError extends LarderError {
  constructor(message: string) {
    super(message, 400);
  }
}

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

export interface GuardedRestoreOptions {
  reopen: ReopenAround;
  log: Pick<Logger, "warn" | "error">;
  hook?: RestoreHook;
  /** Tests only: the stream the before-restore backup is written to. */
  openStream?: (path: string) => Writable;
}

/** Restore `name` into the store's folder; returns the name of the backup of what it replaced. */
export async function guardedRestore(
  store: BackupStore,
  name: string,
  opts: GuardedRestoreOptions,
): Promise<{ before: string }> {
  const manifest = await store.stage(name, opts.hook);
  let before: string;
  try {
    // With the secrets when the restore replaces them, so that putting the data back puts them back.
    before = (
      await store.create({
        kind: "before-restore",
        secrets: manifest.includesSecrets,
        openStream: opts.openStream,
      })
    ).name;
  } catch (e) {
    // No restore without the backup it promises: a full disk refuses it here, before anything moved.
    await store.discardStaged().catch(() => undefined);
    throw e;
  }
  let swapFailed: unknown = null;
  let openFailed: unknown = null;
  try {
    await opts.reopen(
      async () => {
        try {
          await store.swapStaged(name, opts.hook);
        } catch (e) {
          // Opening the folder again finishes or undoes the swap from its journal.
          swapFailed = e;
        }
      },
      async (why) => {
        openFailed = why;
        opts.log.error(`the data of ${name} could not be opened (${reason(why)}); putting back ${before}`);
        // A swap a crash would have to finish or undo is left to the journal, never unpacked over.
        if (restoreInterrupted(store.folder.root)) throw why;
        await store.restore(before);
      },
    );
  } catch (e) {
    if (openFailed === null) throw e;
    throw new LarderError(
      `${name} was restored but its data could not be opened (${reason(openFailed)}), and putting back the data from before failed too (${reason(e)}): it is in ${before}`,
      500,
    );
  } finally {
    // A swap that never began (the services would not close) leaves the staged copy behind.
    await store.discardStaged().catch(() => undefined);
  }
  if (swapFailed) throw swapFailed;
  if (openFailed !== null)
    throw new RestoreUndoneError(
      `This backup cannot be restored: its data could not be opened (${reason(openFailed)}). The data from before the restore is back (also kept as ${before}); every session has ended: sign in again.`,
    );
  return { before };
}
