/**
 * Values kept by group, then slug: the recipe index and the warm-start cache both hold one per recipe
 * file, and a `group\0slug` key string per recipe was 50,000 strings at 50,000 recipes (decision 0186).
 */
import type { Location } from "./identity.js";

export class LocationMap<T extends Location> {
  readonly #groups = new Map<string, Map<string, T>>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(groupSlug: string, slug: string): T | undefined {
    return this.#groups.get(groupSlug)?.get(slug);
  }

  /** Puts `value` at its own location, replacing what was there. */
  set(value: T): void {
    let g = this.#groups.get(value.groupSlug);
    if (!g) this.#groups.set(value.groupSlug, (g = new Map()));
    if (!g.has(value.slug)) this.#size++;
    g.set(value.slug, value);
  }

  /** Removes what is at the location; returns it. A group left empty is forgotten. */
  delete(groupSlug: string, slug: string): T | undefined {
    const g = this.#groups.get(groupSlug);
    const prev = g?.get(slug);
    if (!g || prev === undefined) return undefined;
    g.delete(slug);
    if (g.size === 0) this.#groups.delete(groupSlug);
    this.#size--;
    return prev;
  }

  /** One group's values by slug. */
  group(groupSlug: string): ReadonlyMap<string, T> | undefined {
    return this.#groups.get(groupSlug);
  }

  /** Groups holding at least one value, with their values by slug. */
  groups(): IterableIterator<[string, ReadonlyMap<string, T>]> {
    return this.#groups.entries();
  }

  *values(): IterableIterator<T> {
    for (const g of this.#groups.values()) yield* g.values();
  }
}
