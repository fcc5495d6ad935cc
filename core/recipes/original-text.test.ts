import { describe, expect, it } from "vitest";
import { emptyRecipeDoc, type RecipeDoc } from "./doc.js";
import { parseRecipeFile, serializeRecipeFile } from "./file/recipe-file.js";
import { OWNER, wireContext, WIRE_VOCAB } from "./file/test-support.js";
import { docToRecipe, recipeToDoc } from "./wire.js";
import { lineAsWritten } from "./original-text.js";
import type { RecipeIngredient } from "../schemas/recipe.js";

const CTX = wireContext();

/** A recipe file holding these ingredient lines, read as the store reads it. */
function stored(lines: string[]): RecipeDoc {
  const doc: RecipeDoc = { ...emptyRecipeDoc("Tikka"), owner: OWNER };
  const text = serializeRecipeFile(doc, WIRE_VOCAB).replace(
    /\n*$/,
    `\n\n## Ingredients\n\n${lines.map((l) => `- ${l}`).join("\n")}\n`,
  );
  return parseRecipeFile(text, WIRE_VOCAB);
}

/** The ingredient lines written after a client PUTs back the recipe it read, edited by `edit`. */
function roundTrip(lines: string[], edit: (ings: RecipeIngredient[]) => void = () => {}): string[] {
  const before = stored(lines);
  const wire = docToRecipe(before, CTX);
  const sent = structuredClone(wire.recipeIngredient);
  edit(sent);
  const after = recipeToDoc({ ...wire, recipeIngredient: sent }, CTX, before);
  return serializeRecipeFile(after, WIRE_VOCAB)
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}

describe("originalText on the wire", () => {
  it("is the line a structured ingredient was read from, canonical or not", () => {
    const wire = docToRecipe(
      stored(["2 cloves garlic, minced", "2 cloves of garlic, sliced", "2-3 cloves garlic", "a little love"]),
      CTX,
    );
    expect(wire.recipeIngredient.map((i) => [i.note, i.originalText])).toEqual([
      ["minced", "2 cloves garlic, minced"],
      ["sliced", "2 cloves of garlic, sliced"],
      ["", "2-3 cloves garlic"],
      // A note-only ingredient's note is its whole line.
      ["a little love", null],
    ]);
  });

  it("is the kept original when the line could not be it", () => {
    const wire = docToRecipe(stored(["1 cup flour <!-- original: 1 heaped cup of flour -->"]), CTX);
    expect(wire.recipeIngredient[0].originalText).toBe("1 heaped cup of flour");
  });
});

describe("originalText sent back as it was served", () => {
  const lines = [
    "2 cloves garlic, minced",
    "2 cloves of garlic, sliced",
    "2-3 cloves garlic",
    "1 cup flour <!-- original: 1 heaped cup of flour -->",
    "a little love",
  ];

  it("leaves every line as it was when nothing was edited", () => {
    expect(roundTrip(lines)).toEqual(lines);
  });

  it("lets an edit rewrite the line without leaving the old text in a comment", () => {
    expect(
      roundTrip(lines, (ings) => {
        ings[0].quantity = 3;
        ings[1].note = "crushed";
        ings[4].note = "a lot of love";
      }),
    ).toEqual([
      "3 cloves garlic, minced",
      "2 cloves garlic, crushed",
      "2-3 cloves garlic",
      "1 cup flour <!-- original: 1 heaped cup of flour -->",
      "a lot of love",
    ]);
  });

  it("keeps a range whose start was left alone, and drops it when the amount changed", () => {
    expect(
      roundTrip(["2-3 cloves garlic", "2-3 cloves garlic"], (ings) => {
        ings[0].note = "peeled";
        ings[1].quantity = 4;
      }),
    ).toEqual(["2-3 cloves garlic, peeled", "4 cloves garlic"]);
  });

  it("keeps an original that lived in a comment when the fields change, as Mealie keeps it", () => {
    expect(
      roundTrip(["1 cup flour <!-- original: 1 heaped cup of flour -->"], (ings) => {
        ings[0].quantity = 2;
      }),
    ).toEqual(["2 cups flour <!-- original: 1 heaped cup of flour -->"]);
  });

  it("follows the ingredient by its referenceId when rows are moved", () => {
    expect(roundTrip(["2 cloves of garlic, sliced", "1 cup flour"], (ings) => ings.reverse())).toEqual([
      "1 cup flour",
      "2 cloves of garlic, sliced",
    ]);
  });

  it("keeps an originalText the client changed on purpose, in a comment when the line cannot be it", () => {
    expect(
      roundTrip(["2 cloves garlic"], (ings) => {
        ings[0].originalText = "two fat cloves of garlic";
      }),
    ).toEqual(["2 cloves garlic <!-- original: two fat cloves of garlic -->"]);
  });

  it("treats a new row with a copied originalText as a new original (no stored ingredient to echo)", () => {
    expect(
      roundTrip(["2 cloves garlic"], (ings) => {
        ings.push({ ...ings[0], referenceId: "b2f0f7a4-0000-4000-8000-000000000000", quantity: 5 });
      }),
    ).toEqual(["2 cloves garlic", "5 cloves garlic <!-- original: 2 cloves garlic -->"]);
  });
});

describe("the line as its author wrote it", () => {
  it("is the line for an ingredient the file holds as written, and nothing for one kept in a comment", () => {
    const doc = stored([
      "2 cloves of garlic, sliced",
      "1 cup flour <!-- original: 1 heaped cup of flour -->",
      "a little love",
    ]);
    expect(doc.ingredients.map((i) => lineAsWritten(i, WIRE_VOCAB))).toEqual([
      "2 cloves of garlic, sliced",
      null,
      null,
    ]);
  });

  it("is nothing once the fields were edited through the API", () => {
    const before = stored(["2 cloves of garlic, sliced"]);
    const wire = docToRecipe(before, CTX);
    const sent = structuredClone(wire.recipeIngredient);
    sent[0].quantity = 3;
    const after = recipeToDoc({ ...wire, recipeIngredient: sent }, CTX, before);
    expect(lineAsWritten(after.ingredients[0], WIRE_VOCAB)).toBeNull();
  });
});
