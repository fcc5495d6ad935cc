/**
 * Back-pressure and fairness for expensive requests (issue 11 §8, decision 0019). Under 200 concurrent
 * clients, admitting every request at once makes 100 page renders interleave on the one event loop —
 * each takes as long as all of them together, and their memory is live at once — while the cheap
 * searches of the other 100 clients, answered in a few ms, cycle so often that they take most of the
 * CPU: pages waited 30 s while searches passed in half a second.
 *
 * A `FairShare` runs requests of named classes ("page", "api") in a bounded number of slots. Within a
 * class, requests wait in arrival order (first come, first served: nobody is overtaken, nobody
 * starves). When a slot frees, it goes to the waiting class that has used the least time so far, so two
 * busy classes share the server's time about equally however different their costs per request. Past
 * `maxQueue` waiting in a class, a request is refused at once (503 with Retry-After) instead of waiting
 * without bound.
 */
export class Overloaded extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    message = "Server busy; try again shortly",
  ) {
    super(message);
  }
}

interface ClassState {
  /** Slots this class may hold at once (a slow reader of pages must not hold every slot). */
  max: number;
  active: number;
  queue: Array<() => void>;
  /** Milliseconds of slot time used: what fairness compares. */
  used: number;
}

export class FairShare {
  private active = 0;
  private readonly classes = new Map<string, ClassState>();

  constructor(
    readonly slots: number,
    classes: Record<string, number>,
    readonly maxQueue: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    for (const [name, max] of Object.entries(classes))
      this.classes.set(name, { max, active: 0, queue: [], used: 0 });
  }

  waiting(cls: string): number {
    return this.state(cls).queue.length;
  }

  async run<T>(cls: string, fn: () => Promise<T>): Promise<T> {
    const s = this.state(cls);
    if (this.active < this.slots && s.active < s.max && s.queue.length === 0) {
      this.active++;
      s.active++;
    } else {
      if (s.queue.length >= this.maxQueue) throw new Overloaded(Math.max(1, Math.ceil(s.queue.length / 100)));
      if (s.queue.length === 0 && s.active === 0) this.catchUp(s);
      // The slot is handed over already counted (see release): nobody can take it in between.
      await new Promise<void>((resolve) => s.queue.push(resolve));
    }
    const t0 = this.now();
    try {
      return await fn();
    } finally {
      s.used += this.now() - t0;
      s.active--;
      this.active--;
      this.release();
    }
  }

  /** A class that was idle starts level with the least-served busy one, not with credit for its idle time. */
  private catchUp(s: ClassState): void {
    let floor = Infinity;
    for (const c of this.classes.values())
      if (c !== s && (c.active > 0 || c.queue.length > 0)) floor = Math.min(floor, c.used);
    if (Number.isFinite(floor)) s.used = Math.max(s.used, floor);
  }

  private release(): void {
    while (this.active < this.slots) {
      let pick: ClassState | null = null;
      for (const c of this.classes.values()) {
        if (c.queue.length === 0 || c.active >= c.max) continue;
        if (pick === null || c.used < pick.used) pick = c;
      }
      if (!pick) return;
      this.active++;
      pick.active++;
      pick.queue.shift()!();
    }
  }

  private state(cls: string): ClassState {
    const s = this.classes.get(cls);
    if (!s) throw new Error(`FairShare: unknown class ${cls}`);
    return s;
  }
}
