/**
 * The order in which the store's work runs. Most of it runs alone, in the order it was asked for: the
 * scan at open, the watcher's batches, a rescan, creating, renaming and removing a recipe (each may touch
 * several files or the identity rules across the index). A save of an existing recipe touches one file
 * and its own entry, so saves of different recipes run side by side, while saves of one recipe still run
 * one after the other. A save waits for the lone work asked for before it, and lone work waits for every
 * save asked for before it, so each sees the index as everything before it left it.
 *
 * Why: a save waits on the disk (a temp file's fsync, the compare-and-swap's link and rename, the
 * folder's fsync). Run one at a time, 32 clients editing 50,000 recipes over 10 groups queued their
 * edits for more than a second each behind the others' disk waits (decision 0171).
 */
export class WriteGate {
  #alone: Promise<unknown> = Promise.resolve();
  readonly #beside = new Set<Promise<unknown>>();
  readonly #lastFor = new Map<string, Promise<unknown>>();

  /** Run `fn` once everything asked for before it has finished, and nothing else meanwhile. */
  alone<T>(fn: () => Promise<T>): Promise<T> {
    const before = this.#beside.size === 0 ? this.#alone : Promise.all([this.#alone, ...this.#beside]);
    const run = before.then(fn);
    this.#alone = run.catch(() => undefined);
    return run;
  }

  /** Run `fn` after the lone work and the saves of `key` asked for before it, beside other keys' saves. */
  beside<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const last = this.#lastFor.get(key);
    const before = last === undefined ? this.#alone : Promise.all([this.#alone, last]);
    const run = before.then(fn);
    const done = run.catch(() => undefined);
    this.#beside.add(done);
    this.#lastFor.set(key, done);
    void done.then(() => {
      this.#beside.delete(done);
      if (this.#lastFor.get(key) === done) this.#lastFor.delete(key);
    });
    return run;
  }

  /** Resolves once everything asked for so far has finished (failures included). */
  async idle(): Promise<void> {
    await Promise.all([this.#alone, ...this.#beside]);
  }
}
