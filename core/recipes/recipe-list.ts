/**
 * GET /recipes and the organizer lists: every query parameter of mealie-api-notes §4.6, run against the
 * in-memory index (no request walks the folder).
 */
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { RecipesService } from "./recipes-service.js";
import type { RecipeChange, RecipeEntry } from "./store/types.js";
import { organizerAttributes, recipeRatingOrder, type RecipeIndexEntry } from "../query/attributes.js";
import { listQuery, pageOfOrdered, type SearchRanker } from "../query/list.js";
import { pick } from "./wire-bytes.js";
import { mapPage, type ListQuery, type Page } from "../query/list-query.js";
import type { RecipeFilters, RecipeListQuery } from "./list-query.js";
import { compileQueryFilter, type Predicate } from "../query/filter-eval.js";
import { mentionsNow } from "../query/now-placeholder.js";
import { textRanker } from "../search/text-search.js";
import { RecipeSearchIndex } from "../search/recipe-search.js";
import type { SearchIndexFiles } from "../search/index-file.js";
import { entryStamp } from "./search-stamp.js";
import { NotFoundError, UnauthorizedError } from "../errors.js";
import type { RecipeSummary } from "../schemas/recipe.js";
import type { OrganizerKind } from "../schemas/records.js";
import { presentOrganizer, presentTool } from "../presenters/vocabulary.js";
import { slugify } from "../util/slug.js";
import { GroupListing, rankedPrefix, type SearchMatches } from "./group-listing.js";
import { canonicalUuid } from "../util/ids.js";
import { foodNamesOf } from "./store/lazy-doc.js";
import { ListedRecipe } from "./listed-recipe.js";
import type { GroupData } from "../groups/registry.js";
import { emptyList } from "../util/shared-empties.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "cookbooks" | "groups" | "ratings" | "users" | "log">;

/** Recipes indexed per turn of the event loop while the search index is built in the background. */
const INDEX_SLICE = 200;
/** The background build starts with the first list request, or this long after attach at the latest. */
const INDEX_DELAY_MS = 5000;
/**
 * …or this long after the server answers (`buildInBackground`): after an API client's first requests,
 * which start it themselves, and before a person's first page, a second or more after the start.
 */
const SERVING_DELAY_MS = 300;
/** The orders ranked in the background once the search index is built: the UI's and the API's usual ones. */
const BACKGROUND_ORDERS = ["name", "createdAt", "dateAdded", "updatedAt"];
/** Distinct shared entry pieces of one kind held before they are dropped and made again (SharedPieces). */
const SHARED_PIECES = 100_000;

/** An organizer as the organizer lists read it: its wire form and when it was stored (null: only named by a recipe). */
type OrganizerItem = (ReturnType<typeof presentOrganizer> | ReturnType<typeof presentTool>) & {
  createdAt: string | null;
};

/** One object per id for a piece many entries hold alike, made again when its value changes. */
class SharedPieces<T extends object> {
  private readonly byId = new Map<string, T>();

  get(id: string, same: (v: T) => boolean, make: () => T): T {
    let v = this.byId.get(id);
    if (v === undefined || !same(v)) {
      // Deleted foods and users leave pieces behind: start over now and then rather than hold them for good.
      if (v === undefined && this.byId.size >= SHARED_PIECES) this.byId.clear();
      this.byId.set(id, (v = make()));
    }
    return v;
  }
}

/**
 * The order of a list with one plain attribute in `orderBy` (or none: `createdAt`), or null for
 * anything else (several attributes, random, the caller's own rating), which the general path orders.
 */
function singleOrder(
  q: RecipeListQuery,
): { path: string; direction: "asc" | "desc"; nullsFirst: boolean } | null {
  if (q.queryFilter?.trim()) return null;
  // A blank but non-empty orderBy orders nothing on the general path (parseOrderBy finds no term).
  if (q.orderBy && !q.orderBy.trim()) return null;
  const orderBy = q.orderBy?.trim() || "createdAt";
  const m = /^([A-Za-z_.]+)\s*(?::\s*(asc|desc))?$/i.exec(orderBy);
  if (!m) return null;
  const path = m[1];
  const key = path.replace(/_/g, "").toLowerCase();
  if (key === "rating" || key === "random") return null;
  const direction = (m[2]?.toLowerCase() as "asc" | "desc" | undefined) ?? q.orderDirection ?? "desc";
  const nullsFirst = q.orderByNullPosition ? q.orderByNullPosition === "first" : direction === "asc";
  return { path, direction, nullsFirst };
}

/** A list ordered by relevance alone: no queryFilter and no orderBy. */
function isRankOnly(q: ListQuery): boolean {
  return !q.queryFilter && !q.orderBy;
}

/** Index of `value` in an ascending array, or -1. */
function findSorted(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid];
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** What narrows a group's list: the explore list's visibility rule, a cookbook's own filters, the caller's ratings. */
interface GroupListOptions {
  where?: Predicate<RecipeIndexEntry>;
  skipOrganizers?: boolean;
  ownRating?: (recipeId: string) => number | null;
}

export class RecipeLister {
  private entries = new WeakMap<object, RecipeIndexEntry>();
  /**
   * The read-only pieces of entries that many recipes hold alike (a food, a household, an owner): one
   * object per distinct value, where one per recipe was about 130,000 small objects at 10,000 recipes
   * (decision 0177). Keyed by id and replaced when the value differs (a renamed food, a changed
   * preference): entries made before keep the old piece until they are made again.
   */
  private readonly sharedFoods = new SharedPieces<RecipeIndexEntry["foods"][number]>();
  private readonly sharedHouseholds = new SharedPieces<RecipeIndexEntry["household"]>();
  private readonly sharedUsers = new SharedPieces<RecipeIndexEntry["user"]>();
  /**
   * One search index per group (decision 0136): a search reads only its group's postings, so its
   * cost follows the group's size, not the folder's (ten groups of 5,000 searched one index of
   * 50,000 and dropped nine tenths of the matches). Relevance weighs a word by its rarity in the
   * group searched.
   */
  private readonly searchIndexes = new Map<string, RecipeSearchIndex>();
  /** Per group, bumped by every change to one of its recipes: what organizerItems' memo is keyed on. */
  private readonly revisions = new Map<string, number>();
  private readonly organizerMemo = new Map<
    string,
    { revision: number; stored: object; items: OrganizerItem[] }
  >();
  /** The group whose index holds each indexed recipe id. */
  private readonly indexedIn = new Map<string, string>();
  /**
   * Ids of recipes not in the search index yet, per group, and how far each group's list is done.
   * Building it for 10,000 recipes takes about a second, so the server starts answering first and
   * builds it in slices; a group's first search finishes that group's part (docs/decisions/0007, 0193:
   * the first search of one group of 5,000 among 50,000 recipes waited for all ten). Changes go in at
   * once either way.
   */
  private unindexed = new Map<string, { ids: string[]; next: number }>();
  private stopped = false;
  private building: (() => void) | null = null;
  private buildTimer: NodeJS.Timeout | undefined = undefined;
  /**
   * Each group's index entries in store order, with their columns and remembered answers, patched on
   * each change of one recipe (decision 0135): mapping 10,000 recipes to their entries was a
   * millisecond of every list request, and rebuilding them after every write most of a list's time.
   */
  private groupItems = new Map<string, GroupListing>();
  /** Patched listings that did not match the store and were read again (for tests and the benchmark). */
  rebuilds = 0;
  /**
   * Per group, the documents its entries and summaries read besides the recipe files: the users (an
   * owner's household and username) and the group's households (slug, privacy). An entry is made once
   * per recipe document, so without this a user moved to another household, renamed, or a household
   * made public kept its old values in the list (and its filters) until the recipe changed, while the
   * recipe's own page showed the new ones.
   */
  private readonly builtFrom = new Map<string, { users: unknown; households: unknown[]; key: string }>();

  /** Groups whose index changed since it was taken up from its file or last saved (decision 0196). */
  private readonly unsaved = new Set<string>();
  /** Groups whose saved index was looked for already (once per start). */
  private readonly restoreTried = new Set<string>();
  /** Saved indexes being taken up: their documents, how many are checked, and what changed meanwhile. */
  private readonly restoring = new Map<
    string,
    {
      index: RecipeSearchIndex;
      docs: [string, number][];
      next: number;
      stale: string[];
      touched: Set<string>;
    }
  >();
  private saving: Promise<void> | null = null;
  /** What taking up saved indexes did (for tests and the start's log). */
  readonly restored = { groups: 0, recipes: 0, reindexed: 0 };

  constructor(
    private larder: Deps,
    private recipes: RecipesService,
    /** Where each group's search index is saved between starts; null: built at every start. */
    private readonly files: SearchIndexFiles | null = null,
  ) {}

  /** A group's search index, complete. */
  searchIn(groupSlug: string): RecipeSearchIndex {
    this.indexPending(Infinity, groupSlug);
    return this.indexOf(groupSlug);
  }

  /** How many of the group's recipes its search index holds (tests). */
  searchIndexed(groupSlug: string): number {
    return this.searchIndexes.get(groupSlug)?.size ?? 0;
  }

  private indexOf(groupSlug: string): RecipeSearchIndex {
    let index = this.searchIndexes.get(groupSlug);
    if (!index) this.searchIndexes.set(groupSlug, (index = new RecipeSearchIndex()));
    return index;
  }

  /** A recipe's document number in its group's index, and that group; -1 when not indexed. */
  private docNumber(id: string): { groupSlug: string | undefined; doc: number } {
    const groupSlug = this.indexedIn.get(id);
    return { groupSlug, doc: groupSlug === undefined ? -1 : this.indexOf(groupSlug).docOf(id) };
  }

  /** Build the search index (in the background) and keep it current from the store's events. */
  attach(): void {
    this.unindexed.clear();
    for (const e of this.recipes.store.all()) {
      let pending = this.unindexed.get(e.groupSlug);
      if (!pending) this.unindexed.set(e.groupSlug, (pending = { ids: [], next: 0 }));
      pending.ids.push(e.id);
    }
    this.unsubscribe = this.recipes.store.on("change", (ev) => this.changed(ev));
    const groups = new Set(this.recipes.store.all().map((e) => e.groupSlug));
    // What the entries made from now on read: a change to it after this forgets them (ownersChanged).
    for (const g of groups) this.ownersChanged(g);
    let started = 0;
    const step = (): void => {
      if (this.stopped) return;
      started ||= performance.now();
      this.indexPending(INDEX_SLICE);
      if (this.unindexed.size > 0) setImmediate(step);
      else {
        const { restored } = this;
        if (this.files && this.indexedIn.size > 0) {
          const how =
            restored.groups === 0
              ? "built from the recipes"
              : `${restored.recipes} taken up from ${restored.groups} saved group index(es), ${restored.reindexed} indexed again`;
          const ms = (performance.now() - started).toFixed(0);
          this.larder.log.info(`search index: ${this.indexedIn.size} recipes in ${ms} ms (${how})`);
        }
        this.saveInBackground();
        setImmediate(() => this.rankInBackground([...groups], 0));
      }
    };
    // Not at once: the server is still loading its modules then, and slices run between those steps
    // delayed its first answer by as long as the whole build (docs/decisions/0007). A first list
    // request says the server is up; a timer covers a server nobody asks.
    this.buildTimer = setTimeout(() => this.startBuilding(), INDEX_DELAY_MS).unref();
    this.building = () => {
      clearTimeout(this.buildTimer);
      setImmediate(step);
    };
  }

  /**
   * After the search index: each group's listing and the ranks of the usual orders, one rank per
   * turn of the event loop. A rank is a sort of the group's folded names or dates (tens of ms at
   * 10,000 recipes) that the first list in that order paid; changes keep them current after that.
   */
  private rankInBackground(groups: readonly string[], step: number): void {
    if (this.stopped || step >= groups.length * BACKGROUND_ORDERS.length) return;
    const groupSlug = groups[Math.floor(step / BACKGROUND_ORDERS.length)];
    const a = this.itemsOf(groupSlug)
      .columns()
      .tryResolve(BACKGROUND_ORDERS[step % BACKGROUND_ORDERS.length]);
    if (a && !a.many) a.orderKey?.();
    setImmediate(() => this.rankInBackground(groups, step + 1));
  }

  /**
   * The server answers now: start the background build soon (SERVING_DELAY_MS) rather than at the
   * first list request or 5 s after the start. A person opening the home page a second after the start
   * then finds the group's listing and search index made, where the page used to make them while the
   * person waited. Not at once: an API client's first request came in behind the first slice.
   */
  buildInBackground(): void {
    if (!this.building) return;
    clearTimeout(this.buildTimer);
    this.buildTimer = setTimeout(() => this.startBuilding(), SERVING_DELAY_MS).unref();
  }

  private startBuilding(): void {
    const start = this.building;
    this.building = null;
    start?.();
  }

  private unsubscribe: (() => void) | null = null;

  /** Stop building in the background and following the store (the service is closing). */
  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** stop, then save the indexes that changed, for the next start to take up. */
  async close(): Promise<void> {
    this.stop();
    await this.saving;
    await this.saveChanged();
  }

  private saveInBackground(): void {
    if (!this.files || this.unsaved.size === 0 || this.saving) return;
    this.saving = this.saveChanged()
      .catch((e: unknown) => this.larder.log.warn("could not save the search index:", e))
      .finally(() => (this.saving = null));
  }

  /** Write each complete group index that changed since it was read or written. */
  private async saveChanged(): Promise<void> {
    const files = this.files;
    if (!files) return;
    for (const groupSlug of [...this.unsaved]) {
      const index = this.searchIndexes.get(groupSlug);
      if (!index || this.unindexed.has(groupSlug)) continue;
      this.unsaved.delete(groupSlug);
      try {
        await files.write(groupSlug, index.image());
      } catch (e) {
        this.unsaved.add(groupSlug);
        throw e;
      }
    }
  }

  /**
   * Start taking up a group's saved index (decision 0196): read it, then check its recipes a slice at a
   * time (checkRestoring). False (nothing changed) when there is no usable file.
   */
  private beginRestore(groupSlug: string): boolean {
    if (!this.files || this.restoreTried.has(groupSlug)) return false;
    this.restoreTried.add(groupSlug);
    const image = this.files.read(groupSlug);
    if (!image) return false;
    const store = this.recipes.store;
    let index: RecipeSearchIndex;
    try {
      index = RecipeSearchIndex.fromImage(image, (id) => {
        const e = store.getById(id);
        return e ? this.made(e) : undefined;
      });
    } catch {
      return false;
    }
    this.restoring.set(groupSlug, {
      index,
      docs: [...index.documents()],
      next: 0,
      stale: [],
      touched: new Set(),
    });
    return true;
  }

  /**
   * Check up to `max` recipes of a saved index being taken up: one whose stamp differs from its recipe
   * now, or whose recipe is gone or moved to another group, is indexed again. Once all are checked the
   * index replaces the group's; recipes the file does not know are added. Returns how many it checked.
   */
  private checkRestoring(groupSlug: string, max: number): number {
    const r = this.restoring.get(groupSlug)!;
    const store = this.recipes.store;
    const end = Math.min(r.docs.length, r.next + max);
    const checked = end - r.next;
    for (; r.next < end; r.next++) {
      const [id, doc] = r.docs[r.next];
      const e = store.getById(id);
      if (!e || e.groupSlug !== groupSlug || r.index.stampOf(doc) !== entryStamp(e, this.made(e)))
        r.stale.push(id);
    }
    if (r.next < r.docs.length) return checked;
    this.restoring.delete(groupSlug);
    const { index } = r;
    // Recipes that changed while the checks went on are indexed again, whatever their check said.
    for (const id of [...r.stale, ...r.touched]) index.remove(id);
    // Swapped in whole: what change events indexed meanwhile is indexed again just below.
    for (const [id, g] of this.indexedIn) if (g === groupSlug) this.indexedIn.delete(id);
    this.searchIndexes.set(groupSlug, index);
    const group = this.groupItems.get(groupSlug);
    if (group) group.docPos = null;
    let reindexed = 0;
    for (const e of store.list(groupSlug)) {
      if (index.has(e.id)) this.indexedIn.set(e.id, groupSlug);
      else {
        this.index(e);
        reindexed++;
      }
    }
    // Unchanged from the file: nothing to write back.
    if (r.stale.length === 0 && r.touched.size === 0 && reindexed === 0) this.unsaved.delete(groupSlug);
    this.restored.groups++;
    this.restored.recipes += index.size - reindexed;
    this.restored.reindexed += reindexed;
    this.unindexed.delete(groupSlug);
    return checked;
  }

  /** Index up to `max` pending recipes: of one group, or of the groups in turn. */
  private indexPending(max: number, onlyGroup?: string): void {
    let left = max;
    // Groups someone listed first: their first search is the one most likely to come next.
    const order = [...this.unindexed].sort(
      (a, b) => Number(this.groupItems.has(b[0])) - Number(this.groupItems.has(a[0])),
    );
    for (const [groupSlug, pending] of order) {
      if (onlyGroup !== undefined && groupSlug !== onlyGroup) continue;
      if (pending.next === 0 && !this.restoring.has(groupSlug) && this.beginRestore(groupSlug)) {
        // Reading the file counts as a slice of work: the checks start at the next step.
        left -= INDEX_SLICE;
        if (left <= 0) return;
      }
      if (this.restoring.has(groupSlug)) {
        left -= this.checkRestoring(groupSlug, left);
        if (left <= 0) return;
        continue;
      }
      const end = Math.min(pending.ids.length, pending.next + left);
      left -= end - pending.next;
      while (pending.next < end) {
        const id = pending.ids[pending.next++];
        // Deleted meanwhile, or already indexed by a change event: nothing to do.
        const e = this.recipes.store.getById(id);
        if (e && !this.indexedIn.has(id)) this.index(e);
      }
      if (pending.next >= pending.ids.length) this.unindexed.delete(groupSlug);
      if (left <= 0) return;
    }
  }

  private index(e: RecipeEntry): void {
    const was = this.indexedIn.get(e.id);
    if (was !== undefined && was !== e.groupSlug) this.unindex(e.id);
    // add replaces a recipe already indexed under the id.
    const entry = this.made(e);
    this.indexOf(e.groupSlug).add(entry, this.files ? entryStamp(e, entry) : 0);
    this.indexedIn.set(e.id, e.groupSlug);
    this.unsaved.add(e.groupSlug);
    this.restoring.get(e.groupSlug)?.touched.add(e.id);
  }

  private unindex(id: string): void {
    const was = this.indexedIn.get(id);
    this.restoring.forEach((r) => r.touched.add(id));
    if (was === undefined) return;
    this.indexOf(was).remove(id);
    this.indexedIn.delete(id);
    this.unsaved.add(was);
  }

  /**
   * The index entry of a recipe: summary plus what filters and search read. Cached per document, and
   * made again when its owner's household or name, or its household's slug or privacy, changed.
   */
  entryOf(e: RecipeEntry): RecipeIndexEntry {
    this.ownersCurrent(e.groupSlug);
    return this.made(e);
  }

  /** A recipe of the group changed (or may have): what was kept of the group's organizers is stale. */
  private revise(groupSlug: string): void {
    this.revisions.set(groupSlug, (this.revisions.get(groupSlug) ?? 0) + 1);
  }

  /** Forget the group's entries and summaries if what they read of the users and households changed. */
  ownersCurrent(groupSlug: string): void {
    if (this.ownersChanged(groupSlug)) this.forgetGroup(groupSlug);
  }

  /** entryOf for the lister's own paths, which check the owners once per list rather than per entry. */
  private made(e: RecipeEntry): RecipeIndexEntry {
    const hit = this.entries.get(e.doc);
    if (hit) return hit;
    const summary = this.recipes.knownSummaryOf(e);
    const lookups = this.recipes.lookupsFor(e.groupSlug);
    const owner = this.larder.users.byId(summary.userId);
    const household = this.larder.groups.householdById(summary.householdId)?.household.doc.data;
    // The foods' names, not the ingredients: a doc from the warm-start cache keeps those unparsed.
    const foods: { id: string; name: string }[] = [];
    for (const name of foodNamesOf(e.doc)) {
      const f = lookups.foodByName(name);
      if (f)
        foods.push(
          this.sharedFoods.get(
            f.id,
            (v) => v.name === f.name,
            () => ({ id: f.id, name: f.name }),
          ),
        );
    }
    const slug = household?.slug;
    const householdName = household?.name;
    const privateHousehold = household?.preferences.privateHousehold ?? true;
    const username = owner?.username ?? null;
    const entry = new ListedRecipe(
      summary,
      e.doc,
      this.sharedHouseholds.get(
        summary.householdId,
        (v) =>
          v.slug === slug && v.name === householdName && v.preferences.privateHousehold === privateHousehold,
        () => ({ id: summary.householdId, slug, name: householdName, preferences: { privateHousehold } }),
      ),
      this.sharedUsers.get(
        summary.userId,
        (v) => v.username === username,
        () => ({ id: summary.userId, username }),
      ),
      // Kept for the life of the entry: none shares one frozen list, others are copied to their exact
      // length (a list grown by push keeps room for 17, decision 0207).
      foods.length === 0 ? emptyList() : foods.slice(),
    );
    this.entries.set(e.doc, entry);
    this.recipes.summaryListed(e.doc);
    return entry;
  }

  /** The entry already made for a doc, if any (the summary's values, without making one). */
  listedOf(doc: object): RecipeIndexEntry | undefined {
    return this.entries.get(doc);
  }

  private groupSlugOf(actor: Actor): string {
    if (actor.kind !== "user") throw new UnauthorizedError();
    const g = this.larder.groups.byId(actor.user.groupId);
    if (!g) throw new NotFoundError("group not found");
    return g.slug;
  }

  /** GET /recipes: the caller's group; `cookbook=` (id or slug) ANDs its filter and replaces the organizer params. */
  list(actor: Actor, query: RecipeListQuery): Page<RecipeSummary> {
    return mapPage(this.listEntries(actor, query), pick);
  }

  /**
   * `list`'s page as the index entries themselves: the API writes each one's summary from JSON kept
   * per entry (wire-bytes.ts `summaryBytes`) instead of picking a summary object to stringify.
   */
  listEntries(actor: Actor, query: RecipeListQuery): Page<RecipeIndexEntry> {
    const groupSlug = this.groupSlugOf(actor);
    const cookbook = query.cookbook;
    return this.entriesIn(groupSlug, query, {
      where: cookbook ? this.larder.cookbooks.recipeFilterFor(actor, cookbook) : undefined,
      skipOrganizers: !!cookbook,
      ownRating: ownRatingsWhenAsked(() => this.larder.ratings.ownRatings(actor)),
    });
  }

  /** The recipe list over one group's recipes; the user list and the public explore list share it. */
  listIn(groupSlug: string, q: RecipeListQuery, opts: GroupListOptions): Page<RecipeSummary> {
    return mapPage(this.entriesIn(groupSlug, q, opts), pick);
  }

  private entriesIn(groupSlug: string, q: RecipeListQuery, opts: GroupListOptions): Page<RecipeIndexEntry> {
    this.startBuilding();
    const group = this.itemsOf(groupSlug);
    const all = group.items;
    // Rows are positions in the group's items; filters and orders read the group's columns
    // (core/query/columns.ts), built once per change of the group (decision 0110).
    let rows: Iterable<number> | null = opts.skipOrganizers ? null : this.filterOrganizers(all, q);
    const ownRating = recipeRatingOrder(opts.ownRating ?? (() => null));
    const where = opts.where;
    // Only a request with `search` needs (and so completes) the search index.
    let search: SearchRanker<number> = (query) => {
      const score = this.searchIn(groupSlug).ranker<RecipeIndexEntry>()(query);
      return (at) => score(all[at]);
    };
    let query: RecipeListQuery = q;
    const filter = q.queryFilter?.trim() ? q.queryFilter : null;
    if (filter) {
      // The positions passing a queryFilter are remembered until the group's next change (decision
      // 0137): a filter the UI or a client asks again (the next page, a cookbook, a saved view)
      // reads no column. Compiled first, so a bad filter is a 400 as before.
      const compute = () => {
        const predicate = compileQueryFilter(filter, group.columns())!;
        const out: number[] = [];
        for (let at = 0; at < all.length; at++) if (predicate(at)) out.push(at);
        return Int32Array.from(out);
      };
      // A filter relative to now (`createdAt >= $NOW-7d`) answers differently as time passes.
      const passing = mentionsNow(filter) ? compute() : group.filtered(filter, compute);
      rows = rows ? [...rows].filter((p) => findSorted(passing, p) >= 0) : passing;
      query = { ...q, queryFilter: null };
    }
    const searched = q.search;
    if (!rows && !where && !searched?.trim()) {
      // One order over the whole group: the page is read off the rank's kept order (decision 0137).
      const one = singleOrder(q);
      if (one) {
        let pageAt: number[] | null = null;
        const page = pageOfOrdered(q, all.length, (start, end) => {
          pageAt = group.orderedPrefix(one.path, one.direction, one.nullsFirst, end, start);
          return pageAt ?? [];
        });
        if (pageAt) return mapPage(page, (at) => all[at]);
      }
    }
    if (searched?.trim()) {
      // The index knows the matches, as positions in the group: listQuery then filters, orders and
      // pages those alone, without a look at every recipe of the group (docs/decisions/0007).
      const matches = this.matchesIn(groupSlug, group, searched);
      if (!rows && !where && isRankOnly(q)) {
        // Relevance alone orders the page: only the page's prefix of the ranking is selected (a
        // bounded heap over the matches' scores), and the envelope is built around it.
        const page = pageOfOrdered(q, matches.at.length, (start, end) =>
          Array.from(rankedPrefix(matches, end).subarray(start), (i) => all[matches.at[i]]),
        );
        return page;
      }
      const { at, score } = matches;
      const scoreAt = (p: number): number | undefined => {
        const i = findSorted(at, p);
        return i < 0 ? undefined : score[i];
      };
      rows = rows ? [...rows].filter((p) => findSorted(at, p) >= 0) : at;
      search = () => scoreAt;
    }
    const page = listQuery(rows ?? group.positions(), query, group.columns(), {
      where: where ? (at) => where(all[at]) : undefined,
      search,
      // `orderBy=rating`: the caller's own rating where they gave one, else the average.
      orderOverrides: {
        rating: {
          type: ownRating.type,
          nullPosition: ownRating.nullPosition,
          get: (at) => ownRating.get(all[at]),
        },
      },
    });
    return mapPage(page, (at) => all[at]);
  }

  /**
   * One recipe changed (decision 0135): the search index takes it at once, and the group's listing,
   * if built, is patched at the recipe's position instead of being dropped; its remembered searches
   * are forgotten. Renamed recipes move to the end, as the store lists them; the next read checks the
   * listing against the store's order anyway (itemsOf).
   */
  private changed(ev: RecipeChange): void {
    this.revise(ev.groupSlug);
    const id = ev.id;
    // A file that never parsed is in no listing and no index.
    if (!id) return;
    const old = this.docNumber(id);
    if (old.groupSlug !== undefined) this.revise(old.groupSlug);
    const e = this.recipes.store.getById(id);
    if (ev.type === "deleted") this.unindex(id);
    else if (e) this.index(e);
    const group = this.groupItems.get(ev.groupSlug);
    // Found before its document number is unmapped: that number leads to its position.
    const at = group ? group.find(id, old.groupSlug === ev.groupSlug ? old.doc : -1) : -1;
    if (old.groupSlug !== undefined) this.groupItems.get(old.groupSlug)?.unmapDoc(old.doc);
    if (!group) return;
    group.forgetSearches();
    group.forgetFilters();
    const here = ev.type !== "deleted" && e?.groupSlug === ev.groupSlug ? e : null;
    if (!here) {
      if (at >= 0) group.remove(at);
      return;
    }
    const entry = this.made(here);
    let now = at;
    if (at >= 0 && ev.type !== "renamed") group.replace(at, entry, here.doc);
    else {
      if (at >= 0) group.remove(at);
      now = group.append(entry, here.doc);
    }
    group.mapDoc(this.docNumber(id).doc, now);
  }

  /**
   * Whether the users or the group's households changed in what entries read since the last look
   * (see builtFrom). Compares document identities first (JsonDoc replaces its data on every change),
   * and the values only when one was replaced: a change entries do not read (a full name, an
   * e-mail address) leaves every entry as it is.
   */
  private ownersChanged(groupSlug: string): boolean {
    const g = this.larder.groups.bySlugOrNull(groupSlug);
    if (!g) return false;
    const users = this.larder.users.all();
    const seen = this.builtFrom.get(groupSlug);
    let same = seen !== undefined && seen.users === users && seen.households.length === g.households.size;
    if (same) {
      let i = 0;
      for (const h of g.households.values()) if (seen!.households[i++] !== h.doc.data) same = false;
    }
    if (same) return false;
    const households = [...g.households.values()].map((h) => h.doc.data);
    const key = [
      ...users.map((u) => `u\0${u.id}\0${u.householdId}\0${u.username}`),
      ...households.map((h) => `h\0${h.id}\0${h.slug}\0${h.name}\0${h.preferences.privateHousehold}`),
    ].join("\n");
    this.builtFrom.set(groupSlug, { users, households, key });
    return seen !== undefined && seen.key !== key;
  }

  /** Every entry and summary of the group made again on the next read (a rare, whole-group change). */
  private forgetGroup(groupSlug: string): void {
    this.revise(groupSlug);
    for (const e of this.recipes.store.list(groupSlug)) {
      this.entries.delete(e.doc);
      this.recipes.forgetSummary(e.id);
    }
    this.groupItems.delete(groupSlug);
  }

  private itemsOf(groupSlug: string): GroupListing {
    this.ownersCurrent(groupSlug);
    const group = this.groupItems.get(groupSlug);
    if (group && !group.patched) return group;
    const list = this.recipes.store.list(groupSlug);
    if (group?.matches(list)) {
      group.patched = false;
      return group;
    }
    // Not built yet, or the patches missed something: read the store again. Ranks start from the
    // old columns' order (an adaptive sort of a nearly sorted array).
    if (group) this.rebuilds++;
    const fresh = new GroupListing(
      list.map((e) => this.made(e)),
      list.map((e) => e.doc),
      group?.builtColumns() ?? null,
    );
    this.groupItems.set(groupSlug, fresh);
    return fresh;
  }

  /**
   * A search's matches with their scores, and the matching entries in the group's order. Remembered
   * with the group's items, so any change to the group forgets them too: the next page of a search,
   * the search box asking again, or another member asking the same, costs no scoring.
   */
  private matchesIn(groupSlug: string, group: GroupListing, query: string): SearchMatches {
    const known = group.remembered(query);
    if (known) return known;
    const index = this.searchIn(groupSlug);
    let docPos = group.docPos;
    if (!docPos) {
      // Kept current by changes (GroupListing.mapDoc); documents numbered past its end are other
      // groups' (read as -1 below).
      docPos = group.docPos = new Int32Array(index.capacity).fill(-1);
      for (let at = 0; at < group.items.length; at++) {
        const doc = index.docOf(group.items[at].id);
        if (doc >= 0) docPos[doc] = at;
      }
    }
    const n = index.run(query);
    const { hitDocs, hitScores } = index;
    // Scattered by position and swept in order (scores are positive): the matches in the group's
    // order without a sort.
    const byPos = group.scratch();
    let inGroup = 0;
    for (let i = 0; i < n; i++) {
      const p = hitDocs[i] < docPos.length ? docPos[hitDocs[i]] : -1;
      if (p >= 0) {
        byPos[p] = hitScores[i];
        inGroup++;
      }
    }
    const { at, score } = group.matchArrays(inGroup);
    for (let p = 0, k = 0; k < inGroup; p++) {
      if (byPos[p] === 0) continue;
      at[k] = p;
      score[k++] = byPos[p];
      byPos[p] = 0;
    }
    const result: SearchMatches = { at, score, asked: 1 };
    group.remember(query, result);
    return result;
  }

  /**
   * Ratings changed: these recipes' summaries and index entries are made again and put in place in
   * their group's listing. Remembered searches stay: a rating changes no searched text and no
   * position.
   */
  forgetRecipes(ids: readonly string[]): void {
    for (const id of ids) {
      const e = this.recipes.store.getById(id);
      if (!e) continue;
      this.entries.delete(e.doc);
      this.recipes.forgetSummary(id);
      const old = this.docNumber(id);
      this.index(e);
      const group = this.groupItems.get(e.groupSlug);
      const at = group ? group.find(id, old.groupSlug === e.groupSlug ? old.doc : -1) : -1;
      if (old.groupSlug !== undefined) this.groupItems.get(old.groupSlug)?.unmapDoc(old.doc);
      group?.forgetFilters();
      if (!group || at < 0) continue;
      group.replace(at, this.made(e), e.doc);
      group.mapDoc(this.docNumber(id).doc, at);
    }
  }

  /**
   * categories/tags/tools/foods/households params: ids or slugs, any by default, all with requireAll*.
   * The positions in `all` that pass, or null when no such parameter is given.
   */
  private filterOrganizers(all: readonly RecipeIndexEntry[], q: RecipeFilters): number[] | null {
    type Refs = (r: RecipeIndexEntry) => { id: string; slug?: string; name?: string }[];
    const spec: [readonly string[] | undefined, boolean | undefined, Refs][] = [
      [q.categories, q.requireAllCategories, (r) => r.recipeCategory],
      [q.tags, q.requireAllTags, (r) => r.tags],
      [q.tools, q.requireAllTools, (r) => r.tools],
      [q.foods, q.requireAllFoods, (r) => r.foods.map((f) => ({ id: f.id, slug: slugify(f.name) }))],
      [q.households, false, (r) => [{ id: r.householdId, slug: r.household.slug }]],
    ];
    let rows: number[] | null = null;
    for (const [values, requireAll, get] of spec) {
      const wanted = (values ?? []).map((v) => v.trim()).filter(Boolean);
      if (wanted.length === 0) continue;
      const every = requireAll ?? false;
      // An id in any case or hyphen layout names the organizer, as Mealie's UUID() reads it.
      const ids = new Map(wanted.map((w) => [w, canonicalUuid(w)]));
      const matches = (r: RecipeIndexEntry, w: string) => {
        const id = ids.get(w);
        return get(r).some((o) => (id ? o.id === id || o.id === w : o.slug === w));
      };
      const passes = (at: number) =>
        every ? wanted.every((w) => matches(all[at], w)) : wanted.some((w) => matches(all[at], w));
      rows = rows ? rows.filter(passes) : all.map((_, at) => at).filter(passes);
    }
    return rows;
  }

  /** Recipe summaries naming an organizer, for the organizers slug routes. */
  recipesWithOrganizer(actor: Actor, kind: OrganizerKind, name: string): RecipeSummary[] {
    const groupSlug = this.groupSlugOf(actor);
    this.ownersCurrent(groupSlug);
    const key = slugify(name);
    return this.recipes.store
      .list(groupSlug)
      .filter((e) => e.doc[kind].some((n) => slugify(n) === key))
      .map((e) => pick(this.made(e)));
  }

  /** The organizers of a group: those stored plus any a recipe names (created lazily, ARCHITECTURE §3). */
  private organizerItems(groupSlug: string, kind: OrganizerKind): OrganizerItem[] {
    const g = this.larder.groups.bySlugOrNull(groupSlug);
    if (!g) throw new NotFoundError("group not found");
    // A walk over every recipe's summary, three per group home page (its filters): kept until a recipe
    // of the group or its stored organizers change.
    const key = `${kind}\0${groupSlug}`;
    const revision = this.revisions.get(groupSlug) ?? 0;
    const stored = g.organizers.data;
    const kept = this.organizerMemo.get(key);
    if (kept && kept.revision === revision && kept.stored === stored) return kept.items;
    const items = this.collectOrganizers(g, kind);
    this.organizerMemo.set(key, { revision, stored, items });
    return items;
  }

  private collectOrganizers(g: GroupData, kind: OrganizerKind): OrganizerItem[] {
    const groupSlug = g.slug;
    const groupId = g.doc.data.id;
    const present = (o: { id: string; name: string; slug: string; householdsWithTool?: string[] }) =>
      kind === "tools"
        ? presentTool({ householdsWithTool: [], createdAt: null, updatedAt: null, ...o }, groupId)
        : presentOrganizer({ createdAt: null, updatedAt: null, ...o }, groupId);
    const bySlug = new Map<string, OrganizerItem>();
    for (const o of g.organizers.data[kind]) bySlug.set(o.slug, { ...present(o), createdAt: o.createdAt });
    for (const e of this.recipes.store.list(groupSlug)) {
      const summary = this.recipes.summaryOf(e);
      const refs =
        kind === "categories" ? summary.recipeCategory : kind === "tags" ? summary.tags : summary.tools;
      for (const r of refs) if (!bySlug.has(r.slug)) bySlug.set(r.slug, { ...present(r), createdAt: null });
    }
    return [...bySlug.values()];
  }

  /**
   * A group's categories, tags or tools as the organizer pages list them: the stored ones and those only
   * a recipe file names. Counts and pickers read these, so a folder whose organizers were only ever
   * written into recipe files (by hand, by a migration) shows them everywhere.
   */
  groupOrganizers(
    groupSlug: string,
    kind: OrganizerKind,
  ): readonly { id: string; name: string; slug: string }[] {
    return this.organizerItems(groupSlug, kind);
  }

  organizers(actor: Actor, kind: OrganizerKind, query: ListQuery) {
    const items = this.organizerItems(this.groupSlugOf(actor), kind);
    const page = listQuery(items, query, organizerAttributes, {
      search: textRanker([(o) => o.name]),
    });
    return mapPage(page, ({ createdAt: _c, ...rest }) => rest);
  }

  emptyOrganizers(actor: Actor, kind: OrganizerKind) {
    const groupSlug = this.groupSlugOf(actor);
    const used = new Set<string>();
    for (const e of this.recipes.store.list(groupSlug)) for (const n of e.doc[kind]) used.add(slugify(n));
    return this.organizerItems(groupSlug, kind)
      .filter((o) => !used.has(o.slug))
      .map(({ createdAt: _c, ...rest }) => rest);
  }
}

/**
 * The caller's own ratings, read from the group's ratings only when `orderBy=rating` asks: every
 * list request built the map, a walk over the group's ratings that grows with every rating given.
 */
function ownRatingsWhenAsked(read: () => (recipeId: string) => number | null) {
  let own: ((recipeId: string) => number | null) | null = null;
  return (recipeId: string) => (own ??= read())(recipeId);
}
