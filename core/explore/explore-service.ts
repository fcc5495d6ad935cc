/**
 * Public browsing of a group (mealie-api-notes §4.12), `/api/explore/groups/{groupSlug}/…`. A private
 * group answers 404 everywhere; recipes are those marked public in households that are not private.
 * That rule is the recipe read policy itself (canReadRecipe for the public) applied as the list's
 * `where`, so no user `queryFilter` can widen it: both must hold for a recipe to be listed.
 */
import { rowTimeAttributes, timed, type Timed } from "../query/row-times.js";
import type { Parts } from "../parts.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import { NotFoundError } from "../errors.js";
import type { OrganizerKind } from "../schemas/records.js";
import type { IngredientFood, Recipe, RecipeSummary } from "../schemas/recipe.js";
import type { CookbookRecord } from "../schemas/household-records.js";
import { presentFood, presentOrganizer, presentTool } from "../presenters/vocabulary.js";
import { presentHouseholdSummary } from "../presenters/people.js";
import {
  foodAttributes,
  organizerAttributes,
  type OrganizerQueryItem,
  type RecipeIndexEntry,
} from "../query/attributes.js";
import { AttributeTable, attr } from "../query/attribute-table.js";
import type { Predicate } from "../query/filter-eval.js";
import { listQuery } from "../query/list.js";
import { mapPage, type ListQuery, type Page } from "../query/list-query.js";
import type { RecipeListQuery } from "../recipes/list-query.js";
import type { SuggestionQuery } from "../suggestions/suggestions-service.js";
import { cookbookAttributes, type CookbookOut } from "../cookbooks/cookbooks-service.js";
import { textRanker } from "../search/text-search.js";
import { isUuid } from "../util/ids.js";
import { slugify } from "../util/slug.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "cookbooks" | "groups" | "recipes" | "suggestions">;

/** Mealie's explore misses: 404 with a plain string detail. */
function miss(what: string): NotFoundError {
  const text = `${what} not found`;
  return new NotFoundError(text, text);
}

type HouseholdSummary = Record<string, unknown> & { id: string; name: string; slug: string; groupId: string };
const householdAttributes = new AttributeTable<Timed<HouseholdSummary>>("household", {
  ...rowTimeAttributes<HouseholdSummary>(),
  id: attr.uuid((h: HouseholdSummary) => h.id),
  name: attr.string((h: HouseholdSummary) => h.name),
  slug: attr.string((h: HouseholdSummary) => h.slug),
  groupId: attr.uuid((h: HouseholdSummary) => h.groupId),
});

type OrganizerItem = OrganizerQueryItem & { householdsWithTool?: string[] };

export class ExploreService {
  constructor(private readonly larder: Deps) {}

  /** The group by slug or id; private or unknown → 404 "group not found". */
  group(slugOrId: string): GroupData {
    const g =
      this.larder.groups.bySlugOrNull(slugOrId) ??
      (isUuid(slugOrId) ? this.larder.groups.byId(slugOrId.toLowerCase()) : null);
    if (!g || g.doc.data.preferences.privateGroup !== false) throw miss("group");
    return g;
  }

  /** The canonical slug of a public group given by slug or id (the list links point at it). */
  slugOf(slugOrId: string): string {
    return this.group(slugOrId).slug;
  }

  /** Whether the public may read a recipe of this group now (live household and group preferences). */
  visible(): Predicate<RecipeIndexEntry> {
    return this.larder.recipes.publicMayRead();
  }

  /** GET …/recipes: the user list's parameters; `cookbook` must be a public cookbook. */
  recipes(groupSlug: string, query: RecipeListQuery): Page<RecipeSummary> {
    const g = this.group(groupSlug);
    const visible = this.visible();
    const cookbook = query.cookbook;
    let where = visible;
    if (cookbook) {
      const c = this.publicCookbook(g, cookbook);
      const test = this.larder.cookbooks.filterOf(c.cookbook);
      where = (r) => visible(r) && (!test || test(r));
    }
    return this.larder.recipes.lister.listIn(g.slug, query, {
      where,
      skipOrganizers: !!cookbook,
    });
  }

  /** GET …/recipes/{slug}: 404 "recipe not found" unless the public may read it. Comments stay private. */
  recipe(groupSlug: string, slugOrId: string): Recipe {
    const g = this.group(groupSlug);
    const e =
      this.larder.recipes.store.get(g.slug, slugOrId) ??
      (isUuid(slugOrId) ? this.larder.recipes.store.get(g.slug, slugOrId.toLowerCase()) : null);
    if (!e || !this.visible()(this.larder.recipes.lister.entryOf(e))) throw miss("recipe");
    return { ...this.larder.recipes.recipeOf(e, this.larder.recipes.publicReader()), comments: [] };
  }

  suggestions(groupSlug: string, query: SuggestionQuery) {
    const g = this.group(groupSlug);
    return this.larder.suggestions.forPublic(g, query, this.visible());
  }

  foods(groupSlug: string, query: ListQuery): Page<IngredientFood> {
    const g = this.group(groupSlug);
    return listQuery(this.foodItems(g), query, foodAttributes, {
      search: textRanker<IngredientFood>([(f) => f.name, (f) => f.pluralName]),
    });
  }

  food(groupSlug: string, id: string): IngredientFood {
    const g = this.group(groupSlug);
    const f = this.foodItems(g).find((x) => x.id === id.toLowerCase() || x.id === id);
    if (!f) throw miss("food");
    return f;
  }

  households(groupSlug: string, query: ListQuery): Page<HouseholdSummary> {
    const g = this.group(groupSlug);
    const items = this.publicHouseholds(g).map((h) =>
      timed(presentHouseholdSummary(h.doc.data) as HouseholdSummary, h.doc.data),
    );
    return listQuery(items, query, householdAttributes, { defaultOrderBy: null });
  }

  household(groupSlug: string, slugOrId: string): HouseholdSummary {
    const g = this.group(groupSlug);
    const h = this.publicHouseholds(g).find(
      (x) => x.slug === slugOrId || x.doc.data.id === slugOrId.toLowerCase() || x.doc.data.id === slugOrId,
    );
    if (!h) throw miss("household");
    return presentHouseholdSummary(h.doc.data) as HouseholdSummary;
  }

  organizers(groupSlug: string, kind: OrganizerKind, query: ListQuery) {
    const g = this.group(groupSlug);
    const page = listQuery(this.organizerItems(g, kind), query, organizerAttributes, {
      search: textRanker<OrganizerItem>([(o) => o.name]),
    });
    return mapPage(page, ({ createdAt: _c, updatedAt: _u, onHand: _o, ...rest }) => rest);
  }

  organizer(groupSlug: string, kind: OrganizerKind, id: string) {
    const g = this.group(groupSlug);
    const o = this.organizerItems(g, kind).find((x) => x.id === id.toLowerCase() || x.id === id);
    if (!o) throw miss(kind === "categories" ? "category" : kind === "tags" ? "tag" : "tool");
    const { createdAt: _c, updatedAt: _u, onHand: _o, ...rest } = o;
    return rest;
  }

  cookbooks(groupSlug: string, query: ListQuery): Page<CookbookOut> {
    const g = this.group(groupSlug);
    const items = this.publicCookbooks(g).map((x) =>
      timed(this.larder.cookbooks.presentWith(x.cookbook, g, x.household), x.cookbook),
    );
    return listQuery(items, query, cookbookAttributes, {
      defaultOrderBy: null,
      search: textRanker<CookbookOut>([(c) => c.name, (c) => c.description]),
    });
  }

  /** One public cookbook with the public recipes of non-private households its filter selects. */
  cookbook(groupSlug: string, idOrSlug: string): CookbookOut & { recipes: RecipeSummary[] } {
    const g = this.group(groupSlug);
    const c = this.publicCookbook(g, idOrSlug);
    return {
      ...this.larder.cookbooks.presentWith(c.cookbook, g, c.household),
      recipes: this.larder.cookbooks.recipesOf(g, c.cookbook, this.visible()),
    };
  }

  private publicHouseholds(g: GroupData): HouseholdData[] {
    return [...g.households.values()].filter((h) => h.doc.data.preferences.privateHousehold === false);
  }

  private publicCookbooks(g: GroupData): { cookbook: CookbookRecord; household: HouseholdData }[] {
    return this.larder.cookbooks
      .inGroup(g)
      .filter((x) => x.cookbook.public && x.household.doc.data.preferences.privateHousehold === false);
  }

  private publicCookbook(
    g: GroupData,
    idOrSlug: string,
  ): { cookbook: CookbookRecord; household: HouseholdData } {
    const key = idOrSlug.toLowerCase();
    const c = this.publicCookbooks(g).find((x) => x.cookbook.id === key || x.cookbook.slug === idOrSlug);
    if (!c) throw miss("cookbook");
    return c;
  }

  private foodItems(g: GroupData): IngredientFood[] {
    const labels = new Map(g.labels.data.labels.map((l) => [l.id, l]));
    return g.foods.data.foods.map((f) =>
      presentFood(f, g.doc.data.id, f.labelId ? (labels.get(f.labelId) ?? null) : null, null),
    );
  }

  /**
   * The group's stored organizers (Mealie lists them all) plus those only named in the files of
   * recipes the public may read; a name only a private recipe's file carries stays private.
   */
  private organizerItems(g: GroupData, kind: OrganizerKind): OrganizerItem[] {
    const groupId = g.doc.data.id;
    const bySlug = new Map<string, OrganizerItem>();
    for (const o of g.organizers.data[kind]) {
      bySlug.set(
        o.slug,
        kind === "tools"
          ? { ...presentTool({ householdsWithTool: [], ...o }, groupId), createdAt: o.createdAt }
          : { ...presentOrganizer(o, groupId), createdAt: o.createdAt },
      );
    }
    const visible = this.visible();
    const lister = this.larder.recipes.lister;
    for (const e of this.larder.recipes.store.list(g.slug)) {
      const r = lister.entryOf(e);
      if (!visible(r)) continue;
      const refs = kind === "categories" ? r.recipeCategory : kind === "tags" ? r.tags : r.tools;
      for (const ref of refs) {
        const slug = ref.slug || slugify(ref.name);
        if (!bySlug.has(slug)) bySlug.set(slug, { ...ref, createdAt: null });
      }
    }
    return [...bySlug.values()];
  }
}
