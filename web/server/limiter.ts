/**
 * Back-pressure for expensive requests (issue 11 §8). Under 200 concurrent clients, every request
 * admitted at once shares the one event loop: a page render that awaits twenty times is interleaved
 * with everything else that arrived meanwhile, so each takes as long as all of them together, the
 * memory of all of them is live at once, and the first burst is starved. A limiter runs at most
 * `concurrency` of a kind at a time and queues the rest in arrival order (first come, first served:
 * bounded waiting, no starvation); past `maxQueue` waiting, the request is refused at once with 503
 * and Retry-After instead of waiting without bound.
 */
export class Overloaded extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("Server busy; try again shortly");
  }
}

export class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueue: number,
  ) {}

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.queue.length >= this.maxQueue)
        throw new Overloaded(Math.max(1, Math.ceil(this.queue.length / (this.concurrency * 50))));
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next in line; nobody can overtake it.
      if (next) next();
      else this.active--;
    }
  }
}
