/**
 * fast-check arbitraries for recipe bodies in Mealie's wire shape, for property tests of every path that
 * takes one (recipe writes, recipe zips, imports).
 */
import fc from "fast-check";

const anyJson = fc.jsonValue({ maxDepth: 2 });
const named = fc.oneof(
  fc.record({ name: fc.oneof(fc.string(), anyJson) }, { requiredKeys: [] }),
  fc.record(
    { id: fc.oneof(fc.uuid(), fc.string()), name: fc.string(), slug: fc.string() },
    { requiredKeys: [] },
  ),
  anyJson,
);
const ingredient = fc.record(
  {
    quantity: fc.oneof(fc.double(), fc.integer(), fc.string(), anyJson),
    unit: named,
    food: named,
    note: fc.oneof(fc.string(), anyJson),
    title: fc.oneof(fc.string(), anyJson),
    originalText: fc.oneof(fc.string(), anyJson),
    referenceId: fc.oneof(fc.uuid(), fc.string(), anyJson),
    display: fc.string(),
    disableAmount: fc.oneof(fc.boolean(), anyJson),
    referencedRecipe: named,
  },
  { requiredKeys: [] },
);
const stepShape = fc.record(
  {
    id: fc.oneof(fc.uuid(), anyJson),
    title: fc.oneof(fc.string(), anyJson),
    summary: fc.oneof(fc.string(), anyJson),
    text: fc.oneof(fc.string(), anyJson),
    ingredientReferences: fc.oneof(
      fc.array(fc.record({ referenceId: fc.oneof(fc.uuid(), anyJson) }, { requiredKeys: [] }), {
        maxLength: 2,
      }),
      anyJson,
    ),
  },
  { requiredKeys: [] },
);
const listOf = <T>(a: fc.Arbitrary<T>) => fc.oneof(fc.array(a, { maxLength: 4 }), anyJson);
/** Every field a client sends, with values of any type and shape. */
const hostile = {
  name: fc.oneof(fc.string({ minLength: 1 }), anyJson),
  description: fc.oneof(fc.string(), anyJson),
  recipeIngredient: listOf(ingredient),
  recipeInstructions: listOf(stepShape),
  tags: listOf(named),
  recipeCategory: listOf(named),
  tools: listOf(named),
  nutrition: fc.oneof(fc.dictionary(fc.constantFrom("calories", "fatContent", "x"), anyJson), anyJson),
  settings: fc.oneof(
    fc.dictionary(fc.constantFrom("public", "locked", "showNutrition", "x"), anyJson),
    anyJson,
  ),
  notes: listOf(fc.record({ title: anyJson, text: anyJson }, { requiredKeys: [] })),
  extras: fc.oneof(fc.dictionary(fc.string(), anyJson), anyJson),
  totalTime: fc.oneof(fc.string(), anyJson),
  prepTime: fc.oneof(fc.string(), anyJson),
  performTime: fc.oneof(fc.string(), anyJson),
  recipeYield: fc.oneof(fc.string(), anyJson),
  recipeServings: fc.oneof(fc.double(), anyJson),
  recipeYieldQuantity: fc.oneof(fc.double(), anyJson),
  orgURL: fc.oneof(fc.webUrl(), anyJson),
  rating: fc.oneof(fc.double(), anyJson),
  dateAdded: anyJson,
  lastMade: anyJson,
  slug: fc.oneof(fc.string(), anyJson),
  id: fc.oneof(fc.uuid(), anyJson),
};
/** Text that means something to YAML, Markdown or the ingredient line, and characters that are rare. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.constantFrom(
    "---",
    "\n---\n",
    "key: value",
    "# Heading",
    "- item",
    "1. step",
    "\r\n",
    "'\"",
    "\u2028",
    "🍲",
  ),
);
/** The same fields with values of the right type (but any text): what a client that follows the schema sends. */
const wellTyped = fc.record(
  {
    name: text.filter((t) => t.trim().length > 0),
    description: text,
    recipeIngredient: fc.array(
      fc.record(
        {
          quantity: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e6 })),
          unit: fc.option(fc.record({ name: text })),
          food: fc.option(fc.record({ name: text })),
          note: text,
          title: fc.option(text),
          originalText: fc.option(text),
        },
        { requiredKeys: ["note"] },
      ),
      { maxLength: 4 },
    ),
    recipeInstructions: fc.array(fc.record({ title: text, text }, { requiredKeys: ["text"] }), {
      maxLength: 4,
    }),
    tags: fc.array(fc.record({ name: text.filter((t) => t.trim().length > 0) }), { maxLength: 3 }),
    notes: fc.array(fc.record({ title: text, text }), { maxLength: 2 }),
    totalTime: fc.option(text),
    recipeYield: fc.option(text),
    recipeServings: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1000 }),
    orgURL: fc.option(fc.webUrl()),
  },
  { requiredKeys: [] },
);
/**
 * A recipe body in Mealie's shape, well typed but holding text that means something to YAML, Markdown
 * and the ingredient line, with up to two fields replaced by values of any type and shape: what a
 * careless or hostile client sends.
 */
export const hostileRecipeBody = fc
  .tuple(
    wellTyped,
    fc
      .subarray(Object.keys(hostile) as (keyof typeof hostile)[], { maxLength: 2 })
      .chain((keys) =>
        fc.record(
          Object.fromEntries(keys.map((k) => [k, hostile[k]])) as Record<string, fc.Arbitrary<unknown>>,
        ),
      ),
  )
  .map(([ok, bad]) => ({ ...ok, ...bad }));
