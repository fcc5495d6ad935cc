/**
 * One number that moves whenever anything a page may show has changed in memory: a JSON document opened,
 * updated, reloaded or turned broken, a recipe file changed, an activity line (comment, timeline event)
 * appended or reread, a profile picture saved or removed, a restore begun or ended. The web UI keys the
 * pages it answers before running its loaders by it (decision 0160): while it stands still, nothing any
 * loader reads has changed. It only ever grows and is shared by every Larder in the process, so a move
 * caused by another folder costs a re-render, never a stale page.
 */
let count = 0;

/** Something a page may show has just changed (call it after the new state is visible to readers). */
export function noteChange(): void {
  count++;
}

/** The number of changes so far. */
export function changeCount(): number {
  return count;
}
