import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import type { Actor } from "../actor.js";
import { seedDemoWeek } from "./demo-week.js";

// The demo's week on a copy of the shipped demo folder, as `serve --demo` makes it on a first run.

let base: string;
let larder: Larder;
let admin: Actor;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-demo-week-"));
  await cp(resolve("data"), join(base, "data"), {
    recursive: true,
    filter: (src) => !src.endsWith(".larder") && !src.endsWith(".git"),
  });
  larder = await Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(base, "data"), bcryptRounds: 4 }),
    { log: consoleLogger("silent"), watch: false },
  );
  admin = { kind: "user", user: larder.users.all().find((u) => u.admin)! };
});
afterAll(async () => {
  await larder?.close();
  await rm(base, { recursive: true, force: true });
});

describe("the demo's week", () => {
  it("plans meals from the day before to four days after, lists three recipes' ingredients, makes two cookbooks", async () => {
    const now = new Date("2026-12-07T09:00:00Z");
    expect(await seedDemoWeek(larder, admin, now)).toBe(true);
    const plan = larder.mealplans.list(admin, { page: 1, perPage: -1 });
    const dates = plan.items.map((e) => e.date).sort();
    expect(dates[0]).toBe("2026-12-06");
    expect(dates[dates.length - 1]).toBe("2026-12-11");
    expect(plan.items.filter((e) => e.date === "2026-12-07").map((e) => e.recipe?.slug)).toEqual(
      expect.arrayContaining(["buttermilk-pancakes", "black-bean-tacos"]),
    );
    expect(plan.items.some((e) => e.title === "Leftovers" && e.recipeId === null)).toBe(true);

    const lists = await larder.shopping.listLists(admin, { page: 1, perPage: -1 });
    expect(lists.items.map((l) => l.name)).toEqual(["This week"]);
    const list = await larder.shopping.getList(admin, lists.items[0].id);
    expect(list.recipeReferences.map((r) => r.recipe?.slug).sort()).toEqual([
      "black-bean-tacos",
      "miso-glazed-salmon",
      "mushroom-risotto",
    ]);
    expect(list.listItems.length).toBeGreaterThan(10);

    const books = larder.cookbooks.list(admin, { page: 1, perPage: -1 });
    const weeknight = books.items.find((b) => b.name === "Weeknight dinners")!;
    expect(larder.cookbooks.get(admin, weeknight.id).recipes.length).toBeGreaterThan(0);
    const sweet = books.items.find((b) => b.name === "Something sweet")!;
    expect(larder.cookbooks.get(admin, sweet.id).recipes.length).toBeGreaterThan(0);
  });

  it("adds nothing to a household that already plans meals", async () => {
    const before = larder.mealplans.list(admin, { page: 1, perPage: -1 }).total;
    expect(await seedDemoWeek(larder, admin)).toBe(false);
    expect(larder.mealplans.list(admin, { page: 1, perPage: -1 }).total).toBe(before);
    expect((await larder.shopping.listLists(admin, { page: 1, perPage: -1 })).total).toBe(1);
  });
});
