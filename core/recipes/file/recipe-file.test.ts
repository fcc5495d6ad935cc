import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { emptyRecipeDoc, type RecipeDoc } from "../doc.js";
import { VOCAB } from "./test-support.js";
import { RecipeFileError, parseRecipeFile, serializeRecipeFile } from "./recipe-file.js";
import { readRecipeFile } from "../store/fast-read.js";

const parse = (text: string): RecipeDoc => parseRecipeFile(text, VOCAB);
const write = (doc: RecipeDoc): string => serializeRecipeFile(doc, VOCAB);

const CANONICAL = `---
id: 3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10
name: Chicken Tikka Masala
owner: 7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11
recipeServings: 4
recipeYield: 4 servings
prepTime: 20 minutes
totalTime: 1 hour
categories: [Dinner]
tags: [Indian, Spicy]
tools: [Dutch Oven]
orgURL: https://example.org/tikka
nutrition:
  calories: "520"
settings:
  public: true
dateAdded: 2026-11-21T10:00:00Z
dateUpdated: 2026-11-21T18:02:11Z
---
A creamy, mildly spiced curry.

## Ingredients

- 600 g chicken thigh, cut into chunks
- 2 tbsp olive oil

### Sauce

- 400 g canned tomatoes
- 2-3 cloves garlic
- a pinch of salt
- 1 batch [Naan dough](naan-dough.md)

## Instructions

1. Marinate the chicken.
   ↳ uses 1, 2

### Sauce

2. **Simmer**
   Simmer the sauce for 20 minutes,
   stirring now and then.

## Notes

### Storage

Keeps three days in the fridge.
`;

describe("parseRecipeFile / serializeRecipeFile", () => {
  it("writes a canonical file back byte for byte", () => {
    expect(write(parse(CANONICAL))).toBe(CANONICAL);
  });

  it("reads every part of the documented example", () => {
    const doc = parse(CANONICAL);
    expect(doc).toMatchObject({
      name: "Chicken Tikka Masala",
      recipeServings: 4,
      categories: ["Dinner"],
      nutrition: { calories: "520" },
      settings: { public: true },
      dateAdded: "2026-11-21T10:00:00Z",
      description: "A creamy, mildly spiced curry.",
      notes: [{ title: "Storage", text: "Keeps three days in the fridge." }],
    });
    expect(doc.ingredients.map((i) => [i.title, i.quantity, i.quantityMax, i.unit, i.food, i.note])).toEqual([
      [null, 600, null, "gram", "chicken thigh", "cut into chunks"],
      [null, 2, null, "tablespoon", "olive oil", ""],
      ["Sauce", 400, null, "gram", "canned tomatoes", ""],
      [null, 2, 3, "clove", "garlic", ""],
      [null, 1, null, "pinch", "salt", ""],
      [null, 1, null, "batch", null, ""],
    ]);
    expect(doc.instructions).toEqual([
      { title: null, summary: null, text: "Marinate the chicken.", ingredientRefs: [0, 1] },
      {
        title: "Sauce",
        summary: "Simmer",
        text: "Simmer the sauce for 20 minutes,\nstirring now and then.",
        ingredientRefs: [],
      },
    ]);
  });

  it("writes only present front-matter keys, in the documented order, and no empty sections", () => {
    const doc = {
      ...emptyRecipeDoc("Toast"),
      tags: ["B", "A"],
      id: "x",
      dateAdded: "2026-01-01",
      settings: { disableComments: true, locked: true },
    };
    expect(write(doc)).toBe(
      "---\nid: x\nname: Toast\ntags: [B, A]\nsettings:\n  locked: true\ndateAdded: 2026-01-01\n---\n",
    );
  });

  it("escapes text that would read as structure, and reads it back", () => {
    const doc: RecipeDoc = {
      ...emptyRecipeDoc("Tricky"),
      description: "## Not a section\n#hashtag\n\\# already escaped\n- a list is fine\n---",
      ingredients: [
        {
          title: "### odd",
          quantity: null,
          quantityMax: null,
          unit: null,
          food: null,
          note: "2 eggs from the neighbour",
          originalText: null,
          referencedRecipe: null,
        },
      ],
      instructions: [
        {
          title: null,
          summary: null,
          text: "**Looks like a summary**\nsecond\n↳ uses 1",
          ingredientRefs: [0],
        },
        {
          title: null,
          summary: "Real **summary**",
          text: "↳ arrow first\n\n   indented",
          ingredientRefs: [],
        },
        { title: null, summary: null, text: "", ingredientRefs: [] },
      ],
      notes: [{ title: "", text: "### not a note title\nplain" }],
    };
    const text = write(doc);
    expect(text).toContain("\\## Not a section\n\\#hashtag\n\\\\# already escaped\n- a list is fine\n---\n");
    expect(text).toContain("- \\2 eggs from the neighbour");
    expect(text).toContain("1. \\**Looks like a summary**\n   second\n   \\↳ uses 1\n   ↳ uses 1");
    expect(text).toContain("2. **Real **summary****\n   \\↳ arrow first\n\n      indented");
    expect(text).toContain("3.\n\n## Notes\n\n###\n\n\\### not a note title\nplain\n");
    expect(parse(text)).toEqual({
      ...doc,
      ingredients: [{ ...doc.ingredients[0], referencedRecipeName: null }],
    });
    expect(write(parse(text))).toBe(text);
  });

  it("keeps unknown sections as notes and never drops a line", () => {
    const doc = parse(
      "---\nname: X\n---\nIntro\n\n## Tips\n\nUse a hot pan.\n\n## Ingredients\n\nsome flour, to taste\n### \n",
    );
    expect(doc.notes).toEqual([{ title: "Tips", text: "Use a hot pan." }]);
    expect(doc.ingredients.map((i) => [i.food, i.note])).toEqual([[null, "some flour, to taste"]]);
  });

  it("names a file without a name from its leading heading", () => {
    const doc = parse("# Pancakes\n\nFluffy.\n");
    expect(doc.name).toBe("Pancakes");
    expect(doc.description).toBe("Fluffy.");
    expect(parse("---\nname: Crêpes\n---\n# Pancakes\n").description).toBe("# Pancakes");
  });
});

describe("hand edits", () => {
  const hand = [
    "\uFEFF---",
    "name: Soup",
    "tags: Quick, Cheap",
    "---",
    "  A soup.   ",
    "## ingredients",
    "* 2 cups flour",
    "+ 1 onion,",
    "  sliced",
    "1) 3 cloves garlic",
    "Salt   ",
    "## Method",
    "1) Chop.",
    "2)   Fry",
    "until brown.",
    "",
    "   Keep stirring.",
    "",
    "Serve hot.",
    "- Eat",
    "## Notes",
    "Untitled note.",
    "### Tip",
    "Tip text.",
  ].join("\r\n");

  it("reads CRLF, other bullets, numbering styles and wrapped lines into the structured recipe", () => {
    const doc = parse(hand);
    expect(doc.name).toBe("Soup");
    expect(doc.tags).toEqual(["Quick", "Cheap"]);
    expect(doc.description).toBe("A soup.");
    expect(doc.ingredients.map((i) => [i.quantity, i.unit, i.food, i.note])).toEqual([
      [2, "cup", "flour", ""],
      [1, null, "onion", "sliced"],
      [3, "clove", "garlic", ""],
      [null, null, "salt", ""],
    ]);
    expect(doc.instructions.map((s) => s.text)).toEqual([
      "Chop.",
      "Fry\nuntil brown.\n\nKeep stirring.",
      "Serve hot.",
      "Eat",
    ]);
    expect(doc.notes).toEqual([
      { title: "", text: "Untitled note." },
      { title: "Tip", text: "Tip text." },
    ]);
  });

  it("writes a hand-edited file canonically, and that reads back the same", () => {
    const once = write(parse(hand));
    expect(parse(once)).toEqual(parse(hand));
    expect(write(parse(once))).toBe(once);
  });

  it("reads any Markdown body into a recipe that survives a canonical write", () => {
    const piece = fc.constantFrom(
      "## Ingredients",
      "## Instructions",
      "## Notes",
      "## Other",
      "### Title",
      "###",
      "# Heading",
      "- 2 cups flour",
      "* salt",
      "-",
      "1. Step",
      "2)",
      "   more",
      "\tmore",
      "",
      "",
      "**bold**",
      "1. **Sum**",
      "↳ uses 1, 9",
      "   ↳ uses 2",
      "\\# x",
      "\\\\",
      "text with: colon",
      "---",
      "- \\2 eggs",
      "<!-- original: x -->",
      "- 1 batch [A](a.md)",
      "2-3 cloves garlic",
      "🍕 ½",
    );
    const body = fc
      .array(fc.oneof(piece, fc.string({ unit: "grapheme", maxLength: 8 })), { maxLength: 25 })
      .map((l) => l.join("\n"));
    fc.assert(
      fc.property(body, (b) => {
        const d1 = parse(`---\nname: R\n---\n${b}`);
        const t1 = write(d1);
        const d2 = parse(t1);
        expect(d2).toEqual(d1);
        expect(write(d2)).toBe(t1);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe("broken files", () => {
  it("reports broken YAML as a RecipeFileError with its line", () => {
    let err: unknown;
    try {
      parse("---\nname: Soup\ntags: [a, b\nowner: x\n---\n");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RecipeFileError);
    expect((err as RecipeFileError).line).toBeGreaterThanOrEqual(3);
  });
  it("reports a value of the wrong kind with the line of its key", () => {
    expect(() => parse("---\nname: Soup\nrecipeServings: four\n---\n")).toThrow(
      expect.objectContaining({ line: 3 }),
    );
    expect(() => parse("---\nname: Soup\nassets: [x]\n---\n")).toThrow(RecipeFileError);
  });
});

describe("a file git left mid-merge", () => {
  const merged = [
    "---",
    "name: Tacos",
    "---",
    "",
    "## Ingredients",
    "",
    "<<<<<<< HEAD",
    "- 2 cups black beans",
    "=======",
    "- 3 cups black beans",
    ">>>>>>> side",
    "- 8 tortillas",
    "",
  ].join("\n");

  it("is broken at the conflict's first line, in the body as in the front matter, by either reader", () => {
    expect(() => parseRecipeFile(merged, VOCAB)).toThrow(RecipeFileError);
    expect(() => parseRecipeFile(merged, VOCAB)).toThrow(/line 7: an unfinished git merge/);
    expect(() => readRecipeFile(merged, VOCAB)).toThrow(/unfinished git merge/);
  });

  it("is no conflict for a Markdown heading underlined with = or a lone marker-like line", () => {
    const text = "---\nname: Tacos\n---\n\nNotes\n=======\n\n<<<<<<< not a merge on its own\n";
    expect(parseRecipeFile(text, VOCAB).name).toBe("Tacos");
  });
});
