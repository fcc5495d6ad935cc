/**
 * An editor or a script that saves a new recipe file in steps: some lines, a pause, the rest through
 * the same open file. The store gives a file without an id one and writes it in; done at once, that
 * replaced the half-saved file, the rest of the save went into the replaced one and the hand-written
 * recipe was lost (hostile-input replay). The id now goes in once the file has been left alone.
 */
import { open, readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeFolder, openStore, type OpenedStore, type TestFolder } from "./test-helpers.js";
import { WRITE_BACK_QUIET_MS } from "./sync.js";

let t: TestFolder;
let s: OpenedStore;

beforeEach(async () => {
  t = await makeFolder();
  s = await openStore(t, { watch: true, debounceMs: 5, retryMs: 20 });
});
afterEach(async () => {
  await s.store.close();
  await t.cleanup();
});

describe("a recipe file saved in steps", () => {
  it("keeps every step: the id is written only once the file has been left alone", async () => {
    const path = t.file("stepwise");
    const fh = await open(path, "w");
    try {
      await fh.write("---\nname: Stepwise Soup\n---\n");
      // The store has read the first step and given the recipe an id.
      await expect
        .poll(() => s.store.get("home", "stepwise")?.doc.name ?? null, { timeout: 5_000 })
        .toBe("Stepwise Soup");
      // The person's pause between the steps (this is the editor's behaviour, not a wait for a result).
      await new Promise((r) => setTimeout(r, 400));
      await fh.write("\nA soup saved in two steps.\n\n## Ingredients\n\n- 2 leeks\n");
    } finally {
      await fh.close();
    }
    await expect
      .poll(async () => /^id: /m.test(await readFile(path, "utf8")), { timeout: WRITE_BACK_QUIET_MS + 5_000 })
      .toBe(true);
    const text = await readFile(path, "utf8");
    expect(text).toContain("A soup saved in two steps.");
    expect(text).toContain("2 leeks");
    expect(s.store.get("home", "stepwise")?.doc.description).toBe("A soup saved in two steps.");
  });

  it("never reads a front matter that is still open as a recipe", async () => {
    const path = t.file("half");
    const fh = await open(path, "w");
    try {
      await fh.write("---\nname: Half Saved\n");
      await expect.poll(() => s.store.broken().length, { timeout: 5_000 }).toBe(1);
      expect(s.store.get("home", "half")).toBeNull();
      await fh.write("recipeYield: 2 bowls\n---\n\nDone.\n");
    } finally {
      await fh.close();
    }
    await expect
      .poll(() => s.store.get("home", "half")?.doc.recipeYield ?? null, { timeout: 5_000 })
      .toBe("2 bowls");
    expect(await readFile(path, "utf8")).toContain("Done.");
  });
});
