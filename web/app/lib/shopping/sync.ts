/**
 * The shopping list's change queue and its merge with the server (decision 0085). Pure functions, no
 * DOM: the browser store (store.ts) keeps the queue in localStorage and calls these.
 *
 * Every edit made on a list page becomes an `Op` first, shown at once over the last known server state
 * (`overlay`), then sent. Online the queue drains within a request; offline it waits, survives a reload,
 * and drains when the network is back. At that point `planSync` compares each op with the server's
 * current copy of the item:
 *
 * - the item is gone on the server: the op is dropped (an item deleted elsewhere stays deleted);
 * - the server's copy is the one the op was made on (`base` equal), or older than the op: the op wins;
 * - someone else wrote the item after the op was made: their write wins (last write per item).
 *
 * Several ops on one item fold into one request (check, uncheck, check sends one update).
 */

/** The item fields the page edits (a subset of the wire ShoppingListItemOut). */
export interface ItemFields {
  note?: string;
  quantity?: number;
  checked?: boolean;
  position?: number;
  foodId?: string | null;
  unitId?: string | null;
  labelId?: string | null;
}

/** What the page holds of an item (the wire item; only these fields are read here). */
export interface SyncItem extends ItemFields {
  id: string;
  shoppingListId: string;
  updatedAt: string | null;
}

export type Op =
  | { kind: "create"; listId: string; id: string; at: number; fields: ItemFields }
  | { kind: "update"; listId: string; id: string; at: number; base: string | null; fields: ItemFields }
  | { kind: "delete"; listId: string; id: string; at: number; base: string | null };

/** The requests one sync sends, and the ops it dropped because the server's state wins. */
export interface SyncPlan {
  create: (ItemFields & { id: string; shoppingListId: string })[];
  update: (ItemFields & { id: string; shoppingListId: string })[];
  remove: string[];
  dropped: Op[];
}

const time = (iso: string | null | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : 0;
};

/** Folds the ops of one item into at most one: create+updates → create, create+delete → nothing. */
export function compact(ops: readonly Op[]): Op[] {
  const out: Op[] = [];
  const at = new Map<string, number>();
  for (const op of ops) {
    const i = at.get(op.id);
    const prev = i === undefined ? undefined : out[i];
    if (!prev) {
      at.set(op.id, out.length);
      out.push(structuredClone(op));
      continue;
    }
    let next: Op | null;
    if (op.kind === "delete") {
      next = prev.kind === "create" ? null : { ...op, base: prev.base };
    } else if (op.kind === "update") {
      if (prev.kind === "delete") next = prev;
      else next = { ...prev, at: op.at, fields: { ...prev.fields, ...op.fields } };
    } else {
      next = op;
    }
    if (next) out[i as number] = next;
    else {
      out.splice(i as number, 1);
      at.clear();
      out.forEach((o, k) => at.set(o.id, k));
    }
  }
  return out;
}

/**
 * The list as the page shows it: the server's items with the queued ops applied, in order. A queued
 * change to an item that is gone stays invisible (it will be dropped).
 */
export function overlay<T extends SyncItem>(
  items: readonly T[],
  ops: readonly Op[],
  listId: string,
  make: (id: string, fields: ItemFields) => T,
): T[] {
  const out = items.map((i) => ({ ...i }));
  for (const op of ops) {
    if (op.listId !== listId) continue;
    const i = out.findIndex((x) => x.id === op.id);
    if (op.kind === "create") {
      if (i < 0) out.push(make(op.id, op.fields));
    } else if (op.kind === "update") {
      if (i >= 0) out[i] = { ...out[i], ...op.fields };
    } else if (i >= 0) out.splice(i, 1);
  }
  return out;
}

/**
 * What to send, given the server's current items of every list the ops touch. `skewMs` is the server
 * clock minus this device's (from the Date header of the last response), so op times compare with the
 * server's `updatedAt`.
 */
export function planSync(server: readonly SyncItem[], ops: readonly Op[], skewMs = 0): SyncPlan {
  const byId = new Map(server.map((i) => [i.id, i]));
  const plan: SyncPlan = { create: [], update: [], remove: [], dropped: [] };
  for (const op of compact(ops)) {
    const cur = byId.get(op.id);
    if (op.kind === "create") {
      // Already there: an earlier sync sent it and the answer was lost (a reload, a dropped connection).
      if (cur) plan.dropped.push(op);
      else plan.create.push({ ...op.fields, id: op.id, shoppingListId: op.listId });
      continue;
    }
    if (!cur) {
      plan.dropped.push(op);
      continue;
    }
    const untouched = op.base !== null && cur.updatedAt === op.base;
    const newer = time(cur.updatedAt) > op.at + skewMs;
    if (!untouched && newer) {
      plan.dropped.push(op);
      continue;
    }
    if (op.kind === "delete") plan.remove.push(op.id);
    else plan.update.push({ ...op.fields, id: op.id, shoppingListId: cur.shoppingListId });
  }
  return plan;
}

/** The queue as stored (localStorage): a damaged or foreign value is an empty queue, never a crash. */
export function parseQueue(raw: string | null | undefined): Op[] {
  if (!raw) return [];
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  return v.filter(
    (o): o is Op =>
      !!o &&
      typeof o === "object" &&
      ["create", "update", "delete"].includes((o as Op).kind) &&
      typeof (o as Op).id === "string" &&
      typeof (o as Op).listId === "string" &&
      typeof (o as Op).at === "number",
  );
}

/**
 * Whether a failed send's answer is the server's own trouble (5xx: a full disk answers 507, a
 * read-only folder 503) rather than a refusal of these changes (4xx). The changes are then kept and
 * sent again however long it lasts, since dropping them would lose what the reader did; a refusal is
 * given up after a few tries.
 */
export function serverTrouble(status: number): boolean {
  return status >= 500;
}
