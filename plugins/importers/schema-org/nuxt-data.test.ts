/**
 * Recipes a Nuxt 3 site ships only in `<script id="__NUXT_DATA__">`, devalue's flat table of values.
 * Each page and payload here is invented and laid out by hand as Nuxt writes one: the root wrapped in
 * ShallowReactive, `data` keyed by the fetch, `state` for useState, refs around values.
 */
import { describe, expect, it } from "vitest";
import { importPage } from "./scrape.js";
import { importedPage } from "./imported-page.js";
import { PAGE_MAX_BYTES } from "./page.js";
import type { PluginContext } from "../../../core/plugins/kinds.js";

const ctx = {} as PluginContext;
const URL_ = "https://cook.example/recipes/plum-crumble";

const imported = (html: string, url = URL_) => importedPage(html, url);

const refused = (html: string) =>
  importPage({ type: "html", html, url: URL_ }, ctx).then(
    () => "imported",
    () => "refused",
  );

const nuxtData = (payload: unknown, attrs = 'id="__NUXT_DATA__"') =>
  `<script type="application/json" data-ssr="true" ${attrs}>${JSON.stringify(payload)}</script>`;

/** Nuxt 3 also writes its runtime config into window.__NUXT__: no recipe there, and nothing to trip on. */
const CONFIG = `<script>window.__NUXT__={};window.__NUXT__.config={public:{},app:{baseURL:"/",cdnURL:""}}</script>`;

const page = (head: string, body: string) =>
  `<!doctype html><html><head><title>Plum crumble | Cook Example</title>${head}</head>` +
  `<body><div id="__nuxt"><h1>Plum Crumble</h1></div>${body}</body></html>`;

const INGREDIENTS = ["6 plums, halved", "100 g flour", "60 g butter"];
const STEPS = [
  "Heat the oven to 180 C.",
  "Rub the butter into the flour.",
  "Scatter over the plums and bake.",
];

/** A fetched article whose `schema` field holds a schema.org Recipe, as useFetch leaves it in `data`. */
const ARTICLE = [
  ["ShallowReactive", 1],
  { data: 2, state: 28, once: 31, _errors: 32, serverRendered: 34, path: 35 },
  ["ShallowReactive", 3],
  { "recipe-plum-crumble": 4 },
  { title: 5, slug: 6, related: 7, schema: 9 },
  "Plum crumble | Cook Example",
  "plum-crumble",
  ["Set", 8],
  "apple-crumble",
  {
    "@type": 10,
    name: 11,
    image: 12,
    recipeYield: 15,
    prepTime: 16,
    cookTime: 17,
    totalTime: 18,
    recipeIngredient: 19,
    recipeInstructions: 23,
    datePublished: 27,
  },
  "Recipe",
  "Plum Crumble",
  { "@type": 13, url: 14 },
  "ImageObject",
  "https://cdn.cook.example/plum-crumble.jpg",
  "Serves 6",
  "PT15M",
  "PT35M",
  "PT50M",
  [20, 21, 22],
  ...INGREDIENTS,
  [24, 25, 26],
  { "@type": 36, text: 37 },
  { "@type": 36, text: 38 },
  { "@type": 36, text: 39 },
  ["Date", "2026-11-30T09:00:00.000Z"],
  ["Reactive", 29],
  { "$scookie-consent": 30 },
  ["EmptyRef", 40],
  ["Set"],
  ["ShallowReactive", 33],
  { "recipe-plum-crumble": -1 },
  true,
  "/recipes/plum-crumble",
  "HowToStep",
  ...STEPS,
  "false",
];

describe("recipe data only in Nuxt 3's __NUXT_DATA__", () => {
  it("reads a schema.org Recipe from the flat payload, every field a user sees", async () => {
    const r = await imported(page("", nuxtData(ARTICLE) + CONFIG));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(INGREDIENTS);
    expect(r.steps).toEqual(STEPS);
    expect(r.recipe.recipeYield).toBe("6 servings");
    expect(r.recipe.recipeServings).toBe(6);
    expect([r.recipe.prepTime, r.recipe.performTime, r.recipe.totalTime]).toEqual([
      "15 minutes",
      "35 minutes",
      "50 minutes",
    ]);
    expect(r.image).toBe("https://cdn.cook.example/plum-crumble.jpg");
  });

  it("reads an untyped recipe with a recipeIngredient list from useState, in a payload named by data-nuxt-data", async () => {
    const payload = [
      ["Reactive", 1],
      { state: 2 },
      { $srecipe: 3 },
      ["Ref", 4],
      { name: 5, recipeIngredient: 6, recipeInstructions: 10 },
      "Plum Crumble",
      [7, 8, 9],
      ...INGREDIENTS,
      [11, 12, 13],
      ...STEPS,
    ];
    const r = await imported(page("", nuxtData(payload, 'data-nuxt-data="shop-app"')));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(INGREDIENTS);
    expect(r.steps).toEqual(STEPS);
  });

  it("reads JSON-LD the payload keeps as a string", async () => {
    const recipe = { "@context": "https://schema.org", "@type": "Recipe", name: "Plum Crumble" };
    const ld = JSON.stringify({ ...recipe, recipeIngredient: INGREDIENTS, recipeInstructions: STEPS });
    const payload = [["ShallowReactive", 1], { data: 2 }, { seo: 3 }, { jsonLd: 4 }, ld];
    expect((await imported(page("", nuxtData(payload)))).steps).toEqual(STEPS);
  });

  it("prefers the page's JSON-LD to its Nuxt 3 payload", async () => {
    const ld = JSON.stringify({
      "@context": "https://schema.org",
      "@type": "Recipe",
      name: "Plum Crumble",
      recipeIngredient: ["8 plums"],
      recipeInstructions: ["Bake the plums."],
    });
    const custard = ARTICLE.map((v) => (v === "Plum Crumble" ? "Custard" : v));
    const r = await imported(page(`<script type="application/ld+json">${ld}</script>`, nuxtData(custard)));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.ingredients).toEqual(["8 plums"]);
  });

  it("reads undefined, NaN and the infinities as JSON would have them: no field reads 'NaN'", async () => {
    const odd = ARTICLE.map((v, i) =>
      i === 9 ? { ...(v as object), recipeYield: -3, totalTime: -4, description: -1 } : v,
    );
    const r = await imported(page("", nuxtData(odd)));
    expect(r.recipe.name).toBe("Plum Crumble");
    expect(r.recipe.recipeYield).toBeNull();
    expect(r.recipe.totalTime).toBe("50 minutes");
  });

  it("reads a payload that names one long text many times as no more text than a page holds", async () => {
    const long = "6 plums ".repeat(12_500);
    const payload = [
      { "@type": 1, name: 2, recipeIngredient: 3, recipeInstructions: 5 },
      "Recipe",
      "Plum Crumble",
      Array.from({ length: 150_000 }, () => 4),
      long,
      [6],
      "Bake.",
    ];
    const r = await imported(page("", nuxtData(payload)));
    const text = r.ingredients.reduce((n, s) => n + s.length, 0);
    expect(text).toBeGreaterThan(0);
    expect(text).toBeLessThanOrEqual(PAGE_MAX_BYTES);
  });

  it("takes nothing from a payload that is broken, cyclic, not devalue or holds no recipe", async () => {
    const chain = Array.from({ length: 100_000 }, (_, i) => ({ next: i + 1 }));
    const bodies = [
      `<script type="application/json" id="__NUXT_DATA__">[{"data":</script>`,
      nuxtData({ data: { name: "Plum Crumble", recipeIngredient: INGREDIENTS } }),
      nuxtData([{ name: 1, recipeIngredient: 99 }, "Plum Crumble"]),
      nuxtData([["Ref", 1], { self: 0, more: 1 }]),
      nuxtData(chain),
      nuxtData([{ title: 1, ingredients: 2 }, "Plum Crumble", [3], "6 plums"]),
    ];
    for (const body of bodies) expect(await refused(page("", body))).toBe("refused");
  });
});
