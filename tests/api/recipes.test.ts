import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

async function create(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api("/api/recipes", { method: "POST", token, json: { name, ...extra } });
  expect(res.status).toBe(201);
  return (await res.json()) as string;
}

describe("recipes", () => {
  it("creates a recipe as a Markdown file and answers with its slug", async () => {
    const slug = await create("Skillet Shepherd's Pie");
    expect(slug).toBe("skillet-shepherd-s-pie");
    const text = await readFile(join(t.dataDir, "groups", "home", "recipes", `${slug}.md`), "utf8");
    expect(text).toMatch(/^---\n/);
    expect(text).toContain("name: Skillet Shepherd's Pie");
  });

  it("serves a recipe by slug or id in the Recipe-Output shape", async () => {
    const slug = await create("Contract Stew");
    const res = await t.api(`/api/recipes/${slug}`, { token });
    expect(res.status).toBe(200);
    const r = (await res.json()) as Record<string, unknown>;
    if (hasContract) assertContract("Recipe-Output", r);
    const byId = await t.api(`/api/recipes/${r.id}`, { token });
    expect(((await byId.json()) as { slug: string }).slug).toBe(slug);
  });

  it("deduplicates names: Pasta, Pasta (1), Pasta (2)", async () => {
    expect(await create("Pasta")).toBe("pasta");
    expect(await create("Pasta")).toBe("pasta-1");
    expect(await create("Pasta")).toBe("pasta-2");
    const r = (await (await t.api("/api/recipes/pasta-1", { token })).json()) as { name: string };
    expect(r.name).toBe("Pasta (1)");
  });

  it("PATCH changes only what is sent, keeps structure, and PUT with a new name renames the file", async () => {
    const slug = await create("Tomato Soup");
    const patch = await t.api(`/api/recipes/${slug}`, {
      method: "PATCH",
      token,
      json: {
        description: "Bright and quick.",
        tags: [{ name: "Quick" }],
        recipe_category: [{ name: "Soups" }],
        recipeIngredient: [
          { quantity: 2, unit: { name: "cup" }, food: { name: "tomato" }, note: "chopped" },
          { note: "Salt to taste" },
        ],
        recipeInstructions: [{ text: "Simmer." }],
        unknownField: "ignored",
      },
    });
    expect(patch.status).toBe(200);
    const r = (await patch.json()) as Record<string, unknown>;
    expect(r).toMatchObject({
      description: "Bright and quick.",
      tags: [{ name: "Quick" }],
      recipeCategory: [{ slug: "soups" }],
      recipeIngredient: [{ quantity: 2, food: { name: "tomato" } }, { note: "Salt to taste" }],
    });
    expect(r.unknownField).toBeUndefined();
    if (hasContract) assertContract("Recipe-Output", r);

    const put = await t.api(`/api/recipes/${slug}`, {
      method: "PUT",
      token,
      json: { ...r, name: "Roasted Tomato Soup" },
    });
    expect(put.status).toBe(200);
    const renamed = (await put.json()) as { slug: string; id: string; description: string };
    if (hasContract) assertContract("Recipe-Output", renamed);
    expect(renamed.slug).toBe("roasted-tomato-soup");
    expect(renamed.id).toBe(r.id);
    const files = await readdir(join(t.dataDir, "groups", "home", "recipes"));
    expect(files).toContain("roasted-tomato-soup.md");
    expect(files).not.toContain("tomato-soup.md");
  });

  it("ignores a PATCH of the read-only rating", async () => {
    const slug = await create("Rated Thing");
    const r = (await (
      await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { rating: 5 } })
    ).json()) as { rating: unknown };
    expect(r.rating).toBeNull();
  });

  it("renaming into an existing slug is a 400 'Recipe already exists'", async () => {
    await create("Alpha Dish");
    const slug = await create("Beta Dish");
    const res = await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { name: "Alpha Dish" } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Recipe already exists");
  });

  it("lists in the pagination envelope with Mealie's fields", async () => {
    const res = await t.api("/api/recipes?page=1&perPage=2&orderBy=name&orderDirection=asc", { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      items: { name: string }[];
      per_page: number;
      total: number;
      next: string | null;
    };
    expect(body.per_page).toBe(2);
    expect(body.items).toHaveLength(2);
    expect(body.next).toContain("page=2");
    if (hasContract) assertContract("PaginationBase_RecipeSummary_", body);
  });

  it("filters with queryFilter and answers 400 on a malformed one", async () => {
    const ok = await t.api(
      `/api/recipes?queryFilter=${encodeURIComponent('name LIKE "Pasta%"')}&perPage=-1`,
      { token },
    );
    const body = (await ok.json()) as { items: { name: string }[] };
    expect(body.items.map((i) => i.name).sort()).toEqual(["Pasta", "Pasta (1)", "Pasta (2)"]);
    const bad = await t.api(`/api/recipes?queryFilter=${encodeURIComponent("(name = x")}`, { token });
    expect(bad.status).toBe(400);
    const unknown = await t.api(`/api/recipes?queryFilter=${encodeURIComponent("nope = 1")}`, { token });
    expect(unknown.status).toBe(400);
  });

  it("orders randomly and stably with a seed, and requires the seed", async () => {
    const a = await (
      await t.api("/api/recipes?orderBy=random&paginationSeed=abc&perPage=-1", { token })
    ).json();
    const b = await (
      await t.api("/api/recipes?orderBy=random&paginationSeed=abc&perPage=-1", { token })
    ).json();
    expect(a).toEqual(b);
    expect((await t.api("/api/recipes?orderBy=random", { token })).status).toBe(422);
  });

  it("searches accent- and case-insensitively", async () => {
    await create("Crème Brûlée");
    const body = (await (await t.api("/api/recipes?search=creme%20brulee", { token })).json()) as {
      items: { name: string }[];
    };
    expect(body.items[0].name).toBe("Crème Brûlée");
  });

  it("answers a repeated search from memory, and forgets it when a recipe changes", async () => {
    const names = async (path: string) =>
      ((await (await t.api(path, { token })).json()) as { items: { name: string }[] }).items.map(
        (i) => i.name,
      );
    await create("Quince Paste");
    expect(await names("/api/recipes?search=quince")).toEqual(["Quince Paste"]);
    expect(await names("/api/recipes?search=quince&perPage=1&page=2")).toEqual([]);
    const slug = await create("Quince Jelly");
    expect((await names("/api/recipes?search=quince")).sort()).toEqual(["Quince Jelly", "Quince Paste"]);
    const renamed = await t.api(`/api/recipes/${slug}`, {
      method: "PATCH",
      token,
      json: { name: "Medlar Jelly" },
    });
    const { slug: newSlug } = (await renamed.json()) as { slug: string };
    expect(await names("/api/recipes?search=quince")).toEqual(["Quince Paste"]);
    expect(
      await names("/api/recipes?search=quince&perPage=1&page=1&orderBy=name&orderDirection=asc"),
    ).toEqual(["Quince Paste"]);
    // Relevance alone (answered from the remembered ranking) orders pages as the general path does.
    await create("Quince and Apple Crumble", { description: "quince" });
    const ranked = await names("/api/recipes?search=quince%20paste&perPage=10");
    const general = await names(
      `/api/recipes?search=quince%20paste&perPage=10&queryFilter=${encodeURIComponent("name IS NOT NULL")}`,
    );
    expect(ranked).toEqual(general);
    expect(ranked[0]).toBe("Quince Paste");
    const paged = [1, 2, 3].map((page) => names(`/api/recipes?search=quince%20paste&perPage=1&page=${page}`));
    expect((await Promise.all(paged)).flat()).toEqual(ranked.slice(0, 3));
    expect((await t.api(`/api/recipes/${newSlug}`, { method: "DELETE", token })).status).toBe(200);
    expect(await names("/api/recipes?search=medlar")).toEqual([]);
  });

  it("duplicates with a new id and name, and deletes", async () => {
    const slug = await create("Original Bread");
    const dup = await t.api(`/api/recipes/${slug}/duplicate`, {
      method: "POST",
      token,
      json: { name: "Copied Bread" },
    });
    expect(dup.status).toBe(201);
    const copy = (await dup.json()) as { slug: string; id: string };
    if (hasContract) assertContract("Recipe-Output", copy);
    expect(copy.slug).toBe("copied-bread");
    const del = await t.api(`/api/recipes/${copy.slug}`, { method: "DELETE", token });
    expect(del.status).toBe(200);
    const gone = await t.api(`/api/recipes/${copy.slug}`, { token });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      detail: { message: "No Entry Found", error: true, exception: null },
    });
  });

  it("keeps hostile names as text: path traversal, NUL, YAML markers, very long names", async () => {
    const traversal = await create("../../etc/passwd");
    expect(traversal).toBe("etc-passwd");
    const yaml = await create("---\nname: evil: [x]");
    const r = (await (await t.api(`/api/recipes/${yaml}`, { token })).json()) as { name: string };
    expect(r.name).toBe("---\nname: evil: [x]".trim());
    const nul = await t.api("/api/recipes", { method: "POST", token, json: { name: "bad\u0000name" } });
    expect([201, 400, 422]).toContain(nul.status);
    const long = await t.api("/api/recipes", { method: "POST", token, json: { name: "x".repeat(10_000) } });
    expect(long.status).toBe(400);
    const files = await readdir(join(t.dataDir, "groups", "home", "recipes"));
    expect(files.every((f) => !f.includes("/") && !f.startsWith("."))).toBe(true);
  });

  it("updates by list with PUT /recipes and PATCH /recipes", async () => {
    const slug = await create("Bulk One");
    const r = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { id: string };
    const res = await t.api("/api/recipes", {
      method: "PATCH",
      token,
      json: [{ id: r.id, description: "bulk" }],
    });
    expect(res.status).toBe(200);
    const list = (await res.json()) as { description: string }[];
    expect(list[0].description).toBe("bulk");
  });
});
