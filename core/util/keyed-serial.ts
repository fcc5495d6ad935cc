/**
 * Runs tasks that share a key one after another and tasks with different keys side by side: a
 * read-modify-write of one recipe (PATCH, last made, an image) must read what the one before it wrote.
 */
export class KeyedSerial {
  private tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    // A failed task does not stop the next one: each caller gets its own result.
    const result = before.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
