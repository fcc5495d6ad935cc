/** Home Assistant's Mealie calls end to end, and the live channel (GET /api/larder/events). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { addMember, newRecipe, secondHousehold } from "../support/members.js";
import { MAX_STREAMS_PER_USER } from "../../web/api/routes/live.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

const ok = async <T>(res: Response, status = 200): Promise<T> => {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  return JSON.parse(text) as T;
};
const day = (n: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

type Item = { id: string; position: number; checked: boolean; note: string; shoppingListId: string };

describe("Home Assistant's call sequence", () => {
  it("plans the week, reads today and the week, lists lists, reads items by position, creates, reorders with full PUTs, checks off and deletes", async () => {
    const soup = await newRecipe(t, token, "HA Soup");
    for (const [d, body] of [
      [0, { entryType: "dinner", recipeId: soup.id }],
      [0, { entryType: "lunch", title: "Sandwiches" }],
      [3, { entryType: "breakfast", title: "Porridge" }],
    ] as const) {
      const e = await ok(
        await t.api("/api/households/mealplans", { method: "POST", token, json: { date: day(d), ...body } }),
        201,
      );
      if (hasContract) assertContract("ReadPlanEntry", e);
    }
    const today = await ok<{ title: string; recipe: { slug: string } | null }[]>(
      await t.api("/api/households/mealplans/today", { token }),
    );
    expect(today.map((e) => e.recipe?.slug ?? e.title).sort()).toEqual(["Sandwiches", soup.slug].sort());
    const week = await ok<{ items: { date: string }[] }>(
      await t.api(`/api/households/mealplans?start_date=${day(0)}&end_date=${day(6)}`, { token }),
    );
    if (hasContract) assertContract("PlanEntryPagination", week);
    expect(week.items).toHaveLength(3);

    const list = await ok<{ id: string }>(
      await t.api("/api/households/shopping/lists", {
        method: "POST",
        token,
        json: { name: "Home Assistant" },
      }),
      201,
    );
    const lists = await ok<{ items: { id: string }[] }>(
      await t.api("/api/households/shopping/lists", { token }),
    );
    if (hasContract) assertContract("ShoppingListPagination", lists);
    expect(lists.items.some((l) => l.id === list.id)).toBe(true);

    const itemsUrl = `/api/households/shopping/items?queryFilter=shoppingListId=${list.id}&orderBy=position&orderDirection=asc&perPage=-1`;
    for (const [i, note] of ["milk", "bread", "apples"].entries()) {
      const created = await ok(
        await t.api("/api/households/shopping/items", {
          method: "POST",
          token,
          json: { shoppingListId: list.id, note, position: i, quantity: 1 },
        }),
        201,
      );
      if (hasContract) assertContract("ShoppingListItemsCollectionOut", created);
    }
    let page = await ok<{ items: Item[] }>(await t.api(itemsUrl, { token }));
    if (hasContract) assertContract("ShoppingListItemPagination", page);
    expect(page.items.map((i) => i.note)).toEqual(["milk", "bread", "apples"]);

    // Reorder: Home Assistant moves the last item to the top and PUTs every item in full.
    const reordered = [page.items[2], page.items[0], page.items[1]];
    for (const [pos, item] of reordered.entries()) {
      const res = await ok(
        await t.api(`/api/households/shopping/items/${item.id}`, {
          method: "PUT",
          token,
          json: { ...item, position: pos },
        }),
      );
      if (hasContract) assertContract("ShoppingListItemsCollectionOut", res);
    }
    page = await ok<{ items: Item[] }>(await t.api(itemsUrl, { token }));
    expect(page.items.map((i) => i.note)).toEqual(["apples", "milk", "bread"]);

    const milk = page.items[1];
    await ok(
      await t.api(`/api/households/shopping/items/${milk.id}`, {
        method: "PUT",
        token,
        json: { ...milk, checked: true },
      }),
    );
    const bread = page.items[2];
    const del = await ok(
      await t.api(`/api/households/shopping/items/${bread.id}`, { method: "DELETE", token }),
    );
    if (hasContract) assertContract("SuccessResponse", del);
    page = await ok<{ items: Item[] }>(await t.api(itemsUrl, { token }));
    expect(page.items.map((i) => [i.note, i.checked])).toEqual([
      ["apples", false],
      ["milk", true],
    ]);
    const one = await ok(await t.api(`/api/households/shopping/items/${milk.id}`, { token }));
    if (hasContract) assertContract("ShoppingListItemOut-Output", one);
  });
});

/** An SSE client over fetch: collects events as they arrive. */
async function subscribe(tok: string) {
  const ac = new AbortController();
  const res = await fetch(`${t.url}/api/larder/events`, {
    headers: { Authorization: `Bearer ${tok}` },
    signal: ac.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const received: {
    event: string;
    data: { kind?: string; operation?: string; data?: { id: string; checked?: boolean }[] };
    at: number;
  }[] = [];
  const waiters: (() => void)[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += decoder.decode(value, { stream: true });
        let i: number;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) received.push({ event, data: JSON.parse(data), at: Date.now() });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // aborted
    }
  })();
  const waitFor = async (pred: (e: (typeof received)[number]) => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = received.find(pred);
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await Promise.race([
        new Promise<void>((r) => waiters.push(r)),
        new Promise((r) => setTimeout(r, left)),
      ]);
    }
  };
  return {
    received,
    waitFor,
    close: async () => {
      ac.abort();
      await pump;
    },
  };
}

describe("the live channel", () => {
  it("tells two open clients of the household about a check-off made by a third within 1 s, with the changed item; other households hear nothing", async () => {
    const a = await addMember(t);
    const b = await addMember(t);
    const neighbour = await secondHousehold(t, "Live Neighbours");
    const list = await ok<{ id: string }>(
      await t.api("/api/households/shopping/lists", { method: "POST", token, json: { name: "Live" } }),
      201,
    );
    const [item] = (
      await ok<{ createdItems: Item[] }>(
        await t.api("/api/households/shopping/items", {
          method: "POST",
          token,
          json: { shoppingListId: list.id, note: "coffee" },
        }),
        201,
      )
    ).createdItems;
    const clients = [await subscribe(a.token), await subscribe(b.token), await subscribe(neighbour.token)];
    for (const c of clients) expect(await c.waitFor((e) => e.event === "ready", 1000)).not.toBeNull();
    const start = Date.now();
    await ok(
      await t.api(`/api/households/shopping/items/${item.id}`, {
        method: "PUT",
        token,
        json: { ...item, checked: true },
      }),
    );
    for (const c of clients.slice(0, 2)) {
      const seen = await c.waitFor(
        (e) =>
          e.event === "shopping-item" &&
          e.data.operation === "update" &&
          (e.data.data ?? []).some((x) => x.id === item.id && x.checked === true),
        1000,
      );
      expect(seen).not.toBeNull();
      expect(seen!.at - start).toBeLessThan(1000);
    }
    // A meal plan change reaches the household too; the neighbour's stream carries none of it.
    await ok(
      await t.api("/api/households/mealplans", {
        method: "POST",
        token,
        json: { date: day(1), title: "Live supper" },
      }),
      201,
    );
    expect(await clients[0].waitFor((e) => e.event === "mealplan", 1000)).not.toBeNull();
    expect(clients[2].received.filter((e) => e.event !== "ready")).toEqual([]);
    for (const c of clients) await c.close();
    // Streams end cleanly: the hub forgets them.
    const deadline = Date.now() + 2000;
    while (t.larder.live.size() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(t.larder.live.size()).toBe(0);
  });

  it("needs a signed-in user (bearer or the session cookie) and bounds the streams one user may hold", async () => {
    expect((await fetch(`${t.url}/api/larder/events`)).status).toBe(401);
    const byCookie = await fetch(`${t.url}/api/larder/events`, {
      headers: { Cookie: `mealie.access_token=${token}` },
    });
    expect(byCookie.status).toBe(200);
    await byCookie.body?.cancel();
    const m = await addMember(t);
    const open = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) open.push(await subscribe(m.token));
    const refused = await fetch(`${t.url}/api/larder/events`, {
      headers: { Authorization: `Bearer ${m.token}` },
    });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { detail: { message: string } }).detail.message).toContain(
      "live streams",
    );
    await open[0].close();
    const deadline = Date.now() + 2000;
    let again: Response | null = null;
    while (Date.now() < deadline) {
      again = await fetch(`${t.url}/api/larder/events`, { headers: { Authorization: `Bearer ${m.token}` } });
      if (again.status === 200) break;
      await again.text();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(again?.status).toBe(200);
    await again?.body?.cancel();
    for (const c of open.slice(1)) await c.close();
  });
});
