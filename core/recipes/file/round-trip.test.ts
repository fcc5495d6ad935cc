/**
 * Invariant 1 of ARCHITECTURE §3, as a property over generated recipes: API JSON → file → API JSON is
 * identical (derived fields recomputed and stable), and the written file is canonical (read and written
 * again, byte-identical). The generator applies the API's normalisation (file/text.ts) to body text, as
 * recipeToDoc does; front-matter text is left raw, since YAML holds any string.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  NUTRITION_KEYS,
  RECIPE_SETTINGS_DEFAULTS,
  type Recipe,
  type RecipeIngredient,
} from "../../schemas/recipe.js";
import { derivedId } from "../../util/ids.js";
import { emptyRecipeDoc, type RecipeDoc } from "../doc.js";
import { docToRecipe, docToSummary, recipeToDoc } from "../wire.js";
import { canonicalIngredientLine } from "./ingredient-line.js";
import { parseRecipeFile, serializeRecipeFile } from "./recipe-file.js";
import { normaliseBlock, normaliseLine } from "./text.js";
import {
  FOODS,
  OWNER,
  RECIPE_ID,
  SUBRECIPES,
  UNITS,
  WIRE_VOCAB as VOCAB,
  wireContext,
} from "./test-support.js";

const CTX = wireContext();
const throughFile = (doc: RecipeDoc): RecipeDoc => parseRecipeFile(serializeRecipeFile(doc, VOCAB), VOCAB);

/** Text that looks like structure somewhere in the file or the YAML. */
// prettier-ignore
const TRICKY = [
  ":", ": ", "'", '"', "#", "# ", "## ", "### ", "---", "- ", "* ", "+ ", "> ", "1. ", "2) ", "↳",
  "↳ uses 1", "**", "**bold**", "\\", "\\#", "<!--", "-->", "<!-- original: x -->", "[a](b.md)", ",", ", ",
  "  ", "\t", "é", "ß", "İ", "🍕", "👩‍🍳", "½", "2", "2-3", "1 1/2", "cups", "cup", "flour", "salt",
  "Tomatoes, canned", "a", "an ", " of ", "to", "\u00a0", "\u2028", "null", "true", "~", "&a", "*a",
  "!!js/function", "{x}", "[x]", "%", "@", "`", "|", ">", "```", "````", "~~~", "```js", "\\```",
];
const fragment = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: "grapheme", maxLength: 6 }));
const rawText = (max: number, withBreaks: boolean) =>
  fc
    .array(
      withBreaks ? fc.oneof(fragment, fc.constantFrom("\n", "\n\n", "\r\n", "\n   ", "\n- ")) : fragment,
      { maxLength: max },
    )
    .map((parts) => parts.join(""));
/** What the API stores (its normalisation is applied here, as recipeToDoc applies it). */
const line = rawText(8, false).map(normaliseLine);
const block = rawText(12, true).map(normaliseBlock);
const fmText = rawText(6, true);
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const nonEmpty = fmText.filter((s) => s !== "");
const quantity = optional(
  fc.oneof(
    fc.constantFrom(0.5, 1, 1.5, 2, 0.333, 0.125, 3, 250),
    fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 1000),
  ),
);

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
    nutrition: fc.array(optional(nonEmpty), {
      minLength: NUTRITION_KEYS.length,
      maxLength: NUTRITION_KEYS.length,
    }),
    settings: fc.record(
      Object.fromEntries(Object.keys(RECIPE_SETTINGS_DEFAULTS).map((k) => [k, fc.boolean()])) as Record<
        keyof typeof RECIPE_SETTINGS_DEFAULTS,
        fc.Arbitrary<boolean>
      >,
    ),
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
      recipeCategory: g.categories
        .map((n) => CTX.organizer("categories", n))
        .map(({ id, groupId, name, slug }) => ({ id, groupId, name, slug })),
      tags: g.tags
        .map((n) => CTX.organizer("tags", n))
        .map(({ id, groupId, name, slug }) => ({ id, groupId, name, slug })),
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
        ingredientReferences: s.refs
          .filter((p) => p < ingredients.length)
          .map((p) => ({ referenceId: ingredients[p].referenceId })),
      })),
      nutrition: Object.fromEntries(NUTRITION_KEYS.map((k, i) => [k, g.nutrition[i]])) as Recipe["nutrition"],
      settings: g.settings,
      assets: g.assets,
      notes: g.notes,
      extras: Object.fromEntries(g.extras),
      comments: [],
    };
  });

/**
 * r0 as the API returns it: derived fields recomputed; an originalText that only repeats the line is
 * dropped from the file, so the wire sends the line itself for a structured ingredient and none for a
 * note-only one (decision 0150).
 */
function expectedFrom(r0: Recipe, r1: Recipe): Recipe {
  const positions = new Map<string, number>();
  r0.recipeIngredient.forEach((i, p) => positions.has(i.referenceId) || positions.set(i.referenceId, p));
  return {
    ...r0,
    recipeIngredient: r0.recipeIngredient.map((i, p) => {
      const doc = recipeToDoc({ recipeIngredient: [{ ...i, originalText: null }] }, CTX).ingredients[0];
      const noteOnly = !i.unit && !i.food && !i.referencedRecipe && i.quantity === null;
      const repeats =
        i.originalText === canonicalIngredientLine(doc, VOCAB) || (noteOnly && i.originalText === i.note);
      return {
        ...i,
        originalText:
          repeats || i.originalText === null
            ? noteOnly
              ? null
              : canonicalIngredientLine(doc, VOCAB)
            : i.originalText,
        display: r1.recipeIngredient[p].display,
        referenceId: derivedId(RECIPE_ID, "ingredient", String(p)),
      };
    }),
    recipeInstructions: r0.recipeInstructions.map((s, p) => ({
      ...s,
      id: derivedId(RECIPE_ID, "step", String(p)),
      ingredientReferences: s.ingredientReferences.map((r) => ({
        referenceId: derivedId(RECIPE_ID, "ingredient", String(positions.get(r.referenceId))),
      })),
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
        // A client that PUTs back what it got changes nothing in the file.
        expect(serializeRecipeFile(recipeToDoc(docToRecipe(back, CTX), CTX), VOCAB)).toBe(text);
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});
