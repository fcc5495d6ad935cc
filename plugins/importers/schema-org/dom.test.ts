import { describe, expect, it } from "vitest";
import { parseDocument } from "htmlparser2";
import { cardName, dishImage, dropUnitRepeat, pageHeading, readDom, readFacts, type DomList } from "./dom.js";

const dom = (body: string) =>
  readDom(parseDocument(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`));
const groups = (l: DomList | null) => l?.groups.map((g) => [g.title, g.items]);

describe("recipe-card markup", () => {
  it("reads a plugin card: groups under their headings, amount spans as words, checkbox glyphs dropped", () => {
    const r = dom(`
      <div class="wprm-recipe-container"><div class="wprm-recipe">
        <div class="wprm-recipe-ingredients-container">
          <h3 class="wprm-recipe-header">Ingredients</h3>
          <div class="wprm-recipe-ingredient-group">
            <ul class="wprm-recipe-ingredients">
              <li class="wprm-recipe-ingredient"><span class="wprm-checkbox">▢</span><span class="amount">2</span><span class="unit">cups</span> <span class="name">flour</span></li>
              <li class="wprm-recipe-ingredient"><span class="amount">1</span> <span class="name">egg</span>, <span class="notes">beaten</span></li>
            </ul>
          </div>
          <div class="wprm-recipe-ingredient-group">
            <h4 class="wprm-recipe-group-name">For the glaze</h4>
            <ul class="wprm-recipe-ingredients"><li class="wprm-recipe-ingredient">50 g icing sugar</li></ul>
          </div>
        </div>
        <div class="wprm-recipe-instructions-container">
          <h3 class="wprm-recipe-header">Instructions</h3>
          <ul><li class="wprm-recipe-instruction"><div class="wprm-recipe-instruction-text">Mix the flour and the egg.</div></li>
          <li class="wprm-recipe-instruction"><div class="wprm-recipe-instruction-text">Bake for 20 minutes.</div></li></ul>
        </div>
      </div></div>`);
    expect(groups(r.ingredients)).toEqual([
      [null, ["2 cups flour", "1 egg, beaten"]],
      ["For the glaze", ["50 g icing sugar"]],
    ]);
    expect(groups(r.instructions)).toEqual([[null, ["Mix the flour and the egg.", "Bake for 20 minutes."]]]);
    expect(r.ingredients?.via).toBe("card");
  });

  it("finds containers and items by their class names, whatever the elements, CSS-modules hashes and camel case too", () => {
    const r = dom(`
      <div class="Recipe_ingredientList__Ab3dE">
        <h3 class="Recipe_title__x9YzQ">Dough</h3>
        <div class="Recipe_ingredient__Qq1wE"><span>250</span><span>g</span> <span>flour</span></div>
        <div class="Recipe_ingredient__Qq1wE"><span>1</span> <span>pinch salt</span></div>
      </div>
      <section class="recipeSteps"><p class="step">Knead the dough for ten minutes.</p><p class="step">Let it rest.</p></section>`);
    expect(groups(r.ingredients)).toEqual([["Dough", ["250 g flour", "1 pinch salt"]]]);
    expect(groups(r.instructions)).toEqual([[null, ["Knead the dough for ten minutes.", "Let it rest."]]]);
  });

  it("takes a group heading written as a list item, rows of a table, and one group per sibling container", () => {
    const r = dom(`
      <ul class="recipe_ingredients"><li><h3>For the dough</h3></li><li>200 g flour</li><li>1 egg</li>
        <li><b>Filling:</b></li><li>3 apples</li></ul>
      <div class="ingredients-wrap"><h5>Sauce</h5><table><tr><td>2 tbsp</td><th>soy sauce</th></tr><tr><td>1 tsp</td><th>sugar</th></tr></table></div>`);
    expect(groups(r.ingredients)).toEqual([
      ["For the dough", ["200 g flour", "1 egg"]],
      ["Filling", ["3 apples"]],
    ]);
    const twins = dom(`
      <div class="ingredients-wrap"><h5>Wings</h5><ul><li>20 chicken wings</li><li>½ tsp salt</li></ul></div>
      <div class="ingredients-wrap"><h5>Sauce</h5><ul><li>2 tbsp soy sauce</li></ul></div>`);
    expect(groups(twins.ingredients)).toEqual([
      ["Wings", ["20 chicken wings", "½ tsp salt"]],
      ["Sauce", ["2 tbsp soy sauce"]],
    ]);
  });

  it("reads a row holding a group's heading and its lines, and a row of several ingredients, a line each", () => {
    const r = dom(`
      <div id="ingredients"><table>
        <tr><td><p>8 wooden skewers</p></td></tr>
        <tr><td><h4>For dip:</h4><p>1 C strawberries, halved<br>\n¼ C plain yogurt<br>\n1 Tbsp honey</p></td></tr>
        <tr><td><p>2 cups flour,<br>sifted</p></td></tr>
        <tr><td><div class="amount">1 tbsp</div><div class="name">Soy sauce</div></td></tr>
      </table></div>`);
    expect(groups(r.ingredients)).toEqual([
      [null, ["8 wooden skewers"]],
      [
        "For dip",
        [
          "1 C strawberries, halved",
          "¼ C plain yogurt",
          "1 Tbsp honey",
          // A line that ends mid-phrase goes on in the next; blocks side by side are one line.
          "2 cups flour, sifted",
          "1 tbsp Soy sauce",
        ],
      ],
    ]);
  });

  it("passes over a container that holds only its own heading, and one that is a single step label", () => {
    const r = dom(`
      <div class="step-by-step-instructions"><h2>Step by step instructions</h2></div>
      <h6 class="recipe-steps">STEP 1.</h6>
      <div class="recipe-instructions"><ol><li>Heat the oven to 200 °C.</li><li>Roast the vegetables until soft.</li></ol></div>`);
    expect(groups(r.instructions)).toEqual([
      [null, ["Heat the oven to 200 °C.", "Roast the vegetables until soft."]],
    ]);
  });
});

describe("microformats and stray itemprops", () => {
  it("reads h-recipe: p-ingredient items and e-instructions", () => {
    const r = dom(`
      <article class="h-recipe"><h1 class="p-name">Toast</h1>
        <ul><li class="p-ingredient">2 slices bread</li><li class="p-ingredient">butter</li></ul>
        <div class="e-instructions"><p>Toast the bread until golden.</p><p>Butter it while hot.</p></div>
      </article>`);
    expect(groups(r.ingredients)).toEqual([[null, ["2 slices bread", "butter"]]]);
    expect(groups(r.instructions)).toEqual([
      [null, ["Toast the bread until golden.", "Butter it while hot."]],
    ]);
    expect(r.ingredients?.via).toBe("h-recipe");
  });

  it("reads a print copy of the same itemprop once, its lines as steps", () => {
    const copy = `<div itemprop="recipeInstructions"><p>Cook the pasta.<br>Fry the aubergine in olive oil.<br>Mix and serve.</p></div>`;
    const r = dom(copy + copy);
    expect(groups(r.instructions)).toEqual([
      [null, ["Cook the pasta.", "Fry the aubergine in olive oil.", "Mix and serve."]],
    ]);
  });

  it("reads schema.org itemprops that no Recipe item holds", () => {
    const r = dom(`
      <div itemprop="recipeIngredient"><ul><li>3 tbsp butter</li><li>2 potatoes</li></ul></div>
      <div itemprop="recipeInstructions"><ol><li>Boil the potatoes in salted water.</li><li>Mash them with the butter.</li></ol></div>`);
    expect(r.ingredients?.via).toBe("itemprop");
    expect(groups(r.ingredients)).toEqual([[null, ["3 tbsp butter", "2 potatoes"]]]);
    expect(groups(r.instructions)).toEqual([
      [null, ["Boil the potatoes in salted water.", "Mash them with the butter."]],
    ]);
  });
});

describe("headings", () => {
  it("reads lists under 'Ingredients' and 'Method', sub-headings as groups, up to the next section", () => {
    const r = dom(`
      <nav><ul><li>Ingredients</li><li>Recipes</li></ul></nav>
      <h1>Lemon Tart</h1>
      <h2>Ingredients</h2>
      <p>For 6 people</p>
      <ul><li>200 g flour</li><li>100 g butter</li></ul>
      <h3>Filling</h3>
      <ul><li>3 lemons</li><li>3 eggs</li></ul>
      <h2>Method</h2>
      <ol><li>Make the pastry and chill it.</li><li>Whisk the filling and bake.</li></ol>
      <h2>Notes</h2><ul><li>Keeps two days.</li></ul>`);
    expect(r.ingredients?.via).toBe("heading");
    expect(groups(r.ingredients)).toEqual([
      [null, ["200 g flour", "100 g butter"]],
      ["Filling", ["3 lemons", "3 eggs"]],
    ]);
    expect(groups(r.instructions)).toEqual([
      [null, ["Make the pastry and chill it.", "Whisk the filling and bake."]],
    ]);
  });

  it("knows the words in other languages, a heading that ends in the word, and bold paragraphs as headings", () => {
    const de = dom(`
      <h2>Wikinger-Auflauf – Die Zutaten</h2><ul><li>250 g Hackfleisch</li><li>1 Ei</li></ul>
      <h2>Wikinger-Auflauf – Die Zubereitung</h2><ol><li>Alles vermengen und backen.</li></ol>`);
    expect(groups(de.ingredients)).toEqual([[null, ["250 g Hackfleisch", "1 Ei"]]]);
    expect(groups(de.instructions)).toEqual([[null, ["Alles vermengen und backen."]]]);
    const el = dom(`<h3>Υλικά για 4 άτομα</h3><ul><li>2 αβοκάντο</li><li>4 αυγά</li></ul>`);
    expect(groups(el.ingredients)).toEqual([[null, ["2 αβοκάντο", "4 αυγά"]]]);
    const fr = dom(`
      <p><strong>INGRÉDIENTS</strong></p><p>Boeuf</p><ul><li>900 g de boeuf</li><li>500 ml d’eau</li></ul>
      <p><strong>PRÉPARATION</strong></p><ol><li>Préchauffer le four à 150 °C.</li></ol>`);
    expect(groups(fr.ingredients)).toEqual([["Boeuf", ["900 g de boeuf", "500 ml d’eau"]]]);
    expect(groups(fr.instructions)).toEqual([[null, ["Préchauffer le four à 150 °C."]]]);
  });

  it("takes a heading that names the dish after the word ('Elaboración de la crema de calabaza con Thermomix')", () => {
    const es = dom(`
      <h2>Ingredientes de la crema de calabaza</h2><ul><li>500 g de calabaza</li><li>2 puerros</li></ul>
      <h2>Elaboración de la crema de calabaza con Thermomix</h2>
      <p>Pela la calabaza y córtala en dados de unos 4 centímetros.</p>
      <p>Lava los puerros y córtalos en rodajas finas.</p>`);
    expect(groups(es.instructions)).toEqual([
      [
        null,
        [
          "Pela la calabaza y córtala en dados de unos 4 centímetros.",
          "Lava los puerros y córtalos en rodajas finas.",
        ],
      ],
    ]);
  });

  it("reads paragraphs as lines of ingredients and as steps, passing over step labels and a box elsewhere", () => {
    const r = dom(`<div class="article">
      <p>Ingredients:</p><p>- 250 g pastry</p><p>- 50 g almonds</p>
      <div class="newsletter"><p>Sign up to our newsletter for more recipes like this.</p></div>
      <p>Method:</p>
      <h6>Step 1.</h6><p>Set the oven to 200 °C and line the tins with the pastry.</p>
      <h6>Step 2.</h6><p>Sprinkle over the almonds and bake for half an hour.</p>
      <h2>More recipes</h2><p>Something else entirely, which is not a step of this recipe.</p></div>`);
    expect(groups(r.ingredients)).toEqual([[null, ["250 g pastry", "50 g almonds"]]]);
    expect(groups(r.instructions)).toEqual([
      [
        null,
        [
          "Set the oven to 200 °C and line the tins with the pastry.",
          "Sprinkle over the almonds and bake for half an hour.",
        ],
      ],
    ]);
  });

  it("takes an ordered list soon after the ingredients as the steps when no heading names them", () => {
    const r = dom(`
      <h4>INGREDIENTS</h4><ul><li>Baguette</li><li>1 chicken breast</li></ul>
      <h4>RECIPE</h4><ol><li>Cut the chicken into thin strips.</li><li>Fry it until golden, then fill the bread.</li></ol>`);
    expect(groups(r.instructions)).toEqual([
      [null, ["Cut the chicken into thin strips.", "Fry it until golden, then fill the bread."]],
    ]);
    // An ordered list of single words (an index of ingredients) is not a method.
    const index = dom(
      `<h2>Zutaten</h2><ul><li>1 Kohlrabi</li><li>Salz</li></ul><ol><li>Artischocke</li><li>Brokkoli</li></ol>`,
    );
    expect(index.instructions).toBeNull();
  });

  it("passes over a servings line before the list, and keeps an ingredient written before it", () => {
    const r = dom(`<h2>Zutaten</h2><p>Für 6 Personen</p><ul><li>250 g Mehl</li><li>1 Ei</li></ul>`);
    expect(groups(r.ingredients)).toEqual([[null, ["250 g Mehl", "1 Ei"]]]);
    const lead = dom(`<h2>Zutaten</h2><p>1 Kugel Mozzarella</p><ol><li>1 Kohlrabi</li><li>Salz</li></ol>`);
    expect(groups(lead.ingredients)).toEqual([[null, ["1 Kugel Mozzarella", "1 Kohlrabi", "Salz"]]]);
  });

  it("finds nothing on a page that is not a recipe", () => {
    const r = dom(`<h1>About us</h1><p>We make websites.</p><h2>Our method</h2><p>Ask, listen, build.</p>`);
    expect(r.ingredients).toBeNull();
  });
});

describe("a list shown once per unit system", () => {
  it("keeps the first copy", () => {
    const list: DomList = {
      via: "heading",
      groups: [
        {
          title: null,
          items: [
            "85 g pecans",
            "200 g butter",
            "1 tsp vanilla",
            "3 oz pecans",
            "7 oz butter",
            "1 tsp vanilla",
          ],
        },
      ],
    };
    expect(dropUnitRepeat(list).groups).toEqual([
      { title: null, items: ["85 g pecans", "200 g butter", "1 tsp vanilla"] },
    ]);
    const grouped: DomList = {
      via: "card",
      groups: [
        { title: "Base", items: ["125 ml milk", "60 ml oil", "100 g sugar"] },
        { title: "Base", items: ["4 fl oz milk", "2 fl oz oil", "3.5 oz sugar"] },
      ],
    };
    expect(dropUnitRepeat(grouped).groups).toEqual([grouped.groups[0]]);
  });

  it("leaves a list whose halves are different ingredients", () => {
    const list: DomList = {
      via: "card",
      groups: [
        {
          title: null,
          items: ["1 egg", "2 cups flour", "1 cup milk", "1 tsp salt", "2 tbsp sugar", "1 lemon"],
        },
      ],
    };
    expect(dropUnitRepeat(list)).toBe(list);
  });
});

describe("the dish's picture in the page", () => {
  const page = (body: string) => parseDocument(`<!doctype html><html><body>${body}</body></html>`);

  it("is the first image named for the recipe, passing over a site's stand-in for a missing picture", () => {
    expect(
      dishImage(
        page(`<img class="logo" src="/logo.png">
          <img class="post__recipe__img" src="/api/image?src=%2Fstatic%2FrecipeImgFallback.jpg&w=640">
          <img class="recipe-photo" src="/media/leek-gratin.jpg">`),
      ),
    ).toBe("/media/leek-gratin.jpg");
    expect(dishImage(page(`<img class="recipe-image" src="/img/placeholder-recipe.png">`))).toBeNull();
    expect(dishImage(page(`<img alt="Photograph of the finished dish" src="/a.jpg">`))).toBe("/a.jpg");
  });

  it("is the image in a recipe card's picture box, its lazily loaded address rather than the placeholder", () => {
    expect(
      dishImage(
        page(`<img class="avatar" src="/me.jpg"><div class="wprm-recipe-image wprm-block-image-normal">
          <img class="attachment-500x500" src="/pesto-500x500.jpg" alt=""></div>`),
      ),
    ).toBe("/pesto-500x500.jpg");
    expect(
      dishImage(
        page(
          `<div class="tasty-recipes-image"><img src="data:image/gif;base64,R0lGOD" data-lazy-src="/muffins.jpg"></div>`,
        ),
      ),
    ).toBe("/muffins.jpg");
    expect(dishImage(page(`<div class="sidebar"><img src="/ad.jpg"></div>`))).toBeNull();
  });
});

describe("the page's heading", () => {
  it("is the first h1 outside the page chrome", () => {
    const doc = parseDocument(
      `<html><body><header><h1>Site</h1></header><main><h1>Soup</h1></main></body></html>`,
    );
    expect(pageHeading(doc)).toBe("Soup");
  });
});

describe("times and servings shown as label and value", () => {
  const facts = (body: string) => readFacts(parseDocument(`<html><body>${body}</body></html>`));

  it("reads them from lines, from label and value side by side, and from a line of several", () => {
    expect(
      facts(
        `<ul><li>SERVINGS: 4</li><li>PREP TIME: 10 Mins</li><li>COOK TIME: 30 Mins</li><li>TOTAL TIME: 40 Min</li></ul>`,
      ),
    ).toEqual({
      yields: "4",
      prepTime: "10 Mins",
      cookTime: "30 Mins",
      totalTime: "40 Min",
    });
    expect(facts(`<dl><dt>Totale tijd</dt><dd>20 minuten</dd></dl><p>Makes 6 servings</p>`)).toMatchObject({
      totalTime: "20 minuten",
      yields: "6 servings",
    });
    expect(facts(`<p>Serves 2 | Total time: 15 minutes | Whole30 compliant</p>`)).toMatchObject({
      yields: "2",
      totalTime: "15 minutes",
    });
  });

  it("reads a table of labels over values by column, and a bare 'Time' label", () => {
    expect(
      facts(
        `<table><tr><th>Prep time</th><th>Cook time</th><th>Yields</th><th>Serving Size</th></tr>` +
          `<tr><td>15 minutes</td><td>0 minutes</td><td>4 servings</td><td>2 skewers</td></tr></table>`,
      ),
    ).toEqual({ prepTime: "15 minutes", cookTime: "0 minutes", yields: "4 servings", totalTime: null });
    // Rows of label and value are read one by one, as before.
    expect(
      facts(
        `<table><tr><td>Prep time</td><td>10 min</td></tr><tr><td>Cook time</td><td>25 min</td></tr></table>`,
      ),
    ).toMatchObject({ prepTime: "10 min", cookTime: "25 min" });
    expect(facts(`<div><span>Time</span></div><div>30 minutes</div>`)).toMatchObject({
      totalTime: "30 minutes",
    });
  });

  it("reads the servings an ingredients heading counts, and a Swedish or Hungarian label", () => {
    const facts = (body: string) => readFacts(parseDocument(`<html><body>${body}</body></html>`));
    expect(facts(`<h2>Ingredients for 5 (small) servings</h2><ul><li>1 egg</li></ul>`).yields).toBe(
      "5 (small) servings",
    );
    expect(facts(`<h3>Zutaten für 4 Personen</h3><ul><li>1 Ei</li></ul>`).yields).toBe("4 Personen");
    // A size, not a count.
    expect(facts(`<h2>Ingredients for a 9x13 pan</h2><ul><li>1 egg</li></ul>`).yields).toBeNull();
    expect(facts(`<p>Antal</p><p>4 portioner</p>`).yields).toBe("4 portioner");
    expect(facts(`<p>Adag: 4</p>`).yields).toBe("4");
  });

  it("does not take a nutrition label's serving size or a label without a number", () => {
    expect(facts(`<p>Serving size 1 cup</p><p>Total: see below</p>`)).toEqual({
      totalTime: null,
      prepTime: null,
      cookTime: null,
      yields: null,
    });
  });
});

describe("a recipe card's name", () => {
  const page = (body: string) => parseDocument(`<!doctype html><html><body>${body}</body></html>`);

  it("is the card's title element, not a linked teaser for another recipe", () => {
    expect(
      cardName(
        page(`<div class="related"><a href="/other"><h3 class="related-recipe-title">Other Pie</h3></a></div>
          <div class="tasty-recipes"><h2 class="tasty-recipes-title">Oat Banana Muffins</h2></div>`),
      ),
    ).toBe("Oat Banana Muffins");
    expect(cardName(page(`<h2 class="wprm-recipe-name">Pesto Pasta</h2>`))).toBe("Pesto Pasta");
    expect(cardName(page(`<h1>Post headline</h1>`))).toBeNull();
  });
});

describe("a recipe in <noscript>", () => {
  it("is read when the rest of the page, drawn by a script, shows none", () => {
    const doc = parseDocument(`<!doctype html><html><body><div id="app">Loading…</div><noscript>
      <h2>Ingredients</h2><ul><li>600 g carrots</li><li>1 onion</li></ul>
      <h2>Method</h2><ol><li>Sweat the onion in a little oil.</li><li>Simmer the carrots until soft, then blend.</li></ol>
      </noscript></body></html>`);
    const { ingredients, instructions } = readDom(doc);
    expect(ingredients?.groups[0].items).toEqual(["600 g carrots", "1 onion"]);
    expect(instructions?.groups[0].items).toHaveLength(2);
  });

  it("is passed over when the page shows the recipe itself", () => {
    const doc = parseDocument(`<!doctype html><html><body>
      <h2>Ingredients</h2><ul><li>2 eggs</li><li>1 cup milk</li></ul>
      <h2>Method</h2><ol><li>Whisk the eggs and the milk together well.</li></ol>
      <noscript><h2>Ingredients</h2><ul><li>9 other things</li><li>8 more</li></ul></noscript></body></html>`);
    expect(readDom(doc).ingredients?.groups[0].items).toEqual(["2 eggs", "1 cup milk"]);
  });
});
