/**
 * Page shapes real recipe sites use that the saved corpus may not cover: each page here is invented
 * (recipes and markup alike), one per shape, and the fields asserted are the ones a user sees.
 */
import { describe, expect, it } from "vitest";
import { importPage } from "./scrape.js";
import { importedPage } from "./imported-page.js";
import type { PluginContext } from "../../../core/plugins/kinds.js";

const ctx = {} as PluginContext;
const URL_ = "https://cook.example/recipes/plum-crumble/";

const imported = (html: string, url = URL_) => importedPage(html, url);

const ld = (...blocks: unknown[]) =>
  blocks
    .map(
      (b) => `<script type="application/ld+json">${typeof b === "string" ? b : JSON.stringify(b)}</script>`,
    )
    .join("\n");

const page = (head: string, body = "") =>
  `<!doctype html><html><head><title>Plum crumble | Cook Example</title>${head}</head><body>${body}</body></html>`;

const base = {
  "@context": "https://schema.org",
  "@type": "Recipe",
  name: "Plum Crumble",
  recipeIngredient: ["6 plums, halved", "100 g flour", "60 g butter"],
  recipeInstructions: [
    { "@type": "HowToStep", text: "Heat the oven to 180 C." },
    { "@type": "HowToStep", text: "Rub the butter into the flour." },
    { "@type": "HowToStep", text: "Scatter over the plums and bake." },
  ],
};
const STEPS = [
  "Heat the oven to 180 C.",
  "Rub the butter into the flour.",
  "Scatter over the plums and bake.",
];

describe("JSON-LD @graph with @id references", () => {
  it("follows @id references for the image, the author and the instructions", async () => {
    const graph = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "WebPage", "@id": `${URL_}#webpage`, name: "Plum crumble" },
        {
          "@type": "ImageObject",
          "@id": `${URL_}#primaryimage`,
          url: "https://cdn.cook.example/plum-1200.jpg",
          width: 1200,
          height: 800,
        },
        { "@type": "Person", "@id": "https://cook.example/#/person/ann", name: "Ann Baker" },
        { "@type": "ItemList", "@id": `${URL_}#steps`, itemListElement: base.recipeInstructions },
        {
          ...base,
          "@context": undefined,
          "@id": `${URL_}#recipe`,
          image: { "@id": `${URL_}#primaryimage` },
          author: { "@id": "https://cook.example/#/person/ann" },
          recipeInstructions: { "@id": `${URL_}#steps` },
          isPartOf: { "@id": `${URL_}#webpage` },
        },
      ],
    };
    const r = await imported(page(ld(graph)));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.steps).toEqual(STEPS);
    expect(r.image).toBe("https://cdn.cook.example/plum-1200.jpg");
  });

  it("follows a list of @id references for the steps", async () => {
    const graph = {
      "@graph": [
        { ...base, recipeInstructions: [{ "@id": "#s1" }, { "@id": "#s2" }, { "@id": "#s3" }] },
        ...base.recipeInstructions.map((s, i) => ({ ...s, "@id": `#s${i + 1}` })),
      ],
    };
    expect((await imported(page(ld(graph)))).steps).toEqual(STEPS);
  });
});

describe("recipeInstructions written in other shapes", () => {
  it("reads one HTML string with an ordered list", async () => {
    const html = `<ol><li>Heat the oven to 180 C.</li><li>Rub the butter into the flour.</li><li>Scatter over the plums and bake.</li></ol>`;
    expect((await imported(page(ld({ ...base, recipeInstructions: html })))).steps).toEqual(STEPS);
  });

  it("reads one HTML string of paragraphs", async () => {
    const html = `<p>Heat the oven to 180 C.</p>\n<p>Rub the butter into the flour.</p><p>Scatter over the plums and bake.</p>`;
    expect((await imported(page(ld({ ...base, recipeInstructions: html })))).steps).toEqual(STEPS);
  });

  it("reads one string with <br> separators", async () => {
    const html = `Heat the oven to 180 C.<br>Rub the butter into the flour.<br />Scatter over the plums and bake.`;
    expect((await imported(page(ld({ ...base, recipeInstructions: html })))).steps).toEqual(STEPS);
  });

  it("reads one string with HTML-escaped <br> separators", async () => {
    const html = `Heat the oven to 180 C.&lt;br&gt;Rub the butter into the flour.&lt;br /&gt;Scatter over the plums and bake.`;
    expect((await imported(page(ld({ ...base, recipeInstructions: html })))).steps).toEqual(STEPS);
  });

  it("reads HowToSections nested two levels, the section names kept as titles", async () => {
    const nested = [
      {
        "@type": "HowToSection",
        name: "Crumble",
        itemListElement: [
          {
            "@type": "HowToSection",
            name: "Topping",
            itemListElement: [{ "@type": "HowToStep", text: "Rub the butter into the flour." }],
          },
        ],
      },
      {
        "@type": "HowToSection",
        name: "Bake",
        itemListElement: [{ "@type": "HowToStep", text: "Scatter over the plums and bake." }],
      },
    ];
    const r = await imported(page(ld({ ...base, recipeInstructions: nested })));
    expect(r.steps).toEqual(["Rub the butter into the flour.", "Scatter over the plums and bake."]);
    expect(r.recipe.recipeInstructions.map((s) => s.title)).toEqual(["Crumble – Topping", "Bake"]);
  });

  it("reads HowToSections whose steps are under `steps`", async () => {
    const sections = [
      { "@type": "HowToSection", name: "Crumble", steps: base.recipeInstructions.slice(0, 2) },
      { "@type": "HowToSection", name: "Bake", steps: [base.recipeInstructions[2]] },
    ];
    const r = await imported(page(ld({ ...base, recipeInstructions: sections })));
    expect(r.steps).toEqual(STEPS);
    expect(r.recipe.recipeInstructions.map((s) => s.title)).toEqual(["Crumble", "", "Bake"]);
  });

  it("reads a HowToStep written as HowToDirections and HowToTips, a step each in the page's order", async () => {
    const steps = [
      {
        "@type": "HowToStep",
        name: "Make the crumble",
        itemListElement: [
          { "@type": "HowToDirection", text: "Rub the butter into the flour." },
          { "@type": "HowToTip", text: "Cold butter gives a coarser crumb." },
          { "@type": "HowToDirection", text: "Stir in the sugar." },
        ],
      },
      {
        "@type": "HowToStep",
        itemListElement: { "@type": "HowToDirection", text: "Scatter over the plums and bake." },
      },
    ];
    const r = await imported(page(ld({ ...base, recipeInstructions: steps })));
    expect(r.steps).toEqual([
      "Rub the butter into the flour.",
      "Cold butter gives a coarser crumb.",
      "Stir in the sugar.",
      "Scatter over the plums and bake.",
    ]);
    expect(r.recipe.recipeInstructions.map((s) => s.title)).toEqual(["Make the crumble", "", "", ""]);
  });

  it("reads one HowToStep whose text is a list of texts", async () => {
    const step = { "@type": "HowToStep", text: STEPS };
    expect((await imported(page(ld({ ...base, recipeInstructions: [step] })))).steps).toEqual(STEPS);
  });

  it("reads one HowToStep whose text is an HTML list", async () => {
    const step = { "@type": "HowToStep", text: `<ol>${STEPS.map((s) => `<li>${s}</li>`).join("")}</ol>` };
    expect((await imported(page(ld({ ...base, recipeInstructions: step })))).steps).toEqual(STEPS);
  });

  it("reads an ItemList of ListItems holding HowToSteps", async () => {
    const list = {
      "@type": "ItemList",
      itemListElement: base.recipeInstructions.map((s, i) => ({
        "@type": "ListItem",
        position: i + 1,
        item: s,
      })),
    };
    expect((await imported(page(ld({ ...base, recipeInstructions: list })))).steps).toEqual(STEPS);
  });

  it("reads ListItems whose text is in `name` or `item`", async () => {
    const list = STEPS.map((text, i) => ({ "@type": "ListItem", position: i + 1, name: text }));
    expect((await imported(page(ld({ ...base, recipeInstructions: list })))).steps).toEqual(STEPS);
  });

  it("keeps a number that is part of a step", async () => {
    const steps = ["2 eggs go in first.", "Whisk well.", "Bake for 20 minutes."];
    expect((await imported(page(ld({ ...base, recipeInstructions: steps })))).steps).toEqual(steps);
  });

  it("splits one plain string of numbered steps, each keeping its number as Mealie does (decision 0254)", async () => {
    const text = `1. ${STEPS[0]} 2. ${STEPS[1]} 3. ${STEPS[2]}`;
    expect((await imported(page(ld({ ...base, recipeInstructions: text })))).steps).toEqual(
      STEPS.map((s, i) => `${i + 1}. ${s}`),
    );
  });

  it("splits one plain string of steps on its own lines", async () => {
    const text = `${STEPS[0]}\n${STEPS[1]}\n\n${STEPS[2]}`;
    expect((await imported(page(ld({ ...base, recipeInstructions: text })))).steps).toEqual(STEPS);
  });
});

describe("ingredients", () => {
  it("reads the legacy `ingredients` property", async () => {
    const { recipeIngredient, ...rest } = base;
    const r = await imported(page(ld({ ...rest, ingredients: recipeIngredient })));
    expect(r.ingredients).toEqual(recipeIngredient);
  });

  it("reads HowToSupply ingredients with their required quantity", async () => {
    const supply = (name: string, q: unknown) => ({ "@type": "HowToSupply", name, requiredQuantity: q });
    const lines = [
      supply("plums, halved", 6),
      supply("flour", { "@type": "QuantitativeValue", value: 100, unitText: "g" }),
      supply("butter", "60 g"),
    ];
    const r = await imported(page(ld({ ...base, recipeIngredient: lines })));
    expect(r.ingredients).toEqual(base.recipeIngredient);
  });

  it("decodes entities and strips tags inside lines", async () => {
    const lines = [
      "&frac12; cup <strong>brown</strong> sugar",
      "2 tbsp butter &amp; oil",
      '1&nbsp;tsp <a href="/cinnamon">cinnamon</a>',
      "3 plums &#8211; ripe",
    ];
    const r = await imported(page(ld({ ...base, recipeIngredient: lines })));
    expect(r.ingredients).toEqual([
      "½ cup brown sugar",
      "2 tbsp butter & oil",
      "1 tsp cinnamon",
      "3 plums – ripe",
    ]);
  });
});

describe("yields", () => {
  const y = async (recipeYield: unknown) =>
    (await imported(page(ld({ ...base, recipeYield })))).recipe.recipeYield;
  it("reads a number", async () => expect(await y(4)).toBe("4 servings"));
  it("reads a list of a number and a phrase", async () =>
    expect(await y(["4", "4 servings"])).toBe("4 servings"));
  it("reads 'Makes 12 cookies'", async () => expect(await y("Makes 12 cookies")).toBe("12 cookies"));
  it("reads a range", async () => expect(await y("4-6")).toBe("6 servings"));
  it("reads 'Serves 2'", async () => expect(await y("Serves 2")).toBe("2 servings"));
  it("reads a QuantitativeValue", async () =>
    expect(await y({ "@type": "QuantitativeValue", value: 8, unitText: "servings" })).toBe("8 servings"));
});

describe("yields written in words", () => {
  const y = async (recipeYield: unknown) => {
    const { recipe } = await imported(page(ld({ ...base, recipeYield })));
    return [recipe.recipeYield, recipe.recipeServings];
  };
  it("keeps the words as written and gives the servings as a number", async () => {
    expect(await y("Serves four")).toEqual(["Serves four", 4]);
    expect(await y("Yield: six servings")).toEqual(["Yield: six servings", 6]);
    expect(await y("Makes a dozen")).toEqual(["Makes a dozen", 12]);
    expect(await y("four")).toEqual(["four", 4]);
    expect(await y(["Serves Two"])).toEqual(["Serves Two", 2]);
  });
  it("takes the upper number of a range, as for digits", async () =>
    expect(await y("serves two to three")).toEqual(["serves two to three", 3]));
  it("reads German, French, Spanish and Dutch", async () => {
    expect(await y("für vier Personen")).toEqual(["für vier Personen", 4]);
    expect(await y("pour six personnes")).toEqual(["pour six personnes", 6]);
    expect(await y("para cuatro personas")).toEqual(["para cuatro personas", 4]);
    expect(await y("voor vier personen")).toEqual(["voor vier personen", 4]);
    expect(await y("Für zwei bis drei Portionen")).toEqual(["Für zwei bis drei Portionen", 3]);
  });
  it("gives no servings for a count of things or a yield without a number", async () => {
    expect(await y("one loaf")).toEqual(["one loaf", undefined]);
    expect(await y("Makes two dozen cookies")).toEqual(["Makes two dozen cookies", undefined]);
    expect(await y("Serves a crowd")).toEqual(["Serves a crowd", undefined]);
  });
});

describe("durations", () => {
  const t = async (times: Record<string, unknown>) => {
    const { recipe } = await imported(page(ld({ ...base, ...times })));
    return [recipe.prepTime, recipe.performTime, recipe.totalTime];
  };
  it("reads PT1H30M", async () =>
    expect(await t({ totalTime: "PT1H30M" })).toEqual([null, null, "1 hour 30 minutes"]));
  it("reads P0DT0H45M0S", async () =>
    expect(await t({ cookTime: "P0DT0H45M0S" })).toEqual([null, "45 minutes", "45 minutes"]));
  it("reads PT90M", async () =>
    expect(await t({ totalTime: "PT90M" })).toEqual([null, null, "1 hour 30 minutes"]));
  it("reads '1 hour 30 minutes'", async () =>
    expect(await t({ totalTime: "1 hour 30 minutes" })).toEqual([null, null, "1 hour 30 minutes"]));
  it("sums prep and cook when the total is missing", async () =>
    expect(await t({ prepTime: "PT15M", cookTime: "PT40M" })).toEqual([
      "15 minutes",
      "40 minutes",
      "55 minutes",
    ]));
  it("reads an ISO duration with a fraction", async () =>
    expect(await t({ totalTime: "PT1.5H" })).toEqual([null, null, "1 hour 30 minutes"]));
  it("reads '1h30' as an hour and a half", async () =>
    expect(await t({ totalTime: "1h30" })).toEqual([null, null, "1 hour 30 minutes"]));
  it("reads '1 h 15' and '2:05' as hours and minutes", async () => {
    expect(await t({ prepTime: "1 h 15" })).toEqual(["1 hour 15 minutes", null, "1 hour 15 minutes"]);
    expect(await t({ totalTime: "2:05" })).toEqual([null, null, "2 hours 5 minutes"]);
  });
  it("reads '1 1/2 hours' and '1/2 hour'", async () => {
    expect(await t({ totalTime: "1 1/2 hours" })).toEqual([null, null, "1 hour 30 minutes"]);
    expect(await t({ cookTime: "1/2 hour" })).toEqual([null, "30 minutes", "30 minutes"]);
  });
  it("reads an ISO duration in lower case", async () =>
    expect(await t({ totalTime: "pt25m" })).toEqual([null, null, "25 minutes"]));
});

describe("images", () => {
  const img = async (image: unknown, url = URL_) => (await imported(page(ld({ ...base, image })), url)).image;
  it("reads a string", async () =>
    expect(await img("https://cdn.cook.example/a.jpg")).toBe("https://cdn.cook.example/a.jpg"));
  it("reads an array of strings", async () =>
    expect(await img(["https://cdn.cook.example/a.jpg", "https://cdn.cook.example/b.jpg"])).toBe(
      "https://cdn.cook.example/a.jpg",
    ));
  it("reads an ImageObject", async () =>
    expect(await img({ "@type": "ImageObject", url: "https://cdn.cook.example/c.jpg" })).toBe(
      "https://cdn.cook.example/c.jpg",
    ));
  it("chooses the largest of ImageObjects with width and height", async () =>
    expect(
      await img([
        { "@type": "ImageObject", url: "https://cdn.cook.example/s.jpg", width: 300, height: 200 },
        { "@type": "ImageObject", url: "https://cdn.cook.example/l.jpg", width: "1600", height: "900" },
        { "@type": "ImageObject", url: "https://cdn.cook.example/m.jpg", width: 800, height: 600 },
      ]),
    ).toBe("https://cdn.cook.example/l.jpg"));
  it("reads an ImageObject whose url is a list", async () =>
    expect(await img({ "@type": "ImageObject", url: ["https://cdn.cook.example/u.jpg"] })).toBe(
      "https://cdn.cook.example/u.jpg",
    ));
  it("chooses the largest when sizes are written '1200px' or as a QuantitativeValue", async () =>
    expect(
      await img([
        { "@type": "ImageObject", url: "https://cdn.cook.example/s.jpg", width: "300px", height: "200px" },
        {
          "@type": "ImageObject",
          url: "https://cdn.cook.example/l.jpg",
          width: { "@type": "QuantitativeValue", value: 1600 },
          height: { "@type": "QuantitativeValue", value: 900 },
        },
      ]),
    ).toBe("https://cdn.cook.example/l.jpg"));
  it("resolves a relative URL against the page", async () =>
    expect(await img("../../img/plum.jpg")).toBe("https://cook.example/img/plum.jpg"));
  it("resolves a root-relative URL", async () =>
    expect(await img("/img/plum.jpg")).toBe("https://cook.example/img/plum.jpg"));
  it("resolves a protocol-relative URL", async () =>
    expect(await img("//cdn.cook.example/plum.jpg")).toBe("https://cdn.cook.example/plum.jpg"));
  it("resolves a relative URL against <base href>", async () => {
    const html = page(`<base href="https://static.cook.example/">${ld({ ...base, image: "img/plum.jpg" })}`);
    expect((await imported(html)).image).toBe("https://static.cook.example/img/plum.jpg");
  });
  it("reads an ImageObject with contentUrl", async () =>
    expect(await img({ "@type": "ImageObject", contentUrl: "/img/p.jpg" })).toBe(
      "https://cook.example/img/p.jpg",
    ));
});

describe("types and blocks", () => {
  it("reads a Recipe whose @type is an array", async () => {
    const r = await imported(page(ld({ ...base, "@type": ["Recipe", "NewsArticle"] })));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.steps).toEqual(STEPS);
  });

  it("reads a Recipe beside a malformed block", async () => {
    const broken = `{"@context":"https://schema.org","@type":"Organization","name":"Cook",}`;
    const r = await imported(page(ld(broken, base)));
    expect(r.ingredients).toEqual(base.recipeIngredient);
  });

  it("repairs a Recipe block with trailing commas and comments", async () => {
    const text = `/* recipe */ {"@type":"Recipe", // the dish
      "name":"Plum Crumble","recipeIngredient":["6 plums, halved","100 g flour","60 g butter",],
      "recipeInstructions":["${STEPS.join('","')}",],}`;
    const r = await imported(page(ld(text)));
    expect(r.ingredients).toEqual(base.recipeIngredient);
    expect(r.steps).toEqual(STEPS);
  });

  it("repairs a block that closes with a semicolon", async () => {
    expect((await imported(page(ld(`${JSON.stringify(base)};`)))).steps).toEqual(STEPS);
  });

  it("repairs a block with escapes JSON lacks (\\' from PHP)", async () => {
    const text = JSON.stringify({ ...base, name: "Gran's Plum Crumble" }).replace("'", "\\'");
    expect((await imported(page(ld(text)))).recipe.name).toBe("Gran's Plum Crumble");
  });

  it("repairs a block with double quotes left unescaped inside its strings", async () => {
    // As WordPress themes that write the block by hand do: an inch mark, a quoted word.
    const text = `{"@context":"https://schema.org","@type":"Recipe","name":"Plum "Crumble" Bars",
      "description":"Our "best" plum bake, "easy" too",
      "recipeIngredient":["6 plums, halved","100 g flour","60 g butter"],
      "recipeInstructions":[{"@type":"HowToStep","text":"Press into a 9" tin."},
        {"@type":"HowToStep","text":"Bake."}]}`;
    const r = await imported(page(ld(text)));
    expect(r.recipe.name).toBe('Plum "Crumble" Bars');
    expect(r.ingredients).toEqual(base.recipeIngredient);
    expect(r.steps).toEqual(['Press into a 9" tin.', "Bake."]);
  });

  it("reads a CDATA-wrapped, HTML-escaped block", async () => {
    const text = `//<![CDATA[\n${JSON.stringify(base).replace(/"/g, "&quot;")}\n//]]>`;
    expect((await imported(page(ld(text)))).steps).toEqual(STEPS);
  });

  it("reads a Recipe whose @context prefixes its type (schema:Recipe)", async () => {
    const r = await imported(page(ld({ ...base, "@type": "schema:Recipe" })));
    expect(r.recipe.name).toBe("Plum Crumble");
  });
});

describe("microdata and RDFa", () => {
  it("reads microdata with nested elements and content attributes", async () => {
    const body = `<div itemscope itemtype="https://schema.org/Recipe">
      <h1 itemprop="name">Plum Crumble</h1>
      <meta itemprop="totalTime" content="PT50M">
      <span itemprop="recipeYield" content="6">Serves six</span>
      <img itemprop="image" src="/img/plum.jpg" alt="">
      <ul><li itemprop="recipeIngredient"><span>6</span> <span>plums</span>, halved</li>
      <li itemprop="recipeIngredient">100 g flour</li><li itemprop="recipeIngredient">60 g butter</li></ul>
      <div itemprop="recipeInstructions"><ol>${STEPS.map((s) => `<li>${s}</li>`).join("")}</ol></div>
    </div>`;
    const r = await imported(page("", body));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(base.recipeIngredient);
    expect(r.steps).toEqual(STEPS);
    expect(r.recipe.totalTime).toBe("50 minutes");
    expect(r.recipe.recipeYield).toBe("6 servings");
    expect(r.image).toBe("https://cook.example/img/plum.jpg");
  });

  it("reads microdata steps as HowToStep items", async () => {
    const body = `<div itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Plum Crumble</h1>
      ${base.recipeIngredient.map((i) => `<p itemprop="recipeIngredient">${i}</p>`).join("")}
      <ol>${STEPS.map((s) => `<li itemprop="recipeInstructions" itemscope itemtype="http://schema.org/HowToStep"><span itemprop="text">${s}</span></li>`).join("")}</ol>
    </div>`;
    expect((await imported(page("", body))).steps).toEqual(STEPS);
  });

  it("reads data-vocabulary.org microdata (ingredient items, photo, yield)", async () => {
    const item = (amount: string, name: string) =>
      `<li itemprop="ingredient" itemscope itemtype="http://data-vocabulary.org/RecipeIngredient"><span itemprop="amount">${amount}</span> <span itemprop="name">${name}</span></li>`;
    const body = `<div itemscope itemtype="http://data-vocabulary.org/Recipe">
      <h1 itemprop="name">Plum Crumble</h1><img itemprop="photo" src="/img/dv.jpg" alt="">
      <span itemprop="yield">Serves 6</span><time itemprop="totalTime" datetime="PT50M">50 min</time>
      <ul>${item("6", "plums, halved")}${item("100 g", "flour")}${item("60 g", "butter")}</ul>
      <div itemprop="instructions"><ol>${STEPS.map((s) => `<li>${s}</li>`).join("")}</ol></div>
    </div>`;
    const r = await imported(page("", body));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(base.recipeIngredient);
    expect(r.steps).toEqual(STEPS);
    expect(r.recipe.recipeYield).toBe("6 servings");
    expect(r.recipe.totalTime).toBe("50 minutes");
    expect(r.image).toBe("https://cook.example/img/dv.jpg");
  });

  it("reads RDFa (typeof=Recipe, property=…)", async () => {
    const body = `<div vocab="https://schema.org/" typeof="Recipe">
      <h1 property="name">Plum Crumble</h1>
      <meta property="prepTime" content="PT10M"><meta property="cookTime" content="PT35M">
      <span property="recipeYield">6 servings</span>
      <img property="image" src="https://cdn.cook.example/rdfa.jpg" alt="">
      <ul>${base.recipeIngredient.map((i) => `<li property="recipeIngredient">${i}</li>`).join("")}</ul>
      <ol>${STEPS.map((s) => `<li property="recipeInstructions">${s}</li>`).join("")}</ol>
    </div>`;
    const r = await imported(page("", body));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(base.recipeIngredient);
    expect(r.steps).toEqual(STEPS);
    expect(r.recipe.prepTime).toBe("10 minutes");
    expect(r.recipe.performTime).toBe("35 minutes");
    expect(r.recipe.totalTime).toBe("45 minutes");
    expect(r.recipe.recipeYield).toBe("6 servings");
    expect(r.image).toBe("https://cdn.cook.example/rdfa.jpg");
  });

  it("reads RDFa with a schema: prefix", async () => {
    const body = `<div prefix="schema: http://schema.org/" typeof="schema:Recipe">
      <h2 property="schema:name">Plum Crumble</h2>
      <ul>${base.recipeIngredient.map((i) => `<li property="schema:recipeIngredient">${i}</li>`).join("")}</ul>
      <ol>${STEPS.map((s) => `<li property="schema:recipeInstructions">${s}</li>`).join("")}</ol>
    </div>`;
    const r = await imported(page("", body));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(base.recipeIngredient);
    expect(r.steps).toEqual(STEPS);
  });
});

describe("recipe plugin markup without schema.org", () => {
  const ing = base.recipeIngredient;
  it("reads a WP Recipe Maker card", async () => {
    const body = `<h1>Plum Crumble</h1><div class="wprm-recipe-container"><div class="wprm-recipe">
      <h2 class="wprm-recipe-name">Plum Crumble</h2>
      <div class="wprm-recipe-ingredients-container"><h3 class="wprm-recipe-header">Ingredients</h3>
      <div class="wprm-recipe-ingredient-group"><ul class="wprm-recipe-ingredients">
      ${ing.map((i) => `<li class="wprm-recipe-ingredient"><span class="wprm-recipe-ingredient-amount">${i.split(" ")[0]}</span> <span class="wprm-recipe-ingredient-name">${i.split(" ").slice(1).join(" ")}</span></li>`).join("")}
      </ul></div></div>
      <div class="wprm-recipe-instructions-container"><h3 class="wprm-recipe-header">Instructions</h3>
      <ul class="wprm-recipe-instructions">${STEPS.map((s) => `<li class="wprm-recipe-instruction"><div class="wprm-recipe-instruction-text">${s}</div></li>`).join("")}</ul></div>
    </div></div>`;
    const r = await imported(page(`<meta property="og:title" content="Plum Crumble">`, body));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(ing);
    expect(r.steps).toEqual(STEPS);
  });

  it("reads a Tasty Recipes card", async () => {
    const body = `<h1>Plum Crumble</h1><div class="tasty-recipes">
      <div class="tasty-recipes-ingredients"><h4>Ingredients</h4><ul>${ing.map((i) => `<li>${i}</li>`).join("")}</ul></div>
      <div class="tasty-recipes-instructions"><h4>Instructions</h4><ol>${STEPS.map((s) => `<li>${s}</li>`).join("")}</ol></div>
    </div>`;
    const r = await imported(page(`<meta property="og:title" content="Plum Crumble">`, body));
    expect(r.ingredients).toEqual(ing);
    expect(r.steps).toEqual(STEPS);
  });

  it("reads steps written as one paragraph a <br> apart under a Method heading", async () => {
    const body = `<h1>Plum Crumble</h1><div class="entry-content"><h3>Ingredients</h3><p>${ing.join("<br>")}</p>
      <h3>Method</h3><p>${STEPS.join("<br>\n")}</p></div>`;
    const r = await imported(page(`<meta property="og:title" content="Plum Crumble">`, body));
    expect(r.ingredients).toEqual(ing);
    expect(r.steps).toEqual(STEPS);
  });

  it("keeps a remark after a <br> with its step among paragraph steps", async () => {
    const body = `<h1>Plum Crumble</h1><div class="entry-content"><h3>Ingredients</h3><ul>${ing.map((i) => `<li>${i}</li>`).join("")}</ul>
      <h3>Method</h3><p>Rub the butter into the flour.</p><p>Bake until golden.<br>It keeps for two days in a tin.</p></div>`;
    const r = await imported(page(`<meta property="og:title" content="Plum Crumble">`, body));
    expect(r.steps).toEqual([
      "Rub the butter into the flour.",
      "Bake until golden. It keeps for two days in a tin.",
    ]);
  });

  it("keeps one step whose text a <br> wraps", async () => {
    const body = `<h1>Plum Crumble</h1><div class="entry-content"><h3>Ingredients</h3><ul>${ing.map((i) => `<li>${i}</li>`).join("")}</ul>
      <h3>Method</h3><p>Heat the oven and rub the butter<br>into the flour until it crumbles.</p><p>Bake until golden.</p></div>`;
    const r = await imported(page(`<meta property="og:title" content="Plum Crumble">`, body));
    expect(r.steps).toEqual([
      "Heat the oven and rub the butter into the flour until it crumbles.",
      "Bake until golden.",
    ]);
  });

  it("reads a Mediavine Create card", async () => {
    const body = `<h1>Plum Crumble</h1><div class="mv-create-card">
      <div class="mv-create-ingredients"><h3>Ingredients</h3><ul>${ing.map((i) => `<li>${i}</li>`).join("")}</ul></div>
      <div class="mv-create-instructions"><h3>Instructions</h3><ol>${STEPS.map((s) => `<li>${s}</li>`).join("")}</ol></div>
    </div>`;
    const r = await imported(page(`<meta property="og:title" content="Plum Crumble">`, body));
    expect(r.ingredients).toEqual(ing);
    expect(r.steps).toEqual(STEPS);
  });
});

describe("microformats", () => {
  it("reads the classic hRecipe microformat (.hrecipe, .ingredient, .instructions)", async () => {
    const body = `<div class="hrecipe"><h2 class="fn">Plum Crumble</h2>
      <ul>${base.recipeIngredient.map((i) => `<li class="ingredient">${i}</li>`).join("")}</ul>
      <div class="instructions"><ol>${STEPS.map((s) => `<li>${s}</li>`).join("")}</ol></div></div>`;
    const r = await imported(
      page(`<meta property="og:title" content="Plum Crumble">`, `<h1>Plum Crumble</h1>${body}`),
    );
    expect(r.ingredients).toEqual(base.recipeIngredient);
    expect(r.steps).toEqual(STEPS);
  });
});

describe("organizers and nutrition", () => {
  it("reads keywords as a string and as an array, categories and cuisine as arrays", async () => {
    const r1 = await imported(
      page(ld({ ...base, keywords: "plums, crumble,autumn", recipeCategory: ["Dessert", "Baking"] })),
    );
    expect(r1.recipe.tags).toEqual(["Plums", "Crumble", "Autumn"]);
    expect(r1.recipe.recipeCategory).toEqual(["Dessert", "Baking"]);
    const r2 = await imported(
      page(ld({ ...base, keywords: ["plums", "crumble"], recipeCategory: "Dessert" })),
    );
    expect(r2.recipe.tags).toEqual(["Plums", "Crumble"]);
    expect(r2.recipe.recipeCategory).toEqual(["Dessert"]);
  });

  it("reads a category list written as one comma-separated string", async () => {
    const r = await imported(page(ld({ ...base, recipeCategory: "Dessert, Baking" })));
    expect(r.recipe.recipeCategory).toEqual(["Dessert", "Baking"]);
  });

  it("reads nutrition", async () => {
    const r = await imported(
      page(
        ld({
          ...base,
          nutrition: {
            "@type": "NutritionInformation",
            calories: "320 kcal",
            fatContent: "12 g",
            sugarContent: "18.5g",
          },
        }),
      ),
    );
    expect(r.recipe.nutrition).toMatchObject({ calories: "320", fatContent: "12", sugarContent: "18.5" });
  });

  it("reads a Recipe whose author is an array", async () => {
    const r = await imported(
      page(
        ld({
          ...base,
          author: [
            { "@type": "Person", name: "Ann" },
            { "@type": "Person", name: "Bo" },
          ],
        }),
      ),
    );
    expect(r.steps).toEqual(STEPS);
  });
});

describe("several Recipe objects on one page", () => {
  const other = {
    "@type": "Recipe",
    name: "Custard",
    recipeIngredient: ["500 ml milk", "4 egg yolks", "50 g sugar"],
    recipeInstructions: ["Warm the milk.", "Whisk the yolks with the sugar.", "Stir together over low heat."],
  };
  it("chooses the one named like the page's heading", async () => {
    const r = await imported(
      page(`<meta property="og:title" content="Plum Crumble">${ld(other, base)}`, "<h1>Plum Crumble</h1>"),
    );
    expect(r.recipe.name).toBe("Plum Crumble");
    const r2 = await imported(
      page(`<meta property="og:title" content="Plum Crumble">${ld(base, other)}`, "<h1>Plum Crumble</h1>"),
    );
    expect(r2.recipe.name).toBe("Plum Crumble");
  });

  it("chooses the one named like the page's heading when the other comes first in a list", async () => {
    const r = await imported(page(ld([other, base]), "<h1>Plum crumble</h1>"));
    expect(r.recipe.name).toBe("Plum Crumble");
  });

  it("chooses the most complete when no heading names one", async () => {
    const stub = {
      "@type": "Recipe",
      name: "Plum Crumble",
      recipeIngredient: ["6 plums"],
      recipeInstructions: ["Bake."],
    };
    const r = await imported(page(ld(stub, base)));
    expect(r.ingredients).toEqual(base.recipeIngredient);
  });
});

describe("recipe data only in an app's page state", () => {
  const script = (id: string, state: unknown) =>
    `<script id="${id}" type="application/json">${JSON.stringify(state)}</script>`;
  const { "@context": _context, ...recipe } = base;

  it("reads a schema.org Recipe inside Next.js's __NEXT_DATA__", async () => {
    const state = {
      props: { pageProps: { site: { menu: [{ label: "Home" }] }, article: { schema: recipe } } },
      page: "/recipes/[slug]",
      buildId: "b1",
    };
    const r = await imported(page("", `<div id="__next"></div>${script("__NEXT_DATA__", state)}`));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(base.recipeIngredient);
    expect(r.steps).toEqual(STEPS);
  });

  it("reads JSON-LD a Next.js page keeps as a string prop, and a Recipe without @type", async () => {
    const asString = { props: { pageProps: { seo: { jsonLd: JSON.stringify(base) } } } };
    expect((await imported(page("", script("__NEXT_DATA__", asString)))).steps).toEqual(STEPS);
    const { "@type": _type, ...untyped } = recipe;
    const r = await imported(
      page("", script("__NEXT_DATA__", { props: { pageProps: { recipe: untyped } } })),
    );
    expect(r.ingredients).toEqual(base.recipeIngredient);
  });

  it("reads a Recipe in a Nuxt window.__NUXT__ object", async () => {
    const state = { data: [{ post: { title: "Plum crumble", structured: recipe } }], state: {} };
    const r = await imported(page("", `<script>window.__NUXT__=${JSON.stringify(state)};</script>`));
    expect(r.steps).toEqual(STEPS);
  });

  it("prefers the page's JSON-LD to its app state", async () => {
    const state = { props: { pageProps: { related: { ...recipe, name: "Custard" } } } };
    const r = await imported(page(ld(base), script("__NEXT_DATA__", state)));
    expect(r.recipe.name).toBe("Plum Crumble");
  });

  it("takes nothing from app state that holds no schema.org Recipe", async () => {
    const state = { props: { pageProps: { dish: { title: "Plum Crumble", ingredients: ["6 plums"] } } } };
    const r = await importPage(
      { type: "html", html: page("", script("__NEXT_DATA__", state)), url: URL_ },
      ctx,
    )
      .then(() => "imported")
      .catch(() => "refused");
    expect(r).toBe("refused");
  });

  it("returns on hostile page state: deep nesting and a huge number of nodes", async () => {
    const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const wide = JSON.stringify({ props: { list: Array.from({ length: 300_000 }, (_, i) => ({ i })) } });
    for (const state of [deep, wide]) {
      const html = page("", `<script id="__NEXT_DATA__" type="application/json">${state}</script>`);
      const r = await importPage({ type: "html", html, url: URL_ }, ctx).then(
        () => "imported",
        () => "refused",
      );
      expect(r).toBe("refused");
    }
  });
});
