import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ListSync } from "./store.js";
import type { ListMeta } from "./types.js";

const LIST: ListMeta = { id: "list-1", name: "Week", userId: "u1", labelSettings: [], recipes: [] };

/** Every send answered with `status` and Mealie's error shape; the calls are counted. */
function answering(status: number, message: string) {
  const calls: string[] = [];
  vi.stubGlobal("fetch", (path: string, init: { method: string }) => {
    calls.push(`${init.method} ${path}`);
    return Promise.resolve(
      new Response(JSON.stringify({ detail: { message } }), {
        status,
        headers: { "Content-Type": "application/json" },
      }),
    );
  });
  return calls;
}

/** The browser's localStorage, as far as the store uses it. */
function memoryStorage(): Map<string, string> {
  const m = new Map<string, string>();
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  });
  return m;
}

/** Runs the retry timers `times` times, letting each send settle. */
async function retry(times: number): Promise<void> {
  for (let i = 0; i < times; i++) await vi.advanceTimersByTimeAsync(5_000);
}

describe("a shopping list whose changes the server cannot save", () => {
  let stored: Map<string, string>;
  beforeEach(() => {
    vi.useFakeTimers();
    stored = memoryStorage();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("keeps a check-off queued while the server's disk is full, says why once, and sends it when the disk has room", async () => {
    const full = "The disk holding the data folder is full (ENOSPC): the change was not saved";
    const calls = answering(507, full);
    const sync = new ListSync(LIST, [], "u1");
    const held: string[] = [];
    let gaveUp = 0;
    sync.onHeld = (reason) => held.push(reason);
    sync.onGiveUp = () => gaveUp++;

    sync.add({ note: "Milk", checked: true });
    await retry(10);

    expect(calls.length).toBeGreaterThanOrEqual(10);
    expect(sync.getSnapshot().pending).toBe(1);
    expect(sync.getSnapshot().items.map((i) => i.note)).toEqual(["Milk"]);
    expect(held).toEqual([full]);
    expect(gaveUp).toBe(0);
    // Kept where a reload finds it too.
    expect([...stored.values()].join()).toContain("Milk");

    // Room again: the server takes what waited (its list as it was, then the items created).
    const sent: string[] = [];
    vi.stubGlobal("fetch", (path: string, init: { method: string; body?: string }) => {
      sent.push(`${init.method} ${path}`);
      const body = init.body ? (JSON.parse(init.body) as { id: string }[]) : [];
      const updatedAt = new Date().toISOString();
      const created = body.map((i) => ({ ...i, shoppingListId: LIST.id, updatedAt, recipeReferences: [] }));
      const answer =
        init.method === "GET"
          ? { ...LIST, listItems: [], recipeReferences: [] }
          : { createdItems: created, updatedItems: [], deletedItems: [] };
      return Promise.resolve(
        new Response(JSON.stringify(answer), {
          status: 200,
          headers: { "Content-Type": "application/json" },
        }),
      );
    });
    await retry(1);
    expect(sent.some((c) => c.startsWith("POST ") && c.endsWith("/create-bulk"))).toBe(true);
    expect(sync.getSnapshot().pending).toBe(0);
    expect(sync.getSnapshot().items.map((i) => [i.note, i.checked])).toEqual([["Milk", true]]);
  });

  it("gives up, and says so, on changes the server refuses (a 4xx) after a few tries", async () => {
    answering(422, "food not found");
    const sync = new ListSync(LIST, [], "u1");
    const held: string[] = [];
    const gaveUp: Array<string | null> = [];
    sync.onHeld = (reason) => held.push(reason);
    sync.onGiveUp = (reason) => gaveUp.push(reason);

    sync.add({ note: "Saffron" });
    await retry(5);

    // With the server's own words, so a person knows what to change.
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]).toMatch(/food not found/);
    expect(held).toEqual([]);
    expect(sync.getSnapshot().pending).toBe(0);
  });
});
