import { describe, expect, it } from "vitest";
import { recipeAttributes } from "../query/attributes.js";
import { emptyRecipeDoc, type RecipeDoc } from "./doc.js";
import {
  COPIED_FIELDS,
  contentDefaults,
  FILTERED_FIELDS,
  RECIPE_FIELD_KEYS,
  RECIPE_FIELDS,
} from "./fields.js";
import { parseRecipeFile, serializeRecipeFile } from "./file/recipe-file.js";
import { metadataEntries } from "./file/metadata.js";
import { OWNER, VOCAB, wireContext } from "./file/test-support.js";
import { docToSummary, recipeToDoc } from "./wire.js";

/** A doc with every declared field set to something other than its default. */
function fullDoc(): RecipeDoc {
  return {
    ...emptyRecipeDoc("Tikka"),
    id: "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10",
    owner: OWNER,
    recipeServings: 4,
    recipeYieldQuantity: 2,
    recipeYield: "2 trays",
    prepTime: "20 minutes",
    cookTime: "1 hour",
    performTime: "10 minutes",
    totalTime: "1 hour 30 minutes",
    categories: ["Dinner"],
    tags: ["Indian", "Spicy"],
    tools: ["Wok"],
    orgURL: "https://example.com/tikka",
    nutrition: { calories: "520" },
    settings: { public: true },
    extras: { origin: "Delhi" },
    assets: [{ name: "Card", icon: "mdi-file", fileName: "card.pdf" }],
    image: "a1b2c3",
    dateAdded: "2026-11-21T10:00:00Z",
    dateUpdated: "2026-11-22T10:00:00Z",
    lastMade: "2026-11-23T18:00:00Z",
  };
}

describe("the recipe's field table", () => {
  it("gives the order a file writes its keys in", () => {
    expect(metadataEntries(fullDoc()).map((e) => e.key)).toEqual(RECIPE_FIELD_KEYS);
  });

  it("gives each field's default: a file with only a name reads as the empty recipe", () => {
    const doc = parseRecipeFile("---\nname: Tikka\n---\n", VOCAB);
    for (const key of RECIPE_FIELD_KEYS) expect(doc[key], key).toEqual(emptyRecipeDoc("Tikka")[key]);
  });

  it("reads back every field a file writes", () => {
    const doc = fullDoc();
    const back = parseRecipeFile(serializeRecipeFile(doc, VOCAB), VOCAB);
    for (const key of RECIPE_FIELD_KEYS) expect(back[key], key).toEqual(doc[key]);
  });

  it("copies the plain fields between file and wire unchanged, both ways", () => {
    const ctx = wireContext();
    const doc = fullDoc();
    const summary = docToSummary(doc, ctx) as unknown as Record<string, unknown>;
    for (const f of COPIED_FIELDS) expect(summary[f.wire], f.wire).toEqual(doc[f.key]);
    const back = recipeToDoc(summary, ctx);
    for (const f of COPIED_FIELDS) expect(back[f.key], f.key).toEqual(doc[f.key]);
  });

  it("lets queryFilter and orderBy read every field it marks, as the type it names", () => {
    for (const f of FILTERED_FIELDS) expect(recipeAttributes.tryResolve(f.wire)?.type, f.wire).toBe(f.filter);
  });

  it("says what a PUT resets: the content fields, at their defaults", () => {
    const content = COPIED_FIELDS.filter((f) => f.content && f.kind !== "name").map((f) => f.wire);
    expect(Object.keys(contentDefaults()).sort()).toEqual([...content].sort());
    expect(RECIPE_FIELDS.image).not.toHaveProperty("content");
  });
});
