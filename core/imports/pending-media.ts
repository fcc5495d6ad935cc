/**
 * An import writes the new recipe's image into its media folder just before the recipe file, the
 * commit point (import-service.ts). A process killed between the two left a media folder without its
 * recipe, which `larder check` then reports as an orphan forever. So a new media folder is announced
 * first by a marker in `.larder/tmp` naming it; the marker goes once the recipe file is written (or
 * the folder removed). At open, a marker whose writer is gone means the import died there: its folder
 * is removed unless the recipe file exists after all (the kill came between the file and the marker).
 *
 * The marker is not fsynced: a killed process's writes survive in the page cache. After a power cut,
 * at worst the orphan is back, as before.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import type { DataFolder } from "../storage/data-folder.js";
import { finishAbandonedWork, markWork, mediaDirOf, type WorkMarker } from "../storage/work-markers.js";
import { exists } from "../recipes/store/file-state.js";

const KIND = "import-media";

export type PendingMedia = WorkMarker;

/** Announce that `mediaDir` is about to be made for a recipe whose file is not written yet. */
export async function markPendingMedia(folder: DataFolder, mediaDir: string): Promise<PendingMedia> {
  return markWork(folder, KIND, path.relative(folder.root, mediaDir));
}

/**
 * Remove the media folders of imports a dead process left half done (see above); returns them,
 * relative to the folder. Markers of a live process are left alone.
 */
export async function removeAbandonedMedia(folder: DataFolder, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  await finishAbandonedWork(
    folder,
    KIND,
    async (rel) => {
      const media = mediaDirOf(folder, rel);
      if (media && !(await exists(`${media.dir}.md`))) {
        await rm(media.dir, { recursive: true, force: true });
        removed.push(rel);
      }
    },
    now,
  );
  return removed;
}
