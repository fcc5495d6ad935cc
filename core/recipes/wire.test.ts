import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  NUTRITION_KEYS,
  RECIPE_SETTINGS_DEFAULTS,
  type IngredientFood,
  type IngredientUnit,
  type Recipe,
  type RecipeIngredient,
  type RecipeSummary,
} from "../schemas/recipe.js";
import { derivedId } from "../util/ids.js";
import { slugify } from "../util/slug.js";
import { emptyRecipeDoc, type RecipeDoc, type Vocabulary } from "./doc.js";
import { parseRecipeFile, serializeRecipeFile } from "./file/recipe-file.js";
import { canonicalIngredientLine } from "./file/ingredient-line.js";
import { normaliseBlock, normaliseLine } from "./file/text.js";
import { docToRecipe, docToSummary, recipeToDoc, type WireContext } from "./wire.js";

const GROUP = "0b7e5a0e-1111-4c1e-9d6b-2f4f3c1a9e10";
const RECIPE_ID = "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10";
const OWNER = "7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11";
const HOUSEHOLD = "9a9a9a9a-0f7e-4d7c-8a55-3c1f6f0e2b11";

function unit(name: string, o: Partial<IngredientUnit> = {}): IngredientUnit {
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
function food(name: string, o: Partial<IngredientFood> = {}): IngredientFood {
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

const UNITS = [
  unit("cup", { pluralName: "cups", abbreviation: "c" }),
  unit("tablespoon", { pluralName: "tablespoons", abbreviation: "tbsp", useAbbreviation: true }),
  unit("gram", { abbreviation: "g", useAbbreviation: true, fraction: false }),
  unit("clove", { pluralName: "cloves" }),
  unit("fl oz", { aliases: [{ name: "fluid ounce" }] }),
];
const FOODS = [
  food("flour"),
  food("olive oil"),
  food("onion", { pluralName: "onions" }),
  food("garlic"),
  food("salt"),
  food("Tomatoes, canned"),
  food("chicken thigh", { pluralName: "chicken thighs" }),
];
const VOCAB: Vocabulary = {
  units: UNITS.map((u) => ({ ...u, aliases: u.aliases.map((a) => a.name) })),
  foods: FOODS.map((f) => ({ name: f.name, pluralName: f.pluralName, aliases: f.aliases.map((a) => a.name) })),
};

function summary(slug: string, name: string): RecipeSummary {
  const s = docToSummary({ ...emptyRecipeDoc(name), owner: OWNER }, { ...ctx(), recipeId: derivedId("r", slug), slug });
  return s;
}

function ctx(): WireContext {
  const byName = <T extends { name: string }>(list: T[]) => (n: string) => list.find((x) => x.name.toLowerCase() === n.toLowerCase()) ?? null;
  const byId = <T extends { id: string }>(list: T[]) => (id: string) => list.find((x) => x.id === id) ?? null;
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
    vocabulary: VOCAB,
  };
}
const SUBRECIPES: RecipeSummary[] = [];
SUBRECIPES.push(summary("naan-dough", "Naan [soft] dough"), summary("stock", "Stock"));

const CTX = ctx();
const throughFile = (doc: RecipeDoc): RecipeDoc => parseRecipeFile(serializeRecipeFile(doc, VOCAB), VOCAB);

describe("docToRecipe", () => {
  const doc: RecipeDoc = {
    ...emptyRecipeDoc("Tikka"),
    owner: OWNER,
    dateAdded: "2026-11-21T10:00:00Z",
    nutrition: { calories: "520" },
    settings: { public: true },
    ingredients: [
      { title: null, quantity: 2, quantityMax: 3, unit: "clove", food: "garlic", note: "", originalText: null, referencedRecipe: null },
      { title: null, quantity: 1, quantityMax: null, unit: null, food: "salt", note: "", originalText: null, referencedRecipe: null },
    ],
    instructions: [{ title: null, summary: null, text: "Mix.", ingredientRefs: [1, 7] }],
  };
  const wire = docToRecipe(doc, CTX);

  it("derives stable ids from recipe id, kind and position", () => {
    expect(wire.recipeIngredient.map((i) => i.referenceId)).toEqual([
      derivedId(RECIPE_ID, "ingredient", "0"),
      derivedId(RECIPE_ID, "ingredient", "1"),
    ]);
    expect(wire.recipeInstructions[0].id).toBe(derivedId(RECIPE_ID, "step", "0"));
    expect(docToRecipe(doc, CTX)).toEqual(wire);
  });
  it("points step references at derived ingredient ids and drops ones past the end", () => {
    expect(wire.recipeInstructions[0].ingredientReferences).toEqual([{ referenceId: derivedId(RECIPE_ID, "ingredient", "1") }]);
  });
  it("sends all nutrition keys, full settings and the date part of dateAdded", () => {
    expect(Object.keys(wire.nutrition)).toEqual([...NUTRITION_KEYS]);
    expect(wire.nutrition.calories).toBe("520");
    expect(wire.nutrition.fatContent).toBeNull();
    expect(wire.settings).toEqual({ ...RECIPE_SETTINGS_DEFAULTS, public: true });
    expect(wire.dateAdded).toBe("2026-11-21");
    expect(wire.createdAt).toBe(CTX.createdAt);
  });
  it("derives isFood and disableAmount from the recipe setting", () => {
    expect(wire.recipeIngredient[0]).toMatchObject({ isFood: true, disableAmount: false, display: "2-3 cloves garlic" });
    const off = docToRecipe({ ...doc, settings: { disableAmount: true } }, CTX);
    expect(off.recipeIngredient[1]).toMatchObject({ isFood: false, disableAmount: true, display: "" });
  });
  it("carries a range in originalText so that a PUT of the same ingredient keeps it", () => {
    expect(wire.recipeIngredient[0]).toMatchObject({ quantity: 2, originalText: "2-3 cloves garlic" });
    expect(recipeToDoc(wire, CTX).ingredients[0]).toMatchObject({ quantity: 2, quantityMax: 3, originalText: null });
  });
  it("keeps a name the vocabulary lacks readable in the note", () => {
    const stale = docToRecipe({ ...doc, ingredients: [{ ...doc.ingredients[1], food: "saffron", note: "a pinch" }] }, CTX);
    expect(stale.recipeIngredient[0]).toMatchObject({ food: null, note: "saffron, a pinch" });
  });
});

describe("recipeToDoc", () => {
  it("accepts foods and units by id or name, organizers by name or as strings", () => {
    const doc = recipeToDoc(
      {
        name: "Soup",
        recipeIngredient: [
          { quantity: "2", unit: { id: UNITS[0].id }, food: { name: "FLOUR" } },
          "a pinch of love",
          { quantity: 0, food: "salt", note: "" },
        ],
        tags: ["Quick", { name: "Cheap" }, "Quick"],
        tools: [{ id: "nope", name: "Pot" }],
      },
      CTX,
    );
    expect(doc.ingredients.map((i) => [i.quantity, i.unit, i.food, i.note])).toEqual([
      [2, "cup", "flour", ""],
      [null, null, null, "a pinch of love"],
      [null, null, "salt", ""],
    ]);
    expect(doc.tags).toEqual(["Quick", "Cheap"]);
    expect(doc.tools).toEqual(["Pot"]);
  });
  it("resolves step references against the incoming ingredients, so a reorder keeps them", () => {
    const doc = recipeToDoc(
      {
        recipeIngredient: [
          { note: "b", referenceId: "id-b" },
          { note: "a", referenceId: "id-a" },
        ],
        recipeInstructions: [{ text: "Use a", ingredientReferences: [{ referenceId: "id-a" }, { referenceId: "gone" }] }],
      },
      CTX,
    );
    expect(doc.instructions[0].ingredientRefs).toEqual([1]);
  });
  it("normalises text the way the file reads it", () => {
    const doc = recipeToDoc(
      {
        description: "  Line one   \r\n\r\n  indented\t\n\n",
        recipeYield: "",
        recipeIngredient: [{ note: "  chopped\nfine ", title: "", originalText: "chopped fine" }],
        recipeInstructions: [{ text: "Stir.  ", title: " Sauce ", summary: "" }],
        notes: [{ title: "Tip\nTwo", text: "x  \ny" }],
      },
      CTX,
    );
    expect(doc.description).toBe("Line one\n\n  indented");
    expect(doc.recipeYield).toBeNull();
    expect(doc.ingredients[0]).toMatchObject({ note: "chopped fine", title: null, originalText: null });
    expect(doc.instructions[0]).toMatchObject({ text: "Stir.", title: "Sauce", summary: null });
    expect(doc.notes[0]).toEqual({ title: "Tip Two", text: "x\ny" });
  });
  it("keeps the store's full timestamp when dateAdded comes back as the same date", () => {
    expect(recipeToDoc({ dateAdded: "2026-11-21" }, CTX).dateAdded).toBe(CTX.createdAt);
    expect(recipeToDoc({ dateAdded: "2025-01-02" }, CTX).dateAdded).toBe("2025-01-02");
  });
});

// ---- the round-trip property ----

const TRICKY = [
  ":", ": ", "'", '"', "#", "# ", "## ", "### ", "---", "- ", "* ", "+ ", "> ", "1. ", "2) ", "↳", "↳ uses 1", "**",
  "**bold**", "\\", "\\#", "<!--", "-->", "<!-- original: x -->", "[a](b.md)", ",", ", ", "  ", "\t", "é", "ß", "İ",
  "🍕", "👩‍🍳", "½", "2", "2-3", "1 1/2", "cups", "cup", "flour", "salt", "Tomatoes, canned", "a", "an ", " of ", "to",
  "\u00a0", "\u2028", "null", "true", "~", "&a", "*a", "!!js/function", "{x}", "[x]", "%", "@", "`", "|", ">",
];
const fragment = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: "grapheme", maxLength: 6 }));
const rawText = (max: number, withBreaks: boolean) =>
  fc
    .array(withBreaks ? fc.oneof(fragment, fc.constantFrom("\n", "\n\n", "\r\n", "\n   ", "\n- ")) : fragment, { maxLength: max })
    .map((parts) => parts.join(""));
/** What the API stores (its normalisation is applied here, as recipeToDoc applies it). */
const line = rawText(8, false).map(normaliseLine);
const block = rawText(12, true).map(normaliseBlock);
const fmText = rawText(6, true);
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const nonEmpty = fmText.filter((s) => s !== "");
const quantity = optional(fc.oneof(fc.constantFrom(0.5, 1, 1.5, 2, 0.333, 0.125, 3, 250), fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 1000)));

const ingredientArb = fc.record({
  quantity,
  unit: optional(fc.constantFrom(...UNITS)),
  food: optional(fc.constantFrom(...FOODS)),
  referencedRecipe: optional(fc.constantFrom(...SUBRECIPES)),
  note: line,
  title: optional(line.filter((s) => s !== "")),
  originalText: optional(line.filter((s) => s !== "")),
  referenceId: fc.uuid(),
});
const stepArb = fc.record({
  id: fc.uuid(),
  title: optional(line.filter((s) => s !== "")),
  summary: optional(line.filter((s) => s !== "")),
  text: block,
  refs: fc.array(fc.nat(12), { maxLength: 4 }),
});
const names = fc.uniqueArray(nonEmpty, { maxLength: 4 });

const recipeArb = fc
  .record({
    name: fmText,
    image: optional(nonEmpty),
    servings: fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 1000, noNaN: true })),
    yieldQ: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })),
    texts: fc.array(optional(nonEmpty), { minLength: 6, maxLength: 6 }),
    description: block,
    categories: names,
    tags: names,
    tools: names,
    dateAdded: fc.constantFrom("2026-11-21", "2024-02-29"),
    dateUpdated: optional(fc.constantFrom("2026-11-21T18:02:11Z", "2026-11-21")),
    lastMade: optional(fc.constant("2026-12-01T19:00:00Z")),
    ingredients: fc.array(ingredientArb, { maxLength: 8 }),
    steps: fc.array(stepArb, { maxLength: 5 }),
    nutrition: fc.array(optional(nonEmpty), { minLength: NUTRITION_KEYS.length, maxLength: NUTRITION_KEYS.length }),
    settings: fc.record(Object.fromEntries(Object.keys(RECIPE_SETTINGS_DEFAULTS).map((k) => [k, fc.boolean()])) as Record<keyof typeof RECIPE_SETTINGS_DEFAULTS, fc.Arbitrary<boolean>>),
    assets: fc.array(fc.record({ name: fmText, icon: fmText, fileName: optional(fmText) }), { maxLength: 2 }),
    notes: fc.array(fc.record({ title: line, text: block }), { maxLength: 3 }),
    extras: fc.array(fc.tuple(fmText, fmText), { maxLength: 3 }),
  })
  .map((g): Recipe => {
    const [recipeYield, totalTime, prepTime, cookTime, performTime, orgURL] = g.texts;
    const ingredients: RecipeIngredient[] = g.ingredients.map((i) => ({
      ...i,
      display: "",
      isFood: !g.settings.disableAmount,
      disableAmount: g.settings.disableAmount,
    }));
    return {
      ...docToSummary({ ...emptyRecipeDoc(g.name), owner: OWNER }, CTX),
      image: g.image,
      recipeServings: g.servings,
      recipeYieldQuantity: g.yieldQ,
      recipeYield,
      totalTime,
      prepTime,
      cookTime,
      performTime,
      orgURL,
      description: g.description,
      recipeCategory: g.categories.map((n) => CTX.organizer("categories", n)).map(({ id, groupId, name, slug }) => ({ id, groupId, name, slug })),
      tags: g.tags.map((n) => CTX.organizer("tags", n)).map(({ id, groupId, name, slug }) => ({ id, groupId, name, slug })),
      tools: g.tools.map((n) => ({ ...CTX.organizer("tools", n), householdsWithTool: [] })),
      dateAdded: g.dateAdded,
      dateUpdated: g.dateUpdated,
      lastMade: g.lastMade,
      recipeIngredient: ingredients,
      recipeInstructions: g.steps.map((s) => ({
        id: s.id,
        title: s.title,
        summary: s.summary,
        text: s.text,
        ingredientReferences: s.refs.filter((p) => p < ingredients.length).map((p) => ({ referenceId: ingredients[p].referenceId })),
      })),
      nutrition: Object.fromEntries(NUTRITION_KEYS.map((k, i) => [k, g.nutrition[i]])) as Recipe["nutrition"],
      settings: g.settings,
      assets: g.assets,
      notes: g.notes,
      extras: Object.fromEntries(g.extras),
      comments: [],
    };
  });

/** r0 as the API returns it: derived fields recomputed, an originalText that only repeats the line dropped. */
function expectedFrom(r0: Recipe, r1: Recipe): Recipe {
  const positions = new Map<string, number>();
  r0.recipeIngredient.forEach((i, p) => positions.has(i.referenceId) || positions.set(i.referenceId, p));
  return {
    ...r0,
    recipeIngredient: r0.recipeIngredient.map((i, p) => {
      const doc = recipeToDoc({ recipeIngredient: [{ ...i, originalText: null }] }, CTX).ingredients[0];
      const noteOnly = !i.unit && !i.food && !i.referencedRecipe && i.quantity === null;
      const repeats = i.originalText === canonicalIngredientLine(doc, VOCAB) || (noteOnly && i.originalText === i.note);
      return { ...i, originalText: repeats ? null : i.originalText, display: r1.recipeIngredient[p].display, referenceId: derivedId(RECIPE_ID, "ingredient", String(p)) };
    }),
    recipeInstructions: r0.recipeInstructions.map((s, p) => ({
      ...s,
      id: derivedId(RECIPE_ID, "step", String(p)),
      ingredientReferences: s.ingredientReferences.map((r) => ({ referenceId: derivedId(RECIPE_ID, "ingredient", String(positions.get(r.referenceId))) })),
    })),
  };
}

describe("the round trip", () => {
  it("API JSON → file → API JSON is identical for generated recipes, and the file is canonical", () => {
    fc.assert(
      fc.property(recipeArb, (r0) => {
        const doc = recipeToDoc(r0, CTX);
        const r1 = docToRecipe(doc, CTX);
        expect(r1).toEqual(expectedFrom(r0, r1));
        const text = serializeRecipeFile(doc, VOCAB);
        const back = parseRecipeFile(text, VOCAB);
        expect(docToRecipe(back, CTX)).toEqual(r1);
        expect(serializeRecipeFile(back, VOCAB)).toBe(text);
        // Derived fields are stable: reading the file again gives the same ids and display.
        expect(docToRecipe(throughFile(back), CTX)).toEqual(r1);
      }),
      { numRuns: 400 },
    );
  });
});
