/**
 * Mealie's own scraper test pages (../shared/fixtures/recipe-pages/_mealie, see its SOURCE.md): imported
 * through the API, each gives the slug, ingredient, step and nutrition counts, and (for one page) the
 * tag set that Mealie's tests expect. Skipped when the shared fixtures are absent, except under CI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startTestServer, type TestServer } from "../support/server.js";

const DIR = fileURLToPath(new URL("../../../shared/fixtures/recipe-pages/_mealie/", import.meta.url));
const present = existsSync(`${DIR}expected.json`);
if (!present) {
  if (process.env.CI === "true") throw new Error(`Mealie's test pages are missing at ${DIR}`);
  console.warn(`import-mealie-pages.test: skipped, no pages at ${DIR}`);
}

interface Case {
  html: string;
  url: string;
  expected_slug: string;
  num_ingredients: number;
  num_steps: number;
  num_nutrition_entries: number;
  expected_tags?: string[];
}

/**
 * Where Larder cannot give Mealie's count, and why. Mealie's one step for this page comes from a
 * site-specific scraper reading the page's HTML: its schema.org data has no instructions, and Larder's
 * importer has no per-site rules (the pages are a sample of the web, not the target).
 */
const NOT_FROM_SCHEMA: Record<string, string> = {
  "sous-vide-shrimp": "the page's schema.org Recipe has no recipeInstructions",
};

/**
 * Mealie's count is of every key with a number, `servingSize` included; the v3.19.2 contract's
 * Nutrition (and so Larder) has no `servingSize`, so a page that gives one yields one entry fewer.
 */
function nutritionEntriesLarderCanKeep(html: string, mealieCount: number): number {
  return /"servingSize"\s*:\s*"[^"]*\d/.test(html) ? mealieCount - 1 : mealieCount;
}

describe.skipIf(!present)("Mealie's scraper test pages", () => {
  let t: TestServer;
  let token: string;
  let site: Server;
  let base: string;
  const cases: Case[] = present
    ? (JSON.parse(readFileSync(`${DIR}expected.json`, "utf8")) as { cases: Case[] }).cases
    : [];

  beforeAll(async () => {
    site = createServer((req, res) => {
      const name = decodeURIComponent((req.url ?? "/").slice(1));
      const c = cases.find((x) => x.html === name);
      if (!c) return void res.writeHead(404).end();
      res.writeHead(200, { "Content-Type": "text/html" }).end(readFileSync(`${DIR}${c.html}`));
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await startTestServer({ fetchAllow: "127.0.0.1" });
    token = await t.login();
  });
  afterAll(async () => {
    await new Promise((r) => site?.close(r));
    await t?.close();
  });

  for (const c of cases) {
    const gap = NOT_FROM_SCHEMA[c.expected_slug];
    (gap ? it.skip : it)(
      `${c.expected_slug}${gap ? ` (not comparable: ${gap})` : ""}: ${c.num_ingredients} ingredients, ${c.num_steps} steps, ${c.num_nutrition_entries} nutrition entries`,
      async () => {
        const res = await t.api("/api/recipes/create/url", {
          method: "POST",
          token,
          json: { url: `${base}/${c.html}`, includeTags: true },
        });
        expect(res.status).toBe(201);
        const slug = (await res.json()) as string;
        expect(slug).toBe(c.expected_slug);
        const recipe = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as {
          recipeIngredient: unknown[];
          recipeInstructions: unknown[];
          nutrition: Record<string, unknown>;
          tags: { name: string }[];
        };
        expect(recipe.recipeIngredient).toHaveLength(c.num_ingredients);
        expect(recipe.recipeInstructions).toHaveLength(c.num_steps);
        expect(Object.values(recipe.nutrition ?? {}).filter((v) => v !== null && v !== "")).toHaveLength(
          nutritionEntriesLarderCanKeep(readFileSync(`${DIR}${c.html}`, "utf8"), c.num_nutrition_entries),
        );
        if (c.expected_tags)
          expect(recipe.tags.map((x) => x.name).sort()).toEqual([...c.expected_tags].sort());
      },
    );
  }
});
