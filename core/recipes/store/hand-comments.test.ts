import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeFolder, openStore, type OpenedStore, type TestFolder } from "./test-helpers.js";

let t: TestFolder;
let s: OpenedStore;

beforeEach(async () => {
  t = await makeFolder();
});
afterEach(async () => {
  await s.store.close();
  await t.cleanup();
});

const HAND = `---
id: 3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10
owner: 7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11
name: Plum Jam # Grandma's
# seasonal, see the notebook
tags: [Preserves]
---
Sweet.
`;

describe("a hand-written comment in a recipe's front matter", () => {
  it("is still in the file after the recipe is saved through the store", async () => {
    await t.putText("plum-jam", HAND);
    s = await openStore(t);
    const cur = s.store.get("home", "plum-jam")!;
    await s.store.save("home", "plum-jam", { ...cur.doc, description: "Sweeter." });
    const text = await readFile(t.file("plum-jam"), "utf8");
    expect(text).toContain("Sweeter.");
    expect(text).toMatch(/^name: Plum Jam # Grandma's$/m);
    expect(text).toMatch(/^# seasonal, see the notebook\ntags:/m);
  });

  it("moves with the recipe when a save renames its file", async () => {
    await t.putText("plum-jam", HAND);
    s = await openStore(t);
    const cur = s.store.get("home", "plum-jam")!;
    await s.store.rename("home", "plum-jam", "damson-jam", { ...cur.doc, name: "Damson Jam" });
    const text = await readFile(t.file("damson-jam"), "utf8");
    expect(text).toMatch(/^name: Damson Jam # Grandma's$/m);
    expect(text).toContain("# seasonal, see the notebook");
  });
});
