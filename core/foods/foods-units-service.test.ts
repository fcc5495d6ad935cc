import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import type { Actor } from "../actor.js";

let dir: string;
let larder: Larder;
let actor: Actor;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-foods-units-"));
  const config = loadConfig({} as NodeJS.ProcessEnv, {
    dataDir: join(dir, "data"),
    production: false,
    bcryptRounds: 4,
  });
  larder = await Larder.open(config, { log: consoleLogger("silent"), seed: false });
  actor = { kind: "user", user: larder.users.all()[0] };
});
afterAll(async () => {
  await larder.close();
  await rm(dir, { recursive: true, force: true });
});

describe("foods and units for an actor", () => {
  it("filters by any of a food's names, ignoring case and accents, and sorts by name", async () => {
    const s = larder.foodsUnits;
    await s.create(actor, "foods", { name: "Zucchini", aliases: [{ name: "Courgette" }] });
    await s.create(actor, "foods", { name: "Crème fraîche" });
    await s.create(actor, "foods", { name: "apple" });
    expect(s.list(actor, "foods").map((f) => f.name)).toEqual(["apple", "Crème fraîche", "Zucchini"]);
    expect(s.list(actor, "foods", "COURG").map((f) => f.name)).toEqual(["Zucchini"]);
    expect(s.list(actor, "foods", "creme").map((f) => f.name)).toEqual(["Crème fraîche"]);
  });

  it("an edit keeps the fields it does not name, and a rename reaches the recipes", async () => {
    const s = larder.foodsUnits;
    const unit = await s.create(actor, "units", {
      name: "tablespoon",
      abbreviation: "tbsp",
      fraction: false,
    });
    await larder.recipes.create(actor, {
      name: "Dressing",
      recipeIngredient: [{ quantity: 2, unit: "tablespoon", food: "apple" }],
    });
    const renamed = await s.update(actor, "units", unit.id, {
      name: "table spoon",
      pluralName: "table spoons",
    });
    expect(renamed).toMatchObject({
      name: "table spoon",
      pluralName: "table spoons",
      abbreviation: "tbsp",
      fraction: false,
    });
    const recipe = larder.recipes.find(actor, "dressing").entry.doc;
    expect(recipe.ingredients[0].unit).toBe("table spoon");
  });

  it("a rename met by the re-read a change of units brings never shows a recipe's ingredient without its unit", async () => {
    const s = larder.foodsUnits;
    const g = larder.groups.scopeOf(actor).group;
    const unit = await s.create(actor, "units", { name: "teaspoon", abbreviation: "tsp" });
    await larder.recipes.create(actor, {
      name: "Vinaigrette",
      recipeIngredient: [{ quantity: 1, unit: "teaspoon", food: "apple" }],
    });
    // The re-read that the change of units schedules (50 ms on): under load it came while the units
    // file was still being written, after the new name was in memory and before the recipe was.
    const rereads: Promise<void>[] = [];
    const stop = g.units.onChange(() => void rereads.push(larder.recipes.store.refreshVocabulary(g.slug)));
    const seen: (string | null)[] = [];
    const off = larder.recipes.store.on("change", (c) => {
      if (c.slug === "vinaigrette")
        seen.push(larder.recipes.store.get(g.slug, c.slug)!.doc.ingredients[0].unit);
    });
    try {
      await s.update(actor, "units", unit.id, { name: "tea spoon" });
      expect(larder.recipes.find(actor, "vinaigrette").entry.doc.ingredients[0].unit).toBe("tea spoon");
      await Promise.all(rereads);
    } finally {
      stop();
      off();
    }
    expect(seen).toEqual(["tea spoon"]);
    expect(larder.recipes.find(actor, "vinaigrette").entry.doc.ingredients[0].unit).toBe("tea spoon");
    expect(await readFile(larder.folder.recipeFile(g.slug, "vinaigrette"), "utf8")).toMatch(/tea spoon/);
  });

  it("merging two foods leaves one, and recipes name the one kept", async () => {
    const s = larder.foodsUnits;
    const apple = s.list(actor, "foods", "apple")[0];
    const pomme = await s.create(actor, "foods", { name: "pomme" });
    await larder.recipes.create(actor, { name: "Tart", recipeIngredient: [{ quantity: 3, food: "pomme" }] });
    await s.merge(actor, "foods", pomme.id, apple.id);
    expect(s.list(actor, "foods", "pomme")).toEqual([]);
    expect(larder.recipes.find(actor, "tart").entry.doc.ingredients[0].food).toBe("apple");
  });

  it("on hand is set for the actor's household only, and can be cleared", async () => {
    const s = larder.foodsUnits;
    const apple = s.list(actor, "foods", "apple")[0];
    await larder.vocabulary.update(larder.groups.all()[0], "foods", apple.id, {
      ...apple,
      householdsWithIngredientFood: ["elsewhere"],
    });
    const on = await s.setOnHand(actor, apple.id, true);
    expect(on.onHand).toBe(true);
    expect(on.householdsWithIngredientFood).toContain("elsewhere");
    const off = await s.setOnHand(actor, apple.id, false);
    expect(off.onHand).toBe(false);
    expect(off.householdsWithIngredientFood).toEqual(["elsewhere"]);
  });

  it("another group's user cannot see this group's foods", async () => {
    const stranger = { ...larder.users.all()[0], groupId: "00000000-0000-4000-8000-000000000000" };
    expect(() => larder.foodsUnits.list({ kind: "user", user: stranger }, "foods")).toThrow(
      /group not found/,
    );
  });
});

describe("many foods at once (an import's)", () => {
  it("adds them in one change, skipping names the group has or that repeat, refusing invalid ones", async () => {
    const g = larder.groups.bySlugOrNull("home")!;
    await larder.vocabulary.create(g, "foods", { name: "Sorrel" });
    const before = larder.vocabulary.list(g, "foods").length;
    const { created, refused } = await larder.vocabulary.createMany(g, "foods", [
      { name: "Lovage" },
      { name: "sorrel" },
      { name: "Samphire" },
      { name: "LOVAGE" },
      { name: "Woodruff", labelId: "00000000-0000-4000-8000-000000000000" },
      { name: 42 },
    ]);
    expect(created.map((f) => f.name)).toEqual(["Lovage", "Samphire"]);
    expect(refused.map((r) => r.index)).toEqual([4, 5]);
    expect(larder.vocabulary.list(g, "foods")).toHaveLength(before + 2);
    expect(larder.vocabulary.byName(g, "foods", "samphire")?.name).toBe("Samphire");
  });
});

describe("looking a food up by id and by name", () => {
  it("follows every change: a create, a rename, a removal and a hand edit of foods.json", async () => {
    const g = larder.groups.bySlugOrNull("home")!;
    const v = larder.vocabulary;
    const made = await v.create(g, "foods", { name: "Chervil" });
    expect(v.byName(g, "foods", "  CHERVIL ")?.id).toBe(made.id);
    expect(v.get(g, "foods", made.id).name).toBe("Chervil");
    expect(v.has(g, "foods", made.id)).toBe(true);

    await v.update(g, "foods", made.id, { name: "Garden chervil" });
    expect(v.byName(g, "foods", "chervil")).toBeNull();
    expect(v.byName(g, "foods", "garden chervil")?.id).toBe(made.id);
    expect(v.get(g, "foods", made.id).name).toBe("Garden chervil");

    await v.remove(g, "foods", made.id);
    expect(v.byName(g, "foods", "garden chervil")).toBeNull();
    expect(v.has(g, "foods", made.id)).toBe(false);
    expect(() => v.get(g, "foods", made.id)).toThrow();
  });

  it("follows a hand edit of foods.json while the server watches the folder", async () => {
    const own = await mkdtemp(join(tmpdir(), "larder-foods-watched-"));
    const watched = await Larder.open(
      loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(own, "data"), production: false, bcryptRounds: 4 }),
      { log: consoleLogger("silent"), seed: false, watch: true },
    );
    try {
      const g = watched.groups.bySlugOrNull("home")!;
      const v = watched.vocabulary;
      const lovage = await v.create(g, "foods", { name: "Lovage" });
      expect(v.byName(g, "foods", "lovage")?.id).toBe(lovage.id);
      const file = watched.folder.foodsJson("home");
      const doc = JSON.parse(await readFile(file, "utf8")) as { foods: { id: string; name: string }[] };
      doc.foods.find((f) => f.id === lovage.id)!.name = "Sea lovage";
      await writeFile(file, JSON.stringify(doc, null, 2));
      await vi.waitFor(() => expect(v.byName(g, "foods", "sea lovage")?.id).toBe(lovage.id), {
        timeout: 10_000,
      });
      expect(v.byName(g, "foods", "lovage")).toBeNull();
    } finally {
      await watched.close();
      await rm(own, { recursive: true, force: true });
    }
  });
});
