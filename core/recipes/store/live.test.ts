/** Invariant 3 (live): hand edits reach the index without a restart, through the watcher. */
import { mkdir, readdir, readFile, rename, rm, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { derivedId } from "../../util/ids.js";
import { serializeRecipeFile } from "../file/recipe-file.js";
import { needingLoneWork, type SyncContext } from "./sync.js";
import {
  ADMIN,
  makeFolder,
  openStore,
  recipe,
  VOCAB,
  waitFor,
  type OpenedStore,
  type TestFolder,
} from "./test-helpers.js";

const ID_A = "11111111-1111-4111-8111-111111111111";

let t: TestFolder;
let s: OpenedStore;

beforeEach(async () => {
  t = await makeFolder();
  s = await openStore(t);
});
afterEach(async () => {
  await s.store.close();
  await t.cleanup();
});

const has = (e: string) => () => s.seen().includes(e);

describe("hand edits are visible without a restart", () => {
  it("a file created by hand appears", async () => {
    await t.put("soup", recipe("Soup", { id: ID_A, owner: ADMIN }));
    await waitFor(() => s.store.get("home", "soup") !== null);
    expect(s.store.getById(ID_A)?.doc.name).toBe("Soup");
    expect(s.events).toEqual([{ type: "created", groupSlug: "home", slug: "soup", id: ID_A }]);
  });

  it("a file changed by hand is re-read and stamped with the time it was seen", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await writeFile(t.file("soup"), serializeRecipeFile({ ...e.doc, description: "Edited." }, VOCAB));
    await waitFor(() => s.store.get("home", "soup")?.doc.description === "Edited.");
    expect(s.store.get("home", "soup")?.seenAt).not.toBeNull();
    expect(s.seen()).toEqual(["created home/soup", "updated home/soup"]);
  });

  it("a file deleted by hand disappears", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await unlink(t.file("soup"));
    await waitFor(() => s.store.getById(e.id) === null);
    expect(s.events.at(-1)).toEqual({ type: "deleted", groupSlug: "home", slug: "soup", id: e.id });
  });

  it("a file renamed by hand keeps its id", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await rename(t.file("soup"), t.file("tomato-soup"));
    await waitFor(() => s.store.get("home", "tomato-soup") !== null);
    expect(s.store.get("home", "tomato-soup")?.id).toBe(e.id);
    expect(s.store.get("home", "soup")).toBeNull();
    await waitFor(has("renamed home/tomato-soup"));
    expect(s.events.filter((x) => x.type === "renamed")).toEqual([
      { type: "renamed", groupSlug: "home", slug: "tomato-soup", oldSlug: "soup", id: e.id },
    ]);
    expect(s.seen()).not.toContain("deleted home/soup");
  });

  it("a file renamed by hand takes its media folder along, unless the new name has one", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await mkdir(join(t.recipes(), "soup"));
    await writeFile(join(t.recipes(), "soup", "original.jpg"), "photo");
    await rename(t.file("soup"), t.file("tomato-soup"));
    await waitFor(has("renamed home/tomato-soup"));
    expect(await readFile(join(t.recipes(), "tomato-soup", "original.jpg"), "utf8")).toBe("photo");
    await expect(stat(join(t.recipes(), "soup"))).rejects.toThrow(/ENOENT/);
    expect(s.store.getById(e.id)?.slug).toBe("tomato-soup");

    // Moved by the person too (git mv of both), or another folder already there: left as it is.
    await mkdir(join(t.recipes(), "stew"));
    await writeFile(join(t.recipes(), "stew", "original.jpg"), "theirs");
    await rename(t.file("tomato-soup"), t.file("stew"));
    await waitFor(has("renamed home/stew"));
    expect(await readFile(join(t.recipes(), "stew", "original.jpg"), "utf8")).toBe("theirs");
    expect(await readFile(join(t.recipes(), "tomato-soup", "original.jpg"), "utf8")).toBe("photo");
  });

  it("a delete and a later re-add of the same id (outside the debounce window) is still a rename", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    const text = await readFile(t.file("soup"), "utf8");
    await unlink(t.file("soup"));
    await waitFor(has("deleted home/soup"));
    await t.putText("soup-v2", text);
    await waitFor(has("renamed home/soup-v2"));
    expect(s.store.get("home", "soup-v2")?.id).toBe(e.id);
    expect(s.events.at(-1)).toMatchObject({ oldSlug: "soup" });
  });

  it("a copied file gets its own id, written into it once", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await t.putText("soup-spicy", await readFile(t.file("soup"), "utf8"));
    const copyId = derivedId("home", "recipe", "soup-spicy");
    await waitFor(() => s.store.get("home", "soup-spicy")?.id === copyId);
    expect(s.store.get("home", "soup")?.id).toBe(e.id);
    await s.store.settled();
    expect(await readFile(t.file("soup-spicy"), "utf8")).toContain(`id: ${copyId}`);
    // The write-back is the store's own: no second announcement for it.
    expect(s.seen().filter((x) => x.endsWith("soup-spicy"))).toEqual(["created home/soup-spicy"]);
  });

  it("a copy never takes the id, even when its name sorts first; the copy is reported", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await t.putText("a-soup", await readFile(t.file("soup"), "utf8"));
    const copyId = derivedId("home", "recipe", "a-soup");
    await waitFor(() => s.store.get("home", "a-soup")?.id === copyId);
    expect(s.store.get("home", "soup")?.id).toBe(e.id);
    await s.store.settled();
    expect(await readFile(t.file("a-soup"), "utf8")).toContain(`id: ${copyId}`);
    expect(await readFile(t.file("soup"), "utf8")).toContain(`id: ${e.id}`);
    expect(s.seen().filter((x) => x.endsWith("home/soup"))).toEqual(["created home/soup"]);
    expect(s.store.problems()).toEqual([expect.objectContaining({ slug: "a-soup", kind: "duplicate-id" })]);
  });

  it("a new group folder (a git pull) is picked up", async () => {
    await t.put("stew", recipe("Stew", { id: ID_A, owner: ADMIN }), "club");
    await waitFor(() => s.store.get("club", "stew") !== null);
  });
});

describe("the store's own writes", () => {
  it("do not come back as reload events", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await s.store.save("home", "soup", { ...e.doc, description: "Saved." });
    await s.store.rename("home", "soup", "soup-2", { ...e.doc, name: "Soup 2" });
    // Wait for a hand edit of another file: the watcher has then delivered everything before it.
    await t.put("marker", recipe("Marker", { id: ID_A, owner: ADMIN }));
    await waitFor(has("created home/marker"));
    await s.store.settled();
    expect(s.seen()).toEqual([
      "created home/soup",
      "updated home/soup",
      "renamed home/soup-2",
      "created home/marker",
    ]);
  });
});

describe("the store's own writes coming back through the watcher (decision 0299)", () => {
  it("are settled without the store's lone work, while a hand edit, a new file or a gone one is not", async () => {
    const ctx = (s.store as unknown as { ctx: SyncContext }).ctx;
    const soup = { groupSlug: "home", slug: "soup" };
    const stew = { groupSlug: "home", slug: "stew" };
    const gone = { groupSlug: "home", slug: "gone" };
    s.store.watcher!.pause();
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await s.store.save("home", "soup", { ...e.doc, description: "Saved." });
    await t.put("stew", recipe("Stew", { id: ID_A, owner: ADMIN }));
    expect(needingLoneWork(ctx, [soup, stew, gone])).toEqual([stew, gone]);
    // Saved by hand since: the same file now needs the lone work, and is taken in.
    const text = await readFile(t.file("soup"), "utf8");
    await writeFile(t.file("soup"), text.replace("Saved.", "Saved by hand."));
    expect(needingLoneWork(ctx, [soup])).toEqual([soup]);
    await s.store.watcher!.resume();
    await waitFor(() => s.store.get("home", "soup")?.doc.description === "Saved by hand.");
    await waitFor(has("created home/stew"));
  });
});

describe("files that do not parse", () => {
  const BAD = "---\nname: [unclosed\n---\n";

  it("are reported, never overwritten, and come back when fixed; others keep working", async () => {
    await s.store.create("home", "stew", recipe("Stew"));
    await t.putText("soup", BAD);
    await waitFor(has("broken home/soup"));
    expect(s.store.broken()).toMatchObject([{ slug: "soup", id: null }]);
    expect(s.store.get("home", "soup")).toBeNull();
    expect(s.store.slugTaken("home", "soup")).toBe(true);
    expect(s.store.get("home", "stew")).not.toBeNull();
    await s.store.settled();
    expect(await readFile(t.file("soup"), "utf8")).toBe(BAD);
    await t.put("soup", recipe("Soup", { id: ID_A, owner: ADMIN }));
    await waitFor(() => s.store.get("home", "soup") !== null);
    expect(s.store.broken()).toEqual([]);
    expect(s.seen()).toContain("created home/soup");
  });

  it("an empty file met by the re-read after a change of foods or units is re-read before being called broken", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await s.store.settled();
    s.store.watcher?.pause();
    try {
      // An editor between truncating the file and writing it, as the group's vocabulary changes.
      await writeFile(t.file("soup"), "");
      await s.store.refreshVocabulary("home");
      expect(s.store.broken()).toEqual([]);
      expect(s.store.get("home", "soup")).not.toBeNull();
      await writeFile(t.file("soup"), serializeRecipeFile({ ...e.doc, description: "Whole." }, VOCAB));
    } finally {
      await s.store.watcher?.resume();
    }
    await waitFor(() => s.store.get("home", "soup")?.doc.description === "Whole.");
    await s.store.settled();
    expect(s.seen()).not.toContain("broken home/soup");
  });

  it("are re-read before being called broken (editors save in steps)", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await writeFile(t.file("soup"), BAD);
    // The second step lands within the re-read delay.
    await new Promise((r) => setTimeout(r, 40));
    await writeFile(t.file("soup"), serializeRecipeFile({ ...e.doc, description: "Whole." }, VOCAB));
    await waitFor(() => s.store.get("home", "soup")?.doc.description === "Whole.");
    await s.store.settled();
    expect(s.seen()).not.toContain("broken home/soup");
  });

  it("a group folder removed by hand takes its recipes with it", async () => {
    await s.store.create("home", "soup", recipe("Soup"));
    await rm(t.recipes("home"), { recursive: true });
    await waitFor(() => s.store.list("home").length === 0);
    await expect(stat(t.recipes("home"))).rejects.toThrow();
  });

  it("a data folder removed and made again is followed: its recipes come back, and edits are live", async () => {
    const e = await s.store.create("home", "soup", recipe("Soup"));
    const text = await readFile(t.file("soup"), "utf8");
    await rm(t.folder.groupsDir, { recursive: true });
    await waitFor(() => s.store.list("home").length === 0);
    // Restored (a re-clone, a backup copied back): the same file under a new groups folder.
    await t.putText("soup", text);
    await waitFor(() => s.store.getById(e.id) !== null, 5000, "the restored recipe");
    await writeFile(t.file("soup"), serializeRecipeFile({ ...e.doc, description: "After." }, VOCAB));
    await waitFor(() => s.store.get("home", "soup")?.doc.description === "After.", 5000, "a later edit");
  });

  it("a recipes folder replaced by a symlink to outside the data folder is never read or written through", async () => {
    await s.store.create("home", "soup", recipe("Soup"));
    const outside = join(t.root, "..", `${basename(t.root)}-outside`);
    await mkdir(outside, { recursive: true });
    try {
      const stray = "---\nname: Outside\n---\nFrom elsewhere.\n";
      await writeFile(join(outside, "stray.md"), stray);
      await rename(t.recipes("home"), join(t.root, "recipes-moved"));
      await symlink(outside, t.recipes("home"));
      await waitFor(() => s.store.get("home", "soup") === null, 5000, "the moved recipe to go");
      // A later event in the linked folder is not followed either.
      await writeFile(join(outside, "later.md"), stray);
      await s.store.rescan("home");
      expect(s.store.list("home")).toEqual([]);
      await expect(s.store.create("home", "new", recipe("New"))).rejects.toThrow(
        /not a folder of the data folder/,
      );
      await s.store.settled();
      expect((await readdir(outside)).sort()).toEqual(["later.md", "stray.md"]);
      expect(await readFile(join(outside, "stray.md"), "utf8")).toBe(stray);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
