import { describe, expect, it } from "vitest";
import { Abandoned, FairShare, Overloaded } from "./limiter.js";

function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { open, wait };
}
const turn = () => new Promise((r) => setImmediate(r));

describe("the fair share of request slots", () => {
  it("runs a class's requests in arrival order within its cap, none overtaking", async () => {
    const f = new FairShare(4, { page: 2 }, 10);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) =>
      f.run("page", async () => {
        started.push(i);
        await g.wait;
        return i;
      }),
    );
    await turn();
    expect(started).toEqual([0, 1]);
    expect(f.waiting("page")).toBe(3);
    gates[1].open();
    await runs[1];
    await turn();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it("gives a freed slot to the waiting class that has used the least time", async () => {
    let clock = 0;
    const f = new FairShare(1, { page: 1, api: 1 }, 100, () => clock);
    const order: string[] = [];
    // A page that costs 100 "ms" holds the only slot; ten cheap API requests and two more pages wait.
    const first = gate();
    const running = f.run("page", async () => {
      order.push("page");
      await first.wait;
      clock += 100;
    });
    await turn();
    const waits = [
      ...Array.from({ length: 10 }, () =>
        f.run("api", async () => {
          order.push("api");
          clock += 10;
        }),
      ),
      ...Array.from({ length: 2 }, () =>
        f.run("page", async () => {
          order.push("page");
          clock += 100;
        }),
      ),
    ];
    first.open();
    await Promise.all([running, ...waits]);
    // Ten 10-ms API requests match one 100-ms page before the next page runs.
    expect(order).toEqual(["page", ...Array(10).fill("api"), "page", "page"]);
  });

  it("refuses at once, with a retry hint, when a class's queue is full; a failed task frees its slot", async () => {
    const f = new FairShare(1, { page: 1 }, 1);
    const g = gate();
    const first = f.run("page", () => g.wait);
    const second = f.run("page", async () => "second");
    await expect(f.run("page", async () => "third")).rejects.toBeInstanceOf(Overloaded);
    g.open();
    await first;
    expect(await second).toBe("second");
    await expect(f.run("page", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await f.run("page", async () => "after")).toBe("after");
  });

  it("refuses at once, with about the expected wait as Retry-After, when the queue would take too long", async () => {
    let clock = 0;
    const f = new FairShare(1, { page: 1 }, 1_000, () => clock, { maxWaitMs: 1_000 });
    // One page took 400 "ms": the class's average.
    await f.run("page", async () => {
      clock += 400;
    });
    const g = gate();
    const running = f.run("page", () => g.wait);
    await turn();
    // Two may wait (a third would expect 3 × 400 ms > 1 s).
    const queued = [f.run("page", async () => "a"), f.run("page", async () => "b")];
    const refused = await f.run("page", async () => "c").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Overloaded);
    expect((refused as Overloaded).retryAfterSeconds).toBe(2);
    g.open();
    await running;
    expect(await Promise.all(queued)).toEqual(["a", "b"]);
  });

  it("takes a request out of the queue, never running it, when its client leaves while it waits", async () => {
    const f = new FairShare(1, { page: 1 }, 10);
    const g = gate();
    const running = f.run("page", () => g.wait);
    const ran: string[] = [];
    const left = new AbortController();
    const leaving = f.run("page", async () => void ran.push("left"), left.signal);
    const staying = f.run("page", async () => void ran.push("stayed"));
    await turn();
    expect(f.waiting("page")).toBe(2);
    left.abort();
    await expect(leaving).rejects.toBeInstanceOf(Abandoned);
    expect(f.waiting("page")).toBe(1);
    g.open();
    await Promise.all([running, staying]);
    expect(ran).toEqual(["stayed"]);
  });

  it("remembers only about a second of past use: a class charged a lot once is not starved afterwards", async () => {
    let clock = 0;
    const f = new FairShare(1, { page: 1, api: 1 }, 1_000, () => clock);
    // One API request held the slot for 60 "s" (a slow first search).
    await f.run("api", async () => {
      clock += 60_000;
    });
    const order: string[] = [];
    const g = gate();
    const running = f.run("page", async () => {
      await g.wait;
      clock += 10;
    });
    await turn();
    const waits = [
      ...Array.from({ length: 200 }, () =>
        f.run("page", async () => {
          order.push("page");
          clock += 10;
        }),
      ),
      f.run("api", async () => {
        order.push("api");
        clock += 10;
      }),
    ];
    g.open();
    await Promise.all([running, ...waits]);
    // The API request runs after about a second's worth of pages, not after 60 s of them.
    expect(order.indexOf("api")).toBeLessThanOrEqual(101);
  });

  it("estimates the first wave from the class's prior, before any request has finished", async () => {
    let clock = 0;
    const f = new FairShare(1, { page: 1 }, 1_000, () => clock, {
      maxWaitMs: 1_000,
      priorMs: { page: 300 },
    });
    const g = gate();
    const running = f.run("page", async () => {
      await g.wait;
      clock += 300;
    });
    await turn();
    // Nothing has finished yet: three waiting at the prior 300 ms fit in a second, a fourth does not.
    const queued = [1, 2, 3].map((i) => f.run("page", async () => i));
    const refused = await f.run("page", async () => 4).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Overloaded);
    g.open();
    await running;
    expect(await Promise.all(queued)).toEqual([1, 2, 3]);
  });

  it("refuses, when its turn comes, a request that has waited past the longest queueing time", async () => {
    let clock = 0;
    const f = new FairShare(1, { page: 1 }, 1_000, () => clock, { maxQueuedMs: 20_000 });
    const g = gate();
    const running = f.run("page", async () => {
      await g.wait;
      clock += 25_000;
    });
    await turn();
    const ran: string[] = [];
    const late = f.run("page", async () => void ran.push("late"));
    g.open();
    await running;
    await expect(late).rejects.toBeInstanceOf(Overloaded);
    expect(ran).toEqual([]);
    // The queue moved on: the next request runs at once.
    await f.run("page", async () => void ran.push("next"));
    expect(ran).toEqual(["next"]);
  });

  it("charges requests running side by side each their share of the time, not the whole of it", async () => {
    let clock = 0;
    const f = new FairShare(2, { page: 2, api: 2 }, 100, () => clock);
    // A page and a search run together for 100 "ms", then the page alone for 100 more.
    const page = gate();
    const api = gate();
    const p = f.run("page", () => page.wait);
    const a = f.run("api", () => api.wait);
    await turn();
    clock += 100;
    api.open();
    await a;
    clock += 100;
    page.open();
    await p;
    // The search used half of those 100 ms; the page the other half, then all of the next 100.
    expect(f.usedMs("api")).toBe(50);
    expect(f.usedMs("page")).toBe(150);
  });

  it("starts the next waiting request on a later turn of the event loop, not in the last one's microtasks", async () => {
    const f = new FairShare(1, { page: 1 }, 10);
    const order: string[] = [];
    // What the finished request left for the loop (a socket read, say) comes before the next request.
    const first = f.run("page", async () => void setImmediate(() => order.push("io")));
    const second = f.run("page", async () => void order.push("next"));
    await Promise.all([first, second]);
    expect(order).toEqual(["io", "next"]);
  });
});
