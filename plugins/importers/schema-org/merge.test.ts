import { describe, expect, it } from "vitest";
import type { DomList } from "./dom.js";
import { pickIngredients, pickSteps } from "./merge.js";

const list = (...groups: Array<[string | null, string[]]>): DomList => ({
  via: "card",
  groups: groups.map(([title, items]) => ({ title, items })),
});
const schema = (items: string[]) => ({ items, titles: new Map<number, string>() });

describe("which ingredient list is kept", () => {
  it("keeps the schema's when the markup shows the same, or something else", () => {
    const s = schema(["1 cup flour", "2 eggs"]);
    expect(pickIngredients(s, list([null, ["1 cup flour", "2 eggs"]])).rule).toBeNull();
    expect(pickIngredients(s, list([null, ["1 cup (120 g) flour", "2 large eggs"]])).rule).toBeNull();
    expect(pickIngredients(s, null).rule).toBeNull();
  });

  it("missing: takes the markup's when the schema has none", () => {
    const p = pickIngredients(schema([]), list([null, ["1 egg"]], ["Sauce", ["2 tbsp soy"]]));
    expect(p).toEqual({ items: ["1 egg", "2 tbsp soy"], titles: new Map([[1, "Sauce"]]), rule: "missing" });
  });

  it("missing: takes the markup's when the schema's list is one word, a category put where the list belongs", () => {
    const dom = list([null, ["150ml red wine", "100g tomato paste", "1 whole chicken, in 8 pieces"]]);
    expect(pickIngredients(schema(["Chicken"]), dom).rule).toBe("missing");
    // One real line, or a list the markup barely adds to, stays the schema's.
    expect(pickIngredients(schema(["1 whole chicken"]), dom).rule).toBeNull();
    expect(pickIngredients(schema(["Chicken"]), list([null, ["Chicken", "Salt"]])).rule).toBeNull();
  });

  it("split: takes the markup's cut when the schema cut lines at commas, or ran them together", () => {
    const dom = list([null, ["250 g beef, in pieces", "1,5 tsp mustard", "1 egg"]]);
    expect(
      pickIngredients(schema(["250 g beef", "in pieces", "1", "5 tsp mustard", "1 egg"]), dom),
    ).toMatchObject({
      items: ["250 g beef, in pieces", "1,5 tsp mustard", "1 egg"],
      rule: "split",
    });
    expect(pickIngredients(schema(["250 g beef, in pieces, 1,5 tsp mustard, 1 egg"]), dom).rule).toBe(
      "split",
    );
  });

  it("split: keeps the schema's lines when it is the page that ran them together", () => {
    const dom = list([
      null,
      ["SAUCE 1/2 cup yogurt 1 tbsp lime juice", "SALAD 2 chicken breasts 4 cups rice"],
    ]);
    const s = schema([
      "SAUCE",
      "1/2 cup yogurt",
      "1 tbsp lime juice",
      "SALAD",
      "2 chicken breasts",
      "4 cups rice",
    ]);
    expect(pickIngredients(s, dom).rule).toBeNull();
    // Lines without amounts are no sign of which cut is meant: the page's.
    expect(
      pickIngredients(schema(["Salt", "pepper", "Oil"]), list([null, ["Salt pepper", "Oil"]])).rule,
    ).toBe("split");
  });

  it("headings: takes the markup's when the schema lists its group headings as ingredients", () => {
    const p = pickIngredients(
      schema(["Dough", "2 cups flour", "For the swirl", "100 g chocolate"]),
      list(["Dough", ["2 cups flour"]], ["For the swirl", ["100 g chocolate"]]),
    );
    expect(p).toMatchObject({ items: ["2 cups flour", "100 g chocolate"], rule: "headings" });
    expect(p.titles).toEqual(
      new Map([
        [0, "Dough"],
        [1, "For the swirl"],
      ]),
    );
  });

  it("richer: takes the markup's when each of its lines holds the schema's and most say more", () => {
    const dom = list([null, ["½ cup popping corn", "2 tbsp oil", "salt"]]);
    expect(pickIngredients(schema(["popping corn", "oil", "salt"]), dom).rule).toBe("richer");
    // One longer line out of three is a page's wording, not lost amounts.
    expect(
      pickIngredients(
        schema(["½ cup popping corn", "oil", "salt"]),
        list([null, ["½ cup popping corn", "2 tbsp oil", "salt"]]),
      ).rule,
    ).toBeNull();
  });

  it("more: takes the markup's when the schema is it cut short, not when it is a few lines shorter", () => {
    const dom = list([
      null,
      [
        "200 g flour",
        "120 g butter",
        "60 g sugar",
        "1 pinch salt",
        "750 g pumpkin",
        "3 eggs",
        "1 tsp cinnamon",
      ],
    ]);
    expect(pickIngredients(schema(["200 g flour", "120 g butter", "60 g sugar"]), dom).rule).toBe("more");
    const headingsToo = list([null, ["Dry brine", "2 lb wings", "1 tbsp salt", "Glaze", "1/4 cup sugar"]]);
    expect(
      pickIngredients(schema(["2 lb wings", "1 tbsp salt", "1/4 cup sugar"]), headingsToo).rule,
    ).toBeNull();
  });

  it("groups: keeps the schema's lines and adds headings only the markup has", () => {
    const p = pickIngredients(
      schema(["2 cups flour", "1 egg"]),
      list([null, ["2 cups flour"]], ["Glaze", ["1 egg"]]),
    );
    expect(p).toEqual({ items: ["2 cups flour", "1 egg"], titles: new Map([[1, "Glaze"]]), rule: "groups" });
  });
});

describe("which steps are kept", () => {
  const dom = list([null, ["Preheat the oven.", "Cream the butter and sugar.", "Bake 20 minutes."]]);

  it("missing: the markup's when the schema has none", () => {
    expect(pickSteps([], dom).rule).toBe("missing");
  });

  it("split: the markup's cut when the schema ran steps together or broke them at line ends", () => {
    expect(pickSteps(["Preheat the oven. Cream the butter and sugar. Bake 20 minutes."], dom).rule).toBe(
      "split",
    );
    expect(
      pickSteps(["Preheat the", "oven.", "Cream the butter and sugar.", "Bake 20", "minutes."], dom).items,
    ).toEqual(["Preheat the oven.", "Cream the butter and sugar.", "Bake 20 minutes."]);
  });

  it("split: the markup's cut when the schema ran the steps together behind their heading", () => {
    const behind = (heading: string) =>
      pickSteps([`${heading}Preheat the oven.Cream the butter and sugar.Bake 20 minutes.`], dom);
    expect(behind("Bereiden: ")).toMatchObject({
      items: ["Preheat the oven.", "Cream the butter and sugar.", "Bake 20 minutes."],
      rule: "split",
    });
    // More than a heading in front is more than the markup shows: the schema's is kept.
    expect(behind("Before you start, read the whole recipe and set out your tins. ").rule).toBeNull();
  });

  it("missing: the markup's when the schema's steps have no letter in them", () => {
    expect(pickSteps(["[{"], dom).rule).toBe("missing");
  });

  it("split: also when the schema holds the markup's group headings as steps", () => {
    const grouped = list(
      ["Cook the pasta", ["Boil the water.", "Add the pasta."]],
      ["Sauce", ["Melt the butter."]],
    );
    expect(
      pickSteps(["Cook the pasta", "Boil the water. Add the pasta.", "Sauce", "Melt the butter."], grouped),
    ).toMatchObject({ items: ["Boil the water.", "Add the pasta.", "Melt the butter."], rule: "split" });
  });

  it("keeps the schema's steps otherwise", () => {
    expect(pickSteps(["Preheat.", "Mix.", "Bake."], dom).rule).toBeNull();
  });
});
