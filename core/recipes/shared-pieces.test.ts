import { afterAll, beforeAll, expect, it } from "vitest";
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import type { RecipeSummary } from "../schemas/recipe.js";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

// What many recipes hold alike is held once (decision 0186): each copy was an object per recipe for
// every full collection to mark.

let scratch: ScratchLarder;
let larder: Larder;
let admin: Actor;

beforeAll(async () => {
  scratch = await openScratchLarder("shared-pieces");
  ({ larder, admin } = scratch);
  await larder.recipes.create(admin, { name: "Soup", tags: ["Quick", "Dinner"], tools: ["Pot"] });
  await larder.recipes.create(admin, { name: "Stew", tags: ["Dinner"], tools: ["Pot"] });
});

afterAll(async () => {
  await scratch?.close();
});

const entries = () =>
  larder.recipes.lister.listEntries(admin, { perPage: -1, orderBy: "name", orderDirection: "asc" }).items;
const summary = (slug: string): RecipeSummary =>
  larder.recipes.summaryOf(larder.recipes.find(admin, slug).entry);

it("gives every summary naming a tag or tool the same frozen ref, and entries one settings object", () => {
  const [soup, stew] = entries();
  expect(soup.tags.map((t) => t.name)).toEqual(["Quick", "Dinner"]);
  expect(soup.tags[1]).toBe(stew.tags[0]);
  expect(soup.tools[0]).toBe(stew.tools[0]);
  expect(Object.isFrozen(soup.tags[1])).toBe(true);
  expect(Object.isFrozen(soup.tools[0].householdsWithTool)).toBe(true);
  expect(() => {
    (soup.tags[1] as { name: string }).name = "Supper";
  }).toThrow(TypeError);
  expect(soup.settings).toBe(stew.settings);
  expect(() => {
    (soup.settings as { locked: boolean }).locked = true;
  }).toThrow(TypeError);
  // The wire keeps each ref's own keys: a tag's four, a tool's five.
  expect(Object.keys(soup.tags[0])).toEqual(["id", "groupId", "name", "slug"]);
  expect(Object.keys(soup.tools[0])).toEqual(["id", "groupId", "name", "slug", "householdsWithTool"]);
});

it("gives a listed recipe's summary the values it had before it was listed, in the wire's order", async () => {
  await larder.recipes.update(admin, "soup", { settings: { locked: true } }, "patch");
  const before = JSON.stringify(summary("soup"));
  const [soup, stew] = entries();
  expect(soup.settings).not.toBe(stew.settings);
  expect(soup.settings.locked).toBe(true);
  const after = summary("soup");
  expect(JSON.stringify(after)).toBe(before);
  // Kept while the recipe is unchanged: asked again, the same object.
  expect(summary("soup")).toBe(after);
});
