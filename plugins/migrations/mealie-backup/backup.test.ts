/**
 * Each Mealie backup fixture brought in as a whole site, then compared with the archive's own JSON:
 * counts per group (recipes, users, foods, units, labels, cookbooks) and a sample of every recipe's
 * fields (ingredients, steps, tags, categories, nutrition, yield, times). A second run adds nothing;
 * users cannot sign in until they reset their password; other schema revisions are refused by name.
 */
import { readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Larder } from "../../../core/larder.js";
import { loadConfig } from "../../../core/config.js";
import { consoleLogger } from "../../../core/log/logger.js";
import type { Actor } from "../../../core/actor.js";
import { makeZip } from "../../../tests/support/zip-writer.js";
import { loadSharp } from "../../../core/lazy/modules.js";
import { migrations } from "../index.js";
import { BACKUPS_DIR, fixturesPresent } from "../test-support.js";
import { openZip } from "../shared/archive.js";
import { findDatabase, idKey } from "./read.js";

type Row = Record<string, unknown>;
let base: string;
let larder: Larder;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-backup-"));
  larder = await Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(base, "data"), bcryptRounds: 4 }),
    { log: consoleLogger("silent"), plugins: migrations },
  );
});
afterEach(async () => {
  await larder?.close();
  await rm(base, { recursive: true, force: true });
});

async function tablesOf(path: string): Promise<Record<string, Row[]>> {
  const zip = await openZip(path);
  try {
    return JSON.parse(await zip.readText(findDatabase(zip), 512 * 1024 * 1024)) as Record<string, Row[]>;
  } finally {
    zip.close();
  }
}

const backups = fixturesPresent
  ? readdirSync(BACKUPS_DIR)
      .filter((n) => n.endsWith(".zip"))
      .sort()
  : [];

describe.skipIf(!fixturesPresent)("Mealie backup fixtures, whole site", () => {
  for (const file of backups) {
    it(`${file}: counts and fields match database.json`, { timeout: 180_000 }, async () => {
      const path = `${BACKUPS_DIR}${file}`;
      const t = await tablesOf(path);
      const parts = await larder.migrations.importSite({ type: "mealie_backup", path });
      expect(parts.flatMap((p) => p.entries).filter((e) => e.status !== "imported")).toEqual([]);
      for (const g of t.groups) {
        const gid = idKey(g.id);
        const rows = (name: string) => (t[name] ?? []).filter((r) => idKey(r.group_id) === gid);
        const recipes = rows("recipes");
        const users = rows("users");
        if (!recipes.length && !users.length) continue;
        const target = larder.groups.all().find((x) => x.doc.data.name === g.name)!;
        expect(target, String(g.name)).toBeDefined();
        expect(larder.recipes.store.list(target.slug)).toHaveLength(recipes.length);
        expect(
          larder.users
            .all()
            .filter((u) => u.groupId === target.doc.data.id)
            .map((u) => u.username)
            .sort(),
        ).toEqual(users.map((u) => String(u.username)).sort());
        const distinct = (list: Row[]) =>
          new Set(list.map((r) => String(r.name).trim().toLowerCase()).filter(Boolean)).size;
        expect(target.foods.data.foods).toHaveLength(distinct(rows("ingredient_foods")));
        expect(target.units.data.units.length).toBeGreaterThanOrEqual(distinct(rows("ingredient_units")));
        expect(target.labels.data.labels).toHaveLength(distinct(rows("multi_purpose_labels")));
        expect(larder.cookbooks.inGroup(target)).toHaveLength(rows("cookbooks").length);
        const member: Actor = { kind: "user", user: larder.users.firstAdminOf(target.doc.data.id)! };
        const plans = rows("group_meal_plans").filter((m) => /^\d{4}-\d{2}-\d{2}/.test(String(m.date)));
        expect(larder.mealplans.list(member, { perPage: -1 }).items).toHaveLength(plans.length);
        const lists = rows("shopping_lists");
        const gotLists = (await larder.shopping.listLists(member, { perPage: -1 })).items;
        expect(gotLists.map((l) => l.name).sort()).toEqual(lists.map((l) => String(l.name)).sort());
        const listIds = new Set(lists.map((l) => idKey(l.id)));
        const items = (t.shopping_list_items ?? []).filter((i) => listIds.has(idKey(i.shopping_list_id)));
        expect((await larder.shopping.listItems(member, { perPage: -1 })).items).toHaveLength(items.length);
        const index = await larder.migrations.indexFor(target);
        for (const r of recipes) {
          const rid = idKey(r.id);
          const id = index.idOf(`mealie_backup:recipe:${rid}`);
          expect(id, String(r.name)).not.toBeNull();
          const doc = larder.recipes.store.getById(id!)!.doc;
          const ings = (t.recipes_ingredients ?? []).filter((i) => idKey(i.recipe_id) === rid);
          const steps = (t.recipe_instructions ?? [])
            .filter((i) => idKey(i.recipe_id) === rid)
            .sort((a, b) => Number(a.position) - Number(b.position));
          const tagIds = new Set(
            (t.recipes_to_tags ?? []).filter((x) => idKey(x.recipe_id) === rid).map((x) => idKey(x.tag_id)),
          );
          const tags = (t.tags ?? []).filter((x) => tagIds.has(idKey(x.id))).map((x) => String(x.name));
          const catIds = new Set(
            (t.recipes_to_categories ?? [])
              .filter((x) => idKey(x.recipe_id) === rid)
              .map((x) => idKey(x.category_id)),
          );
          const cats = (t.categories ?? []).filter((x) => catIds.has(idKey(x.id))).map((x) => String(x.name));
          expect(doc.ingredients, String(r.name)).toHaveLength(ings.length);
          expect(doc.instructions.map((s) => s.text)).toEqual(steps.map((s) => String(s.text ?? "")));
          expect([...doc.tags].sort()).toEqual([...new Set(tags)].sort());
          expect([...doc.categories].sort()).toEqual([...new Set(cats)].sort());
          expect(doc.recipeYield ?? "").toBe(String(r.recipe_yield ?? ""));
          expect(doc.totalTime ?? null).toBe((r.total_time as string | null) ?? null);
          expect(doc.orgURL ?? null).toBe((r.org_url as string | null) || null);
          const n = (t.recipe_nutrition ?? []).find((x) => idKey(x.recipe_id) === rid);
          if (n?.calories) expect(doc.nutrition.calories).toBe(String(n.calories));
          if (n?.protein_content) expect(doc.nutrition.proteinContent).toBe(String(n.protein_content));
        }
      }
    });
  }

  it(
    "a second run adds nothing and says so; users must reset their password",
    { timeout: 120_000 },
    async () => {
      const path = `${BACKUPS_DIR}backup-version-09aba125b57a-1.zip`;
      const first = await larder.migrations.importSite({ type: "mealie_backup", path });
      expect(first[0].notes!.join("\n")).toMatch(
        /Passwords cannot carry over from Mealie: 2 user\(s\) must set a new one/,
      );
      const count = larder.recipes.store.all().length;
      const users = larder.users.all().length;
      const second = await larder.migrations.importSite({ type: "mealie_backup", path });
      expect(larder.recipes.store.all().length).toBe(count);
      expect(larder.users.all().length).toBe(users);
      expect(second[0]).toMatchObject({ imported: 0, skipped: 42, failed: 0 });
      const imported = larder.users.all().find((u) => u.username === "fflgrpczgw")!;
      await expect(larder.auth.login(imported.username, "fxhvpndhqc")).rejects.toMatchObject({ status: 401 });
    },
  );
});

describe("Mealie backups of our own", () => {
  it("a database.json without the tables every Mealie v1+ has is refused, naming them, before anything is written", async () => {
    const zip = join(base, "not-mealie.zip");
    await writeFile(
      zip,
      makeZip([
        {
          name: "database.json",
          data: JSON.stringify({ alembic_version: [{ version_num: "feedfacecafe" }], groups: [] }),
        },
        { name: "data/.PLACEHOLDER", data: "" },
      ]),
    );
    const actor: Actor = { kind: "user", user: larder.users.all()[0] };
    await expect(larder.migrations.start(actor, { type: "mealie_backup", path: zip })).rejects.toMatchObject({
      status: 400,
      message:
        "This backup's database.json has no 'users' or 'recipes' table (schema revision 'feedfacecafe'): it is not a backup of Mealie v1 or later. Check the migration type.",
    });
    expect(await larder.reports.list(actor)).toEqual([]);
  });

  it("a backup of a newer Mealie (two households with their cookbooks, times in seconds, servings, a deleted food, ratings per user) is read by column name, and the report says so", async () => {
    const gid = "41111111-1111-4111-8111-111111111111";
    const hid = "45555555-5555-4555-8555-555555555555";
    const hid2 = "48888888-8888-4888-8888-888888888888";
    const uid2 = "49999999-9999-4999-8999-999999999999";
    const uid = "42222222-2222-4222-8222-222222222222";
    const rid = "43333333-3333-4333-8333-333333333333";
    const fid = "46666666-6666-4666-8666-666666666666";
    const lid = "47777777-7777-4777-8777-777777777777";
    const db = {
      alembic_version: [{ version_num: "e4b68c9a105d" }],
      groups: [{ id: gid, name: "Home", slug: "home" }],
      households: [
        { id: hid, name: "Family", slug: "family", group_id: gid },
        { id: hid2, name: "Granny's Flat", slug: "grannys-flat", group_id: gid },
      ],
      users: [
        {
          id: uid,
          username: "kim",
          full_name: "Kim Baker",
          email: "kim@example.org",
          admin: false,
          group_id: gid,
          household_id: hid,
          auth_method: "Mealie",
          locale: "en-US",
        },
        { id: uid2, username: "lee", email: "lee@example.org", group_id: gid, household_id: hid2 },
      ],
      recipes: [
        {
          id: rid,
          slug: "beef-stew",
          group_id: gid,
          user_id: uid,
          name: "Beef Stew",
          recipe_yield: null,
          recipe_yield_quantity: 0,
          recipe_servings: 6,
          total_time: null,
          total_time_seconds: 5400,
          prep_time: "overnight soak",
          prep_time_seconds: null,
          perform_time: null,
          perform_time_seconds: 3600,
          last_made: null,
          date_added: "2026-01-02",
          cooking_method: null,
          variant_group_id: null,
        },
      ],
      ingredient_foods: [{ id: fid, name: "carrot", group_id: gid }],
      recipes_ingredients: [
        {
          id: 1,
          position: 0,
          recipe_id: rid,
          note: "",
          quantity: 500,
          food_id: null,
          food_snapshot: { name: "beef shin", plural_name: null },
        },
        { id: 2, position: 1, recipe_id: rid, note: "sliced", quantity: 2, food_id: fid },
      ],
      recipe_instructions: [
        { id: "s", recipe_id: rid, position: 0, title: "", summary: "Brown", text: "Brown the beef." },
      ],
      users_to_recipes: [{ user_id: uid, recipe_id: rid, rating: 5, is_favorite: true }],
      households_to_recipes: [
        { id: "h1", household_id: hid, recipe_id: rid, last_made: "2026-10-01T18:00:00" },
        { id: "h2", household_id: hid, recipe_id: rid, last_made: "2026-03-01T18:00:00" },
      ],
      group_meal_plans: [
        { id: 1, date: null, entry_type: null, group_id: gid, recipe_id: rid, title: "", text: "" },
        { id: 2, date: "2026-12-07", entry_type: "dinner", group_id: gid, recipe_id: rid, user_id: uid },
        { id: 3, date: "2026-12-08", entry_type: "lunch", group_id: gid, recipe_id: rid, user_id: uid2 },
      ],
      cookbooks: [
        { id: "cb1", name: "Sunday Lunches", group_id: gid, household_id: hid, position: 1, public: false },
        { id: "cb2", name: "Sunday Lunches", group_id: gid, household_id: hid2, position: 1, public: false },
      ],
      shopping_lists: [{ id: lid, name: "Weekly", group_id: gid, user_id: uid }],
      shopping_list_items: [
        {
          id: "i",
          shopping_list_id: lid,
          note: "",
          quantity: 3,
          checked: false,
          position: 0,
          food_id: null,
          food_snapshot: JSON.stringify({ name: "Grandma's spice mix" }),
        },
      ],
    };
    const zip = join(base, "newer.zip");
    await writeFile(zip, makeZip([{ name: "database.json", data: JSON.stringify(db) }]));
    const actor: Actor = { kind: "user", user: larder.users.all()[0] };
    const { report, done } = await larder.migrations.start(actor, { type: "mealie_backup", path: zip });
    await done;
    const messages = (await larder.reports.get(actor, report.id)).entries.map((e) => e.message);
    expect(messages).toContain("Imported Beef Stew successfully");
    expect(messages.join("\n")).toContain(
      "schema revision e4b68c9a105d (not one Larder was tested with: read by column name)",
    );
    const recipe = larder.recipes.get(actor, "beef-stew") as unknown as Record<string, unknown>;
    expect(recipe).toMatchObject({
      totalTime: "1 hour 30 minutes",
      prepTime: "overnight soak",
      performTime: "1 hour",
      recipeServings: 6,
      dateAdded: "2026-01-02",
    });
    expect(String(recipe.lastMade)).toMatch(/^2026-10-01T18:00:00/);
    const ingredients = recipe.recipeIngredient as Array<{ food: { name: string } | null; quantity: number }>;
    expect(ingredients.map((i) => [i.quantity, i.food?.name])).toEqual([
      [500, "beef shin"],
      [2, "carrot"],
    ]);
    const kim = larder.users.all().find((u) => u.username === "kim")!;
    const kimActor: Actor = { kind: "user", user: kim };
    expect(larder.ratings.forSelf(kimActor, false)).toEqual([
      expect.objectContaining({ rating: 5, isFavorite: true }),
    ]);
    // Each member joins the household of their backup household's name; their plans stay with it. The
    // entry without a date (allowed since 2026) has no day to go on.
    const lee = larder.users.all().find((u) => u.username === "lee")!;
    const householdName = (u: typeof kim) => larder.groups.household(u.groupId, u.householdId)!.doc.data.name;
    expect([householdName(kim), householdName(lee)]).toEqual(["Family", "Granny's Flat"]);
    expect(larder.mealplans.list(kimActor, { perPage: -1 }).items.map((m) => m.date)).toEqual(["2026-12-07"]);
    const leeActor: Actor = { kind: "user", user: lee };
    // Cookbooks are a household's, in Mealie since v2 as here: each household keeps its own.
    const target = larder.groups.byId(kim.groupId)!;
    expect(
      larder.cookbooks
        .inGroup(target)
        .map((x) => [x.household.doc.data.name, x.cookbook.name])
        .sort(),
    ).toEqual([
      ["Family", "Sunday Lunches"],
      ["Granny's Flat", "Sunday Lunches"],
    ]);
    expect(larder.mealplans.list(leeActor, { perPage: -1 }).items.map((m) => m.date)).toEqual(["2026-12-08"]);
    const items = (await larder.shopping.listItems(kimActor, { perPage: -1 })).items;
    expect(items.map((i) => [i.food, i.note])).toEqual([[null, "Grandma's spice mix"]]);
    expect(messages.join("\n")).toContain("1 meal plan entries had no date; they were left out.");
  });

  it("household names from a backup follow the admin API's rules; a path in one stays a name", async () => {
    const gid = "51111111-1111-4111-8111-111111111111";
    const names = ["../../etc", "x".repeat(5000), "   ", "FAMILY"];
    const db = {
      alembic_version: [{ version_num: "e4b68c9a105d" }],
      groups: [{ id: gid, name: "Home" }],
      households: names.map((name, i) => ({ id: `h${i}`, name, group_id: gid })),
      users: names.map((_, i) => ({
        id: `u${i}`,
        username: `member${i}`,
        email: `member${i}@example.org`,
        group_id: gid,
        household_id: `h${i}`,
      })),
      recipes: [],
    };
    const zip = join(base, "households.zip");
    await writeFile(zip, makeZip([{ name: "database.json", data: JSON.stringify(db) }]));
    const actor: Actor = { kind: "user", user: larder.users.all()[0] };
    const { report, done } = await larder.migrations.start(actor, { type: "mealie_backup", path: zip });
    await done;
    const messages = (await larder.reports.get(actor, report.id)).entries.map((e) => e.message).join("\n");
    expect(messages).toContain(
      `Household '${"x".repeat(60)}' is not a name Larder takes; its members join Family.`,
    );
    const householdOf = (username: string) => {
      const u = larder.users.all().find((x) => x.username === username)!;
      const h = larder.groups.household(u.groupId, u.householdId)!.doc.data;
      return [h.name, h.slug];
    };
    expect(names.map((_, i) => householdOf(`member${i}`))).toEqual([
      ["../../etc", "etc"],
      ["Family", "family"],
      ["Family", "family"],
      ["Family", "family"],
    ]);
  });

  it("through the API's path only an admin may bring a backup in", async () => {
    const admin = larder.users.all()[0];
    const actor: Actor = { kind: "user", user: { ...admin, admin: false } };
    await expect(larder.migrations.start(actor, { type: "mealie_backup", path: base })).rejects.toMatchObject(
      { status: 403 },
    );
  });

  it("one group into the caller's group: recipes with their owner, comments, ratings and favourites", async () => {
    const gid = "11111111-1111-4111-8111-111111111111";
    const uid = "22222222-2222-4222-8222-222222222222";
    const rid = "33333333-3333-4333-8333-333333333333";
    const db = {
      alembic_version: [{ version_num: "09aba125b57a" }],
      groups: [{ id: gid, name: "Home", slug: "home" }],
      users: [
        {
          id: uid,
          username: "sam",
          full_name: "Sam Cook",
          email: "sam@example.org",
          password: "$2b$12$hash",
          admin: false,
          group_id: gid,
          can_manage: true,
          can_invite: false,
          can_organize: true,
          advanced: false,
        },
      ],
      recipes: [
        {
          id: rid,
          slug: "soup",
          group_id: gid,
          user_id: uid,
          name: "Soup",
          description: "Warm",
          recipe_yield: "4",
          total_time: "1 hour",
          org_url: null,
          rating: 4,
          date_added: "2022-03-04",
        },
      ],
      recipes_ingredients: [
        {
          id: 1,
          position: 0,
          recipe_id: rid,
          note: "leeks",
          quantity: 2,
          title: null,
          food_id: null,
          unit_id: null,
        },
      ],
      recipe_instructions: [{ id: "a", recipe_id: rid, position: 0, title: "", text: "Simmer." }],
      recipe_nutrition: [{ id: 1, recipe_id: rid, calories: "120", fat_content: null }],
      recipe_comments: [{ id: "c", recipe_id: rid, user_id: uid, text: "Lovely" }],
      users_to_favorites: [{ user_id: uid, recipe_id: rid }],
      tags: [],
    };
    const sharp = await loadSharp();
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#3a3" } })
      .png()
      .toBuffer();
    const zip = join(base, "one.zip");
    await writeFile(
      zip,
      makeZip([
        { name: "mealie_2024/database.json", data: JSON.stringify(db) },
        { name: `mealie_2024/data/recipes/${rid}/images/original.png`, data: png },
        { name: "__MACOSX/mealie_2024/._database.json", data: "junk" },
      ]),
    );
    const actor: Actor = { kind: "user", user: larder.users.all()[0] };
    const { report, done } = await larder.migrations.start(actor, { type: "mealie_backup", path: zip });
    await done;
    const full = await larder.reports.get(actor, report.id);
    expect(full.entries.map((e) => e.message)).toContain("Imported Soup successfully");
    expect(full.entries.map((e) => e.message).join("\n")).toContain("must set a new one before signing in");
    const sam = larder.users.all().find((u) => u.username === "sam")!;
    expect(sam).toMatchObject({ email: "sam@example.org", canManage: true, groupId: actor.user.groupId });
    const recipe = larder.recipes.get(actor, "soup") as unknown as Record<string, unknown>;
    expect(recipe).toMatchObject({
      userId: sam.id,
      dateAdded: "2022-03-04",
      recipeYield: "4",
      totalTime: "1 hour",
    });
    expect((recipe.nutrition as Record<string, unknown>).calories).toBe("120");
    expect(typeof recipe.image).toBe("string");
    expect(
      await larder.images.originalPath(
        actor.kind === "user" ? larder.groups.byId(actor.user.groupId)!.slug : "",
        "soup",
      ),
    ).toMatch(/original\.png$/);
    const samActor: Actor = { kind: "user", user: sam };
    expect(larder.comments.ofRecipe(samActor, "soup").map((c) => c.text)).toEqual(["Lovely"]);
    expect(larder.ratings.forSelf(samActor, false)).toEqual([
      expect.objectContaining({ rating: 4, isFavorite: true }),
    ]);
  });

  it("a recipe longer than Larder allows (Mealie has no limits) is cut to fit, and its report line says so", async () => {
    const gid = "51111111-1111-4111-8111-111111111111";
    const uid = "52222222-2222-4222-8222-222222222222";
    const rid = "53333333-3333-4333-8333-333333333333";
    const db = {
      alembic_version: [{ version_num: "09aba125b57a" }],
      groups: [{ id: gid, name: "Home", slug: "home" }],
      users: [{ id: uid, username: "ada", email: "ada@example.org", group_id: gid }],
      recipes: [
        {
          id: rid,
          slug: "essay",
          group_id: gid,
          user_id: uid,
          name: "Essay",
          description: "x".repeat(120_000),
        },
      ],
      recipes_ingredients: [],
      recipe_instructions: [],
      tags: [],
    };
    const zip = join(base, "long.zip");
    await writeFile(zip, makeZip([{ name: "database.json", data: JSON.stringify(db) }]));
    const actor: Actor = { kind: "user", user: larder.users.all()[0] };
    const { report, done } = await larder.migrations.start(actor, { type: "mealie_backup", path: zip });
    await done;
    const line = (await larder.reports.get(actor, report.id)).entries.find((e) =>
      e.message.includes("Essay"),
    );
    expect(line).toMatchObject({
      success: true,
      message: "Imported Essay successfully",
      exception: "its description was cut to 100,000 characters",
    });
  });
});
