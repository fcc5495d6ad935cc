/**
 * Migrations end to end in core: each archive through `larder.migrations` into a real data folder,
 * the report Mealie's way, the recipes as Mealie's upstream test checks them (slug, nutrition keys,
 * a timeline event), re-runs that create nothing, and a failed entry that leaves nothing behind.
 */
import { readFileSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeZip } from "../../tests/support/zip-writer.js";
import { definePlugin } from "../../core/plugins/define.js";
import { fixturesPresent, FIXTURES, migrationLarder } from "./test-support.js";

// A Larder of its own for each test: one registers a plugin, others count what the data folder holds.
const env = migrationLarder("larder-migrate-", { perTest: true });

async function migrate(type: string, path: string, extra: { addMigrationTag?: boolean } = {}) {
  const { report, done } = await env.larder.migrations.start(env.actor, { type, path, ...extra });
  const summary = await done;
  return { report, summary, full: await env.larder.reports.get(env.actor, report.id) };
}

interface Case {
  migrationType: string;
  archive: string | null;
  searchSlug: string;
  nutritionMustHave?: string[];
}
const cases: Case[] = fixturesPresent
  ? (
      JSON.parse(readFileSync(`${FIXTURES}derived/test-expectations.json`, "utf8")) as {
        migrationCases: Case[];
      }
    ).migrationCases
  : [];

describe.skipIf(!fixturesPresent)("Mealie's migration fixtures", () => {
  for (const c of cases.filter((x) => x.archive)) {
    it(`${c.migrationType}: every entry a success, ${c.searchSlug} answers, nutrition kept, a timeline event`, async () => {
      const { report, full } = await migrate(c.migrationType, `${FIXTURES}${c.archive}`);
      expect(report).toMatchObject({
        category: "migration",
        status: "success",
        name: `${c.migrationType[0].toUpperCase()}${c.migrationType.slice(1).replace(/_a/, "_A")} Migration`,
      });
      expect(full.entries.length).toBeGreaterThan(0);
      for (const e of full.entries) {
        expect(e.success, e.message + e.exception).toBe(true);
        expect(e.message).toMatch(/^Imported .+ successfully$/);
      }
      const recipe = env.larder.recipes.get(env.actor, c.searchSlug) as unknown as Record<string, unknown> & {
        nutrition: Record<string, unknown>;
        id: string;
      };
      // Larder keeps no blank nutrition value: the Mealie-alpha stew's calories are "" at the source.
      const blankAtSource = c.migrationType === "mealie_alpha" ? ["calories"] : [];
      for (const k of (c.nutritionMustHave ?? []).filter((x) => !blankAtSource.includes(x)))
        expect(recipe.nutrition[k] ?? null, k).not.toBeNull();
      const events = env.larder.timeline.list(env.actor, {
        queryFilter: `recipe_id = "${recipe.id}"`,
        perPage: -1,
      });
      expect(events.items.some((e) => e.subject === "Recipe Created")).toBe(true);
    });
  }

  it("nextcloud: times, yield, tags, categories, nutrition and the image as the recipe shows them", async () => {
    await migrate("nextcloud", `${FIXTURES}tests-data/migrations/nextcloud.zip`, { addMigrationTag: true });
    const r = env.larder.recipes.get(env.actor, "chicken-parmigiana") as unknown as Record<string, unknown>;
    expect(r).toMatchObject({
      prepTime: "30 minutes",
      performTime: "1 hour",
      totalTime: "1 hour 30 minutes",
      recipeYield: "2",
      orgURL: "https://www.allrecipes.com/recipe/8975/chicken-parmigiana/",
    });
    expect((r.recipeCategory as Array<{ name: string }>).map((x) => x.name)).toEqual([
      "World Cuisine Recipes",
    ]);
    expect((r.tags as Array<{ name: string }>).map((x) => x.name)).toEqual(["nextcloud"]);
    expect((r.nutrition as Record<string, string>).calories).toBe("528.3");
    expect(typeof r.image).toBe("string");
    expect(
      await readdir(join(env.folder, "data", "groups", "home", "recipes", "chicken-parmigiana")),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/^original\./)]));
    const pie = env.larder.recipes.get(env.actor, "skillet-shepherd-s-pie") as unknown as Record<
      string,
      unknown
    >;
    expect(pie.image === null || pie.image === undefined || pie.image === "").toBe(true);
  });

  it("paprika keeps the source's dates and the caller's rating", async () => {
    await migrate("paprika", `${FIXTURES}tests-data/migrations/paprika.zip`);
    const r = env.larder.recipes.get(
      env.actor,
      "zucchini-rolls-with-goat-cheese-and-mint",
    ) as unknown as Record<string, unknown>;
    expect(r.dateAdded).toBe("2014-07-03");
    expect((r.tags as Array<{ name: string }>).map((x) => x.name)).toEqual([
      "Grill",
      "Käse",
      "Vegetarisch",
      "Vorspeißen",
    ]);
  });

  it("importing the same archive twice creates no duplicates and the report says so", async () => {
    const path = `${FIXTURES}tests-data/migrations/copymethat.zip`;
    await migrate("copymethat", path);
    const count = env.larder.recipes.store.list("home").length;
    const second = await migrate("copymethat", path);
    expect(env.larder.recipes.store.list("home").length).toBe(count);
    expect(second.summary).toMatchObject({ imported: 0, skipped: 3, failed: 0 });
    expect(second.full.entries.map((e) => e.message).sort()).toEqual([
      "Skipped Classic Stuffed Shells: already imported as classic-stuffed-shells",
      "Skipped Crockpot Cilantro Lime Chicken: already imported as crockpot-cilantro-lime-chicken",
      "Skipped Spam Zoodles: already imported as spam-zoodles",
    ]);
    expect(second.report.status).toBe("success");
  });

  it("the same recipe from another app (same original URL and name) is not brought in twice", async () => {
    await migrate("nextcloud", `${FIXTURES}tests-data/migrations/nextcloud.zip`);
    const again = await migrate("nextcloud", `${FIXTURES}tests-data/migrations/nextcloud.zip`);
    expect(again.summary.skipped).toBe(3);
  });
});

describe("migrations on small archives of our own", () => {
  it("a failed entry leaves no half-written recipe and the others import", async () => {
    // A reader of our own that yields a good recipe, one the create step refuses, and one it could not read.
    const tricky = definePlugin({
      kind: "migration",
      name: "tricky",
      types: ["tricky"],
      async *migrate() {
        yield {
          ok: true,
          name: "Good Soup",
          imported: { recipe: { name: "Good Soup", recipeIngredient: [{ note: "1 leek" }] } },
        };
        yield {
          ok: true,
          name: "Bad Stew",
          imported: {
            recipe: { name: "Bad Stew", recipeIngredient: [{ quantity: "lots", note: "beef" }] },
            image: { bytes: Buffer.from("not an image") },
          },
        };
        yield {
          ok: false,
          name: "broken.json",
          error: "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        };
      },
    });
    env.larder.plugins.register(tricky);
    const { summary, full, report } = await migrate("tricky", env.folder);
    expect(summary).toMatchObject({ imported: 1, failed: 2 });
    expect(report.status).toBe("partial");
    const failed = full.entries.filter((e) => !e.success);
    expect(failed.map((e) => e.message)).toEqual([
      "Failed to import Bad Stew",
      "Failed to import broken.json",
    ]);
    expect(failed[1].exception).toBe("JSONDecodeError: Expecting value: line 1 column 1 (char 0)");
    expect(env.larder.recipes.store.list("home").map((e) => e.doc.name)).toEqual(["Good Soup"]);
    expect(
      (await readdir(join(env.folder, "data", "groups", "home", "recipes"))).filter((n) =>
        n.startsWith("bad-stew"),
      ),
    ).toEqual([]);
  });

  it("a picture that cannot be read is left out and the report says so on its recipe's line", async () => {
    const zip = join(env.folder, "nc-picture.zip");
    const recipe = JSON.stringify({
      name: "Leek Tart",
      recipeIngredient: ["2 leeks"],
      recipeInstructions: ["Bake."],
    });
    await writeFile(
      zip,
      makeZip([
        { name: "Leek Tart/recipe.json", data: recipe },
        // The entry claims fewer bytes than it holds: reading it stops with an error.
        { name: "Leek Tart/full.jpg", data: Buffer.alloc(64, 1), declaredSize: 10 },
      ]),
    );
    const { summary, full } = await migrate("nextcloud", zip);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(full.entries.map((e) => [e.success, e.message, e.exception])).toEqual([
      [
        true,
        "Imported Leek Tart successfully",
        expect.stringMatching(
          /^its picture Leek Tart\/full\.jpg was not kept \(Entry 'Leek Tart\/full\.jpg' of the archive cannot be read/,
        ),
      ],
    ]);
    expect(
      env.larder.recipes.store.list("home").find((e) => e.doc.name === "Leek Tart")?.doc.image ?? null,
    ).toBeNull();
  });

  it("a recipe longer than a recipe may be is cut to fit and imported; the report says what was cut", async () => {
    const zip = join(env.folder, "nc-long.zip");
    const long = {
      name: "Whole Page",
      description: "word ".repeat(30_000),
      recipeIngredient: Array.from({ length: 2100 }, (_, i) => `${i} g flour`),
      recipeInstructions: ["Mix.", `Bake ${"slowly ".repeat(20_000)}`],
    };
    // Past the limit on Markdown marks: nothing to cut that would keep the recipe as it was written.
    const marked = { name: "All Stars", description: "*".repeat(30_000), recipeIngredient: ["1 egg"] };
    await writeFile(
      zip,
      makeZip([
        { name: "Whole Page/recipe.json", data: JSON.stringify(long) },
        { name: "All Stars/recipe.json", data: JSON.stringify(marked) },
      ]),
    );
    const { summary, full } = await migrate("nextcloud", zip);
    expect(summary).toMatchObject({ imported: 1, failed: 1 });
    const [page, stars] = full.entries;
    expect(page).toMatchObject({ success: true, message: "Imported Whole Page successfully" });
    expect(page.exception).toBe(
      "its description was cut to 100,000 characters; only its first 2,000 ingredients of 2,100 were kept; 1 of its steps was cut to 100,000 characters",
    );
    const doc = env.larder.recipes.get(env.actor, "whole-page") as unknown as { recipeIngredient: unknown[] };
    expect(doc.recipeIngredient).toHaveLength(2000);
    expect(stars).toMatchObject({ success: false, message: "Failed to import All Stars" });
    expect(stars.exception).toMatch(/^A recipe's texts hold at most 20,000 Markdown marks/);
  });

  it("the wrong migration type is a clear 400 and writes no report", async () => {
    const zip = join(env.folder, "nc.zip");
    await writeFile(zip, makeZip([{ name: "Soup/recipe.json", data: "{}" }]));
    await expect(
      env.larder.migrations.start(env.actor, { type: "paprika", path: zip }),
    ).rejects.toMatchObject({
      status: 400,
      message:
        "This archive is not a Paprika export: no .paprikarecipe file was found. Check the migration type.",
    });
    expect(await env.larder.reports.list(env.actor)).toEqual([]);
  });

  it("an unknown migration type is a 422 naming the ones there are", async () => {
    await expect(
      env.larder.migrations.start(env.actor, { type: "cookbookapp", path: "/nonexistent" }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it("many recipes: each finds its own picture, the same URL and name twice is one recipe, a rerun skips all", async () => {
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c84" } })
      .png()
      .toBuffer();
    const zip = join(env.folder, "nc-many.zip");
    const specs = [];
    for (let i = 0; i < 60; i++) {
      const name = `Dish ${i}`;
      const json = {
        name,
        recipeIngredient: ["1 egg"],
        recipeInstructions: ["Cook."],
        url: `https://example.test/${i}`,
      };
      specs.push({ name: `${name}/recipe.json`, data: JSON.stringify(json) });
      // Every third recipe has a picture, in its own folder only.
      if (i % 3 === 0) specs.push({ name: `${name}/full.png`, data: png });
    }
    // The same page and name again, under another folder: not brought in twice.
    const twin = {
      name: "Dish 7",
      recipeIngredient: ["1 egg"],
      recipeInstructions: ["Cook."],
      url: "https://example.test/7",
    };
    specs.push({ name: "Dish 7 copy/recipe.json", data: JSON.stringify(twin) });
    await writeFile(zip, makeZip(specs));

    const first = await migrate("nextcloud", zip);
    expect(first.summary).toMatchObject({ imported: 60, skipped: 1, failed: 0 });
    expect(first.full.entries).toHaveLength(61);
    const recipes = env.larder.recipes.store.list("home").filter((e) => e.doc.name.startsWith("Dish "));
    expect(recipes).toHaveLength(60);
    for (const e of recipes) {
      const i = Number(e.doc.name.slice(5));
      expect(e.doc.image !== null, e.doc.name).toBe(i % 3 === 0);
    }
    // Every source key is on disk once the run is done.
    const noted = JSON.parse(
      readFileSync(join(env.larder.folder.groupDir("home"), "migrations.json"), "utf8"),
    ) as { sources: Record<string, string> };
    expect(Object.keys(noted.sources).filter((k) => k.startsWith("url:https://example.test/"))).toHaveLength(
      60,
    );

    const again = await migrate("nextcloud", zip);
    expect(again.summary).toMatchObject({ imported: 0, skipped: 61, failed: 0 });
  });

  it("two recipes of one name and no address in one archive both import; a rerun skips both", async () => {
    // Tandoor names each recipe's zip after the recipe, so two "Pancakes" give two entries of one name.
    const recipe = (ingredient: string) =>
      makeZip([
        {
          name: "recipe.json",
          data: JSON.stringify({
            name: "Pancakes",
            steps: [{ instruction: "Fry.", ingredients: [{ amount: 1, food: { name: ingredient } }] }],
          }),
        },
      ]);
    const zip = join(env.folder, "tandoor-twins.zip");
    await writeFile(
      zip,
      makeZip([
        { name: "Pancakes.zip", data: recipe("egg"), store: true },
        { name: "Pancakes.zip", data: recipe("banana"), store: true },
      ]),
    );
    const first = await migrate("tandoor", zip);
    expect(first.summary).toMatchObject({ imported: 2, skipped: 0, failed: 0 });
    const made = env.larder.recipes.store.list("home").map((e) => e.slug);
    expect(made.sort()).toEqual(["pancakes", "pancakes-1"]);
    const again = await migrate("tandoor", zip);
    expect(again.summary).toMatchObject({ imported: 0, skipped: 2, failed: 0 });
  });

  it("a recipe whose original URL and name are already here is skipped, whatever its source id", async () => {
    // Two apps' ids for one page: the second run's keys are new, the page and name are not.
    let run = 0;
    env.larder.plugins.register(
      definePlugin({
        kind: "migration",
        name: "twoapps",
        types: ["twoapps"],
        async *migrate() {
          run++;
          for (const i of [1, 2]) {
            const recipe = {
              name: `Page Dish ${i}`,
              orgURL: `https://example.test/page/${i}`,
              recipeIngredient: [],
            };
            yield { ok: true, name: recipe.name, imported: { recipe }, sourceId: `app${run}-${i}` };
          }
        },
      }),
    );
    expect((await migrate("twoapps", env.folder)).summary).toMatchObject({ imported: 2, skipped: 0 });
    const second = await migrate("twoapps", env.folder);
    expect(second.summary).toMatchObject({ imported: 0, skipped: 2 });
    expect(second.full.entries.map((e) => e.message)).toEqual([
      "Skipped Page Dish 1: already imported as page-dish-1",
      "Skipped Page Dish 2: already imported as page-dish-2",
    ]);
  });

  it("a long migration answers with the report in progress and fills it in the background", async () => {
    const own = fileURLToPath(new URL("./cooklang/fixture", import.meta.url));
    const seen: number[] = [];
    const { report, done } = await env.larder.migrations.start(env.actor, {
      type: "cooklang",
      path: own,
      foregroundMs: 0,
      onProgress: (p) => seen.push(p.done),
    });
    expect(report.status).toBe("in-progress");
    const summary = await done;
    expect(summary.imported).toBe(3);
    expect(seen).toEqual([1, 2, 3]);
    expect((await env.larder.reports.get(env.actor, report.id)).status).toBe("success");
  });
});
