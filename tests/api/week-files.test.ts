/** The week's files are live like recipes: hand edits show through the API, a broken list file is reported and kept. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { newRecipe } from "../support/members.js";

let t: TestServer;
let token: string;
const household = () => join(t.dataDir, "groups", "home", "households", "family");

/** Poll until `fn` gives a value (the watcher debounces; no fixed sleep). */
async function eventually<T>(fn: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await startTestServer({}, { watch: true });
  token = await t.login();
});
afterAll(async () => t?.close());

describe("the week's files, edited by hand", () => {
  it("a meal plan entry changed in mealplans.json shows through the API without a restart", async () => {
    const e = (await (
      await t.api("/api/households/mealplans", {
        method: "POST",
        token,
        json: { date: "2031-07-01", title: "Soup" },
      })
    ).json()) as { id: number };
    await t.larder.mealplans.idle();
    const file = join(household(), "mealplans.json");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace('"title": "Soup"', '"title": "Stew, edited by hand"'));
    const title = await eventually(async () => {
      const got = (await (await t.api(`/api/households/mealplans/${e.id}`, { token })).json()) as {
        title: string;
      };
      return got.title === "Stew, edited by hand" ? got.title : undefined;
    });
    expect(title).toBe("Stew, edited by hand");
  });

  it("a list file added by hand is listed; broken by hand it keeps its last good state, refuses writes and is never overwritten", async () => {
    const id = "0b7b0e8a-3c55-4c8e-9a39-6a3f0a1d2e4f";
    const me = (await (await t.api("/api/users/self", { token })).json()) as { id: string };
    const doc = {
      id,
      name: "Written By Hand",
      userId: me.id,
      items: [{ id: "5d1c6f7e-8a9b-4c0d-9e1f-2a3b4c5d6e7f", note: "lemons", quantity: 3 }],
    };
    await mkdir(join(household(), "shopping-lists"), { recursive: true });
    await writeFile(join(household(), "shopping-lists", `${id}.json`), JSON.stringify(doc));
    const list = (await (await t.api(`/api/households/shopping/lists/${id}`, { token })).json()) as {
      name: string;
      listItems: { note: string; quantity: number }[];
    };
    expect(list.name).toBe("Written By Hand");
    expect(list.listItems).toMatchObject([{ note: "lemons", quantity: 3 }]);
    const broken = '{"id": "' + id + '", "name": ';
    // The watcher starts watching a folder it was just told about asynchronously: an edit made in the
    // same instant can pass unseen, so the "editor" saves again until the server has noticed.
    // (A write before the server noticed is refused too: the file differs from the version it read.)
    const status = await eventually(async () => {
      await writeFile(join(household(), "shopping-lists", `${id}.json`), broken);
      const res = await t.api(`/api/households/shopping/lists/${id}`, {
        method: "PUT",
        token,
        json: { ...list, name: "x" },
      });
      const body = (await res.json()) as { detail: { message: string } };
      return res.status === 409 && /cannot be read/.test(body.detail.message) ? body : undefined;
    });
    expect(status.detail.message).toContain(`${id}.json`);
    const kept = (await (await t.api(`/api/households/shopping/lists/${id}`, { token })).json()) as {
      listItems: { note: string }[];
    };
    expect(kept.listItems).toMatchObject([{ note: "lemons" }]);
    await t.larder.shopping.idle();
    expect(await readFile(join(household(), "shopping-lists", `${id}.json`), "utf8")).toBe(broken);
    // Fixed by hand: the list is back.
    await writeFile(join(household(), "shopping-lists", `${id}.json`), JSON.stringify(doc));
    await eventually(async () =>
      (await t.api(`/api/households/shopping/lists/${id}`, { token })).status === 200 ? true : undefined,
    );
  });

  it("deleting a recipe through the API removes its meal plan entries", async () => {
    const r = await newRecipe(t, token, "Doomed Dish");
    const e = (await (
      await t.api("/api/households/mealplans", {
        method: "POST",
        token,
        json: { date: "2031-07-02", recipeId: r.id },
      })
    ).json()) as { id: number };
    expect((await t.api(`/api/recipes/${r.slug}`, { method: "DELETE", token })).status).toBe(200);
    await eventually(async () =>
      (await t.api(`/api/households/mealplans/${e.id}`, { token })).status === 404 ? true : undefined,
    );
  });
});
