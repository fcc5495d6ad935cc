import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import type { Actor } from "../actor.js";
import { RecipeLister } from "./recipe-list.js";
import type { RecipeListQuery } from "./list-query.js";

// A group's search index is saved when the server stops and taken up at the next start (decision
// 0196). Whatever changed in between — a file edited, removed or added by hand — must answer exactly
// as an index built afresh does.

let base: string;
let larder: Larder;
let group: string;

const open = () =>
  Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(base, "data"), bcryptRounds: 4 }), {
    log: consoleLogger("silent"),
    watch: false,
  });
const adminUser = (l: Larder) => l.users.all().find((u) => u.admin)!;
const adminOf = (l: Larder): Actor => ({ kind: "user", user: adminUser(l) });
const fileOf = (slug: string) => join(base, "data", "groups", group, "recipes", `${slug}.md`);

function recipeText(i: number, extra = ""): string {
  return [
    "---",
    `name: ${["Chicken Soup", "Éclair", "Apple Pie", "Tomato Stew"][i % 4]} ${i}`,
    `tags: [${["Dinner", "Dessert", "Party"][i % 3]}]`,
    "---",
    `A ${i % 2 ? "quick" : "slow"} dish ${extra}`,
    "",
    "## Ingredients",
    "",
    `- ${i + 1} cups ${i % 2 ? "garlic" : "butter"}`,
    "- 2 onions, sliced",
    "",
    "## Instructions",
    "",
    "1. Cook.",
    "",
  ].join("\n");
}

const QUERIES: RecipeListQuery[] = [
  { perPage: -1, search: "soup" },
  { perPage: -1, search: "eclair" },
  { perPage: -1, search: "garlic onions" },
  { perPage: -1, search: '"apple pie"' },
  { perPage: -1, search: "chiken" },
  { perPage: -1, search: "dessert" },
  { perPage: -1, search: "zanzibar" },
  { perPage: -1, search: "quick", orderBy: "name", orderDirection: "asc" },
];

const ask = (lister: RecipeLister, who: Actor) =>
  QUERIES.map((q) => lister.list(who, q).items.map((r) => r.slug));

/** The started lister (saved index taken up) answers as one that builds its index now. */
function expectSameAsBuilt(l: Larder): void {
  const who = adminOf(l);
  const built = new RecipeLister(l, l.recipes);
  built.attach();
  try {
    const want = ask(built, who);
    expect(ask(l.recipes.lister, who)).toEqual(want);
  } finally {
    built.stop();
  }
}

async function savedFiles(): Promise<string[]> {
  const names = await readdir(join(base, "data", ".larder", "cache")).catch(() => []);
  return names.filter((n) => n.startsWith("search-"));
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-saved-search-"));
  larder = await open();
  group = larder.groups.byId(adminUser(larder).groupId)!.slug;
  for (let i = 0; i < 40; i++) await writeFile(fileOf(`r-${i}`), recipeText(i));
  await larder.recipes.store.rescan(group);
  // A search completes the group's index; closing saves it.
  larder.recipes.lister.list(adminOf(larder), { perPage: -1, search: "soup" });
  await larder.close();
  expect(await savedFiles()).toEqual([`search-${group}.bin`]);
});
afterEach(async () => {
  await larder?.close();
  await rm(base, { recursive: true, force: true });
});

describe("a group's saved search index", () => {
  it("is taken up by the next start, with nothing to index again", async () => {
    larder = await open();
    expectSameAsBuilt(larder);
    expect(larder.recipes.lister.restored).toEqual({ groups: 1, recipes: 40, reindexed: 0 });
  });

  it("gives way to files edited, removed and added while the server was down", async () => {
    await writeFile(fileOf("r-3"), recipeText(3, "with zanzibar spice"));
    await writeFile(fileOf("r-4"), recipeText(4).replace("name: Chicken Soup 4", "name: Plain Rice 4"));
    await unlink(fileOf("r-5"));
    await writeFile(fileOf("new-one"), recipeText(41, "zanzibar"));
    larder = await open();
    const who = adminOf(larder);
    const found = (q: string) =>
      larder.recipes.lister.list(who, { perPage: -1, search: q }).items.map((r) => r.slug);
    expect(found("zanzibar").sort()).toEqual(["new-one", "r-3"]);
    expect(found("soup")).not.toContain("r-4");
    expect(found("eclair")).not.toContain("r-5");
    expectSameAsBuilt(larder);
    const { restored } = larder.recipes.lister;
    expect(restored.groups).toBe(1);
    expect(restored.reindexed).toBe(3);
    expect(restored.recipes).toBe(37);
  });

  it("keeps every entry when the files were rewritten with the same bytes (a restore, a checkout)", async () => {
    for (let i = 0; i < 40; i++) await writeFile(fileOf(`r-${i}`), await readFile(fileOf(`r-${i}`)));
    larder = await open();
    expectSameAsBuilt(larder);
    expect(larder.recipes.lister.restored).toEqual({ groups: 1, recipes: 40, reindexed: 0 });
  });

  it("is rebuilt from the recipes when the file is damaged, and saved again", async () => {
    const path = join(base, "data", ".larder", "cache", `search-${group}.bin`);
    const bytes = await readFile(path);
    bytes[bytes.length >> 1] ^= 0xff;
    await writeFile(path, bytes);
    larder = await open();
    expectSameAsBuilt(larder);
    expect(larder.recipes.lister.restored.groups).toBe(0);
    await larder.close();
    larder = await open();
    expectSameAsBuilt(larder);
    expect(larder.recipes.lister.restored).toEqual({ groups: 1, recipes: 40, reindexed: 0 });
  });

  it("keeps up with changes made after it was taken up, and saves them", async () => {
    larder = await open();
    const who = adminOf(larder);
    larder.recipes.lister.list(who, { perPage: -1, search: "soup" });
    await writeFile(fileOf("r-7"), recipeText(7, "zanzibar"));
    await larder.recipes.store.rescan(group);
    expect(
      larder.recipes.lister.list(who, { perPage: -1, search: "zanzibar" }).items.map((r) => r.slug),
    ).toEqual(["r-7"]);
    expectSameAsBuilt(larder);
    await larder.close();
    larder = await open();
    expectSameAsBuilt(larder);
    expect(larder.recipes.lister.restored).toEqual({ groups: 1, recipes: 40, reindexed: 0 });
  });

  it("is checked a slice at a time in the background, and finished by the group's first search", async () => {
    larder = await open();
    const lister = larder.recipes.lister;
    const restoring = () => (lister as unknown as { restoring: Map<string, unknown> }).restoring.size;
    // A plain list starts the background work; its first step reads the file, later ones check it.
    lister.list(adminOf(larder), { perPage: 1 });
    await new Promise((ok) => setImmediate(ok));
    expect(restoring()).toBe(1);
    expect(lister.searchIndexed(group)).toBe(0);
    expectSameAsBuilt(larder);
    expect(restoring()).toBe(0);
    expect(lister.restored).toEqual({ groups: 1, recipes: 40, reindexed: 0 });
  });
});
