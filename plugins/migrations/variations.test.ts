/**
 * What real exports vary in, replayed on small archives of our own: line ends and byte-order marks, fields left empty or null or written as
 * another type. Each case is what a user's archive from another app version,
 * tool or platform looks like; none is copied from a real export.
 */
import { describe, expect, it } from "vitest";
import { byName, collect, names, scratchFolder } from "./test-support.js";

const dir = scratchFolder("larder-migrate-variations-");

describe("fields empty, null, or of another type", () => {
  it("nextcloud: nulls everywhere, HTML in text, numbers as strings, a BOM and CRLF", async () => {
    const json = {
      name: "Bare",
      description: "<p>Good &amp; quick</p>",
      recipeIngredient: null,
      recipeInstructions: null,
      keywords: null,
      recipeCategory: null,
      tool: null,
      nutrition: null,
      recipeYield: "4",
      totalTime: "PT1H30M",
      prepTime: "15 min",
      dateCreated: 1600000000,
    };
    const text = `\uFEFF${JSON.stringify(json, null, 2).replace(/\n/g, "\r\n")}`;
    const r = byName(
      await collect("nextcloud", await dir.zip("nc-bare.zip", [{ name: "Bare/recipe.json", data: text }])),
    );
    const { recipe } = r.get("Bare")!;
    expect(recipe.description).toBe("Good & quick");
    expect(recipe.recipeIngredient).toEqual([]);
    expect(recipe.totalTime).toBe("1 hour 30 minutes");
    expect(recipe.prepTime).toBe("15 min");
  });

  it("mealie_alpha: nulls where lists are expected", async () => {
    const json = {
      name: "Bare",
      slug: "bare",
      recipe_ingredient: null,
      recipe_instructions: [null, { text: "Boil." }],
      tags: null,
      recipe_category: null,
      tools: null,
      notes: null,
      nutrition: null,
      extras: null,
    };
    const r = byName(
      await collect(
        "mealie_alpha",
        await dir.zip("alpha-bare.zip", [{ name: "recipes/bare/bare.json", data: JSON.stringify(json) }]),
      ),
    );
    expect(r.get("Bare")!.recipe.recipeInstructions.map((s) => s.text)).toEqual(["Boil."]);
  });

  it("paprika: nulls, numbers as strings, a photo that is not base64", async () => {
    const { gzipSync } = await import("node:zlib");
    const json = {
      name: "Odd",
      ingredients: null,
      directions: null,
      categories: null,
      rating: "4",
      servings: 2,
      photo_data: null,
      photos: null,
      nutritional_info: null,
      created: null,
    };
    const r = byName(
      await collect(
        "paprika",
        await dir.zip("paprika-odd.zip", [
          { name: "Odd.paprikarecipe", data: gzipSync(JSON.stringify(json)), store: true },
        ]),
      ),
    );
    expect(r.get("Odd")!.recipe).toMatchObject({ recipeYield: "2", rating: 4 });
  });

  it("myrecipebox and plantoeat: a BOM, CRLF line ends and empty optional cells", async () => {
    const mrb =
      '\uFEFFtitle,ingredients,instructions,tags,preparationTime\r\nToast,"1 slice\r\nbutter",,,\r\n';
    const r = byName(await collect("myrecipebox", await dir.file("mrb.csv", mrb)));
    expect(r.get("Toast")!.recipe.recipeIngredient.map((i) => i.note)).toEqual(["1 slice", "butter"]);
    const pte = '\uFEFFTitle,Ingredients,Directions,Servings\r\nJam,"1 jar",,\r\n';
    const p = byName(
      await collect("plantoeat", await dir.zip("pte.zip", [{ name: "export.csv", data: pte }])),
    );
    expect(p.get("Jam")!.recipe.recipeIngredient.map((i) => i.note)).toEqual(["1 jar"]);
  });

  it("chowdown and cooklang: a BOM and CRLF line ends in front matter and metadata", async () => {
    const md =
      "\uFEFF---\r\ntitle: Flatbread\r\ntags: bread, quick\r\nprep: 10 min\r\ningredients:\r\n- 200 g flour\r\ndirections:\r\n- Knead.\r\n---\r\nSoft.\r\n";
    const c = byName(
      await collect("chowdown", await dir.zip("chow-crlf.zip", [{ name: "_recipes/flat.md", data: md }])),
    );
    const flat = c.get("Flatbread")!.recipe;
    expect(flat.recipeIngredient.map((i) => i.note)).toEqual(["200 g flour"]);
    expect(names(flat.tags)).toEqual(["Bread", "Quick"]);
    expect(flat.prepTime).toBe("10 min");
    expect(flat.description).toBe("Soft.");
    const cook = "\uFEFF>> servings: 2\r\n>> time: 15\r\n\r\nBoil @water{1%l}.\r\n\r\nAdd @tea{2%bags}.\r\n";
    const k = byName(
      await collect("cooklang", await dir.zip("cook-crlf.zip", [{ name: "Tea.cook", data: cook }])),
    );
    const tea = k.get("Tea")!.recipe;
    expect(tea.recipeInstructions.map((st) => st.text)).toEqual(["Boil water.", "Add tea."]);
    expect(tea.recipeIngredient.map((i) => i.note)).toEqual(["1 l water", "2 bags tea"]);
  });

  it("copymethat: HTML entities and markup in names, notes and steps", async () => {
    const html = `<html><body><div class="recipe">
      <div id="name">Fish &amp; Chips</div>
      <ul id="recipeIngredients"><li class="recipeIngredient">1 <b>fish</b></li></ul>
      <ol id="recipeInstructions"><li class="instruction">Fry&nbsp;it.<br>Serve.</li></ol>
      <div class="recipeNote">Use <i>cod</i>.</div>
    </div></body></html>`;
    const r = byName(
      await collect("copymethat", await dir.zip("cmt-html.zip", [{ name: "recipes.html", data: html }])),
    );
    const fish = r.get("Fish & Chips")!.recipe;
    expect(fish.recipeIngredient.map((i) => i.note)).toEqual(["1 fish"]);
    expect(fish.recipeInstructions.map((st) => st.text)).toEqual(["Fry it.\nServe."]);
    expect(fish.notes).toEqual([{ title: "", text: "Use cod." }]);
  });

  it("nextcloud: yield as a number, keywords as one string, times as minutes in words", async () => {
    const json = {
      name: "Rice",
      recipeYield: 4,
      keywords: "side, quick",
      cookTime: "PT20M",
      totalTime: "20 minutes",
    };
    const r = byName(
      await collect(
        "nextcloud",
        await dir.zip("nc-types.zip", [{ name: "Rice/recipe.json", data: JSON.stringify(json) }]),
      ),
    );
    const rice = r.get("Rice")!.recipe;
    expect(rice.recipeYield).toBe("4");
    expect(names(rice.tags)).toEqual(["Side", "Quick"]);
    expect(rice.performTime).toBe("20 minutes");
    expect(rice.totalTime).toBe("20 minutes");
  });

  it("chowdown: a picture named in front matter in another case than the file is found", async () => {
    const md = "---\ntitle: Tart\nimage: Tart.JPG\n---\n";
    const r = byName(
      await collect(
        "chowdown",
        await dir.zip("chow-case.zip", [
          { name: "_recipes/tart.md", data: md },
          { name: "images/tart.jpg", data: "jpeg" },
        ]),
      ),
    );
    expect(r.get("Tart")!.entry.imported.image).toMatchObject({ bytes: Buffer.from("jpeg") });
  });
});
