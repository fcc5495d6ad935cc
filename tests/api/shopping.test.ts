import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { newRecipe, otherGroup, secondHousehold } from "../support/members.js";
import type { LarderEvent } from "../../core/events/bus.js";

let t: TestServer;
let token: string;
const events: LarderEvent[] = [];
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  t.larder.events.subscribe((e) => void events.push(e));
});
afterAll(async () => t?.close());

interface Item {
  id: string;
  shoppingListId: string;
  quantity: number;
  note: string;
  checked: boolean;
  position: number;
  foodId: string | null;
  unitId: string | null;
  labelId: string | null;
  display: string;
  extras: Record<string, string>;
  recipeReferences: { recipeId: string; recipeQuantity: number; recipeScale: number }[];
  updatedAt: string;
}
interface List {
  id: string;
  name: string;
  userId: string;
  groupId: string;
  householdId: string;
  updatedAt: string;
  listItems: Item[];
  recipeReferences: { recipeId: string; recipeQuantity: number }[];
  labelSettings: { id: string; labelId: string; position: number; shoppingListId: string }[];
}
interface Collection {
  createdItems: Item[];
  updatedItems: Item[];
  deletedItems: Item[];
}

const LISTS = "/api/households/shopping/lists";
const ITEMS = "/api/households/shopping/items";
const json = async <T>(res: Response, status = 200): Promise<T> => {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  return JSON.parse(text) as T;
};
const newList = async (name: string, tok = token) =>
  json<List>(await t.api(LISTS, { method: "POST", token: tok, json: { name } }), 201);
const getList = async (id: string, tok = token) => json<List>(await t.api(`${LISTS}/${id}`, { token: tok }));
const bulk = async (items: unknown[], tok = token) =>
  json<Collection>(await t.api(`${ITEMS}/create-bulk`, { method: "POST", token: tok, json: items }), 201);
const listFile = (id: string, household = "family") =>
  join(t.dataDir, "groups", "home", "households", household, "shopping-lists", `${id}.json`);

async function food(
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; labelId: string | null }> {
  return json(await t.api("/api/foods", { method: "POST", token, json: { name, ...extra } }), 201);
}
async function unitNamed(name: string): Promise<{ id: string }> {
  const page = await json<{ items: { id: string; name: string; abbreviation: string }[] }>(
    await t.api(`/api/units?perPage=-1`, { token }),
  );
  const hit = page.items.find((u) => u.name.toLowerCase() === name || u.abbreviation.toLowerCase() === name);
  if (hit) return hit;
  return json(await t.api("/api/units", { method: "POST", token, json: { name, abbreviation: name } }), 201);
}

describe("shopping lists", () => {
  it("creates (201) with one label setting per group label, reads, renames, lists by name, deletes; every shape per the contract", async () => {
    const list = await newList("Weekly Shop");
    if (hasContract) assertContract("ShoppingListOut", list);
    const labels = await json<{ items: { id: string; name: string }[] }>(
      await t.api("/api/groups/labels?perPage=-1", { token }),
    );
    expect(list.labelSettings.map((s) => s.labelId)).toEqual(
      [...labels.items].sort((a, b) => a.name.localeCompare(b.name)).map((l) => l.id),
    );
    expect(list.labelSettings.map((s) => s.position)).toEqual(list.labelSettings.map((_, i) => i));
    const me = await json<{ id: string }>(await t.api("/api/users/self", { token }));
    expect(list.userId).toBe(me.id);
    await newList("Apples first");
    const page = await json<{ items: List[] }>(await t.api(`${LISTS}?perPage=-1`, { token }));
    if (hasContract) assertContract("ShoppingListPagination", page);
    const names = page.items.map((l) => l.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const renamed = await json<List>(
      await t.api(`${LISTS}/${list.id}`, { method: "PUT", token, json: { ...list, name: "Big Shop" } }),
    );
    expect(renamed.name).toBe("Big Shop");
    expect(renamed.labelSettings).toEqual(list.labelSettings);
    // A new label shows up in every list's settings, at the end.
    const label = await json<{ id: string }>(
      await t.api("/api/groups/labels", { method: "POST", token, json: { name: "Zz New Aisle" } }),
    );
    const withLabel = await getList(list.id);
    expect(withLabel.labelSettings.at(-1)).toMatchObject({
      labelId: label.id,
      position: list.labelSettings.length,
    });
    // Label settings: positions set by PUT stay ascending; a setting of another list is a 400.
    const reversed = withLabel.labelSettings.map((s, i, all) => ({ ...s, position: all.length - 1 - i }));
    const put = await json<List>(
      await t.api(`${LISTS}/${list.id}/label-settings`, { method: "PUT", token, json: reversed }),
    );
    if (hasContract) assertContract("ShoppingListOut", put);
    expect(put.labelSettings[0].labelId).toBe(label.id);
    const other = await newList("Other");
    expect(
      (await t.api(`${LISTS}/${other.id}/label-settings`, { method: "PUT", token, json: reversed })).status,
    ).toBe(400);
    expect((await t.api(`${LISTS}/${other.id}`, { method: "DELETE", token })).status).toBe(200);
    expect((await t.api(`${LISTS}/${other.id}`, { token })).status).toBe(404);
    await t.larder.events.idle();
    const types = events
      .filter((e) => e.documentData.documentType === "shopping_list")
      .map(
        (e) => `${e.eventType}:${(e.documentData as { shoppingListId: string }).shoppingListId === other.id}`,
      );
    expect(types).toEqual(
      expect.arrayContaining(["shopping_list_created:true", "shopping_list_deleted:true"]),
    );
  });

  it("keeps another household's and another group's lists and items out (404)", async () => {
    const list = await newList("Private");
    const [item] = (await bulk([{ shoppingListId: list.id, note: "secret" }])).createdItems;
    for (const m of [await secondHousehold(t, "Shop Neighbours"), await otherGroup(t, "Shop Strangers")]) {
      expect((await t.api(`${LISTS}/${list.id}`, { token: m.token })).status).toBe(404);
      expect((await t.api(`${ITEMS}/${item.id}`, { token: m.token })).status).toBe(404);
      expect(
        (
          await t.api(`${ITEMS}/${item.id}`, {
            method: "PUT",
            token: m.token,
            json: { ...item, checked: true },
          })
        ).status,
      ).toBe(404);
      expect((await t.api(`${ITEMS}?ids=${item.id}`, { method: "DELETE", token: m.token })).status).toBe(404);
      expect(
        (
          await t.api(`${ITEMS}/create-bulk`, {
            method: "POST",
            token: m.token,
            json: [{ shoppingListId: list.id, note: "sneaky" }],
          })
        ).status,
      ).toBe(404);
      const theirs = await json<{ items: Item[] }>(await t.api(`${ITEMS}?perPage=-1`, { token: m.token }));
      expect(theirs.items.some((i) => i.id === item.id)).toBe(false);
    }
    expect((await getList(list.id)).listItems.map((i) => i.note)).toEqual(["secret"]);
  });
});

describe("labels and list timestamps", () => {
  it("a deleted label leaves every list's settings; item updates and deletes move the list's updatedAt", async () => {
    const label = await json<{ id: string }>(
      await t.api("/api/groups/labels", { method: "POST", token, json: { name: "Short Lived" } }),
    );
    const list = await newList("Timestamps");
    expect(list.labelSettings.some((s) => s.labelId === label.id)).toBe(true);
    expect((await t.api(`/api/groups/labels/${label.id}`, { method: "DELETE", token })).status).toBe(200);
    expect((await getList(list.id)).labelSettings.some((s) => s.labelId === label.id)).toBe(false);
    const [item] = (await bulk([{ shoppingListId: list.id, note: "tea" }])).createdItems;
    let before = (await getList(list.id)).updatedAt;
    await json(await t.api(`${ITEMS}/${item.id}`, { method: "PUT", token, json: { ...item, quantity: 2 } }));
    let after = (await getList(list.id)).updatedAt;
    expect(after >= before).toBe(true);
    expect(after).not.toBe(before);
    before = after;
    await json(await t.api(`${ITEMS}/${item.id}`, { method: "DELETE", token }));
    after = (await getList(list.id)).updatedAt;
    expect(after).not.toBe(before);
  });
});

describe("shopping items", () => {
  it("bulk create merges same-note items (5 distinct + 5 shared → 6) and into existing unchecked items; list updatedAt moves", async () => {
    const list = await newList("Merging");
    const distinct = Array.from({ length: 5 }, (_, i) => ({ shoppingListId: list.id, note: `thing ${i}` }));
    const shared = Array.from({ length: 5 }, () => ({ shoppingListId: list.id, note: "eggs" }));
    const res = await bulk([...distinct, ...shared]);
    if (hasContract) assertContract("ShoppingListItemsCollectionOut", res);
    expect(res.createdItems).toHaveLength(6);
    expect(res.createdItems.find((i) => i.note === "eggs")?.quantity).toBe(5);
    const before = (await getList(list.id)).updatedAt;
    await new Promise((r) => setTimeout(r, 5));
    const single = await json<Collection>(
      await t.api(ITEMS, {
        method: "POST",
        token,
        json: { shoppingListId: list.id, note: "  Eggs ", quantity: 2 },
      }),
      201,
    );
    expect(single.createdItems).toHaveLength(0);
    expect(single.updatedItems[0]).toMatchObject({ note: "eggs", quantity: 7 });
    const after = await getList(list.id);
    expect(after.listItems).toHaveLength(6);
    expect(after.updatedAt > before).toBe(true);
    // Zero quantities are kept; extras round-trip.
    const zero = await bulk([{ shoppingListId: list.id, note: "salt", quantity: 0, extras: { aisle: "7" } }]);
    expect(zero.createdItems[0]).toMatchObject({ quantity: 0, extras: { aisle: "7" } });
  });

  it("merges the same food in convertible units into the unit chosen first; incompatible units stay apart; foods bring their label", async () => {
    const label = await json<{ id: string }>(
      await t.api("/api/groups/labels", { method: "POST", token, json: { name: "Dairy Aisle" } }),
    );
    const milk = await food("test milk", { labelId: label.id });
    const cup = await unitNamed("cup");
    const ml = await unitNamed("milliliter");
    const pinch = await unitNamed("pinch");
    const list = await newList("Units");
    await bulk([{ shoppingListId: list.id, foodId: milk.id, unitId: cup.id, quantity: 1 }]);
    const res = await bulk([
      { shoppingListId: list.id, foodId: milk.id, unitId: ml.id, quantity: 250 },
      { shoppingListId: list.id, foodId: milk.id, unitId: pinch.id, quantity: 1 },
    ]);
    expect(res.updatedItems).toHaveLength(1);
    expect(res.updatedItems[0].unitId).toBe(cup.id);
    expect(res.updatedItems[0].quantity).toBeCloseTo(1 + 250 / 236.588, 2);
    expect(res.updatedItems[0].labelId).toBe(label.id);
    expect(res.createdItems).toHaveLength(1);
    expect(res.createdItems[0].unitId).toBe(pinch.id);
    const items = (await getList(list.id)).listItems;
    expect(items).toHaveLength(2);
    for (const i of items) if (hasContract) assertContract("ShoppingListItemOut-Output", i);
  });

  it("labels a note-only item from the labelled food its text resembles; a food without a label gives none", async () => {
    const label = await json<{ id: string }>(
      await t.api("/api/groups/labels", { method: "POST", token, json: { name: "Bakery Aisle" } }),
    );
    await food("sourdough loaf", { labelId: label.id });
    const plain = await food("plain thing");
    const list = await newList("Fuzzy");
    const res = await bulk([
      { shoppingListId: list.id, note: "Sourdough loaves" },
      { shoppingListId: list.id, foodId: plain.id },
      { shoppingListId: list.id, note: "something else entirely" },
    ]);
    expect(res.createdItems.map((i) => i.labelId)).toEqual([label.id, null, null]);
  });

  it("bulk update: same notes consolidate into the first, a checked item keeps its flag and loses its references, positions reorder, a negative quantity deletes", async () => {
    const list = await newList("Updating");
    const created = (
      await bulk(Array.from({ length: 4 }, (_, i) => ({ shoppingListId: list.id, note: `n${i}` })))
    ).createdItems;
    const res = await json<Collection>(
      await t.api(ITEMS, {
        method: "PUT",
        token,
        json: created.map((i) => ({ ...i, note: "same", quantity: 1 })),
      }),
    );
    if (hasContract) assertContract("ShoppingListItemsCollectionOut", res);
    let items = (await getList(list.id)).listItems;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ note: "same", quantity: 4 });
    const more = (
      await bulk([
        { shoppingListId: list.id, note: "a" },
        { shoppingListId: list.id, note: "b" },
      ])
    ).createdItems;
    const checked = await json<Collection>(
      await t.api(`${ITEMS}/${items[0].id}`, { method: "PUT", token, json: { ...items[0], checked: true } }),
    );
    expect(checked.updatedItems[0].checked).toBe(true);
    items = (await getList(list.id)).listItems;
    const order = [...items].reverse().map((i, pos) => ({ ...i, position: pos }));
    await json<Collection>(await t.api(ITEMS, { method: "PUT", token, json: order }));
    expect((await getList(list.id)).listItems.map((i) => i.id)).toEqual(order.map((i) => i.id));
    await json<Collection>(
      await t.api(ITEMS, { method: "PUT", token, json: [{ ...more[0], quantity: -1 }] }),
    );
    expect((await getList(list.id)).listItems.some((i) => i.id === more[0].id)).toBe(false);
    // DELETE with repeated ids.
    // The consolidated "same" item, not items[0]: after the reorder that may be the item just deleted.
    const same = items.find((i) => i.note === "same")!;
    const del = await t.api(`${ITEMS}?ids=${more[1].id}&ids=${same.id}`, { method: "DELETE", token });
    expect(del.status).toBe(200);
    if (hasContract) assertContract("SuccessResponse", await del.json());
    expect((await t.api(`${ITEMS}/${more[1].id}`, { token })).status).toBe(404);
    await t.larder.events.idle();
    const itemEvents = events.filter(
      (e) =>
        e.documentData.documentType === "shopping_list_item" &&
        (e.documentData as { shoppingListId: string }).shoppingListId === list.id,
    );
    expect(new Set(itemEvents.map((e) => e.eventType))).toEqual(new Set(["shopping_list_updated"]));
    expect(new Set(itemEvents.map((e) => e.documentData.operation))).toEqual(
      new Set(["create", "update", "delete"]),
    );
  });

  it("refuses NaN, Infinity-bound and 1e308 quantities (422) and drops negative ones on create, losing nothing", async () => {
    const list = await newList("Bad Numbers");
    const [keep] = (await bulk([{ shoppingListId: list.id, note: "keep me", quantity: 2 }])).createdItems;
    for (const quantity of ["NaN", 1e308, -1e308, "12", null as unknown as number]) {
      const res = await t.api(`${ITEMS}/create-bulk`, {
        method: "POST",
        token,
        json: [{ shoppingListId: list.id, note: "keep me", quantity }],
      });
      if (quantity === null) continue;
      expect(res.status, String(quantity)).toBe(422);
    }
    const raw = await t.api(`${ITEMS}/create-bulk`, {
      method: "POST",
      token,
      headers: { "Content-Type": "application/json" },
      body: `[{"shoppingListId":"${list.id}","note":"x","quantity":NaN}]`,
    });
    expect(raw.status).toBe(422);
    expect(
      (await t.api(`${ITEMS}/${keep.id}`, { method: "PUT", token, json: { ...keep, quantity: 1e308 } }))
        .status,
    ).toBe(422);
    const negative = await bulk([{ shoppingListId: list.id, note: "minus", quantity: -3 }]);
    expect(negative.createdItems).toHaveLength(0);
    const items = (await getList(list.id)).listItems;
    expect(items.find((i) => i.id === keep.id)?.quantity).toBe(3);
  });

  it("refuses a food, unit or label id the group does not have (422 naming the field), rather than drop it", async () => {
    const list = await newList("Unknown Ids");
    const unknown = "0f0e0d0c-0b0a-4909-8807-060504030201";
    const detail = async (res: Response) => {
      expect(res.status).toBe(422);
      const body = (await res.json()) as {
        detail: { loc: (string | number)[]; msg: string; type: string }[];
      };
      if (hasContract) assertContract("HTTPValidationError", body);
      return body.detail;
    };
    const one = await detail(
      await t.api(ITEMS, {
        method: "POST",
        token,
        json: { shoppingListId: list.id, note: "salt", foodId: unknown },
      }),
    );
    expect(one).toEqual([
      expect.objectContaining({
        loc: ["body", "foodId"],
        type: "value_error",
        msg: expect.stringMatching(/no food/),
      }),
    ]);
    const cup = await unitNamed("cup");
    const many = await detail(
      await t.api(`${ITEMS}/create-bulk`, {
        method: "POST",
        token,
        json: [
          { shoppingListId: list.id, note: "fine", unitId: cup.id },
          { shoppingListId: list.id, note: "flour", unitId: unknown, labelId: unknown },
        ],
      }),
    );
    expect(many.map((d) => d.loc)).toEqual([
      ["body", 1, "unitId"],
      ["body", 1, "labelId"],
    ]);
    // Nothing of a refused request is saved.
    expect((await getList(list.id)).listItems).toHaveLength(0);
    const [item] = (await bulk([{ shoppingListId: list.id, note: "pepper", quantity: 2 }])).createdItems;
    const put = await detail(
      await t.api(`${ITEMS}/${item.id}`, { method: "PUT", token, json: { ...item, unitId: unknown } }),
    );
    expect(put.map((d) => d.loc)).toEqual([["body", "unitId"]]);
    const after = (await getList(list.id)).listItems;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ note: "pepper", quantity: 2, unitId: null });
  });

  it("refuses a recipe reference whose recipeId is no version-4 UUID (422), so every list still reads as the contract says", async () => {
    // Found by tests/security: the nil UUID was stored, then GET /households/shopping/items served a
    // recipeId the contract's uuid4 refuses.
    const list = await newList("Nil References");
    for (const recipeId of ["00000000-0000-0000-0000-000000000000", "12345678-1234-1234-1234-123456789012"]) {
      const res = await t.api(ITEMS, {
        method: "POST",
        token,
        json: { shoppingListId: list.id, note: "salt", recipeReferences: [{ recipeId, recipeQuantity: 1 }] },
      });
      expect(res.status, recipeId).toBe(422);
      expect(await res.json()).toMatchObject({
        detail: [{ loc: ["body", "recipeReferences", 0, "recipeId"], msg: "UUID version 4 expected" }],
      });
    }
    expect((await getList(list.id)).listItems).toHaveLength(0);
    const page = await (await t.api(`${ITEMS}?perPage=-1`, { token })).json();
    if (hasContract) assertContract("ShoppingListItemPagination", page);
  });

  it("takes 10,000 items in one bulk call", async () => {
    const list = await newList("Huge");
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      shoppingListId: list.id,
      note: `item ${i}`,
      position: i,
    }));
    const res = await bulk(items);
    expect(res.createdItems).toHaveLength(10_000);
    const page = await json<{ total: number }>(
      await t.api(`${ITEMS}?queryFilter=${encodeURIComponent(`shoppingListId=${list.id}`)}&perPage=1`, {
        token,
      }),
    );
    expect(page.total).toBe(10_000);
    // Full objects for all of them are more than the 2 MiB body limit: 413 with a message, nothing changed.
    const tooBig = await t.api(ITEMS, {
      method: "PUT",
      token,
      json: res.createdItems.map((i) => ({ ...i, checked: true })),
    });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { detail: { message: string } }).detail.message).toMatch(/too large/i);
    // Reordering all of them in one bulk PUT works with the fields that change (the others are kept).
    const reordered = res.createdItems.map((i) => ({
      id: i.id,
      shoppingListId: i.shoppingListId,
      position: 10_000 - i.position,
    }));
    const put = await json<Collection>(await t.api(ITEMS, { method: "PUT", token, json: reordered }));
    expect(put.updatedItems).toHaveLength(10_000);
    const first = await json<{ items: Item[] }>(
      await t.api(
        `${ITEMS}?queryFilter=${encodeURIComponent(`shoppingListId=${list.id}`)}&orderBy=position&orderDirection=asc&perPage=1`,
        { token },
      ),
    );
    expect(first.items[0]).toMatchObject({ note: "item 9999", checked: false, quantity: 1 });
    await t.api(`${LISTS}/${list.id}`, { method: "DELETE", token });
  }, 60_000);

  it("serves a hand-broken list file's last good state, refuses writes with 409 naming the file, never overwrites it", async () => {
    const list = await newList("Broken By Hand");
    const [item] = (await bulk([{ shoppingListId: list.id, note: "bread" }])).createdItems;
    await t.larder.shopping.idle();
    const broken = '{ "id": "oops", this is not json';
    await writeFile(listFile(list.id), broken);
    // The test server does not watch files: reload as the watcher would.
    const doc = (
      t.larder.shopping as unknown as { lists: Map<string, { doc: { reload(): Promise<unknown> } }> }
    ).lists.get(list.id)!.doc;
    await doc.reload();
    const res = await t.api(`${LISTS}/${list.id}`, { token });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { listItems: { note: string }[] }).listItems).toMatchObject([
      { note: "bread" },
    ]);
    const all = (await (await t.api(`${LISTS}?perPage=-1`, { token })).json()) as { items: { id: string }[] };
    expect(all.items.map((l) => l.id)).toContain(list.id);
    expect((await t.api(`${ITEMS}/${item.id}`, { token })).status).toBe(200);
    const put = await t.api(`${ITEMS}/${item.id}`, {
      method: "PUT",
      token,
      json: { ...item, checked: true },
    });
    expect(put.status).toBe(409);
    expect(((await put.json()) as { detail: { message: string } }).detail.message).toContain(
      `${list.id}.json cannot be read`,
    );
    expect(
      (
        await t.api(`${ITEMS}/create-bulk`, {
          method: "POST",
          token,
          json: [{ shoppingListId: list.id, note: "more" }],
        })
      ).status,
    ).toBe(409);
    expect((await t.api(`${LISTS}/${list.id}`, { method: "DELETE", token })).status).toBe(409);
    expect((await t.api(`${ITEMS}/${item.id}`, { method: "DELETE", token })).status).toBe(409);
    await t.larder.shopping.idle();
    expect(await readFile(listFile(list.id), "utf8")).toBe(broken);
    // The admin's problem list names it.
    const problems = (await (await t.api("/api/admin/maintenance/problems", { token })).json()) as {
      items: { path: string; kind: string }[];
    };
    expect(problems.items).toContainEqual(
      expect.objectContaining({ kind: "broken", path: expect.stringContaining(`${list.id}.json`) }),
    );
  });

  it("keeps one file per list, in canonical JSON", async () => {
    const list = await newList("Canonical");
    await bulk([
      { shoppingListId: list.id, note: "b", position: 2 },
      { shoppingListId: list.id, note: "a", position: 1 },
    ]);
    await t.larder.shopping.idle();
    const files = await readdir(join(t.dataDir, "groups", "home", "households", "family", "shopping-lists"));
    expect(files).toContain(`${list.id}.json`);
    const text = await readFile(listFile(list.id), "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    const doc = JSON.parse(text) as { items: { note: string }[] };
    expect(doc.items.map((i) => i.note)).toEqual(["a", "b"]);
    expect(Object.keys(doc)).toEqual([...Object.keys(doc)].sort());
  });
});

describe("recipes on a shopping list", () => {
  const notes = ["flour", "sugar", "butter", "eggs", "milk", "salt"];
  let recipe: { slug: string; id: string };
  beforeAll(async () => {
    recipe = await newRecipe(t, token, "List Cake", {
      recipeIngredient: notes.map((n) => ({ note: n, quantity: 1 })),
    });
  });

  it("adds a recipe twice (quantities and scale sum), then removes it", async () => {
    const list = await newList("Cake Run");
    const once = await json<List>(
      await t.api(`${LISTS}/${list.id}/recipe/${recipe.id}`, { method: "POST", token }),
    );
    if (hasContract) assertContract("ShoppingListOut", once);
    expect(once.listItems).toHaveLength(notes.length);
    expect(
      once.listItems.every(
        (i) =>
          i.quantity === 1 &&
          i.recipeReferences[0].recipeScale === 1 &&
          i.recipeReferences[0].recipeQuantity === 1,
      ),
    ).toBe(true);
    expect(once.recipeReferences[0]).toMatchObject({ recipeId: recipe.id, recipeQuantity: 1 });
    const twice = await json<List>(
      await t.api(`${LISTS}/${list.id}/recipe/${recipe.id}`, {
        method: "POST",
        token,
        json: { recipeIncrementQuantity: 2 },
      }),
    );
    expect(twice.listItems).toHaveLength(notes.length);
    expect(twice.listItems.every((i) => i.quantity === 3 && i.recipeReferences[0].recipeScale === 3)).toBe(
      true,
    );
    expect(twice.recipeReferences[0].recipeQuantity).toBe(3);
    const removed = await json<List>(
      await t.api(`${LISTS}/${list.id}/recipe/${recipe.id}/delete`, {
        method: "POST",
        token,
        json: { recipeDecrementQuantity: 3 },
      }),
    );
    expect(removed.listItems).toHaveLength(0);
    expect(removed.recipeReferences).toHaveLength(0);
  });

  it("takes a recipe off again in either order when its ingredient was merged into another recipe's item of another unit", async () => {
    const flour = await food("Shopping Rye Flour");
    const cup = await unitNamed("cup");
    const tbsp = await unitNamed("tablespoon");
    const soup = await newRecipe(t, token, "Unit Soup", {
      recipeIngredient: [{ quantity: 1, unit: { id: tbsp.id }, food: { id: flour.id } }],
    });
    const bread = await newRecipe(t, token, "Unit Bread", {
      recipeIngredient: [{ quantity: 2, unit: { id: cup.id }, food: { id: flour.id } }],
    });
    const add = (id: string, r: string) => t.api(`${LISTS}/${id}/recipe/${r}`, { method: "POST", token });
    const remove = (id: string, r: string) =>
      t.api(`${LISTS}/${id}/recipe/${r}/delete`, { method: "POST", token }).then((res) => json<List>(res));
    for (const [first, second] of [
      [soup, bread],
      [bread, soup],
    ]) {
      const list = await newList(`Units ${first.slug}`);
      await add(list.id, first.id);
      const both = await json<List>(await add(list.id, second.id));
      expect(both.listItems).toHaveLength(1);
      // The item is in the unit that came first; taking each recipe off leaves the other's amount exactly.
      const left = await remove(list.id, first.id);
      expect(left.listItems).toHaveLength(1);
      const want = second === bread ? 2 : 1;
      const item = left.listItems[0] as unknown as { quantity: number; unit: { id: string } };
      const asWanted = item.unit.id === (second === bread ? cup.id : tbsp.id) ? item.quantity : null;
      if (asWanted !== null) expect(asWanted).toBeCloseTo(want, 2);
      else expect(item.quantity).toBeCloseTo(second === bread ? 32 : 1 / 16, 2);
      const none = await remove(list.id, second.id);
      expect(none.listItems).toHaveLength(0);
    }
  });

  it("a hand-raised item survives removing the recipe with a huge decrement; a selection of ingredients is honoured; several recipes at once", async () => {
    const list = await newList("Raised");
    const added = await json<List>(
      await t.api(`${LISTS}/${list.id}/recipe/${recipe.id}`, {
        method: "POST",
        token,
        json: { recipeIncrementQuantity: 10 },
      }),
    );
    const target = added.listItems.find((i) => i.note === "salt")!;
    await json(
      await t.api(`${ITEMS}/${target.id}`, {
        method: "PUT",
        token,
        json: { ...target, quantity: target.quantity + 4 },
      }),
    );
    const removed = await json<List>(
      await t.api(`${LISTS}/${list.id}/recipe/${recipe.id}/delete`, {
        method: "POST",
        token,
        json: { recipeDecrementQuantity: 1000 },
      }),
    );
    expect(removed.recipeReferences).toHaveLength(0);
    expect(removed.listItems).toHaveLength(1);
    expect(removed.listItems[0]).toMatchObject({ quantity: 4, recipeReferences: [] });

    const full = await json<{ recipeIngredient: Record<string, unknown>[] }>(
      await t.api(`/api/recipes/${recipe.slug}`, { token }),
    );
    const picked = [{ ...full.recipeIngredient[0], quantity: 2 }, full.recipeIngredient[1]];
    const sel = await json<List>(
      await t.api(`${LISTS}/${list.id}/recipe/${recipe.id}`, {
        method: "POST",
        token,
        json: { recipeIngredients: picked },
      }),
    );
    expect(sel.listItems.find((i) => i.note === notes[0])?.quantity).toBe(2);
    expect(sel.listItems.find((i) => i.note === notes[1])?.quantity).toBe(1);
    const other = await newRecipe(t, token, "List Bread", {
      recipeIngredient: [
        { note: "yeast", quantity: 1 },
        { note: "flour", quantity: 2 },
      ],
    });
    const many = await json<List>(
      await t.api(`${LISTS}/${list.id}/recipe`, {
        method: "POST",
        token,
        json: [{ recipeId: other.id }, { recipeId: recipe.id, recipeIncrementQuantity: 1 }],
      }),
    );
    if (hasContract) assertContract("ShoppingListOut", many);
    expect(many.recipeReferences.map((r) => r.recipeId).sort()).toEqual([other.id, recipe.id].sort());
    expect(many.listItems.find((i) => i.note === "yeast")?.quantity).toBe(1);
  });
});

describe("concurrent check-offs", () => {
  it("two phones checking off different items of one list at the same time both win", async () => {
    const list = await newList("Race");
    const items = (
      await bulk(Array.from({ length: 40 }, (_, i) => ({ shoppingListId: list.id, note: `race ${i}` })))
    ).createdItems;
    const results = await Promise.all(
      items.map((i) => t.api(`${ITEMS}/${i.id}`, { method: "PUT", token, json: { ...i, checked: true } })),
    );
    expect(results.map((r) => r.status)).toEqual(items.map(() => 200));
    const after = await getList(list.id);
    expect(after.listItems.filter((i) => i.checked)).toHaveLength(40);
    await t.larder.shopping.idle();
    const onDisk = JSON.parse(await readFile(listFile(list.id), "utf8")) as { items: { checked: boolean }[] };
    expect(onDisk.items.filter((i) => i.checked)).toHaveLength(40);
  });
});
