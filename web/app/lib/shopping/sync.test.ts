import { describe, expect, it } from "vitest";
import { compact, overlay, parseQueue, planSync, type Op, type SyncItem } from "./sync.js";

const L = "11111111-1111-4111-8111-111111111111";
const item = (id: string, updatedAt: string, extra: Partial<SyncItem> = {}): SyncItem => ({
  id,
  shoppingListId: L,
  updatedAt,
  checked: false,
  note: id,
  ...extra,
});
const T0 = "2026-11-25T10:00:00.000Z";
const ms = (iso: string) => Date.parse(iso);

describe("compact", () => {
  it("folds check, uncheck, check of one item into one update with the last value", () => {
    const ops: Op[] = [
      { kind: "update", listId: L, id: "a", at: 1, base: T0, fields: { checked: true } },
      { kind: "update", listId: L, id: "a", at: 2, base: T0, fields: { checked: false } },
      { kind: "update", listId: L, id: "a", at: 3, base: T0, fields: { checked: true, note: "x" } },
    ];
    expect(compact(ops)).toEqual([
      { kind: "update", listId: L, id: "a", at: 3, base: T0, fields: { checked: true, note: "x" } },
    ]);
  });

  it("folds edits of an item created offline into its create, and a create then delete into nothing", () => {
    const ops: Op[] = [
      { kind: "create", listId: L, id: "n", at: 1, fields: { note: "milk", quantity: 1 } },
      { kind: "update", listId: L, id: "n", at: 2, base: null, fields: { quantity: 2 } },
      { kind: "create", listId: L, id: "m", at: 3, fields: { note: "eggs" } },
      { kind: "delete", listId: L, id: "m", at: 4, base: null },
    ];
    expect(compact(ops)).toEqual([
      { kind: "create", listId: L, id: "n", at: 2, fields: { note: "milk", quantity: 2 } },
    ]);
  });

  it("keeps a delete when an update follows it", () => {
    const ops: Op[] = [
      { kind: "delete", listId: L, id: "a", at: 1, base: T0 },
      { kind: "update", listId: L, id: "a", at: 2, base: T0, fields: { checked: true } },
    ];
    expect(compact(ops).map((o) => o.kind)).toEqual(["delete"]);
  });
});

describe("planSync", () => {
  it("sends offline check-offs and a new item when nobody else touched the list", () => {
    const server = [item("a", T0), item("b", T0), item("c", T0)];
    const at = ms(T0) + 60_000;
    const ops: Op[] = [
      ...["a", "b", "c"].map((id, k): Op => ({
        kind: "update",
        listId: L,
        id,
        at: at + k,
        base: T0,
        fields: { checked: true },
      })),
      { kind: "create", listId: L, id: "n", at: at + 5, fields: { note: "bread" } },
    ];
    const plan = planSync(server, ops);
    expect(plan.update.map((u) => [u.id, u.checked])).toEqual([
      ["a", true],
      ["b", true],
      ["c", true],
    ]);
    expect(plan.create).toEqual([{ id: "n", note: "bread", shoppingListId: L }]);
    expect(plan.dropped).toEqual([]);
  });

  it("drops a change to an item deleted elsewhere: it stays deleted", () => {
    const ops: Op[] = [{ kind: "update", listId: L, id: "gone", at: 5, base: T0, fields: { checked: true } }];
    const plan = planSync([item("a", T0)], ops);
    expect(plan.update).toEqual([]);
    expect(plan.dropped).toHaveLength(1);
  });

  it("lets the later write win when both sides changed the item", () => {
    const mine = ms(T0) + 10_000;
    const ops: Op[] = [{ kind: "update", listId: L, id: "a", at: mine, base: T0, fields: { note: "mine" } }];
    // Someone else wrote after me: theirs stays.
    const later = new Date(mine + 5_000).toISOString();
    expect(planSync([item("a", later)], ops).update).toEqual([]);
    // Someone else wrote before me (while I was offline): mine wins.
    const earlier = new Date(mine - 5_000).toISOString();
    expect(planSync([item("a", earlier)], ops).update.map((u) => u.note)).toEqual(["mine"]);
  });

  it("corrects for the device clock with the server's skew", () => {
    // The device runs 1 minute behind the server: its op at 10:00:30 device time is 10:01:30 server time.
    const ops: Op[] = [
      { kind: "update", listId: L, id: "a", at: ms(T0) + 30_000, base: T0, fields: { checked: true } },
    ];
    const theirs = new Date(ms(T0) + 60_000).toISOString();
    expect(planSync([item("a", theirs)], ops, 0).update).toEqual([]);
    expect(planSync([item("a", theirs)], ops, 60_000).update).toHaveLength(1);
  });

  it("sends a change made on the server's current copy even when the clocks disagree", () => {
    const future = "2030-01-01T00:00:00.000Z";
    const ops: Op[] = [
      { kind: "update", listId: L, id: "a", at: 1, base: future, fields: { checked: true } },
    ];
    expect(planSync([item("a", future)], ops).update).toHaveLength(1);
  });

  it("does not create an item twice when an earlier sync already sent it", () => {
    const ops: Op[] = [{ kind: "create", listId: L, id: "n", at: 1, fields: { note: "bread" } }];
    const plan = planSync([item("n", T0)], ops);
    expect(plan.create).toEqual([]);
    expect(plan.dropped).toHaveLength(1);
  });

  it("deletes only what still exists and was not rewritten later", () => {
    const at = ms(T0) + 1000;
    const ops: Op[] = [
      { kind: "delete", listId: L, id: "a", at, base: T0 },
      { kind: "delete", listId: L, id: "x", at, base: T0 },
    ];
    expect(planSync([item("a", T0)], ops).remove).toEqual(["a"]);
  });
});

describe("overlay", () => {
  const make = (id: string, f: object): SyncItem => ({ id, shoppingListId: L, updatedAt: null, ...f });
  it("shows queued edits over the server's items, only for this list", () => {
    const ops: Op[] = [
      { kind: "update", listId: L, id: "a", at: 1, base: T0, fields: { checked: true } },
      { kind: "delete", listId: L, id: "b", at: 2, base: T0 },
      { kind: "create", listId: L, id: "n", at: 3, fields: { note: "bread" } },
      { kind: "create", listId: "other", id: "o", at: 3, fields: { note: "elsewhere" } },
      { kind: "update", listId: L, id: "gone", at: 4, base: T0, fields: { checked: true } },
    ];
    const shown = overlay([item("a", T0), item("b", T0)], ops, L, make);
    expect(shown.map((i) => [i.id, i.checked ?? null])).toEqual([
      ["a", true],
      ["n", null],
    ]);
  });
});

describe("parseQueue", () => {
  it("reads a stored queue and treats damage as an empty one", () => {
    const op: Op = { kind: "delete", listId: L, id: "a", at: 1, base: null };
    expect(parseQueue(JSON.stringify([op, { kind: "bogus" }, null]))).toEqual([op]);
    expect(parseQueue("{not json")).toEqual([]);
    expect(parseQueue(JSON.stringify({ a: 1 }))).toEqual([]);
    expect(parseQueue(null)).toEqual([]);
  });
});
