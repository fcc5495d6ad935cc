import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyRecipeDoc, type RecipeDoc } from "../doc.js";
import { parseRecipeFile, serializeRecipeFile } from "../file/recipe-file.js";
import { VOCAB } from "../file/test-support.js";
import { readCanonicalFrontMatter, readRecipeFile } from "./fast-read.js";

/** Both readers on one text: the same recipe, or the same error (message and line). */
function same(text: string): void {
  let slow: RecipeDoc | Error;
  let fast: RecipeDoc | Error;
  try {
    slow = parseRecipeFile(text, VOCAB);
  } catch (e) {
    slow = e as Error;
  }
  try {
    fast = readRecipeFile(text, VOCAB);
  } catch (e) {
    fast = e as Error;
  }
  if (slow instanceof Error || fast instanceof Error) {
    expect(
      fast instanceof Error ? { message: fast.message, line: (fast as { line?: number }).line } : fast,
    ).toEqual(
      slow instanceof Error ? { message: slow.message, line: (slow as { line?: number }).line } : slow,
    );
  } else expect(fast).toEqual(slow);
}

// Text that YAML reads as something else, or that needs quoting, mixed with ordinary words.
const tricky = fc.constantFrom(
  "Soup",
  "Crème brûlée",
  "☕ 🍮",
  "null",
  "Null",
  "~",
  "true",
  "FALSE",
  "yes",
  "123",
  "-7",
  "+3",
  "007",
  "1.5",
  ".5",
  "1e3",
  "0x1F",
  "0o17",
  ".inf",
  ".NaN",
  "a: b",
  "a #b",
  "#tag",
  "- x",
  "-x",
  "[a]",
  "{a}",
  "a, b",
  "'quoted'",
  '"dq"',
  "it's",
  'say "hi"',
  "back\\slash",
  " lead",
  "trail ",
  "",
  "x:",
  "https://example.org/a?b=c#d",
  "100%",
  "@home",
  "`tick`",
  "*star",
  "&amp",
  "!bang",
  "|pipe",
  ">gt",
  "?q",
  "tab\there",
  "line\nbreak",
  "2026-11-21",
  "2026-11-21T18:02:11Z",
  "4 servings",
  "20 minutes",
  "a\u2028b",
  "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10",
);
const text = fc.oneof(tricky, fc.string({ maxLength: 12 }), fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}$/));
const doc = fc.record({
  name: text,
  owner: fc.option(fc.constant("7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11"), { nil: null }),
  recipeServings: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 20 }),
    fc.double({ min: 0.5, max: 10, noNaN: true }),
  ),
  recipeYield: fc.option(text, { nil: null }),
  prepTime: fc.option(text, { nil: null }),
  categories: fc.array(
    text.filter((s) => s.trim() !== ""),
    { maxLength: 4 },
  ),
  tags: fc.array(
    text.filter((s) => s.trim() !== ""),
    { maxLength: 12 },
  ),
  orgURL: fc.option(text, { nil: null }),
  calories: fc.option(text, { nil: null }),
  public: fc.boolean(),
  extra: fc.option(fc.tuple(fc.stringMatching(/^[a-z][a-zA-Z]{0,8}$/), text), { nil: null }),
  dateAdded: fc.option(fc.constantFrom("2026-11-21", "2026-11-21T18:02:11Z"), { nil: null }),
});

describe("the fast recipe reader", () => {
  it("reads what parseRecipeFile reads, for generated recipes", () => {
    let fastPath = 0;
    let runs = 0;
    fc.assert(
      fc.property(doc, (d) => {
        const recipe: RecipeDoc = {
          ...emptyRecipeDoc(d.name),
          id: "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10",
          owner: d.owner,
          recipeServings: d.recipeServings,
          recipeYield: d.recipeYield,
          prepTime: d.prepTime,
          categories: d.categories,
          tags: d.tags,
          orgURL: d.orgURL,
          nutrition: d.calories === null ? {} : { calories: d.calories },
          settings: d.public ? { public: true } : {},
          extras: d.extra ? { [d.extra[0]]: d.extra[1] } : {},
          dateAdded: d.dateAdded,
          description: "A soup.",
          ingredients: [
            {
              title: null,
              quantity: 2,
              quantityMax: null,
              unit: "cup",
              food: "flour",
              note: "",
              originalText: null,
              referencedRecipe: null,
            },
          ],
          instructions: [{ title: null, summary: null, text: "Stir.", ingredientRefs: [0] }],
        };
        let written: string;
        try {
          written = serializeRecipeFile(recipe, VOCAB);
        } catch {
          return; // not a recipe the writer accepts
        }
        runs++;
        if (readCanonicalFrontMatter(written) !== null) fastPath++;
        same(written);
      }),
      { numRuns: 600, seed: 20261121 },
    );
    // The generator leans on text YAML reads specially, which the fast path leaves alone; enough
    // recipes must still take it for the comparison to mean something.
    expect(fastPath).toBeGreaterThan(20);
    expect(runs).toBeGreaterThan(500);
  });

  it("takes the fast path for an ordinary recipe, block lists and maps included", () => {
    const recipe: RecipeDoc = {
      ...emptyRecipeDoc("Chicken Tikka Masala (2)"),
      id: "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10",
      owner: "7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11",
      recipeServings: 4,
      recipeYield: "4 servings",
      prepTime: "20 minutes",
      totalTime: "1 hour",
      categories: ["Dinner"],
      tags: [
        "Indian",
        "Spicy",
        "make-ahead",
        "weeknight dinners",
        "family favourites",
        "freezer friendly",
        "Crème de la crème",
      ],
      tools: ["Dutch Oven"],
      orgURL: "https://example.org/tikka",
      nutrition: { calories: "520", proteinContent: "30 g" },
      settings: { public: true, disableComments: false },
      extras: { source: "grandma" },
      dateAdded: "2026-11-21T10:00:00Z",
      dateUpdated: "2026-11-21T18:02:11Z",
      description: "A creamy curry.",
    };
    const written = serializeRecipeFile(recipe, VOCAB);
    expect(written).toContain("tags:\n  - Indian\n");
    expect(readCanonicalFrontMatter(written)).not.toBeNull();
    same(written);
  });

  it("reads hand-written front matter the same way, or leaves it to the real reader", () => {
    const body = "\nA soup.\n\n## Ingredients\n\n- 2 cups flour\n";
    const variants = [
      "name: Soup\ntags: [a,b , c]\n",
      "name: Soup\ntags:\n  - a\n  - 12\n",
      "name: Soup\ntags:\n- a\n- b\n",
      "name: Soup # a comment\n",
      "name: &n Soup\nrecipeYield: *n\n",
      "name: |\n  Soup\n",
      "name: Soup\nname: Stew\n",
      "name: Soup\nrecipeServings: four\n",
      "name: Soup\nrecipeServings: 4\nnutrition:\n  calories: 520\n",
      "name: Soup\nnutrition:\n  calories:\n",
      "name: Soup\nsettings:\n  public: yes\n",
      "name: Soup\nsettings:\n  public: True\n",
      "name:\n",
      "name: Soup\ncategories: Dinner, Lunch\n",
      "name: Soup\ncategories: []\n",
      "name: Soup\ncategories: [ ]\n",
      "name: Soup\nuser_id: 7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11\n",
      "name: Soup\nnull: x\n",
      "name: Soup\n__proto__: x\n",
      "name: Soup\nunknownKey: [1, 2]\n",
      "name: 'Soup'\n",
      'name: "So\\u0075p"\n',
      "name: Soup\n  continued\n",
      "name: Soup\ndateAdded: 2026-11-21\n",
      "name: Soup\nrecipeServings: 12345678901234567890\n",
      "name: Soup\nrecipeServings: 1.5\n",
      "name: Soup\n\ntags: [a]\n",
    ];
    for (const fm of variants) {
      same(`---\n${fm}---\n${body}`);
      same(`\ufeff---\r\n${fm.replace(/\n/g, "\r\n")}---\r\n${body}`);
    }
    for (const t of [
      "no front matter\n",
      "---\n---\nbody\n",
      "---yaml\nname: Soup\n---\n",
      "----\nname: x\n",
      "---\nname: Soup\n---trailing\nbody\n",
      "---\nname: Soup\n",
    ])
      same(t);
  });
});
