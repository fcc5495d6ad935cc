/**
 * The CopyMeThat reader on exports written here: several recipes in one recipes.html, headings as `li`
 * and as `div` inside the lists, a step continued over two items, entities and markup inside the text,
 * a URL-encoded picture name, a picture that is missing, and a picture that cannot be read.
 */
import { describe, expect, it } from "vitest";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { byName, collect, imageBytes, names, picture, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-copymethat-");
const soupJpeg = await picture("jpeg", 24, 16, "#b5651d");
const crepesJpeg = await picture("jpeg", 16, 16, "#f3e5ab");

function page(...recipes: string[]): string {
  return `<!DOCTYPE html>
<head>
<meta http-equiv="Content-Type" content="text/html;charset=UTF-8">
<meta name="copymethat_class_id_version" content="2">
</head>
<html>
<body>
${recipes.join("\n")}
</body>
</html>
`;
}

const lentilSoup = `<div class = "recipe">
<div id = "name">
    Lentil Soup
</div>
<div id = "link">
    Adapted from <a id = "original_link" href = "https://example.org/lentil-soup">https://example.org/lentil-soup</a>
</div>
<img class= "recipeImage" src = "images/lentil_soup_ab12c.jpg" width="120px"/>
<div id = "description">
    Warming &amp; cheap.<br>Better the next day.
</div>
<div id = "categories">
<span>Tags: </span>
    <span class = "recipeCategory">soup</span><span> </span>
    <span class = "recipeCategory">vegetarian</span><span> </span>
</div>
<div id = "extra_info">
    <span id="made_this"> I made this. </span>
    <span id="rating">Rated <span id = "ratingValue">4</span>/5</span>
</div>
<div id = "servings">
    Servings: <a id="recipeYield">4</a>
</div>
    <ul id = "recipeIngredients">
        <li class= "recipeIngredient recipeIngredient_subheader">
            For the soup
        </li>
        <li class= "recipeIngredient">
            250 g brown lentils
        </li>
        <li class= "recipeIngredient">
            1 onion, <b>finely</b> diced
        </li>
        <li class= "recipeIngredient_note">
            (red lentils cook faster)
        </li>
        <div class= "recipeIngredient_spacer"></div>
        <li class= "recipeIngredient recipeIngredient_subheader">
            To serve
        </li>
        <li class= "recipeIngredient">
            Greek yoghurt
        </li>
    </ul>
    <ol id = "recipeInstructions">
        <div class="instruction instruction_subheader">Cook:</div>
        <li class = "instruction" value = "1">
            Soften the onion in a &quot;good&quot; glug of oil.
        </li>
        <li class = "instruction_next">
            Don&#39;t let it brown.
        </li>
        <li class = "instruction" value = "2">
            Add the lentils and 1.5 l stock;<br>simmer 35 minutes.
        </li>
        <div class="instruction instruction_subheader">Serve:</div>
        <li class = "instruction" value = "1">
            Top with yoghurt.
        </li>
    </ol>
    <ul id = "recipeNotes">
        <li class = "recipeNote">
           Freezes well.
        </li>
        <li class = "recipeNote">
           Use <i>smoked</i> paprika<br>for a deeper taste.
        </li>
    </ul>
</div>`;

// No source link, no rating, no made-this; the picture's name is URL-encoded; servings without a link.
const crepes = `<div class = "recipe">
<div id = "name">
    Crêpes au sucre
</div>
<img class= "recipeImage" src = "images/cr%C3%AApes_au_sucre_x1y2z.jpg" width="120px"/>
<div id = "servings">
    Servings: 12 crêpes
</div>
    <ul id = "recipeIngredients">
        <li class= "recipeIngredient">250 g farine</li>
        <li class= "recipeIngredient">3 œufs</li>
        <li class= "recipeIngredient">500 ml lait</li>
    </ul>
    <ol id = "recipeInstructions">
        <li class = "instruction" value = "1">Whisk and rest for an hour.</li>
        <li class = "instruction" value = "2">Cook thin crêpes; sprinkle with sugar.</li>
    </ol>
</div>`;

// Its picture is not in the archive; prep and cook times as the page marks them.
const salad = `<div class = "recipe">
<div id = "name">Tomato Salad</div>
<div id = "link">Adapted from <a id = "original_link" href = "https://example.org/tomato-salad">https://example.org/tomato-salad</a></div>
<img class= "recipeImage" src = "images/tomato_salad_q9w8e.jpg" width="120px"/>
<div id = "times">Prep: <span meta="prepTime">PT10M</span> Cook: <span meta="cookTime">PT1H5M</span></div>
    <ul id = "recipeIngredients">
        <li class= "recipeIngredient">4 ripe tomatoes</li>
        <li class= "recipeIngredient">olive oil, salt</li>
    </ul>
    <ol id = "recipeInstructions">
        <li class = "instruction" value = "1">Slice, season, dress.</li>
    </ol>
</div>`;

const plumCake = `<div class = "recipe">
<div id = "name">Plum Cake</div>
<img class= "recipeImage" src = "images/plum_cake_k3j4h.jpg" width="120px"/>
    <ul id = "recipeIngredients"><li class= "recipeIngredient">6 plums</li></ul>
    <ol id = "recipeInstructions"><li class = "instruction" value = "1">Bake.</li></ol>
</div>`;

describe("copymethat reader on Larder's own exports", () => {
  it("reads every recipe of recipes.html with its sections, continued steps, tags, rating, notes and picture", async () => {
    const path = await scratch.zip("copymethat.zip", [
      { name: "recipes.html", data: page(lentilSoup, crepes, salad) },
      { name: "images/lentil_soup_ab12c.jpg", data: soupJpeg, store: true },
      { name: "images/crêpes_au_sucre_x1y2z.jpg", data: crepesJpeg, store: true },
    ]);
    const r = byName(await collect("copymethat", path));
    expect([...r.keys()]).toEqual(["Lentil Soup", "Crêpes au sucre", "Tomato Salad"]);

    const soup = r.get("Lentil Soup")!;
    expect(soup.recipe.recipeIngredient).toEqual([
      { title: "For the soup", note: "250 g brown lentils" },
      { title: null, note: "1 onion, finely diced" },
      { title: null, note: "(red lentils cook faster)" },
      { title: "To serve", note: "Greek yoghurt" },
    ]);
    expect(soup.recipe.recipeInstructions).toEqual([
      { title: "Cook:", text: 'Soften the onion in a "good" glug of oil.\nDon\'t let it brown.' },
      { title: "", text: "Add the lentils and 1.5 l stock;\nsimmer 35 minutes." },
      { title: "Serve:", text: "Top with yoghurt." },
    ]);
    expect(soup.recipe.description).toBe("Warming & cheap.\nBetter the next day.");
    expect(names(soup.recipe.tags)).toEqual(["Soup", "Vegetarian"]);
    expect(soup.recipe.rating).toBe(4);
    expect(Number.isNaN(Date.parse(soup.recipe.lastMade as string))).toBe(false);
    expect(soup.recipe.recipeYield).toBe("4");
    expect(soup.recipe.notes).toEqual([
      { title: "", text: "Freezes well." },
      { title: "", text: "Use smoked paprika\nfor a deeper taste." },
    ]);
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(soup.entry.sourceId).toBe("https://example.org/lentil-soup");
    expect(Buffer.from(imageBytes(soup.entry)!).equals(soupJpeg)).toBe(true);

    const c = r.get("Crêpes au sucre")!;
    expect(c.recipe.recipeIngredient.map((i) => i.note)).toEqual(["250 g farine", "3 œufs", "500 ml lait"]);
    expect(c.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Whisk and rest for an hour.",
      "Cook thin crêpes; sprinkle with sugar.",
    ]);
    expect(c.recipe.recipeYield).toBe("12 crêpes");
    expect(c.recipe.rating).toBeUndefined();
    expect(c.recipe.lastMade).toBeUndefined();
    expect(c.recipe.tags).toEqual([]);
    expect(c.recipe.orgURL).toBeNull();
    expect(c.entry.sourceId).toBe("copymethat:Crêpes au sucre");
    expect(Buffer.from(imageBytes(c.entry)!).equals(crepesJpeg)).toBe(true);

    const s = r.get("Tomato Salad")!;
    expect(s.recipe.prepTime).toBe("10 minutes");
    expect(s.recipe.performTime).toBe("1 hour 5 minutes");
    expect(s.recipe.recipeYield).toBe("");
    expect(imageBytes(s.entry)).toBeNull();
    expect(s.entry.imported.image).toBeUndefined();
  });

  it("reads an export re-zipped inside a folder, with a Mac's decomposed picture names and junk files", async () => {
    const path = await scratch.zip("wrapped.zip", [
      { name: "CopyMeThat export/recipes.html", data: page(crepes) },
      { name: "CopyMeThat export/images/cre\u0302pes_au_sucre_x1y2z.jpg", data: crepesJpeg, store: true },
      { name: "__MACOSX/CopyMeThat export/._recipes.html", data: "junk" },
    ]);
    const c = byName(await collect("copymethat", path)).get("Crêpes au sucre")!;
    expect(Buffer.from(imageBytes(c.entry)!).equals(crepesJpeg)).toBe(true);
  });

  it("a recipe whose picture cannot be read comes in without it, saying why; the others import", async () => {
    const path = await scratch.zip("broken.zip", [
      { name: "recipes.html", data: page(plumCake, lentilSoup) },
      // The entry claims fewer bytes than it holds: reading it stops with an error.
      { name: "images/plum_cake_k3j4h.jpg", data: soupJpeg, declaredSize: 10 },
      { name: "images/lentil_soup_ab12c.jpg", data: soupJpeg, store: true },
    ]);
    const entries = await collect("copymethat", path);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ ok: true, name: "Plum Cake" });
    expect(imageBytes(entries[0] as Extract<MigratedEntry, { ok: true }>)).toBeNull();
    expect(entries[0].ok && entries[0].warnings).toEqual([
      expect.stringMatching(
        /^its picture images\/plum_cake_k3j4h\.jpg was not kept \(Entry 'images\/plum_cake_k3j4h\.jpg' of the archive cannot be read \(/,
      ),
    ]);
    expect(entries[1]).toMatchObject({ ok: true, name: "Lentil Soup" });
  });

  it("an archive without recipes.html, or with no recipe in it, is refused as the wrong type", async () => {
    const none = await scratch.zip("none.zip", [{ name: "images/x.jpg", data: soupJpeg }]);
    await expect(collect("copymethat", none)).rejects.toThrow(/not a CopyMeThat export: no recipes\.html/);
    const empty = await scratch.zip("empty.zip", [{ name: "recipes.html", data: page() }]);
    await expect(collect("copymethat", empty)).rejects.toThrow(/recipes\.html holds no recipe/);
  });
});
