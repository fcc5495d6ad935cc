/**
 * originalText through the API (docs/decisions/0150): a structured ingredient shows the line it was
 * read from, as Mealie shows a scraped line; a client that sends back what it got — Mealie's editor
 * and Larder's both PUT the whole recipe with originalText as received — neither litters the file
 * with `<!-- original: … -->` comments nor undoes a hand-written line; a deliberately set one is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let token: string;

interface Ing {
  quantity: number | null;
  unit: { name: string } | null;
  food: { name: string } | null;
  note: string;
  display: string;
  originalText: string | null;
  referenceId: string;
  [k: string]: unknown;
}
type Recipe = { slug: string; recipeIngredient: Ing[]; [k: string]: unknown };

const file = (slug: string) => join(t.dataDir, "groups", "home", "recipes", `${slug}.md`);
const ingredientLines = async (slug: string) =>
  (await readFile(file(slug), "utf8")).split("\n").filter((l) => l.startsWith("- "));
const get = async (slug: string) => (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as Recipe;
async function put(r: Recipe): Promise<Recipe> {
  const res = await t.api(`/api/recipes/${r.slug}`, { token, method: "PUT", json: r });
  expect(res.status).toBe(200);
  return get(r.slug);
}
async function vocabulary(kind: "foods" | "units", body: Record<string, unknown>): Promise<void> {
  const list = (await (await t.api(`/api/${kind}?perPage=-1`, { token })).json()) as {
    items: { name: string }[];
  };
  if (list.items.some((x) => x.name.toLowerCase() === String(body.name).toLowerCase())) return;
  expect((await t.api(`/api/${kind}`, { token, method: "POST", json: body })).status).toBe(201);
}
/** The recipe's body replaced by an ingredient list, as someone would type it in an editor. */
async function handWritten(slug: string, lines: string[]): Promise<void> {
  const text = await readFile(file(slug), "utf8");
  const frontMatter = text.slice(0, text.indexOf("\n---\n", 4) + 5);
  await writeFile(file(slug), `${frontMatter}\n## Ingredients\n\n${lines.map((l) => `- ${l}`).join("\n")}\n`);
  await t.larder.recipes.store.reload("home", slug);
}

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  await vocabulary("foods", { name: "garlic" });
  await vocabulary("units", { name: "clove", pluralName: "cloves" });
});
afterAll(async () => t?.close());

describe("an imported structured ingredient keeps the line it was read from visible", () => {
  let slug: string;
  beforeAll(async () => {
    const res = await t.api("/api/recipes/create/html-or-json", {
      token,
      method: "POST",
      json: {
        data: JSON.stringify({
          "@context": "https://schema.org",
          "@type": "Recipe",
          name: "Garlic Test",
          recipeIngredient: ["2 cloves garlic, minced", "whatever you like on top"],
          recipeInstructions: "Cook.",
        }),
      },
    });
    expect(res.status).toBe(201);
    slug = (await res.json()) as string;
  });

  it("answers originalText with the whole line beside the parsed fields, and the file holds the line once", async () => {
    const [garlic, plain] = (await get(slug)).recipeIngredient;
    expect(garlic).toMatchObject({ quantity: 2, note: "minced", originalText: "2 cloves garlic, minced" });
    expect(garlic.unit?.name).toBe("clove");
    expect(garlic.food?.name).toBe("garlic");
    // A line that stays a note is the note, as Mealie stores a scraped line.
    expect(plain).toMatchObject({ note: "whatever you like on top", originalText: null });
    expect(await ingredientLines(slug)).toEqual(["- 2 cloves garlic, minced", "- whatever you like on top"]);
  });

  it("a PUT of what was read changes nothing in the file", async () => {
    const before = await ingredientLines(slug);
    await put(await get(slug));
    expect(await ingredientLines(slug)).toEqual(before);
  });

  it("an edited field with originalText sent back as received rewrites the line without a comment", async () => {
    const r = await get(slug);
    r.recipeIngredient[0] = { ...r.recipeIngredient[0], quantity: 3, note: "crushed" };
    const after = await put(r);
    expect(await ingredientLines(slug)).toEqual(["- 3 cloves garlic, crushed", "- whatever you like on top"]);
    expect(after.recipeIngredient[0]).toMatchObject({
      quantity: 3,
      note: "crushed",
      originalText: "3 cloves garlic, crushed",
    });
  });

  it("a note edited on a plain line is the new line", async () => {
    const r = await get(slug);
    r.recipeIngredient[1] = { ...r.recipeIngredient[1], note: "whatever you like on the side" };
    await put(r);
    expect((await ingredientLines(slug))[1]).toBe("- whatever you like on the side");
  });

  it("an originalText the client sets on purpose is kept", async () => {
    const r = await get(slug);
    r.recipeIngredient[0] = { ...r.recipeIngredient[0], originalText: "3 big cloves of garlic, crushed" };
    const after = await put(r);
    expect(after.recipeIngredient[0].originalText).toBe("3 big cloves of garlic, crushed");
    expect((await ingredientLines(slug))[0]).toBe(
      "- 3 cloves garlic, crushed <!-- original: 3 big cloves of garlic, crushed -->",
    );
  });

  it("an original kept in a comment stays when the fields are edited, as Mealie keeps it", async () => {
    const r = await get(slug);
    r.recipeIngredient[0] = { ...r.recipeIngredient[0], quantity: 4 };
    const after = await put(r);
    expect(after.recipeIngredient[0].originalText).toBe("3 big cloves of garlic, crushed");
    expect((await ingredientLines(slug))[0]).toBe(
      "- 4 cloves garlic, crushed <!-- original: 3 big cloves of garlic, crushed -->",
    );
  });
});

describe("a hand-written line survives a round trip", () => {
  it("keeps its own words through an unchanged PUT and gives way to an edit without a comment", async () => {
    const created = await t.api("/api/recipes", { token, method: "POST", json: { name: "Hand Garlic" } });
    const slug = (await created.json()) as string;
    await handWritten(slug, ["2 cloves of garlic, minced", "2-3 cloves garlic"]);
    const read = await get(slug);
    expect(read.recipeIngredient[0]).toMatchObject({
      quantity: 2,
      note: "minced",
      originalText: "2 cloves of garlic, minced",
    });
    expect(read.recipeIngredient[1]).toMatchObject({ quantity: 2, originalText: "2-3 cloves garlic" });

    await put(read);
    expect(await ingredientLines(slug)).toEqual(["- 2 cloves of garlic, minced", "- 2-3 cloves garlic"]);

    const r = await get(slug);
    r.recipeIngredient[0] = { ...r.recipeIngredient[0], note: "sliced" };
    // The range's upper bound is not on the wire: a note edit with the amount untouched keeps it.
    r.recipeIngredient[1] = { ...r.recipeIngredient[1], note: "peeled" };
    await put(r);
    expect(await ingredientLines(slug)).toEqual(["- 2 cloves garlic, sliced", "- 2-3 cloves garlic, peeled"]);
  });

  it("keeps step links when ingredients are reordered with their originalText echoed", async () => {
    const created = await t.api("/api/recipes", { token, method: "POST", json: { name: "Reorder" } });
    const slug = (await created.json()) as string;
    await handWritten(slug, ["2 cloves of garlic, minced", "1 clove garlic"]);
    const r = await get(slug);
    r.recipeIngredient = [r.recipeIngredient[1], r.recipeIngredient[0]];
    await put(r);
    expect(await ingredientLines(slug)).toEqual(["- 1 clove garlic", "- 2 cloves of garlic, minced"]);
  });
});
