/**
 * A rename moves the recipe file, then its media folder (recipe-store.ts `rename`). A process killed
 * between the two left the photo and assets in `recipes/<old>/` beside a recipe now at `<new>.md`,
 * which then had no image. So the move is announced first by a marker in `.larder/tmp`
 * (storage/work-markers.ts); at the next open, a marker whose writer is gone finishes the move when
 * the file moved and the folder did not.
 */
import { rename } from "node:fs/promises";
import path from "node:path";
import type { DataFolder } from "../../storage/data-folder.js";
import { finishAbandonedWork, markWork, mediaDirOf, type WorkMarker } from "../../storage/work-markers.js";
import { exists } from "./file-state.js";

const KIND = "media-move";

/** Announce that `from` (a recipe's media folder) is about to move to `to`, after its recipe file. */
export function markMediaMove(folder: DataFolder, from: string, to: string): Promise<WorkMarker> {
  const rel = (dir: string) => path.relative(folder.root, dir);
  return markWork(folder, KIND, JSON.stringify({ from: rel(from), to: rel(to) }));
}

/**
 * Finish the media moves of renames a dead process left half done; returns them as `from → to`,
 * relative to the folder. A rename killed before its file moved needs nothing (its folder is where
 * its file is).
 */
export async function finishAbandonedMediaMoves(folder: DataFolder, now = Date.now()): Promise<string[]> {
  const moved: string[] = [];
  await finishAbandonedWork(
    folder,
    KIND,
    async (text) => {
      const { from: f, to: t } = parsed(text);
      // A marker cut short by the kill (it was being written: nothing had moved yet) is dropped too.
      if (typeof f !== "string" || typeof t !== "string") return;
      const from = mediaDirOf(folder, f);
      const to = mediaDirOf(folder, t);
      if (!from || !to || from.group !== to.group) return;
      const fileMoved = (await exists(`${to.dir}.md`)) && !(await exists(`${from.dir}.md`));
      if (fileMoved && (await exists(from.dir)) && !(await exists(to.dir))) {
        await rename(from.dir, to.dir);
        moved.push(`${f} → ${t}`);
      }
    },
    now,
  );
  return moved;
}

function parsed(text: string): { from?: unknown; to?: unknown } {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}
