import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
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

type Entry = {
  id: number;
  date: string;
  entryType: string;
  title: string;
  text: string;
  recipeId: string | null;
  recipe: { slug: string } | null;
  householdId: string;
};
const today = () => new Date().toISOString().slice(0, 10);
const shift = (d: string, n: number) => {
  const x = new Date(`${d}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + n);
  return x.toISOString().slice(0, 10);
};
const create = (json: unknown, tok = token) =>
  t.api("/api/households/mealplans", { method: "POST", token: tok, json });

describe("meal plans", () => {
  it("creates with a title (201, default dinner) or a recipe, in the contract's shape, stored in mealplans.json; publishes mealplan_entry_created on create only", async () => {
    const res = await create({ date: today(), title: "Leftovers", text: "from Sunday" });
    expect(res.status).toBe(201);
    const e = (await res.json()) as Entry;
    if (hasContract) assertContract("ReadPlanEntry", e);
    expect(e).toMatchObject({
      date: today(),
      entryType: "dinner",
      title: "Leftovers",
      text: "from Sunday",
      recipe: null,
    });
    expect(Number.isInteger(e.id)).toBe(true);
    const r = await newRecipe(t, token, "Plan Soup");
    const withRecipe = (await (
      await create({ date: today(), entryType: "breakfast", recipeId: r.id })
    ).json()) as Entry;
    expect(withRecipe.recipe?.slug).toBe(r.slug);
    if (hasContract) assertContract("ReadPlanEntry", withRecipe);
    const stored = JSON.parse(
      await readFile(join(t.dataDir, "groups", "home", "households", "family", "mealplans.json"), "utf8"),
    ) as { entries: { id: number }[] };
    expect(stored.entries.map((x) => x.id)).toEqual(expect.arrayContaining([e.id, withRecipe.id]));
    await t.larder.events.idle();
    const created = events.filter((x) => x.eventType === "mealplan_entry_created");
    expect(created.at(-1)?.documentData).toEqual({
      documentType: "mealplan",
      operation: "create",
      mealplanId: withRecipe.id,
      date: today(),
      recipeId: r.id,
      recipeName: "Plan Soup",
      recipeSlug: r.slug,
    });

    const put = await t.api(`/api/households/mealplans/${e.id}`, {
      method: "PUT",
      token,
      json: { ...e, title: "Pizza", entryType: "lunch" },
    });
    expect(put.status).toBe(200);
    expect((await put.json()) as Entry).toMatchObject({ title: "Pizza", entryType: "lunch" });
    const before = events.filter((x) => x.eventType === "mealplan_entry_created").length;
    expect((await t.api(`/api/households/mealplans/${e.id}`, { method: "DELETE", token })).status).toBe(200);
    expect((await t.api(`/api/households/mealplans/${e.id}`, { token })).status).toBe(404);
    await t.larder.events.idle();
    expect(events.filter((x) => x.eventType === "mealplan_entry_created").length).toBe(before);
  });

  it("lists by start_date/end_date (paginated) and today as a bare array", async () => {
    const base = "2031-03-10";
    for (const d of [shift(base, -1), base, shift(base, 1), shift(base, 5)])
      expect((await create({ date: d, title: `at ${d}` })).status).toBe(201);
    const page = await (
      await t.api(`/api/households/mealplans?start_date=${base}&end_date=${shift(base, 1)}&perPage=-1`, {
        token,
      })
    ).json();
    if (hasContract) assertContract("PlanEntryPagination", page);
    expect((page as { items: Entry[] }).items.map((x) => x.date).sort()).toEqual([base, shift(base, 1)]);
    const filtered = (await (
      await t.api(
        `/api/households/mealplans?queryFilter=${encodeURIComponent(`date >= ${shift(base, 1)}`)}&perPage=-1`,
        { token },
      )
    ).json()) as { items: Entry[] };
    expect(filtered.items.map((x) => x.date).sort()).toEqual([shift(base, 1), shift(base, 5)]);
    await create({ date: today(), title: "Tonight" });
    const todays = (await (await t.api("/api/households/mealplans/today", { token })).json()) as Entry[];
    expect(Array.isArray(todays)).toBe(true);
    expect(todays.every((x) => x.date === today())).toBe(true);
    expect(todays.some((x) => x.title === "Tonight")).toBe(true);
    for (const x of todays) if (hasContract) assertContract("ReadPlanEntry", x);
  });

  it("refuses impossible dates, unknown entry types and entries with neither recipe nor title (422), and changes nothing", async () => {
    const file = join(t.dataDir, "groups", "home", "households", "family", "mealplans.json");
    await t.larder.mealplans.idle();
    const before = await readFile(file, "utf8");
    for (const body of [
      { date: "2024-02-30", title: "x" },
      { date: "2023-13-01", title: "x" },
      { date: "tomorrow", title: "x" },
      { date: today(), entryType: "brunch", title: "x" },
      { date: today() },
      { date: today(), recipeId: "00000000-0000-4000-8000-000000000000" },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(((await res.json()) as { detail: unknown[] }).detail.length).toBeGreaterThan(0);
    }
    expect((await t.api("/api/households/mealplans?start_date=2024-02-30", { token })).status).toBe(422);
    await t.larder.mealplans.idle();
    expect(await readFile(file, "utf8")).toBe(before);
    expect((await create({ date: "2024-02-29", entryType: "dessert", title: "Leap cake" })).status).toBe(201);
  });

  it("keeps households apart: another household's entry is a 404", async () => {
    const h2 = await secondHousehold(t, "Plan Neighbours");
    const theirs = (await (await create({ date: today(), title: "Theirs" }, h2.token)).json()) as Entry;
    expect((await t.api(`/api/households/mealplans/${theirs.id}`, { token })).status).toBe(404);
    const mine = (await (await t.api("/api/households/mealplans/today", { token })).json()) as Entry[];
    expect(mine.some((x) => x.title === "Theirs")).toBe(false);
    const other = await otherGroup(t, "Plan Strangers");
    expect((await t.api(`/api/households/mealplans/${theirs.id}`, { token: other.token })).status).toBe(404);
  });

  it("entriesBetween gives a household's ReadPlanEntry objects for a date range (the webhook digest's read)", async () => {
    const h = t.larder.groups.bySlugOrNull("home")!;
    const fam = h.households.get("family")!;
    const got = t.larder.mealplans.entriesBetween(h.doc.data.id, fam.doc.data.id, "2031-03-10", "2031-03-11");
    expect(got.map((x) => x.date)).toEqual(["2031-03-10", "2031-03-11"]);
    for (const x of got) if (hasContract) assertContract("ReadPlanEntry", x);
    expect(t.larder.mealplans.entriesBetween(h.doc.data.id, "nope", "2000-01-01", "2100-01-01")).toEqual([]);
  });
});

describe("meal plan rules and random", () => {
  it("CRUDs rules in the contract's shape; an invalid filter is 422 on create and update", async () => {
    const res = await t.api("/api/households/mealplans/rules", {
      method: "POST",
      token,
      json: {
        day: "monday",
        entryType: "breakfast",
        queryFilterString: 'tags.name CONTAINS ALL ["tag1","tag2"]',
      },
    });
    expect(res.status).toBe(201);
    const rule = (await res.json()) as { id: string; queryFilter: { parts: { value: unknown }[] } };
    if (hasContract) assertContract("PlanRulesOut", rule);
    expect(rule.queryFilter.parts[0].value).toEqual(["tag1", "tag2"]);
    for (const q of ['badfield = "badvalue"', 'recipe_category.id IN ["1"]', 'created_at >= "not-a-date"']) {
      expect(
        (
          await t.api("/api/households/mealplans/rules", {
            method: "POST",
            token,
            json: { queryFilterString: q },
          })
        ).status,
      ).toBe(422);
      expect(
        (
          await t.api(`/api/households/mealplans/rules/${rule.id}`, {
            method: "PUT",
            token,
            json: { queryFilterString: q },
          })
        ).status,
      ).toBe(422);
    }
    expect(
      (await t.api("/api/households/mealplans/rules", { method: "POST", token, json: { day: "someday" } }))
        .status,
    ).toBe(422);
    const put = await t.api(`/api/households/mealplans/rules/${rule.id}`, {
      method: "PUT",
      token,
      json: { day: "tuesday", entryType: "lunch" },
    });
    expect(((await put.json()) as { day: string }).day).toBe("tuesday");
    const page = await (await t.api("/api/households/mealplans/rules", { token })).json();
    if (hasContract) assertContract("PlanRulesPagination", page);
    expect(
      (await t.api(`/api/households/mealplans/rules/${rule.id}`, { method: "DELETE", token })).status,
    ).toBe(200);
    expect((await t.api(`/api/households/mealplans/rules/${rule.id}`, { token })).status).toBe(404);
  });

  it("random follows the rules of the weekday and entry type, across households; 404 when nothing matches", async () => {
    const h2 = await secondHousehold(t, "Random Neighbours");
    const tagged = await newRecipe(t, h2.token, "Saturday Pancakes", { tags: [{ name: "Pancake Day" }] });
    const tagId = (
      (await (await t.api(`/api/recipes/${tagged.slug}`, { token })).json()) as { tags: { id: string }[] }
    ).tags[0].id;
    const rule = (await (
      await t.api("/api/households/mealplans/rules", {
        method: "POST",
        token,
        json: {
          day: "saturday",
          entryType: "breakfast",
          queryFilterString: `tags.id CONTAINS ALL ["${tagId}"]`,
        },
      })
    ).json()) as { id: string };
    for (let i = 0; i < 3; i++) {
      const res = await t.api("/api/households/mealplans/random", {
        method: "POST",
        token,
        json: { date: "2023-02-25", entryType: "breakfast" },
      });
      expect(res.status).toBe(200);
      const e = (await res.json()) as Entry;
      if (hasContract) assertContract("ReadPlanEntry", e);
      expect(e.recipe?.slug).toBe(tagged.slug);
    }
    await t.api(`/api/households/mealplans/rules/${rule.id}`, {
      method: "PUT",
      token,
      json: { day: "unset", entryType: "unset", queryFilterString: 'name = "no such recipe anywhere"' },
    });
    const none = await t.api("/api/households/mealplans/random", {
      method: "POST",
      token,
      json: { date: "2023-02-26" },
    });
    expect(none.status).toBe(404);
    expect(((await none.json()) as { detail: { message: string } }).detail.message).toBe(
      "No recipes match your rules",
    );
    await t.api(`/api/households/mealplans/rules/${rule.id}`, { method: "DELETE", token });
  });

  it("a household_id IN filter picks only that household's recipes", async () => {
    const h3 = await secondHousehold(t, "Only These");
    const theirs = await newRecipe(t, h3.token, "Only Their Risotto");
    const rule = (await (
      await t.api("/api/households/mealplans/rules", {
        method: "POST",
        token,
        json: { queryFilterString: `household_id IN ["${h3.household.doc.data.id}"]` },
      })
    ).json()) as { id: string };
    for (let i = 0; i < 3; i++) {
      const e = (await (
        await t.api("/api/households/mealplans/random", {
          method: "POST",
          token,
          json: { date: "2031-09-0" + (i + 1) },
        })
      ).json()) as Entry;
      expect(e.recipe?.slug).toBe(theirs.slug);
    }
    await t.api(`/api/households/mealplans/rules/${rule.id}`, { method: "DELETE", token });
  });
});
