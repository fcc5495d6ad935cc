/**
 * Where a restore keeps its journal and the two trees it swaps (decision 0071), apart from the restore
 * itself so that the CLI can tell a folder a crash left mid-restore without loading the backup reader.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

export interface RestorePaths {
  dir: string;
  staging: string;
  old: string;
  state: string;
}

export function restorePaths(root: string): RestorePaths {
  const dir = join(root, ".larder", "restore");
  return { dir, staging: join(dir, "staging"), old: join(dir, "old"), state: join(dir, "state.json") };
}

/**
 * A restore was under way here when its process died: the folder may lack `larder.json` (moved aside
 * with the rest of the live tree) until opening it finishes or undoes the restore (`recoverRestore`).
 */
export function restoreInterrupted(root: string): boolean {
  return existsSync(restorePaths(root).dir);
}
