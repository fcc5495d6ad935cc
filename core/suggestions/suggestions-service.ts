/**
 * Recipe suggestions (mealie-api-notes §0.1, `/recipes/suggestions`): recipes that can be made from
 * the foods and tools at hand, ranked by how few are missing. "At hand" is what the request names
 * plus, unless turned off, what the caller's household has on hand (a food's
 * `householdsWithIngredientFood`, a tool's `householdsWithTool`). A recipe must use at least one of
 * them to be suggested: one needing nothing we have is not a suggestion, however short its list.
 */
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import type { IngredientFood, RecipeSummary, RecipeToolRef } from "../schemas/recipe.js";
import { recipeAttributes, type RecipeIndexEntry } from "../query/attributes.js";
import type { Predicate } from "../query/filter-eval.js";
import { listQuery } from "../query/list.js";
import type { ListQuery } from "../query/list-query.js";
import { presentFood } from "../presenters/vocabulary.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "groups" | "recipes">;

/**
 * GET /recipes/suggestions: the list's `queryFilter` and order narrow and order the candidates; the
 * foods and tools named are at hand, besides the household's own unless turned off.
 */
export interface SuggestionQuery extends ListQuery {
  /** Food ids. */
  foods?: readonly string[];
  /** Tool ids. */
  tools?: readonly string[];
  /** Default 10. */
  limit?: number;
  /** Default 5. */
  maxMissingFoods?: number;
  /** Default 5. */
  maxMissingTools?: number;
  /** Default true. */
  includeFoodsOnHand?: boolean;
  /** Default true. */
  includeToolsOnHand?: boolean;
}

/** RecipeSuggestionResponseItem of the contract. */
export interface Suggestion {
  recipe: RecipeSummary;
  missingFoods: IngredientFood[];
  missingTools: RecipeToolRef[];
}

export class SuggestionsService {
  constructor(private readonly larder: Deps) {}

  /** GET /recipes/suggestions: the caller's group, with their household's on-hand foods and tools. */
  forUser(actor: Actor, q: SuggestionQuery): { items: Suggestion[] } {
    const { group, household } = this.larder.groups.scopeOf(actor);
    return this.suggest(group, household.slug, q);
  }

  /** The explore variant: only `visible` recipes, and no household, so nothing counts as on hand. */
  forPublic(
    group: GroupData,
    q: SuggestionQuery,
    visible: Predicate<RecipeIndexEntry>,
  ): { items: Suggestion[] } {
    return this.suggest(group, null, q, visible);
  }

  private suggest(
    g: GroupData,
    householdSlug: string | null,
    q: SuggestionQuery,
    where?: Predicate<RecipeIndexEntry>,
  ): { items: Suggestion[] } {
    const p = {
      foods: q.foods ?? [],
      tools: q.tools ?? [],
      limit: q.limit ?? 10,
      maxMissingFoods: q.maxMissingFoods ?? 5,
      maxMissingTools: q.maxMissingTools ?? 5,
      includeFoodsOnHand: q.includeFoodsOnHand ?? true,
      includeToolsOnHand: q.includeToolsOnHand ?? true,
    };
    const groupId = g.doc.data.id;
    const haveFoods = new Set(p.foods.map((x) => x.toLowerCase()));
    if (p.includeFoodsOnHand && householdSlug) {
      for (const f of g.foods.data.foods)
        if (f.householdsWithIngredientFood.includes(householdSlug)) haveFoods.add(f.id);
    }
    const haveTools = new Set(p.tools.map((x) => x.toLowerCase()));
    if (p.includeToolsOnHand && householdSlug) {
      for (const t of g.organizers.data.tools)
        if (t.householdsWithTool.includes(householdSlug)) haveTools.add(t.id);
    }
    const foodsById = new Map(g.foods.data.foods.map((f) => [f.id, f]));
    const labels = new Map(g.labels.data.labels.map((l) => [l.id, l]));

    // queryFilter and orderBy narrow and order the candidates; the ranking below keeps that order on ties.
    const lister = this.larder.recipes.lister;
    const entries = this.larder.recipes.store.list(g.slug).map((e) => lister.entryOf(e));
    const ordered = listQuery(entries, { ...q, page: 1, perPage: -1 }, recipeAttributes, { where }).items;

    const ranked: (Suggestion & { missing: number })[] = [];
    for (const r of ordered) {
      const foodIds = [...new Set(r.foods.map((f) => f.id))];
      const tools = uniqueById(r.tools);
      if (foodIds.length + tools.length === 0) continue;
      const missingFoodIds = foodIds.filter((id) => !haveFoods.has(id));
      const missingTools = tools.filter((t) => !haveTools.has(t.id));
      if (missingFoodIds.length === foodIds.length && missingTools.length === tools.length) continue;
      if (missingFoodIds.length > p.maxMissingFoods || missingTools.length > p.maxMissingTools) continue;
      const missingFoods = missingFoodIds.flatMap((id) => {
        const f = foodsById.get(id);
        return f
          ? [presentFood(f, groupId, f.labelId ? (labels.get(f.labelId) ?? null) : null, householdSlug)]
          : [];
      });
      const recipe = this.larder.recipes.store.getById(r.id);
      if (!recipe) continue;
      ranked.push({
        recipe: this.larder.recipes.summaryOf(recipe),
        missingFoods,
        missingTools,
        missing: missingFoodIds.length + missingTools.length,
      });
    }
    // Array.prototype.sort is stable: equal counts keep the requested order.
    ranked.sort((a, b) => a.missing - b.missing || a.missingFoods.length - b.missingFoods.length);
    return { items: ranked.slice(0, p.limit).map(({ missing: _m, ...s }) => s) };
  }
}

function uniqueById(tools: readonly RecipeToolRef[]): RecipeToolRef[] {
  const seen = new Map<string, RecipeToolRef>();
  for (const t of tools)
    if (!seen.has(t.id)) seen.set(t.id, { ...t, householdsWithTool: [...t.householdsWithTool] });
  return [...seen.values()];
}
