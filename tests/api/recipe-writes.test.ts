/** Recipe writes as clients send them: at the same moment, and with dates to check. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

async function create(name: string): Promise<string> {
  const res = await t.api("/api/recipes", { method: "POST", token, json: { name } });
  expect(res.status).toBe(201);
  return (await res.json()) as string;
}
async function patch(slug: string, json: Record<string, unknown>): Promise<Response> {
  return t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json });
}
async function recipe(slug: string): Promise<Record<string, unknown>> {
  const res = await t.api(`/api/recipes/${slug}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe("recipe writes at the same moment", () => {
  it("creates every one of nine recipes of one name sent at once, each under its own slug", async () => {
    const answers = await Promise.all(
      Array.from({ length: 9 }, () =>
        t.api("/api/recipes", { method: "POST", token, json: { name: "Race Stew" } }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(9).fill(201));
    const slugs = (await Promise.all(answers.map((r) => r.json()))) as string[];
    expect(new Set(slugs).size).toBe(9);
    expect(slugs.sort()).toEqual(
      ["race-stew", ...Array.from({ length: 8 }, (_, i) => `race-stew-${i + 1}`)].sort(),
    );
  });

  it("keeps both of two PATCHes of one recipe sent at once", async () => {
    const slug = await create("Race Soup");
    const [a, b, c] = await Promise.all([
      patch(slug, { description: "d1" }),
      patch(slug, { recipeYield: "y1" }),
      patch(slug, { orgURL: "https://example.com/soup" }),
    ]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(await recipe(slug)).toMatchObject({
      description: "d1",
      recipeYield: "y1",
      orgURL: "https://example.com/soup",
    });
  });

  it("duplicates one recipe twice at once into two recipes", async () => {
    const slug = await create("Race Pie");
    const answers = await Promise.all([
      t.api(`/api/recipes/${slug}/duplicate`, { method: "POST", token, json: {} }),
      t.api(`/api/recipes/${slug}/duplicate`, { method: "POST", token, json: {} }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    const names = (await Promise.all(answers.map((r) => r.json()))).map((r) => (r as { name: string }).name);
    expect(names.sort()).toEqual(["Race Pie (1)", "Race Pie (2)"]);
  });
});

describe("recipe dates", () => {
  it("stores lastMade as a UTC date-time whatever offset it was sent with", async () => {
    const slug = await create("Dated Stew");
    const res = await patch(slug, { lastMade: "2023-05-05T10:00:00+02:00" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { lastMade: string }).lastMade).toBe("2023-05-05T08:00:00Z");
    await patch(slug, { lastMade: "2021-01-01T00:00:00" });
    const back = await recipe(slug);
    expect(back.lastMade).toBe("2021-01-01T00:00:00Z");
    if (hasContract) assertContract("Recipe-Output", back);
  });

  it("refuses a lastMade or dateAdded that is not a date with a 422 naming the field, and keeps the recipe", async () => {
    const slug = await create("Undated Stew");
    await patch(slug, { lastMade: "2022-02-02T12:00:00Z" });
    for (const body of [{ lastMade: "not a date" }, { lastMade: "2023-02-30" }, { dateAdded: "yesterday" }]) {
      const res = await patch(slug, body);
      expect(res.status).toBe(422);
      const detail = ((await res.json()) as { detail: { loc: string[]; msg: string }[] }).detail;
      expect(detail[0].loc).toEqual(["body", Object.keys(body)[0]]);
      expect(detail[0].msg).toBe("Input should be a valid datetime");
    }
    expect((await recipe(slug)).lastMade).toBe("2022-02-02T12:00:00Z");
  });

  it("refuses a recipe larger than any recipe (ingredients, steps, text) with a 422 naming the limit, and keeps the recipe", async () => {
    const slug = await create("Bounded Stew");
    await patch(slug, { description: "Good." });
    const tooMany = await patch(slug, {
      recipeIngredient: Array.from({ length: 2001 }, () => ({ note: "1 cup x" })),
    });
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(await tooMany.json())).toMatch(/at most 2,000 ingredients/);
    expect(
      (await patch(slug, { recipeInstructions: Array.from({ length: 1001 }, () => ({ text: "Stir." })) }))
        .status,
    ).toBe(422);
    const long = await patch(slug, { description: "x".repeat(100_001) });
    expect(long.status).toBe(422);
    expect(JSON.stringify(await long.json())).toMatch(/at most 100,000 characters/);
    // Many fields each under their own limit, together too much markup to render on every view.
    const marked = await patch(slug, {
      recipeInstructions: Array.from({ length: 500 }, () => ({ text: "**_".repeat(30) })),
    });
    expect(marked.status).toBe(422);
    expect(JSON.stringify(await marked.json())).toMatch(/at most 20,000 Markdown marks/);
    expect((await recipe(slug)).description).toBe("Good.");
    // At the limits, the recipe is saved.
    expect(
      (await patch(slug, { recipeIngredient: Array.from({ length: 2000 }, () => ({ note: "1 cup x" })) }))
        .status,
    ).toBe(200);
  });

  it("marks a recipe made at a checked time: an offset is converted to UTC, not a date is a 422", async () => {
    const slug = await create("Made Stew");
    const at = (timestamp: string) =>
      t.api(`/api/recipes/${slug}/last-made`, { method: "PATCH", token, json: { timestamp } });
    const ok = await at("2024-03-01T20:00:00+01:00");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { lastMade: string }).lastMade).toBe("2024-03-01T19:00:00Z");
    expect((await at("not a date")).status).toBe(422);
    expect((await recipe(slug)).lastMade).toBe("2024-03-01T19:00:00Z");
  });

  it("takes a dateAdded a client sets, and keeps the stored one when the same date comes back", async () => {
    const slug = await create("Migrated Stew");
    const before = await recipe(slug);
    const same = await patch(slug, { ...before, description: "edited" });
    expect(((await same.json()) as { dateAdded: string }).dateAdded).toBe(before.dateAdded);
    const res = await patch(slug, { dateAdded: "2020-02-02" });
    expect(((await res.json()) as { dateAdded: string }).dateAdded).toBe("2020-02-02");
    expect((await recipe(slug)).dateAdded).toBe("2020-02-02");
  });

  it("answers a blank name with Mealie's validation shape and status", async () => {
    const res = await t.api("/api/recipes", { method: "POST", token, json: { name: "   " } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: [{ loc: ["body", "name"], type: "missing" }] });
    const slug = await create("Named Stew");
    expect((await patch(slug, { name: "" })).status).toBe(422);
    expect((await recipe(slug)).name).toBe("Named Stew");
  });
});

describe("hostile recipe requests", () => {
  it("refuses a body that is not valid UTF-8 with a 422, creating nothing", async () => {
    const before = t.larder.recipes.store.all().length;
    const res = await t.api("/api/recipes", {
      method: "POST",
      token,
      headers: { "Content-Type": "application/json" },
      body: Buffer.concat([Buffer.from('{"name":"bad'), Buffer.from([0xff, 0xfe]), Buffer.from('utf"}')]),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      detail: [{ msg: "JSON decode error: the body is not valid UTF-8" }],
    });
    expect(t.larder.recipes.store.all().length).toBe(before);
  });

  it("answers a LIKE filter of many % at once, and keeps answering", async () => {
    await create("Percent Soup");
    const filter = `name LIKE "${"%".repeat(70)}zzz"`;
    const res = await t.api(`/api/recipes?queryFilter=${encodeURIComponent(filter)}`, { token });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: unknown[] }).items).toEqual([]);
    expect((await t.api("/api/app/about", {})).status).toBe(200);
  });
});
