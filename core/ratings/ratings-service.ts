/**
 * Ratings and favourites (mealie-api-notes §4.3), one `ratings.json` per group. A recipe's `rating`
 * is derived from them: the average of its users' ratings above 0, across households. Only the user
 * themself or an admin may write a user's ratings (Mealie let anyone: GHSA-5pvv-vjm6-v952).
 * Ratings of a recipe whose file is gone are kept but not shown: if the file comes back, they reattach.
 */
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors.js";
import { RatingRecord, RatingsDoc } from "../schemas/ratings.js";
import type { UserRecord } from "../schemas/records.js";
import { DocCache } from "../storage/doc-cache.js";
import { derivedId, isUuid } from "../util/ids.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "folder" | "groups" | "log" | "recipes" | "users">;

export const RatingUpdateIn = z
  .object({
    // Pydantic's lax mode takes "4.5" for a float; so do we.
    rating: z.preprocess(
      (v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v),
      z.number().min(0, "Must be between 0 and 5").max(5, "Must be between 0 and 5").nullish(),
    ),
    isFavorite: z.boolean().nullish(),
  })
  .loose();
export type RatingUpdate = { rating?: number | null; isFavorite?: boolean | null };

/** UserRatingSummary of the contract. */
export interface RatingSummary {
  recipeId: string;
  rating: number | null;
  isFavorite: boolean;
}
/** UserRatingOut of the contract. */
export interface RatingOut extends RatingSummary {
  userId: string;
  id: string;
}

type Listener = (groupSlug: string, recipeIds: string[]) => void;

export class RatingsService {
  private readonly docs: DocCache<RatingsDoc>;
  private readonly slugByPath = new Map<string, string>();
  private readonly pathBySlug = new Map<string, string>();
  /** Per group slug: recipe id → average of ratings > 0. */
  private readonly averages = new Map<string, Map<string, number>>();
  /** Per document path: the records the averages were last computed from. */
  private readonly lastRatings = new Map<string, readonly RatingRecord[]>();
  private readonly listeners = new Set<Listener>();

  private constructor(private readonly larder: Deps) {
    this.docs = new DocCache<RatingsDoc>({
      schema: RatingsDoc,
      defaults: () => RatingsDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      arraysSortedBy: ["ratings"],
      onLoad: (path, doc) => {
        this.recompute(path, doc.data.ratings);
        doc.onChange((ev) => {
          if (ev.type === "change") this.recompute(path, ev.data.ratings);
        });
      },
      onError: (path, e) => larder.log.error(`could not open ${path}:`, e),
    });
  }

  /** Load every group's ratings (before recipe summaries are built, so they carry their average). */
  static async open(larder: Deps): Promise<RatingsService> {
    const s = new RatingsService(larder);
    for (const g of larder.groups.all()) await s.docs.get(s.pathOf(g));
    return s;
  }

  /** Hear which recipes' averages changed (the recipe lister drops their cached summaries). */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The recipe's `rating`: the average of ratings above 0, or null when nobody rated it. */
  averageOf(groupSlug: string, recipeId: string): number | null {
    const g = this.larder.groups.bySlugOrNull(groupSlug);
    if (g) this.docs.peek(this.pathOf(g));
    return this.averages.get(groupSlug)?.get(recipeId) ?? null;
  }

  /** The actor's own rating per recipe id, for `orderBy=rating` (their rating wins over the average). */
  ownRatings(actor: Actor): (recipeId: string) => number | null {
    if (actor.kind !== "user") return () => null;
    const g = this.larder.groups.byId(actor.user.groupId);
    if (!g) return () => null;
    const mine = new Map<string, number | null>();
    for (const r of this.records(g)) if (r.userId === actor.user.id) mine.set(r.recipeId, r.rating);
    return (id) => mine.get(id) ?? null;
  }

  /** GET /users/{id}/ratings and /favorites: a member of the caller's group. */
  forUser(actor: Actor, userId: string, favoritesOnly: boolean): RatingOut[] {
    const { group } = this.caller(actor);
    const target = this.member(group, userId);
    return this.visible(group, target.id, favoritesOnly).map((r) => ({
      ...summary(r),
      userId: r.userId,
      id: r.id,
    }));
  }

  /** GET /users/self/ratings and /self/favorites. */
  forSelf(actor: Actor, favoritesOnly: boolean): RatingSummary[] {
    const { user, group } = this.caller(actor);
    return this.visible(group, user.id, favoritesOnly).map(summary);
  }

  /** GET /users/self/ratings/{recipeId}. */
  selfFor(actor: Actor, recipeId: string): RatingSummary {
    const { user, group } = this.caller(actor);
    if (!isUuid(recipeId))
      throw new ValidationError([
        { loc: ["path", "recipe_id"], msg: "Input should be a valid UUID", type: "uuid_parsing" },
      ]);
    const r = this.visible(group, user.id, false).find(
      (x) => x.recipeId === recipeId.toLowerCase() || x.recipeId === recipeId,
    );
    if (!r) throw new NotFoundError("User has not rated this recipe");
    return summary(r);
  }

  /** POST /users/{id}/ratings/{slug} (and the favourite routes): create or update; omitted fields are kept. */
  async set(actor: Actor, userId: string, slugOrId: string, patch: RatingUpdate): Promise<void> {
    const { user, group } = this.caller(actor);
    // Refuse before looking anything up: another user's ratings are not the caller's to change.
    if (user.id !== userId && !user.admin) throw new ForbiddenError("Permission Denied");
    const target = this.member(group, userId);
    const { entry } = this.larder.recipes.find(actor, slugOrId);
    const doc = await this.docs.get(this.pathOf(group));
    const now = new Date().toISOString();
    const id = derivedId(target.id, entry.id);
    // One record changes: the group's other records are kept as they are, not copied (JsonDoc.replace).
    await doc.replace((d) => {
      const i = d.ratings.findIndex((r) => r.userId === target.id && r.recipeId === entry.id);
      const prev =
        i >= 0
          ? d.ratings[i]
          : RatingRecord.parse({ id, userId: target.id, recipeId: entry.id, createdAt: now });
      const next: RatingRecord = {
        ...prev,
        rating: patch.rating === undefined ? prev.rating : patch.rating,
        isFavorite:
          patch.isFavorite === undefined || patch.isFavorite === null ? prev.isFavorite : patch.isFavorite,
        updatedAt: now,
      };
      const ratings = d.ratings.slice();
      if (i >= 0) ratings[i] = next;
      else ratings.push(next);
      return { ...d, ratings };
    });
  }

  /**
   * Ratings an import brings in (a Mealie backup's), in one change of the group's document: each set()
   * writes the whole document, so a backup of thousands of ratings took one write per rating. An item
   * whose user is not a member of the group, whose recipe is not in it or whose rating is not a number
   * is refused; the others are kept.
   */
  async importMany(
    g: GroupData,
    items: readonly { userId: string; recipeId: string; rating: number | null; isFavorite: boolean }[],
  ): Promise<{ kept: number; refused: number[] }> {
    const refused: number[] = [];
    const ok = items.filter((it, i) => {
      const u = this.larder.users.byId(it.userId);
      const e = this.larder.recipes.entryById(it.recipeId);
      const fine =
        !!u &&
        u.groupId === g.doc.data.id &&
        e !== null &&
        e.groupSlug === g.slug &&
        (it.rating === null || Number.isFinite(it.rating));
      if (!fine) refused.push(i);
      return fine;
    });
    if (ok.length === 0) return { kept: 0, refused };
    const doc = await this.docs.get(this.pathOf(g));
    const now = new Date().toISOString();
    await doc.replace((d) => {
      const ratings = d.ratings.slice();
      const at = new Map(ratings.map((r, i) => [`${r.userId}\u0000${r.recipeId}`, i]));
      for (const it of ok) {
        const key = `${it.userId}\u0000${it.recipeId}`;
        const i = at.get(key);
        const prev =
          i !== undefined
            ? ratings[i]
            : RatingRecord.parse({
                id: derivedId(it.userId, it.recipeId),
                userId: it.userId,
                recipeId: it.recipeId,
                createdAt: now,
              });
        const next: RatingRecord = { ...prev, rating: it.rating, isFavorite: it.isFavorite, updatedAt: now };
        if (i !== undefined) ratings[i] = next;
        else at.set(key, ratings.push(next) - 1);
      }
      return { ...d, ratings };
    });
    return { kept: ok.length, refused };
  }

  /** An API delete of a recipe takes its ratings with it. */
  async removeRecipe(groupSlug: string, recipeId: string): Promise<void> {
    const g = this.larder.groups.bySlugOrNull(groupSlug);
    if (!g) return;
    const doc = await this.docs.get(this.pathOf(g));
    if (!doc.data.ratings.some((r) => r.recipeId === recipeId)) return;
    await doc.update((d) => {
      d.ratings = d.ratings.filter((r) => r.recipeId !== recipeId);
    });
  }

  /** A deleted user's ratings go with them (their votes no longer count toward any average). */
  async removeUser(userId: string): Promise<void> {
    for (const g of this.larder.groups.all()) {
      const doc = await this.docs.get(this.pathOf(g));
      if (!doc.data.ratings.some((r) => r.userId === userId)) continue;
      await doc.update((d) => {
        d.ratings = d.ratings.filter((r) => r.userId !== userId);
      });
    }
  }

  async idle(): Promise<void> {
    await this.docs.idle();
  }

  private pathOf(g: GroupData): string {
    // Remembered: every recipe summary asks for its average, and checking a path against the folder
    // each time was a tenth of building the recipe list.
    let path = this.pathBySlug.get(g.slug);
    if (path === undefined) {
      path = this.larder.folder.ratingsJson(g.slug);
      this.pathBySlug.set(g.slug, path);
      this.slugByPath.set(path, g.slug);
    }
    return path;
  }

  private records(g: GroupData): RatingRecord[] {
    return this.docs.data(this.pathOf(g)).ratings;
  }

  /** A user's ratings of recipes that exist in the group now. */
  private visible(g: GroupData, userId: string, favoritesOnly: boolean): RatingRecord[] {
    return this.records(g).filter((r) => {
      if (r.userId !== userId || (favoritesOnly && !r.isFavorite)) return false;
      const e = this.larder.recipes.entryById(r.recipeId);
      return e !== null && e.groupSlug === g.slug;
    });
  }

  private caller(actor: Actor): { user: UserRecord; group: GroupData } {
    if (actor.kind !== "user") throw new UnauthorizedError();
    const group = this.larder.groups.byId(actor.user.groupId);
    if (!group) throw new NotFoundError("group not found");
    return { user: actor.user, group };
  }

  /** Another group's user is a 404, like an unknown one: their existence does not leak. */
  private member(g: GroupData, userId: string): UserRecord {
    const u = this.larder.users.byId(userId);
    if (!u || u.groupId !== g.doc.data.id) throw new NotFoundError("User Not Found");
    return u;
  }

  private recompute(path: string, ratings: readonly RatingRecord[]): void {
    const groupSlug = this.slugByPath.get(path);
    if (!groupSlug) return;
    const before = this.lastRatings.get(path);
    this.lastRatings.set(path, ratings);
    // The recipes whose ratings may have changed: those of every record not at the same place as the
    // same object as before. A rating replaces one record and keeps the others (JsonDoc.replace), so
    // it recomputes one recipe's average, not the group's (a Map and an object per rated recipe, per
    // rating, under load).
    let touched: Set<string> | null = null;
    if (before) {
      touched = new Set();
      for (let i = 0; i < Math.max(before.length, ratings.length); i++) {
        if (before[i] === ratings[i]) continue;
        if (before[i]) touched.add(before[i].recipeId);
        if (ratings[i]) touched.add(ratings[i].recipeId);
      }
    }
    const sums = new Map<string, { sum: number; n: number }>();
    for (const r of ratings) {
      if (r.rating === null || !(r.rating > 0)) continue;
      if (touched && !touched.has(r.recipeId)) continue;
      const s = sums.get(r.recipeId) ?? { sum: 0, n: 0 };
      s.sum += r.rating;
      s.n++;
      sums.set(r.recipeId, s);
    }
    // The group's map is changed in place, not replaced: a rating is one entry, and a new map of every
    // rated recipe per rating outlived the young generation under load (decision 0190).
    let averages = this.averages.get(groupSlug);
    if (!averages) this.averages.set(groupSlug, (averages = new Map<string, number>()));
    const changed = new Set<string>();
    for (const [id, s] of sums) {
      const average = Math.round((s.sum / s.n) * 1000) / 1000;
      if (averages.get(id) === average) continue;
      averages.set(id, average);
      changed.add(id);
    }
    for (const id of touched ?? averages.keys()) {
      if (sums.has(id) || !averages.has(id)) continue;
      averages.delete(id);
      changed.add(id);
    }
    if (changed.size === 0) return;
    for (const l of this.listeners) {
      try {
        l(groupSlug, [...changed]);
      } catch (e) {
        this.larder.log.error("rating change listener failed:", e);
      }
    }
  }
}

function summary(r: RatingRecord): RatingSummary {
  return { recipeId: r.recipeId, rating: r.rating, isFavorite: r.isFavorite };
}
