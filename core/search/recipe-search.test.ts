import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeRecipe } from "../query/test-recipes.js";
import { requireDependency, runsWith } from "../testing/needs.js";
import { RecipeSearchIndex } from "./recipe-search.js";

const ids = (index: RecipeSearchIndex, q: string) => index.search(q).map((h) => h.id);
function names(recipes: { id: string; name: string }[], index: RecipeSearchIndex, q: string): string[] {
  const byId = new Map(recipes.map((r) => [r.id, r.name]));
  return ids(index, q).map((id) => byId.get(id)!);
}

const FIXTURE = new URL("../../../shared/fixtures/mealie/derived/test-expectations.json", import.meta.url);
const present = existsSync(FIXTURE);
const what = `Mealie's search cases at ${fileURLToPath(FIXTURE)}`;

describe.runIf(runsWith(present, what))(
  "recipe search: Mealie's upstream cases (fixtures recipeSearchCases)",
  () => {
    // The cases are read while the tests are collected; without them (under CI=true) one test fails.
    if (!present) {
      it("has its fixture", () => requireDependency(present, what));
      return;
    }
    const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
      recipeSearchCases: {
        recipes: { name: string; description?: string; ingredientNotes?: string[] }[];
        cases: [string, string[]][];
      };
    };
    const recipes = fixture.recipeSearchCases.recipes.map((r) =>
      makeRecipe({
        name: r.name,
        description: r.description ?? null,
        ingredientTexts: r.ingredientNotes ?? [],
      }),
    );
    const index = RecipeSearchIndex.from(recipes);

    it.each(fixture.recipeSearchCases.cases)("%s ranks the expected recipes first", (query, expected) => {
      const q = query === "<random string>" ? "qxzvjwkpyt" : query;
      const got = names(recipes, index, q);
      expect(got.slice(0, expected.length)).toEqual(expected);
      if (expected.length === 0) expect(got).toEqual([]);
    });
  },
);

describe("recipe search", () => {
  const recipes = [
    makeRecipe({ name: "Crème brûlée", description: "Classic French custard" }),
    makeRecipe({ name: "Chocolate Cake", description: "Rich and moist", tags: ["dessert"] }),
    makeRecipe({
      name: "Chicken Curry",
      recipeCategory: ["Main"],
      ingredientTexts: ["1 kg chicken thighs", "2 tbsp curry paste"],
    }),
    makeRecipe({ name: "Curry Chicken Salad", description: "leftover friendly" }),
    makeRecipe({ name: "Beef Stew", description: "Better than chicken curry, honestly" }),
    makeRecipe({ name: "Kartoffelsalat", description: "Schwäbischer Kartoffelsalat" }),
    makeRecipe({ name: "Skillet Shepherd's Pie", tools: ["Cast Iron Skillet"], foods: ["lamb"] }),
    makeRecipe({
      name: "Banana Bread",
      ingredientTexts: ["3 ripe bananas", "a pinch of salt"],
      recipeCategory: ["Baking"],
    }),
    makeRecipe({ name: "Plain Rice" }),
    makeRecipe({ name: "Steinbock Stew" }),
  ];
  const index = RecipeSearchIndex.from(recipes);
  const q = (s: string) => names(recipes, index, s);

  it('folds accents and case: "creme brulee" and "CRÈME" find Crème brûlée', () => {
    expect(q("creme brulee")[0]).toBe("Crème brûlée");
    expect(q("CRÈME")[0]).toBe("Crème brûlée");
    expect(q("schwabischer")).toEqual(["Kartoffelsalat"]);
  });

  it('tolerates typos: "choclate", "chiken", "chciken" (transposition)', () => {
    expect(q("choclate")[0]).toBe("Chocolate Cake");
    expect(q("chiken")).toContain("Chicken Curry");
    expect(q("chciken")).toContain("Chicken Curry");
  });

  it('finds "cake" from "ckae", a transposition that shares no trigram with it', () => {
    expect(q("ckae")).toContain("Chocolate Cake");
  });

  it("does not fuzz short words or words that are a known prefix", () => {
    expect(q("rice")).toEqual(["Plain Rice"]);
    expect(q("pie")).toEqual(["Skillet Shepherd's Pie"]);
  });

  it('finds three letters inside a word, as Mealie\'s LIKE does: "ein" finds Steinbock Stew', () => {
    expect(q("ein")).toEqual(["Steinbock Stew"]);
    expect(q("toff")).toEqual(["Kartoffelsalat"]);
  });

  it("matches prefixes and, for 3+ letters, inside words", () => {
    expect(q("choc")[0]).toBe("Chocolate Cake");
    expect(q("salat")).toEqual(["Kartoffelsalat"]);
    expect(q("sal")).toContain("Curry Chicken Salad");
  });

  it("ignores word order and ranks names holding every word first", () => {
    const got = q("curry chicken");
    expect(got.slice(0, 2).sort()).toEqual(["Chicken Curry", "Curry Chicken Salad"]);
    expect(got[0]).toBe("Curry Chicken Salad"); // the name contains the whole query
    expect(got.indexOf("Beef Stew")).toBe(2);
    expect(q("chicken curry")[0]).toBe("Chicken Curry");
  });

  it("ranks a name match above description, ingredient and organizer matches", () => {
    const got = q("chicken");
    expect(got.slice(0, 2).sort()).toEqual(["Chicken Curry", "Curry Chicken Salad"]);
    expect(got).toContain("Beef Stew");
    expect(got.indexOf("Beef Stew")).toBe(2);
  });

  it("matches description, ingredients, tags, categories, tools and foods", () => {
    expect(q("custard")).toEqual(["Crème brûlée"]);
    expect(q("thighs")).toEqual(["Chicken Curry"]);
    expect(q("dessert")).toEqual(["Chocolate Cake"]);
    expect(q("baking")).toEqual(["Banana Bread"]);
    expect(q("cast iron")).toEqual(["Skillet Shepherd's Pie"]);
    expect(q("lamb")).toEqual(["Skillet Shepherd's Pie"]);
  });

  it("treats apostrophes inside words as nothing: shepherds and shepherd's both match", () => {
    expect(q("shepherds")).toEqual(["Skillet Shepherd's Pie"]);
    expect(q("shepherd's pie")).toEqual(["Skillet Shepherd's Pie"]);
  });

  it("matches a quoted phrase as one token, in order", () => {
    expect(q('"curry paste"')).toEqual(["Chicken Curry"]);
    expect(q('"paste curry"')).toEqual([]);
    expect(q('"chicken curry"')).toEqual(["Chicken Curry", "Beef Stew"]);
  });

  it("drops stop words from multi-word queries", () => {
    expect(q("bread with bananas")[0]).toBe("Banana Bread");
    expect(q("a pinch")).toEqual(["Banana Bread"]);
  });

  it("returns nothing for nonsense or an empty query", () => {
    expect(q("xqzvjwkpyt")).toEqual([]);
    expect(q("")).toEqual([]);
    expect(q("!!!")).toEqual([]);
  });

  it("limits results when asked", () => {
    expect(index.search("c", 2)).toHaveLength(2);
  });
});

describe("recipe search index maintenance", () => {
  it("adds, updates and removes by id", () => {
    const index = new RecipeSearchIndex();
    const r = makeRecipe({ name: "Lemon Tart" });
    index.add(r);
    expect(ids(index, "lemon")).toEqual([r.id]);
    index.update({ ...r, name: "Lime Tart" });
    expect(index.size).toBe(1);
    expect(ids(index, "lemon")).toEqual([]);
    expect(ids(index, "lime")).toEqual([r.id]);
    expect(index.remove(r.id)).toBe(true);
    expect(index.remove(r.id)).toBe(false);
    expect(ids(index, "lime")).toEqual([]);
    expect(index.size).toBe(0);
  });

  it("gives the same answers after churn as a fresh build", () => {
    const recipes = Array.from({ length: 60 }, (_, i) =>
      makeRecipe({ name: `Dish ${i} ${["apple", "pear", "plum"][i % 3]} ${i % 7 ? "pie" : "cake"}` }),
    );
    const churned = new RecipeSearchIndex();
    for (const r of recipes) churned.add(makeRecipe({ ...r, name: "placeholder words", tags: ["temp"] }));
    for (const r of recipes.slice(0, 20)) churned.remove(r.id);
    for (const r of recipes) churned.add(r);
    const fresh = RecipeSearchIndex.from(recipes);
    for (const query of ["apple", "pie", "plum cake", "placeholder", "temp", "dish 4", "pier"]) {
      expect(
        churned
          .search(query)
          .map((h) => h.id)
          .sort(),
        query,
      ).toEqual(
        fresh
          .search(query)
          .map((h) => h.id)
          .sort(),
      );
    }
    expect(churned.search("placeholder")).toEqual([]);
  });

  it("keeps every posting through edits between searches (regions moved and compacted)", () => {
    const words = ["apple", "pear", "plum", "fig", "kiwi", "lime"];
    const recipe = (i: number, round: number) =>
      makeRecipe({
        id: `r${i}`,
        name: `${words[(i + round) % 6]} ${words[(i * 5 + round) % 6]} dish${i % 9}`,
      });
    const live = new RecipeSearchIndex();
    for (let i = 0; i < 200; i++) live.add(recipe(i, 0));
    live.search("apple");
    const current = new Map(Array.from({ length: 200 }, (_, i) => [`r${i}`, recipe(i, 0)]));
    for (let round = 1; round <= 12; round++) {
      for (let i = round; i < 200; i += 3) {
        const r = recipe(i, round);
        current.set(r.id, r);
        live.update(r);
        if (i % 17 === 0) live.search(words[i % 6]);
      }
      for (let i = round * 7; i < round * 7 + 4; i++) {
        live.remove(`r${i}`);
        current.delete(`r${i}`);
      }
      const fresh = RecipeSearchIndex.from(current.values());
      for (const query of [...words, "dish3", "appel"])
        expect(
          live
            .search(query)
            .map((h) => h.id)
            .sort(),
          `${query} (round ${round})`,
        ).toEqual(
          fresh
            .search(query)
            .map((h) => h.id)
            .sort(),
        );
    }
  });

  it("exposes a ranker and a score map for list queries", () => {
    const r = makeRecipe({ name: "Tomato Soup" });
    const index = RecipeSearchIndex.from([r, makeRecipe({ name: "Bread" })]);
    const score = index.ranker<typeof r>()("soup");
    expect(score(r)).toBeGreaterThan(0);
    expect(score(makeRecipe({ name: "Bread" }))).toBeUndefined();
    expect([...index.scores("soup").keys()]).toEqual([r.id]);
  });
});
