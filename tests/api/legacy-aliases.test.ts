/**
 * Mealie v1 paths that Mealient (v1 mode) still calls, answered by the current handlers:
 * /api/groups/shopping/* (now under households) and POST /api/recipes/create-url.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { body } from "../support/people.js";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let token: string;
let page: Server;
let pageUrl: string;

beforeAll(async () => {
  page = createServer((_req, res) => {
    const ld = {
      "@context": "https://schema.org",
      "@type": "Recipe",
      name: "Legacy Lentils",
      recipeIngredient: ["1 cup lentils"],
      recipeInstructions: ["Simmer."],
    };
    res.setHeader("Content-Type", "text/html");
    res.end(
      `<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`,
    );
  });
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/lentils.html`;
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => page?.close(r));
});

const api = (path: string, method = "GET", json?: unknown, tok: string | null = token) =>
  t.api(path, { method, token: tok, json });

describe("Mealie v1 paths", () => {
  it("answers meal plans, today's meals and rules under /api/groups/mealplans as the household routes do", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const created = await api("/api/groups/mealplans", "POST", {
      date: today,
      entryType: "dinner",
      title: "Soup night",
    });
    expect(created.status).toBe(201);
    const entry = await body<{ id: string }>(created);
    expect(await body(await api(`/api/groups/mealplans/${entry.id}`))).toEqual(
      await body(await api(`/api/households/mealplans/${entry.id}`)),
    );
    const todays = await body<Array<{ id: string }>>(await api("/api/groups/mealplans/today"));
    expect(todays.map((e) => e.id)).toContain(entry.id);
    expect((await api("/api/groups/mealplans/rules")).status).toBe(200);
    expect((await api(`/api/groups/mealplans/${entry.id}`, "DELETE")).status).toBe(200);
  });

  it("answers shopping lists and items under /api/groups/shopping as the household routes do", async () => {
    const list = await body(await api("/api/groups/shopping/lists", "POST", { name: "Legacy List" }));
    const id = String(list.id);
    const same = await body(await api(`/api/households/shopping/lists/${id}`));
    expect(await body(await api(`/api/groups/shopping/lists/${id}`))).toEqual(same);
    const page1 = await body<{ items: Array<{ id: string }> }>(
      await api("/api/groups/shopping/lists?page=1&perPage=50"),
    );
    expect(page1.items.map((l) => l.id)).toContain(id);

    const created = await body<{ createdItems: Array<Record<string, unknown>> }>(
      await api("/api/groups/shopping/items", "POST", { shoppingListId: id, note: "oat milk" }),
    );
    const item = created.createdItems[0];
    const updated = await api(`/api/groups/shopping/items/${String(item.id)}`, "PUT", {
      ...item,
      checked: true,
    });
    expect(updated.status).toBe(200);
    expect(await body(await api(`/api/households/shopping/items/${String(item.id)}`))).toMatchObject({
      checked: true,
    });
    expect((await api(`/api/groups/shopping/items/${String(item.id)}`, "DELETE")).status).toBe(200);
    expect((await api(`/api/households/shopping/items/${String(item.id)}`)).status).toBe(404);
  });

  it("keeps the household routes' permissions on the aliases", async () => {
    expect((await api("/api/groups/shopping/lists", "GET", undefined, null)).status).toBe(401);
  });

  it("creates a recipe from a URL at POST /api/recipes/create-url, answering its slug", async () => {
    const res = await api("/api/recipes/create-url", "POST", { url: pageUrl, includeTags: false });
    expect(res.status).toBe(201);
    const slug = (await res.json()) as string;
    expect(slug).toBe("legacy-lentils");
    expect(await body(await api(`/api/recipes/${slug}`))).toMatchObject({ name: "Legacy Lentils" });
  });
});
