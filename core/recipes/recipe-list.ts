/**
 * GET /recipes and the organizer lists: every query parameter of mealie-api-notes §4.6, run against the
 * in-memory index (no request walks the folder).
 */
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import type { RecipesService } from "./recipes-service.js";
import type { RecipeEntry } from "./store/types.js";
import { organizerAttributes, recipeAttributes, recipeRatingOrder, type RecipeIndexEntry } from "../query/attributes.js";
import { listQuery } from "../query/list.js";
import type { Predicate } from "../query/filter-eval.js";
import { textRanker } from "../search/text-search.js";
import { RecipeSearchIndex } from "../search/recipe-search.js";
import { NotFoundError, UnauthorizedError } from "../errors.js";
import { RECIPE_SETTINGS_DEFAULTS, type RecipeSummary } from "../schemas/recipe.js";
import type { OrganizerKind } from "../schemas/records.js";
import { presentOrganizer, presentTool } from "../presenters/vocabulary.js";
import { slugify } from "../util/slug.js";
import { isUuid } from "../util/ids.js";

const SUMMARY_KEYS: (keyof RecipeSummary)[] = [
  "id", "userId", "householdId", "groupId", "name", "slug", "image", "recipeServings", "recipeYieldQuantity", "recipeYield",
  "totalTime", "prepTime", "cookTime", "performTime", "description", "recipeCategory", "tags", "tools", "rating", "orgURL",
  "dateAdded", "dateUpdated", "createdAt", "updatedAt", "lastMade",
];

export class RecipeLister {
  private entries = new WeakMap<object, RecipeIndexEntry>();
  readonly search = new RecipeSearchIndex();

  constructor(
    private larder: Larder,
    private recipes: RecipesService,
  ) {}

  /** Build the search index and keep it current from the store's events. */
  attach(): void {
    for (const e of this.recipes.store.all()) this.index(e);
    this.recipes.store.on("change", (ev) => {
      if (!ev.id) return;
      if (ev.type === "deleted") this.search.remove(ev.id);
      else {
        const e = this.recipes.store.getById(ev.id);
        if (e) this.index(e);
      }
    });
  }

  private index(e: RecipeEntry): void {
    const entry = this.entryOf(e);
    if (this.search.has(entry.id)) this.search.update(entry);
    else this.search.add(entry);
  }

  /** The index entry of a recipe: summary plus what filters and search read. Cached per document. */
  entryOf(e: RecipeEntry): RecipeIndexEntry {
    const hit = this.entries.get(e.doc);
    if (hit) return hit;
    const summary = this.recipes.summaryOf(e);
    const lookups = this.recipes.lookupsFor(e.groupSlug);
    const owner = this.larder.users.byId(summary.userId);
    const household = this.larder.groups.householdById(summary.householdId)?.household.doc.data;
    const foods = e.doc.ingredients
      .map((i) => (i.food ? lookups.foodByName(i.food) : null))
      .filter((f): f is NonNullable<typeof f> => f !== null)
      .map((f) => ({ id: f.id, name: f.name }));
    const entry: RecipeIndexEntry = {
      ...summary,
      settings: { ...RECIPE_SETTINGS_DEFAULTS, ...e.doc.settings },
      household: { id: summary.householdId, slug: household?.slug, preferences: { privateHousehold: household?.preferences.privateHousehold ?? true } },
      user: { id: summary.userId, username: owner?.username ?? null },
      foods,
      ingredientTexts: e.doc.ingredients.map((i) => [i.quantity ?? "", i.unit ?? "", i.food ?? "", i.note, i.originalText ?? ""].join(" ").trim()),
    };
    this.entries.set(e.doc, entry);
    return entry;
  }

  private groupSlugOf(actor: Actor): string {
    if (actor.kind !== "user") throw new UnauthorizedError();
    const g = this.larder.groups.byId(actor.user.groupId);
    if (!g) throw new NotFoundError("group not found");
    return g.slug;
  }

  /** GET /recipes: the caller's group; `cookbook=` (id or slug) ANDs its filter and replaces the organizer params. */
  list(actor: Actor, url: URL) {
    const groupSlug = this.groupSlugOf(actor);
    const cookbook = url.searchParams.get("cookbook");
    return this.listIn(groupSlug, url.searchParams, {
      route: "/api/recipes",
      where: cookbook ? this.larder.cookbooks.recipeFilterFor(actor, cookbook) : undefined,
      skipOrganizers: !!cookbook,
      ownRating: this.larder.ratings.ownRatings(actor),
    });
  }

  /** The recipe list over one group's recipes; the user list and the public explore list share it. */
  listIn(
    groupSlug: string,
    q: URLSearchParams,
    opts: { route: string; where?: Predicate<RecipeIndexEntry>; skipOrganizers?: boolean; ownRating?: (recipeId: string) => number | null },
  ) {
    let items = this.recipes.store.list(groupSlug).map((e) => this.entryOf(e));
    if (!opts.skipOrganizers) items = this.filterOrganizers(items, q);
    const envelope = listQuery(items, queryRecord(q), recipeAttributes, {
      route: opts.route,
      where: opts.where,
      search: this.search.ranker<RecipeIndexEntry>(),
      // `orderBy=rating`: the caller's own rating where they gave one, else the average.
      orderOverrides: { rating: recipeRatingOrder(opts.ownRating ?? (() => null)) },
    });
    return { ...envelope, items: envelope.items.map((i) => pick(i)) };
  }

  /** Ratings changed: drop the cached summaries and index entries of these recipes. */
  forgetRecipes(ids: readonly string[]): void {
    for (const id of ids) {
      const e = this.recipes.store.getById(id);
      if (!e) continue;
      this.entries.delete(e.doc);
      this.recipes.forgetSummary(id);
      this.index(e);
    }
  }

  /** categories/tags/tools/foods/households params: ids or slugs, any by default, all with requireAll*. */
  private filterOrganizers(items: RecipeIndexEntry[], q: URLSearchParams): RecipeIndexEntry[] {
    const spec: [string, string, (r: RecipeIndexEntry) => { id: string; slug?: string; name?: string }[]][] = [
      ["categories", "requireAllCategories", (r) => r.recipeCategory],
      ["tags", "requireAllTags", (r) => r.tags],
      ["tools", "requireAllTools", (r) => r.tools],
      ["foods", "requireAllFoods", (r) => r.foods.map((f) => ({ id: f.id, slug: slugify(f.name) }))],
      ["households", "", (r) => [{ id: r.householdId, slug: r.household.slug }]],
    ];
    for (const [param, allParam, get] of spec) {
      const wanted = q.getAll(param).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
      if (wanted.length === 0) continue;
      const all = allParam ? /^(true|1|yes)$/i.test(q.get(allParam) ?? "") : false;
      const matches = (r: RecipeIndexEntry, w: string) => get(r).some((o) => (isUuid(w) ? o.id === w : o.slug === w));
      items = items.filter((r) => (all ? wanted.every((w) => matches(r, w)) : wanted.some((w) => matches(r, w))));
    }
    return items;
  }

  /** Recipe summaries naming an organizer, for the organizers slug routes. */
  recipesWithOrganizer(actor: Actor, kind: OrganizerKind, name: string): RecipeSummary[] {
    const groupSlug = this.groupSlugOf(actor);
    const key = slugify(name);
    return this.recipes.store
      .list(groupSlug)
      .filter((e) => e.doc[kind].some((n) => slugify(n) === key))
      .map((e) => pick(this.entryOf(e)));
  }

  /** The organizers of a group: those stored plus any a recipe names (created lazily, ARCHITECTURE §3). */
  private organizerItems(groupSlug: string, kind: OrganizerKind) {
    const g = this.larder.groups.bySlugOrNull(groupSlug);
    if (!g) throw new NotFoundError("group not found");
    const groupId = g.doc.data.id;
    const present = (o: { id: string; name: string; slug: string; householdsWithTool?: string[] }) =>
      kind === "tools" ? presentTool({ householdsWithTool: [], createdAt: null, updatedAt: null, ...o }, groupId) : presentOrganizer({ createdAt: null, updatedAt: null, ...o }, groupId);
    const bySlug = new Map<string, ReturnType<typeof present> & { createdAt: string | null }>();
    for (const o of g.organizers.data[kind]) bySlug.set(o.slug, { ...present(o), createdAt: o.createdAt });
    for (const e of this.recipes.store.list(groupSlug)) {
      const summary = this.recipes.summaryOf(e);
      const refs = kind === "categories" ? summary.recipeCategory : kind === "tags" ? summary.tags : summary.tools;
      for (const r of refs) if (!bySlug.has(r.slug)) bySlug.set(r.slug, { ...present(r), createdAt: null });
    }
    return [...bySlug.values()];
  }

  organizers(actor: Actor, kind: OrganizerKind, url: URL, basePath: string) {
    const items = this.organizerItems(this.groupSlugOf(actor), kind);
    const env = listQuery(items, queryRecord(url.searchParams), organizerAttributes, {
      route: basePath,
      search: textRanker([(o) => o.name]),
      defaultOrderBy: "name",
      nullsInLinks: "none",
    });
    return { ...env, items: env.items.map(({ createdAt: _c, ...rest }) => rest) };
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

/** Query parameters as the list helpers take them: repeated keys become lists. */
export function queryRecord(q: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of new Set(q.keys())) {
    const all = q.getAll(k);
    out[k] = all.length > 1 ? all : all[0];
  }
  return out;
}

function pick(e: RecipeIndexEntry): RecipeSummary {
  const out = {} as Record<string, unknown>;
  for (const k of SUMMARY_KEYS) out[k] = e[k];
  return out as unknown as RecipeSummary;
}
