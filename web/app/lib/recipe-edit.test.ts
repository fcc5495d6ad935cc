import { describe, expect, it } from "vitest";
import { ingredientParts } from "./scale.js";
import {
  amountText,
  cookTimeOf,
  ingredientLabel,
  stepLabel,
  setCookTime,
  draftChanged,
  draftToJson,
  moveItem,
  namedRef,
  newIngredient,
  organizerNames,
  parseAmount,
  parseDraftJson,
  removeIngredient,
  setOrganizers,
  stepsOf,
  toggleReference,
  type Draft,
} from "./recipe-edit.js";

const draft: Draft = {
  name: "Soup",
  tags: [{ id: "t1", name: "Dinner", slug: "dinner" }],
  recipeIngredient: [
    { referenceId: "a", title: "Base", quantity: 1, unit: null, food: null, note: "onion" },
    { referenceId: "b", title: null, quantity: 2, unit: null, food: null, note: "carrots" },
  ],
  recipeInstructions: [
    {
      id: "s1",
      title: null,
      summary: null,
      text: "Chop",
      ingredientReferences: [{ referenceId: "a" }, { referenceId: "b" }],
    },
  ],
};

describe("recipe draft", () => {
  it("reads typed amounts", () => {
    expect(parseAmount("2")).toBe(2);
    expect(parseAmount("1,5")).toBe(1.5);
    expect(parseAmount("1 1/2")).toBe(1.5);
    expect(parseAmount("3/4")).toBe(0.75);
    expect(parseAmount("½")).toBe(0.5);
    expect(parseAmount("")).toBeNull();
    expect(parseAmount("a lot")).toBeNaN();
    expect(parseAmount("1/0")).toBeNaN();
    expect(amountText(1 / 3)).toBe("0.333");
  });

  it("keeps a unit's id while its name is unchanged", () => {
    const cup = { id: "u1", name: "cup" };
    expect(namedRef(cup, "cup")).toBe(cup);
    expect(namedRef(cup, "cups")).toEqual({ name: "cups" });
    expect(namedRef(cup, "  ")).toBeNull();
  });

  it("drops a removed ingredient from every step", () => {
    const out = removeIngredient(draft, "a");
    expect(stepsOf(out)[0].ingredientReferences).toEqual([{ referenceId: "b" }]);
    const step = toggleReference(stepsOf(out)[0], "a");
    expect(step.ingredientReferences.map((r) => r.referenceId)).toEqual(["b", "a"]);
    expect(toggleReference(step, "a").ingredientReferences).toEqual([{ referenceId: "b" }]);
  });

  it("moves rows with their ids and section titles", () => {
    const moved = moveItem(draft.recipeIngredient as unknown[], 0, 1) as {
      referenceId: string;
      title: string | null;
    }[];
    expect(moved.map((i) => [i.referenceId, i.title])).toEqual([
      ["b", null],
      ["a", "Base"],
    ]);
    expect(moveItem([1, 2, 3], 5, 0)).toEqual([1, 2, 3]);
    expect(newIngredient().referenceId).not.toBe(newIngredient().referenceId);
  });

  it("sets organizers by name, keeping known ones", () => {
    const out = setOrganizers(draft, "tags", ["Dinner", "Quick"]);
    expect(out.tags).toEqual([{ id: "t1", name: "Dinner", slug: "dinner" }, { name: "Quick" }]);
    expect(organizerNames(out, "tags")).toEqual(["Dinner", "Quick"]);
  });

  it("round-trips through the JSON editor and reports what is wrong", () => {
    const back = parseDraftJson(draftToJson(draft));
    expect(back.ok && !draftChanged(back.draft, draft)).toBe(true);
    expect(parseDraftJson("{").ok).toBe(false);
    expect(parseDraftJson("[]")).toEqual({ ok: false, error: "notObject" });
    expect(parseDraftJson('{"name":""}')).toEqual({ ok: false, error: "name" });
    expect(draftChanged({ ...draft, name: "Stew" }, draft)).toBe(true);
  });
});

describe("the editor's cook time", () => {
  it("shows the time a recipe keeps in cookTime (files and importers write that key)", () => {
    expect(cookTimeOf({ name: "Stew", cookTime: "1 hour", performTime: null })).toBe("1 hour");
    expect(cookTimeOf({ name: "Stew", cookTime: "1 hour", performTime: "50 minutes" })).toBe("50 minutes");
    expect(cookTimeOf({ name: "Stew" })).toBe("");
  });

  it("edits the key the recipe already uses, so the file never holds two cook times", () => {
    const kept = setCookTime({ name: "Stew", cookTime: "1 hour", performTime: null }, "90 minutes");
    expect(kept).toMatchObject({ cookTime: "90 minutes", performTime: null });
    const fresh = setCookTime({ name: "Stew", cookTime: null, performTime: null }, "20 minutes");
    expect(fresh).toMatchObject({ performTime: "20 minutes", cookTime: null });
    // A recipe that already had both (conflicting) ends with one.
    const both = setCookTime({ name: "Stew", cookTime: "1 hour", performTime: "50 minutes" }, "55 minutes");
    expect(both).toMatchObject({ performTime: "55 minutes", cookTime: null });
  });
});

describe("linked ingredient labels", () => {
  const tbsp = {
    name: "tablespoon",
    pluralName: "tablespoons",
    abbreviation: "tbsp",
    pluralAbbreviation: "tbsp",
    useAbbreviation: true,
    fraction: true,
  };
  const tsp = { ...tbsp, name: "teaspoon", pluralName: "teaspoons", abbreviation: "tsp" };
  const clove = {
    name: "clove",
    pluralName: "cloves",
    abbreviation: "",
    useAbbreviation: false,
    fraction: true,
  };
  const ing = (quantity: number, unit: object | null, food: string | null, note = "") => ({
    ...newIngredient(),
    quantity,
    unit: unit as never,
    food: food ? { name: food } : null,
    note,
  });

  it("read like the ingredient list: abbreviations, plurals and fractions", () => {
    expect(ingredientLabel(ing(2, tbsp, "olive oil"))).toBe("2 tbsp olive oil");
    expect(ingredientLabel(ing(2, clove, "garlic", "minced"))).toBe("2 cloves garlic minced");
    expect(ingredientLabel(ing(0.5, tsp, "salt"))).toBe("¹/₂ tsp salt");
  });

  it("agree with the list's formatting for the same ingredient", () => {
    const i = ing(1.5, tbsp, "butter");
    const p = ingredientParts({
      ...i,
      quantityMax: null,
      recipe: null,
      noteHtml: "",
      unit: tbsp,
      food: i.food,
    });
    expect(ingredientLabel(i)).toBe([p.quantity, p.unit, p.food].join(" "));
  });

  it("fall back to the note, or an ellipsis for an empty row", () => {
    expect(ingredientLabel(ing(0, null, null, "a pinch of salt"))).toBe("a pinch of salt");
    expect(ingredientLabel(newIngredient())).toBe("…");
  });
});

describe("step labels in control names", () => {
  it("are the summary, else the text's start cut at a word, else an ellipsis", () => {
    expect(stepLabel({ summary: "Greens", text: "Add the greens." })).toBe("Greens");
    expect(stepLabel({ summary: null, text: "Warm the oil and garlic in a wide pan over a low heat." })).toBe(
      "Warm the oil and garlic in a wide pan…",
    );
    expect(stepLabel({ summary: "  ", text: "Stir\n\nwell" })).toBe("Stir well");
    expect(stepLabel({ summary: null, text: "" })).toBe("…");
  });
});
