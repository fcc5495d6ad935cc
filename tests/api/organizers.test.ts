import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, writeFile } from "node:fs/promises";
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

describe("organizers", () => {
  const shapes = {
    categories: {
      created: "CategoryOut",
      one: "CategorySummary",
      page: "RecipeCategoryPagination",
      bySlug: null,
    },
    tags: {
      created: "TagOut",
      one: "RecipeTagResponse",
      page: "RecipeTagPagination",
      bySlug: "RecipeTagResponse",
    },
    tools: {
      created: "RecipeTool",
      one: "RecipeTool",
      page: "RecipeToolPagination",
      bySlug: "RecipeToolResponse",
    },
  } as const;
  for (const [kind, shape] of Object.entries(shapes) as [
    keyof typeof shapes,
    (typeof shapes)[keyof typeof shapes],
  ][]) {
    const schema = shape.created;
    it(`${kind}: create (slug = name), read, by slug, list, empty, rename, delete`, async () => {
      const name = `weeknight${kind}`;
      const res = await t.api(`/api/organizers/${kind}`, { method: "POST", token, json: { name } });
      expect(res.status).toBe(201);
      const o = (await res.json()) as { id: string; slug: string; name: string };
      expect(o.slug).toBe(name);
      if (hasContract) assertContract(schema, o);
      const one = await t.api(`/api/organizers/${kind}/${o.id}`, { token });
      expect(one.status).toBe(200);
      if (hasContract) assertContract(shape.one, await one.json());
      const bySlug = (await (await t.api(`/api/organizers/${kind}/slug/${o.slug}`, { token })).json()) as {
        recipes: unknown[];
      };
      expect(bySlug.recipes).toEqual([]);
      if (hasContract && shape.bySlug) assertContract(shape.bySlug, bySlug);
      const list = (await (await t.api(`/api/organizers/${kind}`, { token })).json()) as {
        items: { name: string }[];
      };
      if (hasContract) assertContract(shape.page, list);
      expect(list.items.map((i) => i.name)).toContain(name);
      const empty = (await (await t.api(`/api/organizers/${kind}/empty`, { token })).json()) as {
        name: string;
      }[];
      expect(empty.map((i) => i.name)).toContain(name);
      const dup = await t.api(`/api/organizers/${kind}`, { method: "POST", token, json: { name } });
      expect(dup.status).toBe(400);
      const put = await t.api(`/api/organizers/${kind}/${o.id}`, {
        method: "PUT",
        token,
        json: { name: `${name} renamed` },
      });
      expect(put.status).toBe(200);
      const deleted = await t.api(`/api/organizers/${kind}/${o.id}`, { method: "DELETE", token });
      expect(deleted.status).toBe(200);
      // As Mealie: the tool back, null for a tag or a category.
      const body: unknown = await deleted.json();
      if (kind === "tools") expect(body).toMatchObject({ id: o.id, name: `${name} renamed` });
      else expect(body).toBeNull();
      expect((await t.api(`/api/organizers/${kind}/${o.id}`, { token })).status).toBe(404);
    });
  }

  it("lists newest first when no order is asked for, as Mealie does (created_at desc)", async () => {
    for (const kind of ["categories", "tags", "tools"] as const) {
      for (const name of [`zz older ${kind}`, `aa newer ${kind}`])
        expect(
          (await t.api(`/api/organizers/${kind}`, { method: "POST", token, json: { name } })).status,
        ).toBe(201);
      const names = async (query: string) =>
        (
          (await (await t.api(`/api/organizers/${kind}?perPage=-1${query}`, { token })).json()) as {
            items: { name: string }[];
          }
        ).items.map((i) => i.name);
      const unordered = await names("");
      expect(unordered.indexOf(`aa newer ${kind}`)).toBeLessThan(unordered.indexOf(`zz older ${kind}`));
      const byName = await names("&orderBy=name&orderDirection=asc");
      expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b)));
      expect(byName.indexOf(`aa newer ${kind}`)).toBeLessThan(byName.indexOf(`zz older ${kind}`));
      const oldestFirst = await names("&orderBy=createdAt&orderDirection=asc");
      expect(oldestFirst.indexOf(`zz older ${kind}`)).toBeLessThan(oldestFirst.indexOf(`aa newer ${kind}`));
    }
  });

  it("renaming a tag rewrites the recipe files that name it", async () => {
    const slug = (await (
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Tagged Dish" } })
    ).json()) as string;
    await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { tags: [{ name: "Spicy" }] } });
    const tags = (await (await t.api("/api/organizers/tags?perPage=-1", { token })).json()) as {
      items: { id: string; name: string }[];
    };
    const spicy = tags.items.find((x) => x.name === "Spicy")!;
    await t.api(`/api/organizers/tags/${spicy.id}`, { method: "PUT", token, json: { name: "Hot" } });
    const text = await readFile(join(t.dataDir, "groups", "home", "recipes", `${slug}.md`), "utf8");
    expect(text).toContain("Hot");
    expect(text).not.toContain("Spicy");
  });
});

describe("organizers only recipe files name", () => {
  it("are found by the id and slug the list gives them, and can be renamed", async () => {
    const w = await startTestServer({}, { watch: true });
    try {
      const tok = await w.login();
      await writeFile(
        join(w.dataDir, "groups", "home", "recipes", "hand-soup.md"),
        "---\nname: Hand Soup\ncategories: [Brothy Things]\ntags: [Rainy Day]\ntools: [Stock Pot]\n---\nBy hand.\n",
      );
      for (const [kind, name] of [
        ["categories", "Brothy Things"],
        ["tags", "Rainy Day"],
        ["tools", "Stock Pot"],
      ] as const) {
        let listed: { id: string; slug: string; name: string } | undefined;
        for (let i = 0; i < 500 && !listed; i++) {
          const page = (await (await w.api(`/api/organizers/${kind}?perPage=-1`, { token: tok })).json()) as {
            items: { id: string; slug: string; name: string }[];
          };
          listed = page.items.find((o) => o.name === name);
          if (!listed) await new Promise((r) => setTimeout(r, 10));
        }
        expect(listed, `${kind} listed`).toBeDefined();
        const one = await w.api(`/api/organizers/${kind}/${listed!.id}`, { token: tok });
        expect(one.status).toBe(200);
        expect(((await one.json()) as { name: string }).name).toBe(name);
        const bySlug = await w.api(`/api/organizers/${kind}/slug/${listed!.slug}`, { token: tok });
        expect(bySlug.status).toBe(200);
        const body = (await bySlug.json()) as { id: string; recipes: { slug: string }[] };
        expect(body.id).toBe(listed!.id);
        expect(body.recipes.map((r) => r.slug)).toEqual(["hand-soup"]);
        if (hasContract && shapesBySlug[kind]) assertContract(shapesBySlug[kind]!, body);
      }
      const tags = (await (await w.api("/api/organizers/tags?perPage=-1", { token: tok })).json()) as {
        items: { id: string; name: string }[];
      };
      const rainy = tags.items.find((o) => o.name === "Rainy Day")!;
      const put = await w.api(`/api/organizers/tags/${rainy.id}`, {
        method: "PUT",
        token: tok,
        json: { name: "Stormy Day" },
      });
      expect(put.status).toBe(200);
      const text = await readFile(join(w.dataDir, "groups", "home", "recipes", "hand-soup.md"), "utf8");
      expect(text).toContain("Stormy Day");
      expect(text).not.toContain("Rainy Day");
    } finally {
      await w.close();
    }
  });
});

const shapesBySlug: Record<string, string | null> = {
  categories: null,
  tags: "RecipeTagResponse",
  tools: "RecipeToolResponse",
};

describe("foods and units", () => {
  it("CRUD in the contract's shapes, duplicate names refused, merge moves ingredients", async () => {
    const a = (await (
      await t.api("/api/foods", {
        method: "POST",
        token,
        json: { name: "larder test squash", pluralName: "larder test squashes" },
      })
    ).json()) as { id: string };
    if (hasContract) assertContract("IngredientFood-Output", a);
    expect(
      (await t.api("/api/foods", { method: "POST", token, json: { name: "Larder Test Squash" } })).status,
    ).toBe(400);
    const b = (await (
      await t.api("/api/foods", { method: "POST", token, json: { name: "larder test gourd" } })
    ).json()) as { id: string };
    const foods = await (await t.api("/api/foods?search=larder%20test&perPage=5", { token })).json();
    if (hasContract) assertContract("IngredientFoodPagination", foods);
    const put = await t.api(`/api/foods/${b.id}`, {
      method: "PUT",
      token,
      json: { name: "larder test gourd", description: "green" },
    });
    if (hasContract) assertContract("IngredientFood-Output", await put.json());
    const slug = (await (
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Zucchini Fritters" } })
    ).json()) as string;
    await t.api(`/api/recipes/${slug}`, {
      method: "PATCH",
      token,
      json: { recipeIngredient: [{ quantity: 2, food: { id: a.id }, note: "grated" }] },
    });
    const merge = await t.api("/api/foods/merge", {
      method: "PUT",
      token,
      json: { fromFood: a.id, toFood: b.id },
    });
    expect(merge.status).toBe(200);
    if (hasContract) assertContract("SuccessResponse", await merge.json());
    const r = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as {
      recipeIngredient: { food: { id: string } }[];
    };
    expect(r.recipeIngredient[0].food.id).toBe(b.id);
    expect((await t.api(`/api/foods/${a.id}`, { token })).status).toBe(404);

    const u = (await (
      await t.api("/api/units", { method: "POST", token, json: { name: "smidgen", abbreviation: "smg" } })
    ).json()) as { id: string };
    if (hasContract) assertContract("IngredientUnit-Output", u);
    const list = (await (await t.api("/api/units?search=smidg", { token })).json()) as {
      items: { name: string }[];
    };
    expect(list.items[0].name).toBe("smidgen");
    if (hasContract) assertContract("IngredientUnitPagination", list);
    expect((await t.api(`/api/units/${u.id}`, { method: "DELETE", token })).status).toBe(200);
  });
});
