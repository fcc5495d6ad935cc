import { describe, expect, it } from "vitest";
import { pickRows, scaledRowText, type Ingredient } from "./picker.js";
import { sectionsOf } from "./sections.js";
import { parseShoppingPrefs } from "./prefs.js";
import { itemFieldsOf } from "./fields.js";
import { localizeQuantity } from "../format.js";
import { indexVocabulary, itemText, type ListItem, type ListMeta } from "./types.js";

const ing = (display: string, extra: Partial<Ingredient> = {}): Ingredient =>
  ({
    display,
    note: "",
    originalText: null,
    title: null,
    referenceId: display,
    food: null,
    ...extra,
  }) as unknown as Ingredient;
const food = (name: string, onHand: boolean) => ({ id: name, name, onHand }) as unknown as Ingredient["food"];

describe("the ingredient picker (spec §4)", () => {
  it("keeps the recipe's sections and puts on-hand foods last in theirs", () => {
    const sections = pickRows([
      ing("1 onion", { title: "Base", food: food("onion", false) }),
      ing("salt", { food: food("salt", true) }),
      ing("2 carrots", { food: food("carrot", false) }),
      ing("oil", { title: "Finish", food: food("oil", true) }),
      ing("parsley"),
    ]);
    expect(sections.map((s) => [s.title, s.rows.map((r) => [r.text, r.onHand])])).toEqual([
      [
        "Base",
        [
          ["1 onion", false],
          ["2 carrots", false],
          ["salt", true],
        ],
      ],
      [
        "Finish",
        [
          ["parsley", false],
          ["oil", true],
        ],
      ],
    ]);
  });

  it("leaves out empty lines", () => {
    expect(pickRows([ing(""), ing("  ")])).toEqual([]);
  });

  it("shows each line at the servings scale that will be added", () => {
    const cup = {
      name: "cup",
      pluralName: "cups",
      abbreviation: "c",
      useAbbreviation: false,
      fraction: true,
    };
    const flour = { id: "f", name: "flour", onHand: false } as unknown as Ingredient["food"];
    const [{ rows }] = pickRows([
      ing("2 cups flour", { quantity: 2, unit: cup, food: flour } as Partial<Ingredient>),
      ing("1-2 cups flour", { quantity: 1, unit: cup, food: flour, note: "sifted" } as Partial<Ingredient>),
      ing("salt to taste", { note: "salt to taste" }),
    ]);
    expect(rows.map((r) => scaledRowText(r, 1.5))).toEqual([
      "3 cups flour",
      "1 ¹/₂-3 cups flour sifted",
      "salt to taste",
    ]);
    expect(scaledRowText(rows[0], 1)).toBe("2 cups flour");
  });
});

const L: ListMeta = {
  id: "l",
  name: "List",
  userId: "u",
  labelSettings: [
    { id: "s1", labelId: "dairy", position: 1 },
    { id: "s2", labelId: "produce", position: 0 },
  ],
  recipes: [],
};
const vocab = indexVocabulary({
  foods: [{ id: "milk", name: "milk", pluralName: null, labelId: "dairy", onHand: false }],
  units: [
    { id: "cup", name: "cup", pluralName: "cups", abbreviation: "c", useAbbreviation: false },
    { id: "ml", name: "millilitre", pluralName: null, abbreviation: "ml", useAbbreviation: true },
    { id: "g", name: "gram", pluralName: null, abbreviation: "g", useAbbreviation: true, fraction: false },
  ],
  labels: [
    { id: "dairy", name: "Dairy", color: "#00f" },
    { id: "produce", name: "Produce", color: "#0f0" },
  ],
});
const item = (id: string, extra: Partial<ListItem> = {}): ListItem => ({
  id,
  shoppingListId: "l",
  updatedAt: null,
  note: id,
  quantity: 1,
  checked: false,
  position: 0,
  foodId: null,
  unitId: null,
  labelId: null,
  recipes: [],
  ...extra,
});

describe("list sections", () => {
  const items = [
    item("cheese", { labelId: "dairy", position: 2 }),
    item("apples", { labelId: "produce", position: 1 }),
    item("yogurt", { labelId: "dairy", position: 0 }),
    item("foil", { position: 3 }),
    item("pears", { labelId: "produce", checked: true }),
  ];

  it("groups open items by label in the list's label order, items by position, no label last", () => {
    expect(sectionsOf(items, L, vocab, true).map((s) => [s.title, s.items.map((i) => i.id)])).toEqual([
      ["Produce", ["apples"]],
      ["Dairy", ["yogurt", "cheese"]],
      [null, ["foil"]],
    ]);
  });

  it("is one section in position order when not grouped, without the checked items", () => {
    expect(sectionsOf(items, L, vocab, false)[0].items.map((i) => i.id)).toEqual([
      "yogurt",
      "apples",
      "cheese",
      "foil",
    ]);
  });
});

describe("item text", () => {
  it("reads quantity, unit and food, with the note apart; a bare note is the whole line", () => {
    expect(itemText(item("x", { quantity: 2, unitId: "cup", foodId: "milk", note: "oat" }), vocab)).toEqual({
      main: "2 cups milk",
      note: "oat",
    });
    expect(itemText(item("x", { note: "kitchen roll" }), vocab)).toEqual({ main: "kitchen roll", note: "" });
    expect(itemText(item("x", { quantity: 3, note: "lemons" }), vocab).main).toBe("3 lemons");
  });

  it("shows merged, converted amounts without float noise: common fractions when small, few decimals else", () => {
    const text = (quantity: number, unitId = "ml") =>
      itemText(item("x", { quantity, unitId, note: "" }), vocab).main;
    expect(text(736.588)).toBe("737 ml");
    expect(text(12.345)).toBe("12.3 ml");
    expect(text(1.5, "cup")).toBe("1 ¹/₂ cups");
    expect(text(0.333, "cup")).toBe("¹/₃ cup");
    expect(text(2.749, "cup")).toBe("2 ³/₄ cups");
    expect(text(0.1 + 0.2, "cup")).toBe("0.3 cup");
    expect(text(1.5, "g")).toBe("1.5 g");
    expect(text(0.004, "g")).toBe("0.004 g");
    expect(text(2)).toBe("2 ml");
  });

  it("writes the amount in the page language's digits and decimal sign", () => {
    const de = (q: string) => localizeQuantity(q, "de-DE");
    expect(itemText(item("x", { quantity: 12.345, unitId: "ml", note: "" }), vocab, de).main).toBe("12,3 ml");
  });
});

describe("shopping preferences", () => {
  it("reads stored values and falls back to own lists, grouped by label", () => {
    expect(parseShoppingPrefs(JSON.stringify({ viewAllLists: true }))).toEqual({
      viewAllLists: true,
      viewByLabel: true,
    });
    expect(parseShoppingPrefs("{oops")).toEqual({ viewAllLists: false, viewByLabel: true });
    expect(parseShoppingPrefs(JSON.stringify({ viewByLabel: "yes" }))).toEqual({
      viewAllLists: false,
      viewByLabel: true,
    });
  });
});

describe("typed items", () => {
  it("turns known food and unit names into ids and keeps unknown text in the note", () => {
    expect(
      itemFieldsOf({ quantity: 2, unit: "Cups", food: "MILK", note: "oat", labelId: null }, vocab),
    ).toEqual({
      quantity: 2,
      unitId: "cup",
      foodId: "milk",
      note: "oat",
      labelId: "dairy",
    });
    expect(
      itemFieldsOf({ quantity: 1, unit: "bunch", food: "coriander", note: "", labelId: null }, vocab),
    ).toEqual({ quantity: 1, unitId: null, foodId: null, note: "bunch coriander", labelId: null });
  });

  it("knows a food or unit by the other names the group gave it, so the item merges with the recipe's", () => {
    const aliased = indexVocabulary({
      foods: [
        {
          id: "flour",
          name: "all-purpose flour",
          pluralName: null,
          labelId: null,
          onHand: false,
          aliases: ["flour"],
        },
      ],
      units: [
        {
          id: "g",
          name: "gram",
          pluralName: "grams",
          abbreviation: "g",
          useAbbreviation: true,
          aliases: ["gr"],
        },
      ],
      labels: [],
    });
    expect(
      itemFieldsOf({ quantity: 500, unit: "gr", food: "Flour", note: "", labelId: null }, aliased),
    ).toEqual({
      quantity: 500,
      unitId: "g",
      foodId: "flour",
      note: "",
      labelId: null,
    });
  });
});
