import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import type { Actor } from "../actor.js";
import { RecipeLister } from "./recipe-list.js";
import type { RecipeListQuery } from "./list-query.js";
import { addMember } from "../testing/scratch-larder.js";

// A one-recipe change patches the group's listing (decision 0135). Every list, filter and search
// after each kind of change must answer exactly as a lister built afresh over the same store does.

let base: string;
let larder: Larder;
let admin: Actor;
let group: string;
let member: Actor;
let club: string;

const NAMES = ["Chicken Soup", "chicken stew", "Éclair", "eclair tart", "Apple Pie", "Tomato Soup"];
const DAYS = ["2023-01-01T10:00:00Z", "2023-06-15T08:00:00Z", "2024-02-29T12:00:00Z"];
const TAGS = ["Dinner", "Weeknight", "Dessert", "Party"];

function recipeText(i: number, extra = ""): string {
  const name = `${NAMES[i % NAMES.length]} ${Math.floor(i / 3)}`;
  return [
    "---",
    `name: ${name}`,
    `recipeServings: ${(i % 4) * 2}`,
    `tags: [${TAGS[i % 4]}, ${TAGS[(i * 7) % 4]}]`,
    `categories: [${i % 2 ? "Main" : "Side"}]`,
    `dateAdded: ${DAYS[i % 3]}`,
    `dateUpdated: ${DAYS[(i + 1) % 3]}`,
    ...(i % 3 === 0 ? [`prepTime: ${(i % 4) * 5 + 5} minutes`] : []),
    "---",
    `A ${i % 5 ? "quick" : "slow"} dish ${extra}`,
    "",
    "## Ingredients",
    "",
    `- ${i + 1} cups ${i % 2 ? "garlic" : "butter"}`,
    "- salt",
    "",
    "## Instructions",
    "",
    "1. Cook.",
    "",
  ].join("\n");
}

const fileOf = (slug: string, g = group) => join(base, "data", "groups", g, "recipes", `${slug}.md`);

const QUERIES: RecipeListQuery[] = [
  { perPage: -1 },
  { perPage: -1, orderBy: "name", orderDirection: "asc" },
  { perPage: -1, orderBy: "name", orderDirection: "desc" },
  { perPage: -1, orderBy: "dateAdded", orderByNullPosition: "first" },
  { perPage: -1, orderBy: "updatedAt", orderDirection: "asc" },
  { perPage: -1, orderBy: "rating,name:asc" },
  { perPage: -1, orderBy: "tags.name", orderDirection: "asc" },
  {
    perPage: -1,
    queryFilter: 'tags.name IN ["dinner", "weeknight"] AND recipeServings >= 2',
    orderBy: "name",
  },
  { perPage: -1, queryFilter: 'dateAdded >= "2023-06-01"', orderBy: "dateAdded" },
  { perPage: -1, queryFilter: "rating >= 3", orderBy: "name" },
  { perPage: 4, page: 2, queryFilter: 'description LIKE "%zebra%" OR name LIKE "%renamed%"' },
  { perPage: 7, page: 2, orderBy: "random", paginationSeed: "s1" },
  { perPage: -1, search: "chicken" },
  { perPage: 5, page: 2, search: "soup" },
  { perPage: -1, search: "garlic" },
  { perPage: -1, search: "zebra" },
  { perPage: -1, search: "aardvark" },
  { perPage: -1, search: "renamed" },
  { perPage: -1, search: "tart", orderBy: "name", orderDirection: "asc" },
  { perPage: -1, search: "eclair", queryFilter: "recipeServings >= 2" },
  { perPage: -1, search: "quick", tags: ["dinner"] },
  { perPage: -1, tags: ["party"], orderBy: "name" },
];

/** Ask every query, twice (the second asks a remembered search and its kept ranking). */
const askAll = (lister: RecipeLister, who = admin) =>
  QUERIES.map((q) => {
    lister.list(who, q);
    return lister.list(who, q);
  });

/** The live lister answers as one built now from the store does, in both groups. */
function expectSameAsFresh(): void {
  const fresh = new RecipeLister(larder, larder.recipes);
  fresh.attach();
  try {
    for (const who of [admin, member]) {
      const want = askAll(fresh, who);
      const got = askAll(larder.recipes.lister, who);
      for (let i = 0; i < QUERIES.length; i++) expect([QUERIES[i], got[i]]).toEqual([QUERIES[i], want[i]]);
    }
  } finally {
    fresh.stop();
  }
}

/** Build every structure (columns, ranks, remembered searches), run the change, compare. */
async function afterChange(change: () => Promise<unknown>): Promise<void> {
  askAll(larder.recipes.lister);
  askAll(larder.recipes.lister, member);
  const rebuilds = larder.recipes.lister.rebuilds;
  await change();
  expectSameAsFresh();
  // Patched in place: the listing was not read from the store again.
  expect(larder.recipes.lister.rebuilds).toBe(rebuilds);
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-lister-"));
  larder = await Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(base, "data"), bcryptRounds: 4 }),
    { log: consoleLogger("silent"), watch: false },
  );
  const first = larder.users.all()[0];
  admin = { kind: "user", user: first };
  group = larder.groups.byId(first.groupId)!.slug;
  for (let i = 0; i < 60; i++) await writeFile(fileOf(`r-${i}`), recipeText(i));
  await larder.recipes.store.rescan(group);
  const other = await larder.groups.createGroup("Club");
  club = other.slug;
  const user = await addMember(larder, other, "member");
  member = { kind: "user", user };
  for (let i = 0; i < 25; i++) await writeFile(fileOf(`c-${i}`, club), recipeText(i * 5 + 1));
  await larder.recipes.store.rescan(club);
});
afterAll(async () => {
  await larder?.close();
  await rm(base, { recursive: true, force: true });
});

describe("the search index built after a start", () => {
  it("is completed for the searched group alone by that group's first search", () => {
    const fresh = new RecipeLister(larder, larder.recipes);
    fresh.attach();
    try {
      expect(fresh.searchIndexed(club)).toBe(0);
      const q: RecipeListQuery = { perPage: -1, search: "soup" };
      const found = fresh.list(member, q);
      expect(found.total).toBeGreaterThan(0);
      expect(found).toEqual(larder.recipes.lister.list(member, q));
      expect(fresh.searchIndexed(club)).toBe(larder.recipes.store.list(club).length);
      expect(fresh.searchIndexed(group)).toBe(0);
      expect(fresh.list(admin, q)).toEqual(larder.recipes.lister.list(admin, q));
      expect(fresh.searchIndexed(group)).toBe(larder.recipes.store.list(group).length);
    } finally {
      fresh.stop();
    }
  });
});

describe("the recipe list after a one-recipe change", () => {
  it("starts out as a fresh build", () => {
    expect(larder.recipes.lister.list(admin, { perPage: -1 }).total).toBeGreaterThanOrEqual(60);
    expectSameAsFresh();
  });

  it("pages a one-attribute order off the kept rank as the general path orders it", () => {
    const orders: RecipeListQuery[] = [
      {},
      { orderDirection: "asc" },
      { orderBy: "name" },
      { orderBy: "name:asc", orderDirection: "desc" },
      { orderBy: "Name : DESC" },
      { orderBy: "created_at", orderDirection: "asc" },
      { orderBy: "prepTime" },
      { orderBy: "prepTime", orderDirection: "asc" },
      { orderBy: "prepTime", orderByNullPosition: "first" },
      { orderBy: "prepTime", orderDirection: "asc", orderByNullPosition: "last" },
      { orderBy: "dateAdded", page: 3, perPage: 7 },
      { orderBy: "recipeServings", page: -1, perPage: 9 },
      { orderBy: "  " },
    ];
    for (const o of orders) {
      const q = { perPage: -1, ...o };
      // A filter every recipe passes takes the general path (filter, then sortItems).
      const general = larder.recipes.lister.list(admin, { ...q, queryFilter: "id IS NOT NULL" });
      expect([o, larder.recipes.lister.list(admin, q)]).toEqual([o, general]);
    }
  });

  it("answers a filter relative to $NOW afresh as time passes, not from the remembered first answer", () => {
    const q: RecipeListQuery = { perPage: -1, queryFilter: "dateAdded >= $NOW-7d AND dateAdded <= $NOW" };
    const added = () => larder.recipes.lister.list(admin, q).items.map((r) => r.dateAdded?.slice(0, 10));
    try {
      vi.useFakeTimers({ now: new Date("2023-06-20T00:00:00Z"), toFake: ["Date"] });
      const june = added();
      expect(june.length).toBeGreaterThan(0);
      expect(new Set(june)).toEqual(new Set(["2023-06-15"]));
      vi.setSystemTime(new Date("2024-03-01T00:00:00Z"));
      expect(new Set(added())).toEqual(new Set(["2024-02-29"]));
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers searches right after more of them than a group remembers (their storage reused)", () => {
    const words = ["chicken", "soup", "garlic", "butter", "quick", "slow", "dish", "apple", "pie"];
    const searches = words.flatMap((w) => [w, `${w} dish`, `${w} quick`, `${w} garlic`, `${w} 1`]);
    expect(searches.length).toBeGreaterThan(32);
    // Twice over: the second round asks searches forgotten in the first, whose buffers later searches
    // took, and the last ones again while still remembered.
    for (const search of [...searches, ...searches, ...searches.slice(-10)]) {
      const q = { perPage: -1, search };
      // A lister of its own for each expected answer, which never reads a reused buffer.
      const fresh = new RecipeLister(larder, larder.recipes);
      fresh.attach();
      try {
        expect([search, larder.recipes.lister.list(admin, q)]).toEqual([search, fresh.list(admin, q)]);
      } finally {
        fresh.stop();
      }
    }
  });

  it("shares one object per food, household and owner among the entries that hold it alike", () => {
    const { items } = larder.recipes.lister.listEntries(admin, { perPage: -1 });
    const withGarlic = items.filter((e) => e.foods.some((f) => f.name === "garlic"));
    expect(withGarlic.length).toBeGreaterThan(1);
    const garlic = new Set(withGarlic.map((e) => e.foods.find((f) => f.name === "garlic")));
    expect(garlic.size).toBe(1);
    expect(new Set(items.map((e) => e.household)).size).toBe(1);
    expect(new Set(items.map((e) => e.user)).size).toBe(1);
    expect(items[0].user).toEqual({ id: admin.kind === "user" ? admin.user.id : "", username: "admin" });
  });

  it("gives the entries made after their owner was renamed one new piece, leaving the old one as it was", async () => {
    const userId = admin.kind === "user" ? admin.user.id : "";
    const mine = () =>
      larder.recipes.lister.listEntries(admin, { perPage: -1 }).items.filter((e) => e.userId === userId);
    const oldPiece = mine()[0].user;
    await larder.users.update(userId, { username: "chef" });
    try {
      const pieces = new Set(mine().map((e) => e.user));
      expect([...pieces]).toEqual([{ id: userId, username: "chef" }]);
      expect(oldPiece).toEqual({ id: userId, username: "admin" });
    } finally {
      await larder.users.update(userId, { username: "admin" });
    }
  });

  it("refuses a bad queryFilter every time it is asked, remembered filters or not", () => {
    for (let i = 0; i < 2; i++)
      expect(() => larder.recipes.lister.list(admin, { queryFilter: 'nope = "x"' })).toThrow(
        /invalid attribute string: 'nope'/,
      );
  });

  it("created through the API", () =>
    afterChange(() =>
      larder.recipes.create(admin, { name: "Aardvark Chicken Stew", description: "a garlic stew" }),
    ));

  it("updated through the API (text, so searches change)", () =>
    afterChange(() =>
      larder.recipes.update(
        admin,
        "r-4",
        { description: "now with zebra garlic", recipeServings: 9 },
        "patch",
      ),
    ));

  it("renamed through the API", () =>
    afterChange(() => larder.recipes.update(admin, "r-7", { name: "Renamed Zebra Tart" }, "patch")));

  it("deleted through the API", () => afterChange(() => larder.recipes.remove(admin, "r-10")));

  it("rated (the average rating, orderBy=rating)", () =>
    afterChange(async () => {
      await larder.ratings.set(admin, admin.kind === "user" ? admin.user.id : "", "r-12", { rating: 5 });
      await larder.ratings.set(admin, admin.kind === "user" ? admin.user.id : "", "r-13", { rating: 2 });
    }));

  it("edited by hand", () =>
    afterChange(async () => {
      await writeFile(fileOf("r-20"), recipeText(3, "zebra by hand"));
      await larder.recipes.store.reload(group, "r-20");
    }));

  it("created by hand", () =>
    afterChange(async () => {
      await writeFile(fileOf("hand-made"), recipeText(41, "aardvark"));
      await larder.recipes.store.reload(group, "hand-made");
    }));

  it("renamed by hand (the file moved)", () =>
    afterChange(async () => {
      await rename(fileOf("r-25"), fileOf("r-25-moved"));
      await larder.recipes.store.rescan(group);
    }));

  it("deleted by hand", () =>
    afterChange(async () => {
      await rm(fileOf("r-0"));
      await larder.recipes.store.reload(group, "r-0");
    }));

  it("searches each group's own recipes only", () => {
    const ids = (who: Actor) =>
      new Set(larder.recipes.lister.list(who, { perPage: -1, search: "chicken" }).items.map((r) => r.id));
    const home = ids(admin);
    const theirs = ids(member);
    expect(home.size).toBeGreaterThan(0);
    expect(theirs.size).toBeGreaterThan(0);
    for (const id of theirs) expect(home.has(id)).toBe(false);
  });

  it("moved by hand to another group (same id)", () =>
    afterChange(async () => {
      await rename(fileOf("r-33"), fileOf("r-33", club));
      await larder.recipes.store.rescan();
    }));

  it("several changes in a row, then reads", () =>
    afterChange(async () => {
      await larder.recipes.create(admin, { name: "Zebra Cake" });
      await larder.recipes.update(admin, "r-30", { name: "Chicken Renamed Again" }, "patch");
      await larder.recipes.remove(admin, "r-31");
      await larder.recipes.update(admin, "r-32", { description: "aardvark" }, "patch");
    }));
});
