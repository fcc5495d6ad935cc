import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importPage, inspectPage } from "./scrape.js";
import { toMinutes, toYields, cleanText, titleCase, formatMinutes, toSteps } from "./normalise.js";
import { parseJsonLoose } from "./extract.js";
import type { PluginContext } from "../../../core/plugins/kinds.js";
import { BadRecipeDataError } from "../../../core/imports/errors.js";

const page = (name: string) =>
  readFileSync(new URL(`../../../tests/fixtures/recipe-pages/${name}`, import.meta.url), "utf8");
const ctx = {} as PluginContext;
const read = async (name: string, url = "https://example.test/recipe") =>
  (await importPage({ type: "html", html: page(name), url }, ctx))[0];

describe("schema-org importer on small pages", () => {
  it("reads JSON-LD in an @graph: @id image, sections flattened with their headings, times, yields, entities and HTML", async () => {
    const { recipe, image } = await read("jsonld-graph.html");
    expect(recipe.name).toBe("Red Lentil Soup & Lemon");
    expect(recipe.description).toBe("A warming soup. Ready fast.");
    expect((recipe.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual([
      "1 cup red lentils (rinsed)",
      "2 carrots, diced",
      "1 lemon",
    ]);
    // A section's heading is the title of its first step.
    expect(
      (recipe.recipeInstructions as { text: string; title: string }[]).map((s) => [s.title, s.text]),
    ).toEqual([
      ["For the soup", "Soften the carrots & onion."],
      ["", "Add the lentils and simmer."],
      ["To serve", "Squeeze over the lemon."],
    ]);
    // No totalTime on the page: prep + cook.
    expect(recipe.totalTime).toBe("1 hour 25 minutes");
    expect(recipe.prepTime).toBe("15 minutes");
    expect(recipe.performTime).toBe("1 hour 10 minutes");
    expect(recipe.recipeYield).toBe("4 bowls");
    expect(recipe.tags).toEqual(["Soup", "Lentils", "Weeknight"]);
    expect(recipe.recipeCategory).toEqual(["Dinner"]);
    expect(recipe.nutrition).toEqual({ calories: "250", sodiumContent: "1200" });
    // The schema's 1200×800 image beats the page's 300×200 og:image; the favicon is never a candidate.
    expect(image).toEqual({ url: "https://cdn.example.test/lentil-1200x800.jpg" });
    expect(recipe.orgURL).toBe("https://example.test/recipe");
  });

  it("reads a Recipe under mainEntity in a JSON-LD array, with a type array and steps as one string", async () => {
    const { recipe, image } = await read("jsonld-mainentity.html");
    expect(recipe.name).toBe("Crêpes Suzette");
    expect(recipe.totalTime).toBe("45 minutes");
    expect(recipe.recipeYield).toBe("12 pancakes");
    expect((recipe.recipeInstructions as { text: string }[]).map((s) => s.text)).toEqual([
      "Whisk everything.",
      "Rest the batter.",
      "Cook thin crêpes.",
    ]);
    expect(image).toEqual({ url: "https://img.example.test/crepes.jpg" });
  });

  it("reads microdata when there is no JSON-LD", async () => {
    const { recipe, image } = await read("microdata.html");
    expect(recipe.name).toBe("Cheese Scones");
    expect((recipe.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual([
      "225 g self-raising flour",
      "55 g butter",
      "100 g cheddar",
    ]);
    expect((recipe.recipeInstructions as { text: string }[]).map((s) => s.text)).toEqual([
      "Rub the butter into the flour.",
      "Stir in the cheese and milk.",
      "Bake until golden.",
    ]);
    expect(recipe.totalTime).toBe("22 minutes");
    expect(recipe.recipeYield).toBe("8 scones");
    expect(image).toEqual({ url: "https://img.example.test/scones.jpg" });
  });

  it("falls back to OpenGraph as Mealie does", async () => {
    const { recipe } = await read("opengraph-only.html");
    expect(recipe.name).toBe("Grandma's Apple Pie");
    expect(recipe.description).toBe("The one everybody asks for.");
    expect((recipe.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual([
      "Could not detect ingredients",
    ]);
    expect(recipe.tags).toEqual(["Baking"]);
  });

  it("refuses a page with no recipe and a page whose JSON-LD is broken, with BAD_RECIPE_DATA", async () => {
    for (const name of ["no-recipe.html", "malformed-jsonld.html"]) {
      const err = await read(name).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadRecipeDataError);
      expect((err as BadRecipeDataError).body()).toEqual({ detail: { details: "BAD_RECIPE_DATA" } });
    }
  });

  it("reads a block of steps as the browser shows it: a line the page's source wrapped is no step of its own", async () => {
    // The shape of a real page: the microdata property on a box whose heading and paragraph the markup
    // reader takes over from the schema's one string.
    const html = `<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Strogonoff</h1>
      <ul><li itemprop="recipeIngredient">300 g cogumelos</li><li itemprop="recipeIngredient">1 cebola</li></ul>
      <div class="box-modo-preparo" itemprop="recipeInstructions"><h3>Modo de Preparo</h3><div class="box-preparo">
      <p>Em uma panela com o azeite, refogue a cebola e o alho até que a cebola comece a murchar. Junte os
cogumelos, o limão, e o catchup. Cozinhe por 5 a 10 minutos. Adicione o caldo e cozinhe por mais 5
minutos. Sirva com arroz.
</p></div></div></div>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect((recipe.recipeInstructions as { text: string }[]).map((st) => st.text)).toEqual([
      "Em uma panela com o azeite, refogue a cebola e o alho até que a cebola comece a murchar. Junte os cogumelos, o limão, e o catchup. Cozinhe por 5 a 10 minutos. Adicione o caldo e cozinhe por mais 5 minutos. Sirva com arroz.",
    ]);
  });

  it("reads microdata steps as the browser shows them: the source's wrapped lines joined, the block's heading left out", async () => {
    const steps = async (body: string) => {
      const html = `<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Stroganoff</h1>
        <span itemprop="recipeIngredient">300 g mushrooms</span>
        <div itemprop="recipeInstructions">${body}</div></div>`;
      const [{ recipe }] = await importPage({ type: "html", html }, ctx);
      return (recipe.recipeInstructions as { text: string }[]).map((st) => st.text);
    };
    expect(
      await steps(`<h3>Modo de Preparo</h3><p>Em uma panela com o azeite, refogue a cebola e o alho até que a cebola comece a murchar. Junte os
cogumelos, o limão, e o catchup. Cozinhe por 5 a 10 minutos.</p><p>Sirva com arroz.</p>`),
    ).toEqual([
      "Em uma panela com o azeite, refogue a cebola e o alho até que a cebola comece a murchar. Junte os cogumelos, o limão, e o catchup. Cozinhe por 5 a 10 minutos.",
      "Sirva com arroz.",
    ]);
    // Lines that end their sentence, or are short, are the page's own lines.
    expect(
      await steps("Brown the onions in the butter.\nadd the mushrooms and stir.\nsimmer\nserve"),
    ).toEqual(["Brown the onions in the butter.", "add the mushrooms and stir.", "simmer", "serve"]);
    // A heading alone is left as it was: it is then the only thing the page gave.
    expect(await steps("<h3>Method</h3>")).toEqual(["Method"]);
  });

  it("keeps punctuation with the word before it when microdata text is pieced together", async () => {
    const html = `<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Mama</h1>
      <span itemprop="recipeIngredient">6 cl rum</span><span itemprop="recipeIngredient">ice</span>
      <p itemprop="recipeInstructions">Pour it all into a <a href="/shaker">shaker</a>.</p></div>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect((recipe.recipeInstructions as { text: string }[])[0].text).toBe("Pour it all into a shaker.");
  });

  it("names a schema.org recipe that has no name by the page's heading or <title>, never empty", async () => {
    const ld = JSON.stringify({
      "@context": "https://schema.org",
      "@type": "Recipe",
      recipeIngredient: ["1 egg"],
      recipeInstructions: ["Boil it for seven minutes."],
    });
    const named = async (head: string, body: string) => {
      const html = `<html><head>${head}<script type="application/ld+json">${ld}</script></head><body>${body}</body></html>`;
      return (await importPage({ type: "html", html, url: "https://eggsite.test/egg" }, ctx))[0].recipe.name;
    };
    expect(await named("<title>Boiled Egg | Eggsite</title>", "<h1>Soft Boiled Egg</h1>")).toBe(
      "Soft Boiled Egg",
    );
    expect(await named("<title>Boiled Egg | Eggsite</title>", "")).toBe("Boiled Egg");
    expect(await named('<meta property="og:title" content="Egg, Boiled">', "<h1>Breakfast</h1>")).toBe(
      "Egg, Boiled",
    );
  });

  it("reads a page without schema.org from its markup, titled by og:title or its heading", async () => {
    const body = `<h1>Lemon Tart</h1><h2>Ingredients</h2><ul><li>200 g flour</li><li>3 lemons</li></ul>
      <h2>Method</h2><ol><li>Make the pastry and chill it.</li><li>Fill it and bake until set.</li></ol>`;
    const [{ recipe }] = await importPage({ type: "html", html: `<html><body>${body}</body></html>` }, ctx);
    expect(recipe.name).toBe("Lemon Tart");
    expect((recipe.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual([
      "200 g flour",
      "3 lemons",
    ]);
    expect((recipe.recipeInstructions as { text: string }[]).map((s) => s.text)).toEqual([
      "Make the pastry and chill it.",
      "Fill it and bake until set.",
    ]);
    // OpenGraph's title wins, and a page with only one of the two lists keeps Mealie's placeholder for the other.
    const og = `<html><head><meta property="og:title" content="Tart"></head><body><h2>Ingredients</h2><ul><li>1 egg</li><li>2 lemons</li></ul></body></html>`;
    const [{ recipe: r2 }] = await importPage({ type: "html", html: og }, ctx);
    expect(r2.name).toBe("Tart");
    expect((r2.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual(["1 egg", "2 lemons"]);
    expect((r2.recipeInstructions as { text: string }[]).map((s) => s.text)).toEqual([
      "Could not detect instructions",
    ]);
  });

  it("reads the paragraphs after the ingredients as the steps when nothing names them", async () => {
    const article = `<h1>Smoked Ribs</h1><div class="article-body">
      <p>Ingredients</p><ul><li>1 rack of ribs</li><li>1 cup brown sugar</li></ul>
      <p>Optional</p><ul><li>Your favourite sauce</li></ul>
      <p>Heat the smoker to 135 °C with hickory wood.</p>
      <p>Take the membrane off the back of the rack. <meta charset="utf-8">It comes away with a paper towel.</p>
      <div><img src="/r.jpg" alt="ribs"></div>
      <p><img src="/r2.jpg" alt="ribs"><br>Smoke the ribs until they are a deep mahogany colour.</p>
      </div><div class="share"><ul><li><a href="/fb">Facebook</a></li><li><a href="/x">X</a></li></ul></div>`;
    const [{ recipe }] = await importPage(
      { type: "html", html: `<html><body>${article}</body></html>` },
      ctx,
    );
    expect((recipe.recipeInstructions as { text: string }[]).map((s) => s.text)).toEqual([
      "Heat the smoker to 135 °C with hickory wood.",
      "Take the membrane off the back of the rack. It comes away with a paper towel.",
      "Smoke the ribs until they are a deep mahogany colour.",
    ]);
    // One sentence after the list is not a method read from nowhere.
    const one = `<head><meta property="og:title" content="Toast"></head><h1>Toast</h1><div><p>Ingredients</p><ul><li>2 slices bread</li><li>butter</li></ul><p>Thanks for reading, see you next week!</p></div>`;
    const [{ recipe: r2 }] = await importPage(
      { type: "html", html: `<html><body>${one}</body></html>` },
      ctx,
    );
    expect((r2.recipeInstructions as { text: string }[]).map((s) => s.text)).toEqual([
      "Could not detect instructions",
    ]);
  });

  it("reads a group heading the schema lists among the ingredients as the title of the next, not as an ingredient", async () => {
    const ld = {
      "@type": "Recipe",
      name: "Rolls",
      recipeIngredient: [
        "12 ounces ground chicken",
        "DIPPING SAUCE:",
        "1/4 cup soy sauce",
        "For the topping",
        "1 tbsp sesame seeds",
        "Salt: to taste",
        "2 cups flour:",
      ],
    };
    const html = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect(recipe.recipeIngredient).toEqual([
      { note: "12 ounces ground chicken", title: null },
      { note: "1/4 cup soy sauce", title: "DIPPING SAUCE" },
      { note: "1 tbsp sesame seeds", title: "For the topping" },
      // A colon inside a line, or after a quantity, is an ingredient's own.
      { note: "Salt: to taste", title: null },
      { note: "2 cups flour:", title: null },
    ]);
  });

  it("takes the page's list over JSON-LD that split its lines at the commas, and keeps the markup's groups", async () => {
    const ld = {
      "@type": "Recipe",
      name: "Meatballs",
      recipeIngredient: ["250 g beef", "in pieces", "1 egg"],
    };
    const html = `<script type="application/ld+json">${JSON.stringify(ld)}</script>
      <div class="recipe-ingredients"><h4>Balls</h4><ul><li>250 g beef, in pieces</li><li>1 egg</li></ul></div>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect(recipe.recipeIngredient).toEqual([
      { note: "250 g beef, in pieces", title: "Balls" },
      { note: "1 egg", title: null },
    ]);
  });

  it("reads the amount beside a microdata ingredient that marks up only the food, from its list item", async () => {
    const html = `<section itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Harbour Punch</h1>
      <ul class="ingredients">
        <li><span> 4 cl <a href="/i/rum"><span itemprop="recipeIngredient">Dark rum</span></a></span></li>
        <li><span> 1 dash <a href="/i/bitters"><span itemprop="recipeIngredient">Bitters</span></a></span></li>
        <li class="separator">Suggested brand</li>
        <li><a href="/i/spiced"><span itemprop="recipeIngredient">Spiced rum</span></a></li>
        <li>2 <span itemprop="recipeIngredient">limes</span> or <span itemprop="recipeIngredient">lemons</span></li>
      </ul>
      <p itemprop="recipeInstructions">Shake with ice.</p></section>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect((recipe.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual([
      "4 cl Dark rum",
      "1 dash Bitters",
      // Nothing beside it: the food alone.
      "Spiced rum",
      // Two ingredients in one item: each as marked up, since the item's amount is not either's alone.
      "limes",
      "lemons",
    ]);
  });

  it("reads ingredients a page writes as HTML in one property, a line each, with the lines in capitals as group headings", async () => {
    const lines =
      "<p><b>DRESSING (whisk, then chill)</b><br> 1/2 cup yogurt<br> 1 tablespoon lime juice</p>" +
      "<p><b>SALAD</b><br> <b>2 chicken breasts</b><br> 4 cups cooked rice<br> 1/2 cup sliced spring onion</p>";
    const html = `<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Rice Salad</h1>
      <meta itemprop="recipeIngredient" content="${lines.replace(/"/g, "&quot;")}">
      <div class="ingredients">${lines}</div>
      <div itemprop="recipeInstructions">Mix the dressing and fold it through.</div></div>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect(recipe.recipeIngredient).toEqual([
      { note: "1/2 cup yogurt", title: "DRESSING (whisk, then chill)" },
      { note: "1 tablespoon lime juice", title: null },
      { note: "2 chicken breasts", title: "SALAD" },
      { note: "4 cups cooked rice", title: null },
      { note: "1/2 cup sliced spring onion", title: null },
    ]);
  });

  it("leaves out the bullets a page writes into its ingredient lines, and a zero for no amount", async () => {
    const ld = {
      "@type": "Recipe",
      name: "Leek Gratin",
      recipeIngredient: [
        "- 300 g leeks",
        "• 1 cup cream",
        "* 50 g cheese",
        "-1 pinch nutmeg",
        "0 As required salt",
        "0.5 l milk",
      ],
    };
    const html = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect((recipe.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual([
      "300 g leeks",
      "1 cup cream",
      "50 g cheese",
      // No space after it: not a bullet.
      "-1 pinch nutmeg",
      // A zero where the site's form had no amount says nothing.
      "As required salt",
      "0.5 l milk",
    ]);
  });

  it("reads ingredients a schema lists as one list per group, and an item holding several lines, a line each", async () => {
    const ld = {
      "@type": "Recipe",
      name: "Chicken Bake",
      recipeIngredient: [
        ["2 tbsp oil", "1 kg chicken"],
        ["5 potatoes", "2 tbsp butter"],
        "¼ cup lemon juice\n½ cup olive oil\nKosher salt and black pepper",
        // A break inside one ingredient is the page's wrapping, not a second line.
        "2 cups\nflour, sifted",
      ],
    };
    const html = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect((recipe.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual([
      "2 tbsp oil",
      "1 kg chicken",
      "5 potatoes",
      "2 tbsp butter",
      "¼ cup lemon juice",
      "½ cup olive oil",
      "Kosher salt and black pepper",
      "2 cups flour, sifted",
    ]);
  });

  it("takes the amounts from the page's ingredient rows when the schema lists only the foods", async () => {
    const ld = {
      "@type": "Recipe",
      name: "Glazed Popcorn",
      recipeIngredient: ["popcorn kernels", "butter", "brown sugar"],
      recipeInstructions: [{ "@type": "HowToStep", text: "Pop the corn, then glaze it." }],
    };
    const row = (amount: string, food: string) =>
      `<div class="x-calc__ingredient"><div class="x-calc__ingredient__amount">${amount}</div><div class="x-calc__ingredient__label">${food}</div></div>`;
    const html = `<script type="application/ld+json">${JSON.stringify(ld)}</script>
      <div class="x-calc"><p>Ingredients</p><div class="x-calc__content">
        ${row("½ cup", "popcorn kernels")}${row("2 tbsp", "butter")}${row("3 tbsp", "brown sugar")}
      </div></div>
      <div class="x-method__step"><p class="x-method__step__ingredients"><b>½ cup </b>
          popcorn kernels
          – <b>2 tbsp </b>
          butter
        </p><p>Pop the corn, then glaze it.</p></div>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect((recipe.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual([
      "½ cup popcorn kernels",
      "2 tbsp butter",
      "3 tbsp brown sugar",
    ]);
  });

  it("drops the site's name and a rating from a title, and prefers the page's heading that the og:title only decorates", async () => {
    const page = (title: string, head = "") =>
      `<html><head><meta property="og:title" content="${title}"><meta property="og:site_name" content="Choose Homemade">
       <link rel="canonical" href="https://www.kellyscleankitchen.com/tacos/"></head><body>${head}</body></html>`;
    const name = async (html: string) => (await importPage({ type: "html", html }, ctx))[0].recipe.name;
    expect(await name(page("Fresca Street Tacos | Choose Homemade"))).toBe("Fresca Street Tacos");
    expect(await name(page("Fondant Sweet Potatoes - Kelly's Clean Kitchen"))).toBe("Fondant Sweet Potatoes");
    expect(await name(page("Mac - The Best"))).toBe("Mac - The Best");
    expect(await name(page("Lemon Meringue Tartlets Recipe - (4.8/5)"))).toBe(
      "Lemon Meringue Tartlets Recipe",
    );
    expect(await name(page("Stew (9/10)"))).toBe("Stew");
    expect(await name(page("(4/5)"))).toBe("(4/5)");
    expect(await name(page("WINGS (NAM YUE) │ AMAZING │ RECIPES", "<h1>Wings</h1>"))).toBe("Wings");
  });

  it("adds up the preparation and cooking times when the schema's total time is broken (negative)", async () => {
    const ld = {
      "@type": "Recipe",
      name: "Biscuits",
      recipeIngredient: ["2 cups flour"],
      prepTime: "PT40M",
      cookTime: "PT20M",
      totalTime: "PT-476070H19M32S",
    };
    const html = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect(recipe.totalTime).toBe("1 hour");
    expect(recipe.prepTime).toBe("40 minutes");
  });

  it("reads a page's steps without the labels that number them", async () => {
    const steps = async (items: string[]) => {
      const html = `<h1>Brownies</h1><div class="ingredients"><ul><li>1 cup flour</li><li>2 eggs</li></ul></div>
        <div class="instructions"><ul>${items.map((i) => `<li>${i}</li>`).join("")}</ul></div>`;
      const [{ recipe }] = await importPage({ type: "html", html }, ctx);
      return (recipe.recipeInstructions as { text: string }[]).map((st) => st.text);
    };
    // The label in an element of its own (eggs.ca), in English or another language.
    expect(
      await steps([
        "<div>Step 1</div><p>Preheat the oven to 180 °C.</p>",
        "<div>Step 2</div><p>Melt the butter and stir in the cocoa.</p>",
      ]),
    ).toEqual(["Preheat the oven to 180 °C.", "Melt the butter and stir in the cocoa."]);
    expect(
      await steps(["<b>Schritt 1:</b> Den Ofen vorheizen.", "<b>Schritt 2:</b> Die Butter schmelzen."]),
    ).toEqual(["Den Ofen vorheizen.", "Die Butter schmelzen."]);
    // Bare numbers, 1, 2, 3 in order, are labels too.
    expect(
      await steps(["<span>1</span> Thread the fruit on skewers.", "<span>2</span> Puree the strawberries."]),
    ).toEqual(["Thread the fruit on skewers.", "Puree the strawberries."]);
    // A number that is not each step's own stays: it is a quantity.
    expect(await steps(["2 eggs go in first, one at a time.", "Fold in the flour gently."])).toEqual([
      "2 eggs go in first, one at a time.",
      "Fold in the flour gently.",
    ]);
  });

  it("reads times and servings from the page when the schema has none, and keeps an image URL as written", async () => {
    const ld = {
      "@type": "Recipe",
      name: "Tacos",
      recipeIngredient: ["1 tortilla"],
      image: "https://img.example.test/Jalapen\u0303o-Tacos.jpg",
    };
    const html = `<script type="application/ld+json">${JSON.stringify(ld)}</script>
      <ul><li>Prep time: 10 mins</li><li>Cook time: 20 mins</li><li>Serves: 4</li></ul>`;
    const [{ recipe, image }] = await importPage({ type: "html", html }, ctx);
    expect(recipe.totalTime).toBe("30 minutes");
    expect(recipe.recipeYield).toBe("4 servings");
    expect(image).toEqual({ url: "https://img.example.test/Jalapen\u0303o-Tacos.jpg" });
  });

  it("takes the dish's picture from the markup when neither the schema nor the meta tags name one", async () => {
    const body = `<h1>Fruit Skewers</h1><img src="/images/logo.png" alt="Site">
      <h3>Ingredients</h3><ul><li>1 cup strawberries</li><li>1 tangerine</li><li>2 tbsp honey</li><li>1/4 cup yogurt</li></ul>
      <img class="recipe_image" src="/images/food/Fruit_Skewers.jpg" alt="Photograph of the completed recipe.">
      <h3>Directions</h3><ol><li>Cut the fruit into pieces.</li><li>Thread it onto the skewers.</li><li>Whisk the yogurt with the honey.</li></ol>`;
    const imageOf = async (head: string, html = body) =>
      (
        await importPage(
          {
            type: "html",
            html: `<html><head><title>Fruit Skewers</title>${head}</head><body>${html}</body></html>`,
            url: "https://example.test/r/1",
          },
          ctx,
        )
      )[0].image;
    expect(await imageOf("")).toEqual({ url: "https://example.test/images/food/Fruit_Skewers.jpg" });
    // An og:image still wins; a page whose images do not say they show the dish gets none.
    expect(await imageOf(`<meta property="og:image" content="https://img.example.test/og.jpg">`)).toEqual({
      url: "https://img.example.test/og.jpg",
    });
    expect(await imageOf("", body.replace(/ class="recipe_image"| alt="Photograph[^"]*"/g, ""))).toBeFalsy();
  });

  it("reads schema.org JSON given as such", async () => {
    const [r] = await importPage(
      { type: "json", json: { "@type": "Recipe", name: "From JSON", recipeIngredient: ["1 egg"] } },
      ctx,
    );
    expect(r.recipe.name).toBe("From JSON");
  });

  it("shows what it read for the scrape test", async () => {
    const view = (await inspectPage({ type: "html", html: page("jsonld-graph.html") }, ctx)) as Record<
      string,
      unknown
    >;
    expect(view.name).toBe("Red Lentil Soup & Lemon");
    expect(view.totalTime).toBe("PT85M");
  });
});

describe("normalising schema.org values", () => {
  it("turns durations and written times into minutes", () => {
    expect(toMinutes("PT1H30M")).toBe(90);
    expect(toMinutes("P1DT2H")).toBe(1560);
    expect(toMinutes("PT0S")).toBeNull();
    // Negative or past a year: broken values (a real page gave the first), not times.
    expect(toMinutes("PT-476070H19M32S")).toBeNull();
    expect(toMinutes("-PT20M")).toBeNull();
    expect(toMinutes("P2017Y")).toBeNull();
    expect(toMinutes(9_999_999)).toBeNull();
    expect(toMinutes("P14D")).toBe(20160);
    expect(toMinutes("Prep: 10-15 min")).toBe(15);
    expect(toMinutes("1 hour 30 mins")).toBe(90);
    expect(toMinutes("10-15 minutes")).toBe(15);
    expect(toMinutes("1½ hours")).toBe(90);
    expect(toMinutes(25)).toBe(25);
    expect(toMinutes("soon")).toBeNull();
    // Scandinavian and Polish words, and a label before the value (a microdata element holding both).
    expect(toMinutes("Tillagningstid 30 minuter")).toBe(30);
    expect(toMinutes("1 time 20 minutter")).toBe(80);
    expect(toMinutes("1 timme")).toBe(60);
    expect(toMinutes("1 godz. 15 minut")).toBe(75);
    expect(toMinutes("3 tbsp")).toBeNull();
    expect(formatMinutes(61)).toBe("1 hour 1 minute");
  });

  it("writes yields as recipe-scrapers does", () => {
    expect(toYields("4")).toBe("4 servings");
    expect(toYields(1)).toBe("1 serving");
    expect(toYields("8-10")).toBe("10 servings");
    expect(toYields(["6", "6 slices"])).toBe("6 slices");
    expect(toYields("2 dozen cookies")).toBe("2 dozen");
    expect(toYields("Serves 4 people")).toBe("4 servings");
  });

  it("strips HTML, decodes entities (twice escaped too) and collapses spaces", () => {
    expect(cleanText("<p> Hello   World </p></p>")).toBe("Hello World");
    expect(cleanText("Salt &amp;amp; pepper")).toBe("Salt & pepper");
    expect(cleanText("Tom&#233;&nbsp;soup")).toBe("Tomé soup");
  });

  it("keeps a step's name only when it says something its text does not", () => {
    const steps = toSteps([
      { "@type": "HowToStep", name: "Step 1", text: "Heat the oven." },
      { "@type": "HowToStep", name: "Whisk the eggs with the...", text: "Whisk the eggs with the sugar." },
      { "@type": "HowToStep", name: "Make the sauce", text: "Melt the butter." },
      { "@type": "HowToStep", name: "Serve.", text: "Serve warm." },
    ]);
    expect(steps.map((s) => s.summary)).toEqual([null, null, "Make the sauce", null]);
  });

  it("title-cases tags like Python's str.title", () => {
    expect(titleCase("olive oil")).toBe("Olive Oil");
    expect(titleCase("PIZZA dough")).toBe("Pizza Dough");
  });

  it("reads JSON-LD with raw newlines in strings and trailing commas", () => {
    expect(parseJsonLoose('{"name": "a\nb", "x": [1,2,],}')).toEqual({ name: "a b", x: [1, 2] });
    expect(parseJsonLoose("{not json")).toBeUndefined();
  });

  it("gives up on a hostile script of a million spaces at once, instead of holding the server for minutes", () => {
    // The closing-CDATA pattern, end-anchored, was tried from every space: 160,000 took 27 s.
    const spaces = " ".repeat(1_000_000);
    expect(parseJsonLoose(`{${spaces}x`)).toBeUndefined();
    expect(parseJsonLoose(`{"a": 1}${spaces}}x}`)).toBeUndefined();
    expect(parseJsonLoose(`{"a": 1}${spaces},${spaces}{"b": 2}`)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseJsonLoose(`//<![CDATA[\n{"a": 1}${spaces}//]]>${spaces}`)).toEqual({ a: 1 });
  });

  it("reads JSON-LD with JavaScript comments, CDATA in a block comment, HTML-escaped text and objects side by side", () => {
    const commented = `/*<![CDATA[*/
{
  // a theme's note
  "@type": "Recipe", /* inline */ "url": "https://example.test//x",
  "name": "a // b",
}
/*]]>*/`;
    expect(parseJsonLoose(commented)).toEqual({
      "@type": "Recipe",
      url: "https://example.test//x",
      name: "a // b",
    });
    expect(parseJsonLoose('//<![CDATA[\n{"a": 1}\n//]]>')).toEqual({ a: 1 });
    expect(
      parseJsonLoose(
        "{&quot;@type&quot;:&quot;Recipe&quot;,&quot;name&quot;:&quot;Tea &amp;amp; Cake&quot;}",
      ),
    ).toEqual({
      "@type": "Recipe",
      name: "Tea &amp; Cake",
    });
    expect(parseJsonLoose('{"@type":"WebSite"}\n{"@type":"Recipe"}')).toEqual([
      { "@type": "WebSite" },
      { "@type": "Recipe" },
    ]);
    expect(parseJsonLoose('{"@type":"WebSite"},{"@type":"Recipe"}')).toEqual([
      { "@type": "WebSite" },
      { "@type": "Recipe" },
    ]);
  });
});

describe("schema-org importer on AMP and script-less pages", () => {
  it("takes the picture of an AMP page's microdata from its <amp-img>", async () => {
    const html = `<article itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Corn</h1>
      <amp-img itemprop="image" src="/corn.jpg" width="1200" height="800"></amp-img>
      <ul><li itemprop="recipeIngredient">1 ear of corn</li><li itemprop="recipeIngredient">1 lime</li></ul>
      <p itemprop="recipeInstructions">Grill the corn and squeeze the lime over it.</p></article>`;
    const [{ image }] = await importPage({ type: "html", html, url: "https://example.test/corn" }, ctx);
    expect(image).toEqual({ url: "https://example.test/corn.jpg" });
  });

  it("takes a lazily loaded microdata picture from its data-src, not the placeholder in its src", async () => {
    const html = `<div itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Figs</h1>
      <img itemprop="image" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/figs.jpg">
      <ul><li itemprop="recipeIngredient">6 figs</li><li itemprop="recipeIngredient">1 tbsp honey</li></ul>
      <p itemprop="recipeInstructions">Halve the figs and roast them with the honey.</p></div>`;
    const [{ image }] = await importPage({ type: "html", html, url: "https://example.test/figs" }, ctx);
    expect(image).toEqual({ url: "https://example.test/figs.jpg" });
  });
});

describe("schema-org importer on hostile pages", () => {
  it("refuses a page nested far deeper than any recipe page at once, without parsing it", async () => {
    const html = "<div>".repeat(180_000) + "</div>".repeat(180_000);
    const started = performance.now();
    await expect(importPage({ type: "html", html }, ctx)).rejects.toThrow(/nests its elements more than/);
    // A ceiling far above the refusal's own cost (a scan of 2 MB), far below the 42 s the parse took.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("still reads a page with thousands of paragraphs, list items and table cells its author left open", async () => {
    const open =
      "<p>x".repeat(3000) + "<ul>" + "<li>y".repeat(3000) + "</ul><table>" + "<tr><td>z".repeat(3000);
    const ld = {
      "@context": "https://schema.org",
      "@type": "Recipe",
      name: "Open Tags",
      recipeIngredient: ["1 egg"],
    };
    const html = `<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body>${open}</body></html>`;
    const [{ recipe }] = await importPage({ type: "html", html }, ctx);
    expect(recipe.name).toBe("Open Tags");
  });
});
