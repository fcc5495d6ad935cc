/**
 * A recipe summary's JSON, kept as bytes per index entry (issue 21). Turning the 30 summaries of a
 * list page into JSON, and that text into bytes for the socket, cost a served search more than the
 * search itself. An index entry is made again whenever its recipe or its rating changes
 * (recipe-list.ts `entryOf`, `forgetRecipes`), so bytes kept against the entry object are dropped
 * with it: no change event of their own to hear.
 */

/** The entry each summary handed out was picked from. */
const pickedFrom = new WeakMap<object, object>();
/** The JSON of the summary picked from an entry. */
const bytesOf = new WeakMap<object, Buffer>();

/** Remember that `summary` is the summary part of `entry`, as `pick` made it. */
export function notePicked(summary: object, entry: object): void {
  pickedFrom.set(summary, entry);
}

/**
 * `JSON.stringify(summary)` as UTF-8 bytes; the same bytes again for every summary picked from the same
 * entry. Call it before anything could change the summary: the first answer is the one kept.
 */
export function summaryBytes(summary: object): Buffer {
  const entry = pickedFrom.get(summary);
  const hit = entry && bytesOf.get(entry);
  if (hit) return hit;
  const bytes = Buffer.from(JSON.stringify(summary));
  if (entry) bytesOf.set(entry, bytes);
  return bytes;
}
