/**
 * n8n-nodes-mealie (dineiar/n8n-nodes-mealie), replayed against Larder: its "Create Recipe from HTML
 * or JSON" node builds a schema.org Recipe from form fields, sends it as the string `data` with
 * `includeTags` and an optional source `url`, and reads the answered slug (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server.js";
import { send } from "./send.js";

let t: TestServer;
let token: string;
type Json = Record<string, unknown>;

async function node(method: string, path: string, body?: unknown) {
  return send(t.url + path, {
    method,
    headers: {
      Accept: "application/json",
      "Content-Type": "application/json",
      Authorization: `Bearer ${token}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  t = await startTestServer();
  const login = await t.login();
  const made = await t.api("/api/users/api-tokens", { method: "POST", token: login, json: { name: "n8n" } });
  token = ((await made.json()) as { token: string }).token;
});
afterAll(async () => t?.close());

describe("n8n-nodes-mealie against Larder", () => {
  it("simple mode: a JSON-LD recipe built from fields, with tags, times, yield and a source URL", async () => {
    const jsonLd = {
      "@context": "https://schema.org",
      "@type": "Recipe",
      name: "Workflow Flatbread",
      description: "Made by a workflow",
      recipeCategory: "Bread",
      recipeCuisine: "Levantine",
      keywords: "quick, vegan",
      recipeYield: "4 flatbreads",
      prepTime: "PT15M",
      cookTime: "PT10M",
      totalTime: "PT25M",
      recipeIngredient: ["2 cups flour", "1 cup water", "1 tsp salt"],
      recipeInstructions: [
        { "@type": "HowToStep", text: "Mix." },
        { "@type": "HowToStep", text: "Cook in a hot pan." },
      ],
    };
    const made = await node("POST", "/api/recipes/create/html-or-json", {
      data: JSON.stringify(jsonLd),
      includeTags: true,
      url: "https://example.com/flatbread",
    });
    expect(made.status).toBe(201);
    expect(typeof made.body).toBe("string");
    const r = (await node("GET", `/api/recipes/${made.body as string}`)).body as Json;
    expect(r.name).toBe("Workflow Flatbread");
    expect(r.orgURL).toBe("https://example.com/flatbread");
    expect(r.recipeYield).toBe("4 flatbreads");
    expect((r.recipeIngredient as Json[]).length).toBe(3);
    expect((r.recipeInstructions as Json[]).map((s) => s.text)).toEqual(["Mix.", "Cook in a hot pan."]);
    // Mealie title-cases scraped keywords.
    expect((r.tags as Json[]).map((g) => g.name).sort()).toEqual(["Quick", "Vegan"]);
    expect(r.prepTime).toBeTruthy();
  });

  it("advanced mode: raw HTML with the recipe's markup, without tags", async () => {
    const ld = {
      "@context": "https://schema.org",
      "@type": "Recipe",
      name: "Workflow Soup",
      keywords: "soup",
      recipeIngredient: ["1 leek"],
      recipeInstructions: "Simmer the leek.",
    };
    const html = `<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`;
    const made = await node("POST", "/api/recipes/create/html-or-json", { data: html, includeTags: false });
    expect(made.status).toBe(201);
    const r = (await node("GET", `/api/recipes/${made.body as string}`)).body as Json;
    expect(r.name).toBe("Workflow Soup");
    expect(r.tags).toEqual([]);
  });
});
