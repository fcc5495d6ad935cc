/**
 * Fixtures shared by the recipe file and wire tests (no tests here): a small grammar vocabulary and a
 * WireContext over units, foods, organizers and sub-recipes as the API presents them.
 */
import type { IngredientFood, IngredientUnit, RecipeSummary } from "../../schemas/recipe.js";
import { derivedId } from "../../util/ids.js";
import { slugify } from "../../util/slug.js";
import { emptyRecipeDoc, type Vocabulary, type VocabularyFood, type VocabularyUnit } from "../doc.js";
import { docToSummary, type WireContext } from "../wire.js";

const vocabUnit = (name: string, o: Partial<VocabularyUnit> = {}): VocabularyUnit => ({
  name,
  pluralName: null,
  abbreviation: "",
  pluralAbbreviation: null,
  aliases: [],
  useAbbreviation: false,
  fraction: true,
  ...o,
});
const vocabFood = (name: string, o: Partial<VocabularyFood> = {}): VocabularyFood => ({
  name,
  pluralName: null,
  aliases: [],
  ...o,
});

/** A small vocabulary for grammar tests. */
export const VOCAB: Vocabulary = {
  units: [
    vocabUnit("cup", { pluralName: "cups", abbreviation: "c" }),
    vocabUnit("tablespoon", { pluralName: "tablespoons", abbreviation: "tbsp", useAbbreviation: true }),
    vocabUnit("teaspoon", { pluralName: "teaspoons", abbreviation: "tsp", useAbbreviation: true }),
    vocabUnit("gram", { pluralName: "grams", abbreviation: "g", useAbbreviation: true, fraction: false }),
    vocabUnit("clove", { pluralName: "cloves" }),
    vocabUnit("pinch", { pluralName: "pinches" }),
    vocabUnit("batch", { pluralName: "batches" }),
  ],
  foods: [
    vocabFood("flour"),
    vocabFood("olive oil", { aliases: ["evoo"] }),
    vocabFood("onion", { pluralName: "onions" }),
    vocabFood("garlic"),
    vocabFood("salt"),
    vocabFood("chicken thigh", { pluralName: "chicken thighs" }),
    vocabFood("egg", { pluralName: "eggs" }),
    vocabFood("canned tomatoes"),
  ],
};

export const GROUP = "0b7e5a0e-1111-4c1e-9d6b-2f4f3c1a9e10";
export const RECIPE_ID = "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10";
export const OWNER = "7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11";
export const HOUSEHOLD = "9a9a9a9a-0f7e-4d7c-8a55-3c1f6f0e2b11";

function wireUnit(name: string, o: Partial<IngredientUnit> = {}): IngredientUnit {
  return {
    id: derivedId("unit", name),
    name,
    pluralName: null,
    description: "",
    extras: {},
    fraction: true,
    abbreviation: "",
    pluralAbbreviation: null,
    useAbbreviation: false,
    aliases: [],
    standardQuantity: null,
    standardUnit: null,
    createdAt: null,
    updatedAt: null,
    groupId: GROUP,
    ...o,
  };
}
function wireFood(name: string, o: Partial<IngredientFood> = {}): IngredientFood {
  return {
    id: derivedId("food", name),
    name,
    pluralName: null,
    description: "",
    extras: {},
    labelId: null,
    aliases: [],
    householdsWithIngredientFood: [],
    label: null,
    createdAt: null,
    updatedAt: null,
    onHand: false,
    groupId: GROUP,
    ...o,
  };
}

/** Units and foods as the API presents them, for wire tests. */
export const UNITS = [
  wireUnit("cup", { pluralName: "cups", abbreviation: "c" }),
  wireUnit("tablespoon", { pluralName: "tablespoons", abbreviation: "tbsp", useAbbreviation: true }),
  wireUnit("gram", { abbreviation: "g", useAbbreviation: true, fraction: false }),
  wireUnit("clove", { pluralName: "cloves" }),
  wireUnit("fl oz", { aliases: [{ name: "fluid ounce" }] }),
];
export const FOODS = [
  wireFood("flour"),
  wireFood("olive oil"),
  wireFood("onion", { pluralName: "onions" }),
  wireFood("garlic"),
  wireFood("salt"),
  wireFood("Tomatoes, canned"),
  wireFood("chicken thigh", { pluralName: "chicken thighs" }),
];
export const WIRE_VOCAB: Vocabulary = {
  units: UNITS.map((u) => ({ ...u, aliases: u.aliases.map((a) => a.name) })),
  foods: FOODS.map((f) => ({
    name: f.name,
    pluralName: f.pluralName,
    aliases: f.aliases.map((a) => a.name),
  })),
};

function summary(slug: string, name: string): RecipeSummary {
  const s = docToSummary(
    { ...emptyRecipeDoc(name), owner: OWNER },
    { ...wireContext(), recipeId: derivedId("r", slug), slug },
  );
  return s;
}

/** A WireContext over the fixtures; organizers are name-derived. */
export function wireContext(): WireContext {
  const byName =
    <T extends { name: string }>(list: T[]) =>
    (n: string) =>
      list.find((x) => x.name.toLowerCase() === n.toLowerCase()) ?? null;
  const byId =
    <T extends { id: string }>(list: T[]) =>
    (id: string) =>
      list.find((x) => x.id === id) ?? null;
  const organizer: WireContext["organizer"] = (kind, name) => {
    const ref = { id: derivedId(GROUP, kind, name), groupId: GROUP, name, slug: slugify(name) };
    return kind === "tools" ? { ...ref, householdsWithTool: [] } : ref;
  };
  return {
    groupId: GROUP,
    recipeId: RECIPE_ID,
    slug: "tikka",
    householdIdOf: () => HOUSEHOLD,
    unitByName: byName(UNITS),
    unitById: byId(UNITS),
    foodByName: byName(FOODS),
    foodById: byId(FOODS),
    organizer,
    organizerById: () => null,
    recipeSummaryBySlug: (slug) => SUBRECIPES.find((s) => s.slug === slug) ?? null,
    recipeSlugById: (id) => SUBRECIPES.find((s) => s.id === id)?.slug ?? null,
    rating: 4.5,
    createdAt: "2026-11-21T10:00:00Z",
    updatedAt: "2026-11-22T08:00:00Z",
    vocabulary: WIRE_VOCAB,
  };
}
export const SUBRECIPES: RecipeSummary[] = [];
SUBRECIPES.push(summary("naan-dough", "Naan [soft] dough"), summary("stock", "Stock"));
