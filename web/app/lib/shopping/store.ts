/**
 * One open shopping list in the browser (decision 0085): the server's items as last known (`base`), the
 * queue of changes not yet sent (localStorage, so it survives a reload and a closed tab), and the live
 * channel (/api/larder/events) that keeps `base` current. Every edit goes through the queue, online
 * or not, so there is one path: shown at once, sent when possible, merged by sync.ts when it is sent.
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import type { ShoppingItemOut, ShoppingListSummaryOut } from "../../../../core/shopping/shopping-service.js";
import { api, clockSkew, HttpError, ITEMS, LISTS, NetworkError } from "./api.js";
import { compact, overlay, parseQueue, planSync, serverTrouble, type ItemFields, type Op } from "./sync.js";
import { recipeNamesOf, trimItem, trimList, type ListItem, type ListMeta } from "./types.js";

/** Per user and list: a queue left by someone who signed out is never sent with the next user's session. */
export const STORAGE_PREFIX = "larder.shopping.";
const QUEUE_KEY = (user: string, id: string) => `${STORAGE_PREFIX}queue.${user}.${id}`;
const SNAPSHOT_KEY = (user: string, id: string) => `${STORAGE_PREFIX}list.${user}.${id}`;

/** Signing out forgets the lists kept in this browser (pwa.ts calls it). */
export function forgetShoppingData(): void {
  try {
    for (const k of Object.keys(localStorage))
      if (k.startsWith(STORAGE_PREFIX + "queue.") || k.startsWith(STORAGE_PREFIX + "list."))
        localStorage.removeItem(k);
  } catch {
    // no storage
  }
}
/** A failed sync is tried again after this long (and at once when the browser says it is back online). */
const RETRY_MS = 5_000;
/** A request that keeps failing with an error status (not a lost connection) is given up after this many tries. */
const MAX_ATTEMPTS = 3;

export interface ListState {
  list: ListMeta;
  items: ListItem[];
  /** Changes waiting to be sent. */
  pending: number;
  online: boolean;
  /** The list was deleted (here or elsewhere). */
  deleted: boolean;
}

interface Snapshot {
  list: ListMeta;
  items: ListItem[];
}

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}
function writeJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or denied (private mode): the page keeps working, only a reload forgets.
  }
}

export const newItemId = (): string =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
        (Number(c) ^ ((Math.random() * 16) >> (Number(c) / 4))).toString(16),
      );

export class ListSync {
  private base: ListItem[];
  private list: ListMeta;
  private queue: Op[] = [];
  private online = true;
  private deleted = false;
  private stale = false;
  private flushing = false;
  private again = false;
  private attempts = 0;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private events: EventSource | null = null;
  private listeners = new Set<() => void>();
  private state: ListState;
  readonly serverState: ListState;
  /** Told when a change could not be sent at all (given up after MAX_ATTEMPTS). */
  /** The server kept refusing the queued changes; `reason` is its last answer's message. */
  onGiveUp: ((reason: string | null) => void) | null = null;
  /**
   * Told once per spell of the server failing to save (5xx, with its reason): the changes stay queued
   * and are sent again.
   */
  onHeld: ((reason: string) => void) | null = null;
  private held = false;

  constructor(
    list: ListMeta,
    items: ListItem[],
    private readonly user: string,
  ) {
    this.list = list;
    this.base = items;
    this.state = this.serverState = { list, items, pending: 0, online: true, deleted: false };
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getSnapshot = (): ListState => this.state;

  /** Browser only: load the queue, connect the live channel, send what waits. Returns the stop function. */
  start(): () => void {
    const id = this.list.id;
    this.queue = parseQueue(localStorage.getItem(QUEUE_KEY(this.user, id)));
    this.online = navigator.onLine;
    // Offline (a page the service worker kept), the copy saved at the last change is newer than the page.
    const snap = readJson<Snapshot>(SNAPSHOT_KEY(this.user, id));
    if (!this.online && snap?.list?.id === id && Array.isArray(snap.items)) {
      this.base = snap.items;
      this.list = snap.list;
    }
    this.stale = this.queue.length > 0;
    const goOnline = () => {
      this.online = true;
      this.stale = true;
      this.connect();
      void this.flush();
    };
    const goOffline = () => {
      this.online = false;
      this.emit();
    };
    window.addEventListener("online", goOnline);
    window.addEventListener("offline", goOffline);
    if (this.online) this.connect();
    this.emit();
    void this.flush();
    return () => {
      window.removeEventListener("online", goOnline);
      window.removeEventListener("offline", goOffline);
      this.events?.close();
      this.events = null;
      if (this.retry) clearTimeout(this.retry);
    };
  }

  // ---- edits -------------------------------------------------------------------------------------

  /** A new item, at the end of the list unless a position is given. */
  add(fields: ItemFields): string {
    const id = newItemId();
    const last = Math.max(-1, ...this.state.items.map((i) => i.position));
    this.push({
      kind: "create",
      listId: this.list.id,
      id,
      at: this.now(),
      fields: { position: last + 1, ...fields },
    });
    return id;
  }

  update(id: string, fields: ItemFields): void {
    const cur = this.base.find((i) => i.id === id);
    this.push({
      kind: "update",
      listId: this.list.id,
      id,
      at: this.now(),
      base: cur?.updatedAt ?? null,
      fields,
    });
  }

  remove(ids: string[]): void {
    for (const id of ids) {
      const cur = this.base.find((i) => i.id === id);
      this.push({ kind: "delete", listId: this.list.id, id, at: this.now(), base: cur?.updatedAt ?? null });
    }
  }

  /** New order of some items: positions 0…n-1 in that order, sending only those that change. */
  reorder(ids: string[]): void {
    const shown = new Map(this.state.items.map((i) => [i.id, i]));
    ids.forEach((id, position) => {
      if (shown.get(id)?.position !== position) this.update(id, { position });
    });
  }

  /** List-level changes (name, label order) need the server: they are not queued. */
  async rename(name: string): Promise<void> {
    const out = await api<ShoppingListSummaryOut>("PUT", `${LISTS}/${this.list.id}`, { name });
    this.list = { ...this.list, name: out.name ?? "" };
    this.emit();
  }

  async saveLabelOrder(labelIds: string[]): Promise<void> {
    const body = labelIds.flatMap((labelId, position) => {
      const s = this.list.labelSettings.find((x) => x.labelId === labelId);
      return s ? [{ id: s.id, shoppingListId: this.list.id, labelId, position }] : [];
    });
    const out = await api<ShoppingListSummaryOut>("PUT", `${LISTS}/${this.list.id}/label-settings`, body);
    this.list = trimList(out);
    this.emit();
  }

  /**
   * Take a recipe off the list (every serving of it): the server lowers its items' amounts and removes
   * the items only it brought. Changes still waiting are sent first, so none is applied to the list
   * the answer replaces.
   */
  async removeRecipe(recipeId: string, servings: number): Promise<void> {
    await this.flush();
    const out = await api<ListOut>(
      "POST",
      `${LISTS}/${this.list.id}/recipe/${encodeURIComponent(recipeId)}/delete`,
      {
        recipeDecrementQuantity: servings,
      },
    );
    const names = recipeNamesOf(out);
    this.list = trimList(out);
    this.base = out.listItems.map((i) => trimItem(i, names));
    this.persist();
    this.emit();
  }

  // ---- sync --------------------------------------------------------------------------------------

  /** Device time; planSync moves it onto the server's clock with the measured skew. */
  private now(): number {
    return Date.now();
  }

  private push(op: Op): void {
    this.queue.push(op);
    this.persist();
    this.emit();
    void this.flush();
  }

  async flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return;
    }
    if (!this.online || this.deleted) return;
    this.flushing = true;
    try {
      do {
        this.again = false;
        if (this.stale) await this.refresh();
        const ops = this.queue.slice();
        if (ops.length === 0) break;
        const plan = planSync(this.base, ops, clockSkew());
        if (plan.create.length) this.absorb(await api<ItemsOut>("POST", `${ITEMS}/create-bulk`, plan.create));
        if (plan.update.length) this.absorb(await api<ItemsOut>("PUT", ITEMS, plan.update));
        if (plan.remove.length) {
          const q = plan.remove.map((id) => `ids=${encodeURIComponent(id)}`).join("&");
          await api("DELETE", `${ITEMS}?${q}`);
          const gone = new Set(plan.remove);
          this.base = this.base.filter((i) => !gone.has(i.id));
        }
        this.queue = this.queue.filter((op) => !ops.includes(op));
        this.attempts = 0;
        this.held = false;
        this.persist();
        this.emit();
      } while (this.again || this.queue.length > 0);
    } catch (e) {
      this.stale = true;
      if (e instanceof HttpError && e.status === 404 && !(await this.exists())) {
        this.deleted = true;
      } else if (e instanceof NetworkError) {
        this.schedule();
      } else if (e instanceof HttpError && serverTrouble(e.status)) {
        if (!this.held) this.onHeld?.(e.message);
        this.held = true;
        this.schedule();
      } else if (++this.attempts >= MAX_ATTEMPTS) {
        // The server keeps refusing these changes (say, a food deleted meanwhile): drop them, say so.
        this.queue = this.queue.filter((op) => op.listId !== this.list.id);
        this.attempts = 0;
        this.persist();
        this.onGiveUp?.(e instanceof HttpError ? e.message : null);
      } else this.schedule();
      this.emit();
    } finally {
      this.flushing = false;
    }
  }

  private schedule(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.flush();
    }, RETRY_MS);
  }

  private async exists(): Promise<boolean> {
    try {
      await api("GET", `${LISTS}/${this.list.id}`);
      return true;
    } catch (e) {
      return !(e instanceof HttpError && e.status === 404);
    }
  }

  /** The server's current list (before sending a queue that waited, and after the live channel broke). */
  private async refresh(): Promise<void> {
    const out = await api<ListOut>("GET", `${LISTS}/${this.list.id}`);
    const names = recipeNamesOf(out);
    this.list = trimList(out);
    this.base = out.listItems.map((i) => trimItem(i, names));
    this.stale = false;
  }

  private absorb(out: ItemsOut): void {
    for (const it of [...out.createdItems, ...out.updatedItems]) this.upsert(it);
    const gone = new Set(out.deletedItems.map((i) => i.id));
    if (gone.size) this.base = this.base.filter((i) => !gone.has(i.id));
  }

  private upsert(it: ShoppingItemOut): void {
    const i = this.base.findIndex((x) => x.id === it.id);
    if (it.shoppingListId !== this.list.id) {
      if (i >= 0) this.base.splice(i, 1);
      return;
    }
    const names = new Map(this.list.recipes.map((r) => [r.id, r.name]));
    const next = trimItem(it, names);
    if (i >= 0) this.base[i] = next;
    else this.base.push(next);
  }

  private connect(): void {
    if (this.events || typeof EventSource === "undefined") return;
    const es = new EventSource("/api/larder/events");
    this.events = es;
    let broken = false;
    es.addEventListener("error", () => {
      broken = true;
      if (!navigator.onLine) {
        es.close();
        this.events = null;
      }
    });
    es.addEventListener("ready", () => {
      // Reconnected: what happened while the stream was down is read once.
      if (!broken) return;
      broken = false;
      this.stale = true;
      void this.flush().then(() => this.emit());
    });
    es.addEventListener("shopping-item", (e) => {
      const change = parse(e);
      if (!change) return;
      for (const it of change.data as ShoppingItemOut[]) {
        if (change.operation === "delete") this.base = this.base.filter((x) => x.id !== it.id);
        else this.upsert(it);
      }
      this.persist();
      this.emit();
    });
    es.addEventListener("shopping-list", (e) => {
      const change = parse(e);
      const mine = (change?.data as ShoppingListSummaryOut[] | undefined)?.find((l) => l.id === this.list.id);
      if (!change || !mine) return;
      if (change.operation === "delete") this.deleted = true;
      else this.list = trimList(mine);
      this.emit();
    });
  }

  private persist(): void {
    const id = this.list.id;
    const mine = this.queue.filter((op) => op.listId === id);
    if (mine.length) writeJson(QUEUE_KEY(this.user, id), mine);
    else localStorage.removeItem(QUEUE_KEY(this.user, id));
    writeJson(SNAPSHOT_KEY(this.user, id), { list: this.list, items: this.base } satisfies Snapshot);
  }

  private emit(): void {
    const mine = this.queue.filter((op) => op.listId === this.list.id);
    this.state = {
      list: this.list,
      items: overlay(this.base, mine, this.list.id, (id, f) => ({
        id,
        shoppingListId: this.list.id,
        updatedAt: null,
        note: "",
        quantity: 1,
        checked: false,
        position: 0,
        foodId: null,
        unitId: null,
        labelId: null,
        recipes: [],
        ...f,
      })),
      pending: compact(mine).length,
      online: this.online,
      deleted: this.deleted,
    };
    for (const fn of this.listeners) fn();
  }
}

type ItemsOut = {
  createdItems: ShoppingItemOut[];
  updatedItems: ShoppingItemOut[];
  deletedItems: ShoppingItemOut[];
};
type ListOut = ShoppingListSummaryOut & { listItems: ShoppingItemOut[] };

function parse(e: Event): { operation: string; data: unknown[] } | null {
  try {
    const v = JSON.parse((e as MessageEvent<string>).data) as { operation: string; data: unknown[] };
    return Array.isArray(v.data) ? v : null;
  } catch {
    return null;
  }
}

/** The list page's state: server-rendered from the loader, then live in the browser. */
export function useListSync(list: ListMeta, items: ListItem[], user: string): [ListState, ListSync] {
  const [sync] = useState(() => new ListSync(list, items, user));
  useEffect(() => sync.start(), [sync]);
  const state = useSyncExternalStore(sync.subscribe, sync.getSnapshot, () => sync.serverState);
  return [state, sync];
}
