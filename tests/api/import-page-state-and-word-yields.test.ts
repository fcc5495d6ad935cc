/**
 * Recipe pages whose data only this round's importer reads, imported through the API as a user does
 * and read back: a Next.js page whose recipe is in its __NEXT_DATA__ state with a yield in words, and a
 * WordPress-style page whose JSON-LD leaves quotes unescaped. The pages are invented.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

const recipe = {
  "@type": "Recipe",
  name: "Pear Galette",
  recipeYield: "Serves four",
  recipeIngredient: ["3 pears", "1 sheet pastry", "2 tbsp sugar"],
  recipeInstructions: [
    { "@type": "HowToSection", name: "Fruit", steps: [{ "@type": "HowToStep", text: "Slice the pears." }] },
    { "@type": "HowToSection", name: "Bake", steps: [{ "@type": "HowToStep", text: "Fold and bake." }] },
  ],
};

const PAGES: Record<string, string> = {
  "/next": `<!doctype html><html><head><title>Pear galette</title></head><body><div id="__next"></div>
<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({
    props: { pageProps: { post: { slug: "pear-galette", schema: recipe } } },
    page: "/[slug]",
  })}</script></body></html>`,
  "/quotes": `<!doctype html><html><head><title>Pear galette</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Plum "Galette"",
"recipeYield":"für vier Personen","recipeIngredient":["3 pears","1 sheet 10" pastry"],
"recipeInstructions":[{"@type":"HowToStep","text":"Roll to a 10" round."}]}</script></head><body></body></html>`,
};

let t: TestServer;
let token: string;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  site = createServer((req, res) => {
    const html = PAGES[req.url ?? ""];
    if (!html) return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  token = await t.login();
});

afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  await t?.close();
});

interface Imported {
  name: string;
  recipeYield: string | null;
  recipeServings: number;
  recipeIngredient: { originalText: string | null; display: string }[];
  recipeInstructions: { text: string; title: string | null }[];
}

async function importPage(path: string): Promise<Imported> {
  const res = await t.api("/api/recipes/create/url", {
    method: "POST",
    token,
    json: { url: siteUrl + path },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const slug = (await res.json()) as string;
  const r = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as Imported;
  if (hasContract) assertContract("Recipe-Output", r);
  return r;
}

describe("importing pages this round's importer reads", () => {
  it("imports a Next.js page's recipe from its state, the yield's words kept and its servings counted", async () => {
    const r = await importPage("/next");
    expect(r.name).toBe("Pear Galette");
    expect(r.recipeYield).toBe("Serves four");
    expect(r.recipeServings).toBe(4);
    expect(r.recipeInstructions.map((s) => [s.title ?? "", s.text])).toEqual([
      ["Fruit", "Slice the pears."],
      ["Bake", "Fold and bake."],
    ]);
  });

  it("imports JSON-LD with unescaped quotes, and a German yield in words", async () => {
    const r = await importPage("/quotes");
    expect(r.name).toBe('Plum "Galette"');
    expect(r.recipeIngredient.map((i) => i.originalText ?? i.display)).toEqual([
      "3 pears",
      '1 sheet 10" pastry',
    ]);
    expect(r.recipeInstructions.map((s) => s.text)).toEqual(['Roll to a 10" round.']);
    expect([r.recipeYield, r.recipeServings]).toEqual(["für vier Personen", 4]);
  });
});
