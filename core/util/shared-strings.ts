/**
 * One string for each short value that many recipes repeat: an organizer's name, a yield ("4
 * servings"), a time ("45 minutes"), an owner's id, a food's name. Each recipe's head is parsed from
 * its own JSON, and V8's parser shares only very short strings, so a heap snapshot of 10,000 recipes
 * held "Vegetarian" 852 times and 92,000 such copies in all, each one more object for every full
 * collection to mark (decision 0297).
 *
 * The table only grows (a value no recipe holds any more stays until the process ends), so it keeps
 * short values and stops taking new ones past a size: a folder of mostly distinct yields costs at
 * most that many strings, not a leak.
 */
export const MAX_SHARED_LENGTH = 48;
export const MAX_SHARED_STRINGS = 100_000;
const table = new Map<string, string>();

/** The shared copy of `s` (its first holder's), or `s` itself, which becomes the shared one. */
export function shared(s: string): string {
  if (s.length > MAX_SHARED_LENGTH) return s;
  const hit = table.get(s);
  if (hit !== undefined) return hit;
  if (table.size < MAX_SHARED_STRINGS) table.set(s, s);
  return s;
}

/** How many strings the table holds (tests, and the heap's accounting). */
export function sharedStringCount(): number {
  return table.size;
}

/** Each string of `list` replaced in place by its shared copy. */
export function shareEach(list: unknown[]): void {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (typeof v === "string") list[i] = shared(v);
  }
}
