/**
 * mealie-bring-api (felixschndr/mealie-bring-api), replayed against Larder both ways: Larder posts a
 * recipe action to it (snake_case content, recipe_scale, food/unit/note per ingredient), and it reads
 * and empties the shopping list with an API key: items?perPage=1 to try the key, perPage=-1 to read
 * them all, one DELETE items?ids=<id> per item (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestServer, type TestServer } from "../../support/server.js";
import { newRecipe } from "../../support/members.js";
import { send } from "./send.js";

let t: TestServer;
let login: string;
let apiKey: string;
let bring: Server;
let bringUrl: string;
let received: (body: Record<string, unknown>) => void = () => {};
type Json = Record<string, unknown>;

/** `requests.<verb>(url, headers={"Authorization": f"Bearer {key}"})`, as the bridge calls Mealie. */
async function bridge(method: string, path: string) {
  return send(t.url + path, { method, headers: { Authorization: `Bearer ${apiKey}` } });
}

beforeAll(async () => {
  bring = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "text/plain" }).end("OK");
      received(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Json);
    });
  });
  await new Promise<void>((r) => bring.listen(0, "127.0.0.1", r));
  bringUrl = `http://127.0.0.1:${(bring.address() as AddressInfo).port}/`;
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  login = await t.login();
  const made = await t.api("/api/users/api-tokens", {
    method: "POST",
    token: login,
    json: { name: "bring" },
  });
  apiKey = ((await made.json()) as { token: string }).token;
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => bring?.close(r));
});

describe("mealie-bring-api against Larder", () => {
  it("a triggered post action sends {action, content, recipe_scale} with the snake_case fields the bridge reads", async () => {
    const foods = (await (await t.api("/api/foods?perPage=-1", { token: login })).json()) as {
      items: Json[];
    };
    const units = (await (await t.api("/api/units?perPage=-1", { token: login })).json()) as {
      items: Json[];
    };
    const r = await newRecipe(t, login, "Bring Curry", {
      recipeIngredient: [
        { quantity: 2, food: foods.items[0] ?? null, unit: units.items[0] ?? null, note: "chopped" },
        { note: "a pinch of salt" },
      ],
    });
    const action = (await (
      await t.api("/api/households/recipe-actions", {
        method: "POST",
        token: login,
        json: { actionType: "post", title: "Bring", url: bringUrl },
      })
    ).json()) as Json;
    const got = new Promise<Json>((resolve) => (received = resolve));
    const fired = await t.api(`/api/households/recipe-actions/${action.id as string}/trigger/${r.slug}`, {
      method: "POST",
      token: login,
      json: { recipe_scale: 2 },
    });
    expect(fired.status).toBe(202);
    const body = await got;
    expect(body.recipe_scale).toBe(2);
    const content = body.content as Json;
    expect(content.name).toBe("Bring Curry");
    expect(content.settings).toEqual(expect.any(Object));
    const ings = content.recipe_ingredient as Json[];
    expect(ings.length).toBe(2);
    for (const i of ings)
      for (const k of ["food", "quantity", "unit", "note", "display"]) expect(i).toHaveProperty(k);
    if (foods.items.length) {
      expect((ings[0].food as Json).name).toBe(foods.items[0].name);
      expect(ings[0].quantity).toBe(2);
    }
    if (units.items.length) {
      expect(ings[0].unit).toHaveProperty("abbreviation");
      expect(ings[0].unit).toHaveProperty("name");
    }
    expect(ings[1].food).toBeNull();
  });

  it("tries the key with perPage=1, reads every item with perPage=-1, deletes each by ?ids=", async () => {
    const list = (await (
      await t.api("/api/households/shopping/lists", {
        method: "POST",
        token: login,
        json: { name: "Bring me" },
      })
    ).json()) as Json;
    for (const note of ["apples", "pears", "plums"])
      await t.api("/api/households/shopping/items", {
        method: "POST",
        token: login,
        json: { shoppingListId: list.id, note },
      });
    const probe = await bridge("GET", "/api/households/shopping/items?perPage=1");
    expect(probe.status).toBe(200);
    expect((probe.body as { items: unknown[] }).items.length).toBe(1);
    expect(
      (
        await fetch(`${t.url}/api/households/shopping/items?perPage=1`, {
          headers: { Authorization: "Bearer wrong" },
        })
      ).status,
    ).toBe(401);

    const all = await bridge("GET", "/api/households/shopping/items?perPage=-1");
    const items = (all.body as { items: Json[] }).items.filter((i) => i.shoppingListId === list.id);
    expect(items.map((i) => i.note).sort()).toEqual(["apples", "pears", "plums"]);
    for (const i of items) {
      for (const k of ["quantity", "unit", "food", "note", "display"]) expect(i).toHaveProperty(k);
      const del = await bridge("DELETE", `/api/households/shopping/items?ids=${i.id as string}`);
      expect(del.status).toBe(200);
    }
    const after = await bridge("GET", "/api/households/shopping/items?perPage=-1");
    expect((after.body as { items: Json[] }).items.filter((i) => i.shoppingListId === list.id)).toEqual([]);
  });
});
