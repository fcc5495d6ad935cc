/**
 * Variable-length lists of (int, byte) pairs, one per key, packed into two shared typed arrays: the
 * search index's postings (key: term) and each recipe's terms (key: document). A typed array per list
 * cost two heap objects and a backing store each, more than the data for the many short lists, and
 * growing them by doubling left a copy behind at every step (decision 0169).
 *
 * A list lives in a region `[start, start + cap)`. A region that must grow moves to the end; the hole
 * it leaves counts as waste, and the arrays are compacted (regions slid down, in order) before they
 * would grow while at least half of them is waste.
 */
const EMPTY_INTS = new Int32Array(0);
const EMPTY_BYTES = new Uint8Array(0);

/** The lists of keys `0 … len.length-1`, back to back in key order: what a saved index holds. */
export interface PackedLists {
  len: Int32Array;
  ints: Int32Array;
  bytes: Uint8Array;
}

export class Regions {
  ints: Int32Array = EMPTY_INTS;
  bytes: Uint8Array = EMPTY_BYTES;
  /** Per key: where its region starts, its capacity and how many entries it holds. */
  start: Int32Array = EMPTY_INTS;
  cap: Int32Array = EMPTY_INTS;
  len: Int32Array = EMPTY_INTS;
  private used = 0;
  private waste = 0;

  /** Entries held, and slots reserved in all (for measuring). */
  get footprint(): { entries: number; slots: number } {
    return { entries: this.used - this.waste, slots: this.ints.length };
  }

  /** Make room for keys `0 … keys-1`. */
  ensureKeys(keys: number): void {
    if (keys <= this.start.length) return;
    const size = Math.max(64, keys + (keys >> 1));
    this.start = grown(this.start, size);
    this.cap = grown(this.cap, size);
    this.len = grown(this.len, size);
  }

  /**
   * Room for `need` entries in `key`'s list. `exact`: a region of just that size (a list whose final
   * length is known, as when the entries were counted first); otherwise half again as much, so a list
   * that keeps taking one entry at a time moves rarely.
   */
  reserve(key: number, need: number, exact: boolean): void {
    const cap = this.cap[key];
    if (need <= cap) return;
    const size = exact || cap === 0 ? need : Math.max(need, cap + (cap >> 1), 4);
    this.makeRoom(size);
    const at = this.used;
    const from = this.start[key];
    const n = this.len[key];
    if (n) {
      this.ints.copyWithin(at, from, from + n);
      this.bytes.copyWithin(at, from, from + n);
    }
    this.waste += cap;
    this.start[key] = at;
    this.cap[key] = size;
    this.used += size;
  }

  /** Append an entry; the caller reserved room for it. */
  push(key: number, int: number, byte: number): void {
    const at = this.start[key] + this.len[key]++;
    this.ints[at] = int;
    this.bytes[at] = byte;
  }

  /** Remove the entry at `i` of `key`'s list; the last entry takes its place. */
  removeAt(key: number, i: number): void {
    const base = this.start[key];
    const last = base + --this.len[key];
    this.ints[base + i] = this.ints[last];
    this.bytes[base + i] = this.bytes[last];
  }

  /** Remove the entry at `i` of `key`'s list; the entries after it move up, keeping their order. */
  removeInOrder(key: number, i: number): void {
    const at = this.start[key] + i;
    const end = this.start[key] + this.len[key]--;
    this.ints.copyWithin(at, at + 1, end);
    this.bytes.copyWithin(at, at + 1, end);
  }

  /** Every list of keys `0 … keys-1`, back to back with no room to spare (for saving). */
  pack(keys: number): PackedLists {
    const len = new Int32Array(keys);
    let total = 0;
    for (let k = 0; k < keys && k < this.len.length; k++) total += len[k] = this.len[k];
    const ints = new Int32Array(total);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (let k = 0; k < keys; k++) {
      const n = len[k];
      if (!n) continue;
      const from = this.start[k];
      ints.set(this.ints.subarray(from, from + n), at);
      bytes.set(this.bytes.subarray(from, from + n), at);
      at += n;
    }
    return { len, ints, bytes };
  }

  /** Regions holding packed lists, each region exactly its list (the arrays are taken, not copied). */
  static unpack(lists: PackedLists): Regions {
    const r = new Regions();
    const keys = lists.len.length;
    r.ensureKeys(keys);
    let at = 0;
    for (let k = 0; k < keys; k++) {
      const n = lists.len[k];
      if (n < 0 || at + n > lists.ints.length) throw new Error("search index file: a list overruns its data");
      r.start[k] = at;
      r.cap[k] = r.len[k] = n;
      at += n;
    }
    if (at !== lists.ints.length || lists.bytes.length !== at)
      throw new Error("search index file: lists and data differ in length");
    r.ints = lists.ints;
    r.bytes = lists.bytes;
    r.used = at;
    return r;
  }

  /** `key`'s entries' ints: a view valid until the next change. */
  intsOf(key: number): Int32Array {
    return this.ints.subarray(this.start[key], this.start[key] + this.len[key]);
  }

  /** Drop `key`'s list and its region. */
  free(key: number): void {
    this.waste += this.cap[key];
    this.start[key] = 0;
    this.cap[key] = 0;
    this.len[key] = 0;
  }

  /** Room for `size` more slots at the end: compacted first when that frees enough, else grown. */
  makeRoom(size: number): void {
    if (this.used + size <= this.ints.length) return;
    if (this.waste >= size && this.waste * 2 >= this.used) this.compact();
    if (this.used + size <= this.ints.length) return;
    const length = Math.max(this.used + size, this.ints.length + (this.ints.length >> 1));
    this.ints = grown(this.ints, length);
    const bytes = new Uint8Array(length);
    bytes.set(this.bytes);
    this.bytes = bytes;
  }

  /** Slide every region down over the holes, in order of position. */
  private compact(): void {
    const keys: number[] = [];
    for (let k = 0; k < this.cap.length; k++) if (this.cap[k] > 0) keys.push(k);
    keys.sort((a, b) => this.start[a] - this.start[b]);
    let at = 0;
    for (const k of keys) {
      const from = this.start[k];
      const n = this.len[k];
      if (from !== at && n) {
        this.ints.copyWithin(at, from, from + n);
        this.bytes.copyWithin(at, from, from + n);
      }
      this.start[k] = at;
      at += this.cap[k];
    }
    this.used = at;
    this.waste = 0;
  }
}

function grown(a: Int32Array, length: number): Int32Array {
  const b = new Int32Array(length);
  b.set(a.length > length ? a.subarray(0, length) : a);
  return b;
}
