/**
 * An ingredient's sub-recipe (`referencedRecipe`) comes whole, as Mealie sends it: the contract types it
 * as a Recipe, with its ingredients and steps. Past three levels, and round a loop, null stands in (Mealie
 * would go on for ever); the public (explore, a share link) sees whole only sub-recipes it may read itself, without comments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  await send("PUT", "/api/groups/preferences", { privateGroup: false });
  await send("PUT", "/api/households/preferences", { privateHousehold: false, recipePublic: true });
});
afterAll(async () => t?.close());

type Json = Record<string, unknown>;
async function send(method: string, path: string, json?: unknown, tok: string | null = token): Promise<Json> {
  const res = await t.api(path, { method, token: tok, json });
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as Json;
}

/** A recipe with one step, and an ingredient naming `sub` when given. */
async function recipe(name: string, sub?: Json, settings: Json = { public: true }): Promise<Json> {
  const slug = (await send("POST", "/api/recipes", { name })) as unknown as string;
  await send("PATCH", `/api/recipes/${slug}`, {
    recipeIngredient: [
      { quantity: 1, note: `${name} base` },
      ...(sub ? [{ quantity: 1, referencedRecipe: sub }] : []),
    ],
    recipeInstructions: [{ text: `Make the ${name}.` }],
    settings,
  });
  return send("GET", `/api/recipes/${slug}`);
}

const subOf = (r: Json) => (r.recipeIngredient as Json[])[1].referencedRecipe as Json;

describe("sub-recipes", () => {
  it("come whole in a recipe, three levels down, in the contract's Recipe shape", async () => {
    const d = await recipe("Level D");
    const c = await recipe("Level C", d);
    const b = await recipe("Level B", c);
    await send("POST", "/api/comments", { recipeId: b.id, text: "Good base." });
    const a = await recipe("Level A", b);
    if (hasContract) assertContract("Recipe-Output", a);
    const levelB = subOf(a);
    expect(levelB.slug).toBe(b.slug);
    expect((levelB.recipeInstructions as Json[])[0].text).toBe("Make the Level B.");
    expect((levelB.comments as Json[]).map((x) => x.text)).toEqual(["Good base."]);
    const levelC = subOf(levelB);
    expect((levelC.recipeIngredient as Json[])[0].note).toBe("Level C base");
    expect(subOf(levelC)).toBeNull();
    expect(d.slug).toBe("level-d");
  });

  it("stop at a recipe already on the way down: a loop ends in null", async () => {
    const first = await recipe("Loop One");
    const second = await recipe("Loop Two", first);
    const one = await send("PATCH", `/api/recipes/${first.slug}`, {
      recipeIngredient: [
        { quantity: 1, note: "start" },
        { quantity: 1, referencedRecipe: second },
      ],
    });
    expect(subOf(one).slug).toBe(second.slug);
    expect(subOf(subOf(one))).toBeNull();
    if (hasContract) assertContract("Recipe-Output", one);
  });

  it("come whole to the public only when it may read them, and never with their comments", async () => {
    const secret = await recipe("Secret Stock", undefined, { public: false });
    const open = await recipe("Open Stock");
    await send("POST", "/api/comments", { recipeId: open.id, text: "Members only." });
    const slug = (await send("POST", "/api/recipes", { name: "Public Soup" })) as unknown as string;
    await send("PATCH", `/api/recipes/${slug}`, {
      settings: { public: true },
      recipeIngredient: [
        { quantity: 1, referencedRecipe: secret },
        { quantity: 1, referencedRecipe: open },
      ],
    });
    const explored = await send("GET", `/api/explore/groups/home/recipes/${slug}`, undefined, null);
    const share = await send("POST", "/api/shared/recipes", { recipeId: explored.id });
    const shared = await send("GET", `/api/recipes/shared/${share.id}`, undefined, null);
    for (const r of [explored, shared]) {
      const [hidden, shown] = (r.recipeIngredient as Json[]).map((i) => i.referencedRecipe as Json);
      expect(hidden).toMatchObject({ slug: secret.slug });
      expect(hidden.recipeInstructions).toBeUndefined();
      expect((shown.recipeInstructions as Json[])[0].text).toBe("Make the Open Stock.");
      expect(shown.comments).toEqual([]);
    }
  });
});
