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
 * busy classes share the server's time about equally however different their costs per request.
 *
 * Overload is answered quickly rather than late (decision 0116): a request whose expected wait — the
 * requests ahead of it times the class's recent time per request, over its share of the slots — passes
 * `maxWaitMs`, or that finds `maxQueue` waiting, is refused at once (503 with a Retry-After of about
 * that wait) instead of timing out in the queue; and a request whose client has gone leaves the queue
 * without running, so nobody's slot is spent on an answer no one reads.
 *
 * Before a class's first request has finished there is no measured time per request, so each class
 * starts from a prior (`priorMs`, decision 0120): the first wave of a burst is estimated like any other.
 * A request that has waited past `maxQueuedMs` anyway (the estimate was wrong) is answered 503 when its
 * turn comes rather than run for a client whose own timeout is near. Fairness charges each request its
 * share of the event loop — wall time divided by the requests running alongside it — not its wall time:
 * two requests in two slots share one thread, and each would otherwise pay for the other's work.
 *
 * A request starts on a later turn of the event loop than the one that gave it its slot. React renders
 * a page in microtasks, and a page answered from memory finishes in them too: started at once, each
 * request ran to its end inside the socket callback that brought it, the next one inside the next, so
 * the queue never filled and socket order, not this class, decided who went first — with 100 page
 * clients reading their sockets first, searches waited seconds unseen.
 */
export class Overloaded extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    message = "Server busy; try again shortly",
  ) {
    super(message);
  }
}

/** The client went away while its request waited: nothing ran and nothing is to be answered. */
export class Abandoned extends Error {
  constructor() {
    super("Client left before its request ran");
  }
}

/** Weight of the newest request in a class's running average time per request. */
const EWMA = 0.1;
/**
 * How far behind the busiest class a waiting class's used time may be, in ms. Fairness remembers only
 * this much: without a bound, a class charged a lot once (slow first searches while the search index
 * warmed up, each holding its slot for seconds) would give every slot to the other class until it had
 * used as much — in bench:load, searches waited past their 30 s timeout while pages ran.
 */
const FAIRNESS_MEMORY_MS = 1_000;

interface Waiter {
  /** Called with true to run, false to refuse (it waited too long). */
  go: (run: boolean) => void;
  since: number;
}

interface ClassState {
  /** Slots this class may hold at once (a slow reader of pages must not hold every slot). */
  max: number;
  active: number;
  queue: Waiter[];
  /** Milliseconds of event-loop share used: what fairness compares. */
  used: number;
  /** Running average of a request's slot (wall) time, in ms, starting from the class's prior. */
  avgMs: number;
}

export interface FairShareOptions {
  /** Longest expected wait a request is queued for; beyond it, 503 at once. */
  maxWaitMs?: number;
  /** A request that has waited this long when its turn comes is refused instead of run. */
  maxQueuedMs?: number;
  /** Slot time per request assumed for a class until one of its requests has finished, in ms. */
  priorMs?: Record<string, number>;
}

export class FairShare {
  private active = 0;
  private readonly classes = new Map<string, ClassState>();
  /** Event-loop share handed out so far: advances at 1/active per ms while requests run. */
  private shared = 0;
  private sharedAt: number;
  readonly maxWaitMs: number;
  readonly maxQueuedMs: number;

  constructor(
    readonly slots: number,
    classes: Record<string, number>,
    readonly maxQueue: number,
    private readonly now: () => number = () => performance.now(),
    options: FairShareOptions = {},
  ) {
    this.maxWaitMs = options.maxWaitMs ?? Infinity;
    this.maxQueuedMs = options.maxQueuedMs ?? Infinity;
    this.sharedAt = now();
    for (const [name, max] of Object.entries(classes)) {
      const prior = options.priorMs?.[name] ?? 0;
      this.classes.set(name, { max, active: 0, queue: [], used: 0, avgMs: prior });
    }
  }

  /** Brings the shared clock up to now, before the number of running requests changes. */
  private advance(): void {
    const t = this.now();
    if (this.active > 0) this.shared += (t - this.sharedAt) / this.active;
    this.sharedAt = t;
  }

  waiting(cls: string): number {
    return this.state(cls).queue.length;
  }

  /** The class's share of the event loop used so far, in ms, as fairness counts it. */
  usedMs(cls: string): number {
    return this.state(cls).used;
  }

  /**
   * How long a request of this class arriving now may expect to wait, in ms: the queue ahead of it
   * at the class's average time per request, run in the class's share of the slots (all of its own
   * cap, divided among the classes that are busy).
   */
  expectedWaitMs(cls: string): number {
    const s = this.state(cls);
    let busy = 0;
    for (const c of this.classes.values()) if (c.active > 0 || c.queue.length > 0) busy++;
    const share = Math.max(1, Math.min(s.max, this.slots / Math.max(1, busy)));
    return ((s.queue.length + 1) * s.avgMs) / share;
  }

  /**
   * Runs `fn` in a slot of class `cls`. Throws Overloaded when it cannot start soon enough, and
   * Abandoned when `signal` aborts while it waits (a running request is not interrupted).
   */
  async run<T>(cls: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const s = this.state(cls);
    if (this.active < this.slots && s.active < s.max && s.queue.length === 0) {
      this.advance();
      this.active++;
      s.active++;
      // Started on the loop's next turn, like a handed-over slot (see release): the requests read from
      // the sockets in this turn reach the queue first, so the queue, not socket order, decides.
      await new Promise<void>((resolve) => setImmediate(resolve));
    } else {
      if (signal?.aborted) throw new Abandoned();
      const wait = this.expectedWaitMs(cls);
      if (s.queue.length >= this.maxQueue || wait > this.maxWaitMs)
        throw new Overloaded(Math.min(60, Math.max(1, Math.ceil(wait / 1000))));
      if (s.queue.length === 0 && s.active === 0) this.catchUp(s);
      // The slot is handed over already counted (see release): nobody can take it in between.
      await new Promise<void>((resolve, reject) => {
        const entry: Waiter = {
          since: this.now(),
          go: (run) => {
            signal?.removeEventListener("abort", leave);
            if (run) resolve();
            else
              reject(new Overloaded(Math.min(60, Math.max(1, Math.ceil(this.expectedWaitMs(cls) / 1000)))));
          },
        };
        const leave = () => {
          const i = s.queue.indexOf(entry);
          // Already handed its slot (see release): it runs.
          if (i < 0) return;
          s.queue.splice(i, 1);
          reject(new Abandoned());
        };
        signal?.addEventListener("abort", leave, { once: true });
        s.queue.push(entry);
      });
    }
    const t0 = this.now();
    const shared0 = this.shared;
    try {
      return await fn();
    } finally {
      this.advance();
      const took = this.now() - t0;
      s.used += this.shared - shared0;
      // The prior counts as an average already: the first, slowest requests (code still cold) move
      // the estimate rather than replace it.
      s.avgMs = s.avgMs === 0 ? took : s.avgMs + EWMA * (took - s.avgMs);
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
    let most = -Infinity;
    for (const c of this.classes.values())
      if (c.active > 0 || c.queue.length > 0) most = Math.max(most, c.used);
    for (const c of this.classes.values())
      if (c.queue.length > 0) c.used = Math.max(c.used, most - FAIRNESS_MEMORY_MS);
    const tooOld = this.now() - this.maxQueuedMs;
    while (this.active < this.slots) {
      let pick: ClassState | null = null;
      for (const c of this.classes.values()) {
        if (c.queue.length === 0 || c.active >= c.max) continue;
        if (pick === null || c.used < pick.used) pick = c;
      }
      if (!pick) return;
      const next = pick.queue.shift()!;
      if (next.since < tooOld) {
        next.go(false);
        continue;
      }
      this.advance();
      this.active++;
      pick.active++;
      // On a fresh turn of the event loop: a request's work (React renders in microtasks) would
      // otherwise run straight on into the next one's, and the next, without the loop ever reading
      // the sockets again — requests of the other class would not even reach the queue.
      setImmediate(() => next.go(true));
    }
  }

  private state(cls: string): ClassState {
    const s = this.classes.get(cls);
    if (!s) throw new Error(`FairShare: unknown class ${cls}`);
    return s;
  }
}
