import {
  chmod,
  chown,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { derivedId } from "../../util/ids.js";
import { ConflictError, LarderError } from "../../errors.js";
import { serializeRecipeFile } from "../file/recipe-file.js";
import { entryUpdatedAt, type RecipeStore } from "./recipe-store.js";
import {
  ADMIN,
  makeFolder,
  openStore,
  recipe,
  VOCAB,
  type OpenedStore,
  type TestFolder,
} from "./test-helpers.js";

const ID_A = "11111111-1111-4111-8111-111111111111";
const ID_B = "22222222-2222-4222-8222-222222222222";
const OTHER_USER = "33333333-3333-4333-8333-333333333333";

let t: TestFolder;
let s: OpenedStore | null;

beforeEach(async () => {
  t = await makeFolder();
  s = null;
});
afterEach(async () => {
  await s?.store.close();
  await t.cleanup();
});

async function open(opts: Parameters<typeof openStore>[1] = {}): Promise<RecipeStore> {
  s = await openStore(t, { watch: false, ...opts });
  return s.store;
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    if (e instanceof LarderError) return e.status;
    throw e;
  }
  return 200;
}

describe("opening a data folder", () => {
  it("indexes every recipe file and answers reads from memory", async () => {
    await t.put("soup", recipe("Soup", { id: ID_A, owner: OTHER_USER }));
    await t.put("stew", recipe("Stew", { id: ID_B, owner: OTHER_USER }), "club");
    const store = await open();
    expect(store.get("home", "soup")?.doc.name).toBe("Soup");
    expect(store.get("home", ID_A)?.slug).toBe("soup");
    expect(store.get("home", ID_B)).toBeNull();
    expect(store.getById(ID_B)?.groupSlug).toBe("club");
    expect(store.list("home").map((e) => e.slug)).toEqual(["soup"]);
    expect(store.all()).toHaveLength(2);
    expect(store.slugTaken("home", "soup")).toBe(true);
    expect(store.slugTaken("home", "stew")).toBe(false);
    expect(store.get("home", "soup")?.doc.ingredients[0]).toMatchObject({
      quantity: 200,
      unit: "gram",
      food: "flour",
    });
  });

  it("reports a file whose name is not a slug instead of indexing it", async () => {
    await t.putText(
      "Pasta Bake",
      serializeRecipeFile(recipe("Pasta Bake", { id: ID_A, owner: ADMIN }), VOCAB),
    );
    const store = await open();
    expect(store.all()).toEqual([]);
    expect(store.broken()).toMatchObject([
      { slug: "Pasta Bake", id: null, message: expect.stringContaining('"pasta-bake.md"') },
    ]);
  });
});

describe("hostile files (invariant 5)", () => {
  it("reports a JavaScript front matter block without running it, and never rewrites it", async () => {
    const evil = "---js\n{ name: (globalThis.__pwned = true, 'x') }\n---\nBody\n";
    await t.putText("evil", evil);
    const store = await open();
    expect((globalThis as { __pwned?: boolean }).__pwned).toBeUndefined();
    expect(store.broken()).toMatchObject([{ slug: "evil", id: null }]);
    expect(await readFile(t.file("evil"), "utf8")).toBe(evil);
  });

  it("does not read recipes through a group's recipes folder that is a symlink out of the data folder", async () => {
    const outside = join(t.root, "..", `outside-recipes-${Date.now()}`);
    await mkdir(outside);
    try {
      const text = "---\nname: Secret\n---\nBody\n";
      await writeFile(join(outside, "secret.md"), text);
      await rm(t.recipes("home"), { recursive: true });
      await symlink(outside, t.recipes("home"));
      const store = await open();
      expect(store.all()).toEqual([]);
      await store.settled();
      expect(await readFile(join(outside, "secret.md"), "utf8")).toBe(text);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("does not follow a symlinked recipe file out of the data folder", async () => {
    const outside = join(t.root, "..", `outside-${Date.now()}.md`);
    await writeFile(outside, serializeRecipeFile(recipe("Secret", { id: ID_A, owner: ADMIN }), VOCAB));
    await symlink(outside, t.file("secret"));
    try {
      const store = await open();
      expect(store.getById(ID_A)).toBeNull();
    } finally {
      await rm(outside, { force: true });
    }
  });
});

describe("identity rules", () => {
  it("gives a file without an id the group-and-slug id and writes it into the front matter once", async () => {
    const hand = serializeRecipeFile(recipe("Soup", { owner: ADMIN }), VOCAB);
    await t.putText("soup", hand);
    const store = await open();
    const id = derivedId("home", "recipe", "soup");
    expect(store.get("home", "soup")?.id).toBe(id);
    const written = await readFile(t.file("soup"), "utf8");
    // Only the id line was added: the rest of the hand-made file is untouched.
    expect(written).toBe(hand.replace("---\n", `---\nid: ${id}\n`));
    const before = (await stat(t.file("soup"))).mtimeMs;
    await store.close();
    await open();
    expect((await stat(t.file("soup"))).mtimeMs).toBe(before);
  });

  it("on a cold start, lets the older of two files with the same id keep it, whatever their names; reports the copy", async () => {
    // The copy's name sorts first: under the old rule it took the original's identity.
    await t.put("b-original", recipe("Original", { id: ID_A, owner: ADMIN }));
    await t.put("a-copy", recipe("Copy", { id: ID_A, owner: ADMIN }));
    await utimes(t.file("b-original"), new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));
    await utimes(t.file("a-copy"), new Date("2026-02-01T00:00:00Z"), new Date("2026-02-01T00:00:00Z"));
    const store = await open();
    expect(store.get("home", "b-original")?.id).toBe(ID_A);
    const copyId = derivedId("home", "recipe", "a-copy");
    expect(store.get("home", "a-copy")?.id).toBe(copyId);
    expect(await readFile(t.file("a-copy"), "utf8")).toContain(`id: ${copyId}`);
    expect(await readFile(t.file("b-original"), "utf8")).toContain(`id: ${ID_A}`);
    expect(store.problems()).toEqual([
      expect.objectContaining({ groupSlug: "home", slug: "a-copy", kind: "duplicate-id" }),
    ]);
  });

  it("on a cold start, breaks an mtime tie between duplicates by name", async () => {
    await t.put("b-copy", recipe("Copy", { id: ID_A, owner: ADMIN }));
    await t.put("a-original", recipe("Original", { id: ID_A, owner: ADMIN }));
    const same = new Date("2026-01-01T00:00:00Z");
    await utimes(t.file("b-copy"), same, same);
    await utimes(t.file("a-original"), same, same);
    const store = await open();
    expect(store.get("home", "a-original")?.id).toBe(ID_A);
    expect(store.get("home", "b-copy")?.id).toBe(derivedId("home", "recipe", "b-copy"));
  });

  it("does not write an id into a file that changed after it was read", async () => {
    const path = await t.putText("soup", serializeRecipeFile(recipe("Soup", { owner: ADMIN }), VOCAB));
    const edited = serializeRecipeFile(recipe("Soup, edited meanwhile", { owner: ADMIN }), VOCAB);
    let calls = 0;
    await open({
      // Parsing is the last step between reading the file and writing its id back: a person saving
      // the file exactly then is what this simulates.
      vocabularyFor: () => {
        if (calls++ === 0) writeFileSync(path, edited);
        return VOCAB;
      },
    });
    expect(await readFile(path, "utf8")).toBe(edited);
  });

  it("gives a recipe without an owner the group's first admin, in memory and in the file", async () => {
    await t.put("soup", recipe("Soup", { id: ID_A }));
    const store = await open();
    expect(store.get("home", "soup")?.doc.owner).toBe(ADMIN);
    expect(await readFile(t.file("soup"), "utf8")).toContain(`owner: ${ADMIN}`);
  });

  it("leaves the owner empty, and the file alone, while the group has no admin", async () => {
    const text = serializeRecipeFile(recipe("Soup", { id: ID_A }), VOCAB);
    await t.putText("soup", text);
    const store = await open({ admin: null });
    expect(store.get("home", "soup")?.doc.owner).toBeNull();
    expect(await readFile(t.file("soup"), "utf8")).toBe(text);
  });

  it("names a file with neither name nor heading after its file, and adds only front matter to it", async () => {
    const body = "Just soup.\n\n## Ingredients\n\n- 200 g flour\n";
    await t.putText("tomato-soup", body);
    const store = await open();
    const e = store.get("home", "tomato-soup");
    expect(e?.doc.name).toBe("Tomato soup");
    expect(e?.doc.ingredients[0]).toMatchObject({ quantity: 200, unit: "gram", food: "flour" });
    expect(await readFile(t.file("tomato-soup"), "utf8")).toBe(
      `---\nid: ${e?.id}\nowner: ${ADMIN}\n---\n${body}`,
    );
  });

  it("restores an id line deleted by hand instead of deriving a new id", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    const text = await readFile(t.file("soup"), "utf8");
    await writeFile(t.file("soup"), text.replace(`id: ${e.id}\n`, ""));
    await store.reload("home", "soup");
    expect(store.get("home", "soup")?.id).toBe(e.id);
    expect(await readFile(t.file("soup"), "utf8")).toBe(text);
  });

  it("applies the rules in memory only when read-only", async () => {
    const text = serializeRecipeFile(recipe("Soup"), VOCAB);
    await t.putText("soup", text);
    const store = await open({ readOnly: true });
    expect(store.get("home", "soup")?.id).toBe(derivedId("home", "recipe", "soup"));
    expect(await readFile(t.file("soup"), "utf8")).toBe(text);
  });
});

describe("vocabulary changes", () => {
  it("re-read ingredient lines with the group's new foods and units", async () => {
    let vocab = VOCAB;
    let version = "v1";
    await t.putText(
      "cake",
      `---\nid: ${ID_A}\nname: Cake\nowner: ${ADMIN}\n---\n## Ingredients\n\n- 100 g sugar\n`,
    );
    const store = await open({ vocabularyFor: () => vocab, vocabularyVersion: () => version });
    expect(store.get("home", "cake")?.doc.ingredients[0].food).toBeNull();
    vocab = { ...VOCAB, foods: [...VOCAB.foods, { name: "sugar", pluralName: null, aliases: [] }] };
    version = "v2";
    await store.refreshVocabulary("home");
    expect(store.get("home", "cake")?.doc.ingredients[0]).toMatchObject({
      quantity: 100,
      unit: "gram",
      food: "sugar",
    });
    expect(store.get("home", "cake")?.seenAt).toBeNull();
    expect(s?.seen()).toEqual(["updated home/cake"]);
  });
});

describe("writes", () => {
  it("create writes a canonical file and announces it", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    expect(e.doc.owner).toBe(ADMIN);
    expect(await readFile(t.file("soup"), "utf8")).toBe(serializeRecipeFile(e.doc, VOCAB));
    expect(s?.seen()).toEqual(["created home/soup"]);
    expect(await status(store.create("home", "soup", recipe("Soup again")))).toBe(409);
    expect(await status(store.create("home", "soup-2", recipe("Same id", { id: e.id })))).toBe(409);
  });

  it("refuses slugs that would leave the recipes folder", async () => {
    const store = await open();
    for (const slug of ["../x", "a/b", "a\u0000b", "..", "", "A"]) {
      expect(await status(store.create("home", slug, recipe("Evil"))), slug).toBe(400);
    }
    expect(await status(store.create("../home", "x", recipe("Evil")))).toBe(400);
    expect(store.all()).toEqual([]);
    expect(store.get("home", "../x")).toBeNull();
  });

  it("a save keeps the permissions and the owner a person gave the file", async () => {
    const store = await open();
    await store.create("home", "soup", recipe("Soup"));
    await chmod(t.file("soup"), 0o600);
    // Only root can give a file away; as anyone else the owner is the writer's either way.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await chown(t.file("soup"), 1234, 2345);
    await store.save("home", "soup", {
      ...structuredClone(store.get("home", "soup")!.doc),
      description: "Hot.",
    });
    const after = await stat(t.file("soup"));
    expect(await readFile(t.file("soup"), "utf8")).toContain("Hot.");
    expect(after.mode & 0o777).toBe(0o600);
    if (asRoot) expect([after.uid, after.gid]).toEqual([1234, 2345]);
  });

  it("a save that changes nothing but dateUpdated writes nothing and announces nothing", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup", { dateUpdated: "2026-01-01T00:00:00.000Z" }));
    const before = await stat(t.file("soup"));
    const same = await store.save("home", "soup", {
      ...structuredClone(e.doc),
      dateUpdated: "2026-06-01T00:00:00.000Z",
    });
    expect(same).toBe(e);
    expect((await stat(t.file("soup"))).mtimeMs).toBe(before.mtimeMs);
    expect(s?.seen()).toEqual(["created home/soup"]);
  });

  it("save keeps the id and owner, and is last-write-wins between API clients", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    await store.save(
      "home",
      "soup",
      { ...e.doc, description: "first" },
      { ifUnchangedSince: "2020-01-01T00:00:00" },
    );
    const saved = await store.save(
      "home",
      "soup",
      { ...e.doc, id: ID_B, owner: null, description: "second" },
      { ifUnchangedSince: "2020-01-01T00:00:00" },
    );
    expect(saved.id).toBe(e.id);
    expect(saved.doc.owner).toBe(ADMIN);
    expect(store.get("home", "soup")?.doc.description).toBe("second");
    expect(await readFile(t.file("soup"), "utf8")).toContain("second");
  });

  it("rename moves the file and its media folder and keeps the id", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    await mkdir(join(t.folder.recipeMediaDir("home", "soup"), "assets"), { recursive: true });
    await writeFile(join(t.folder.recipeMediaDir("home", "soup"), "original.webp"), "img");
    const r = await store.rename("home", "soup", "tomato-soup", { ...e.doc, name: "Tomato Soup" });
    expect(r.id).toBe(e.id);
    expect(store.get("home", "soup")).toBeNull();
    expect(store.get("home", "tomato-soup")?.doc.name).toBe("Tomato Soup");
    expect(
      await readFile(join(t.folder.recipeMediaDir("home", "tomato-soup"), "original.webp"), "utf8"),
    ).toBe("img");
    await expect(stat(t.folder.recipeMediaDir("home", "soup"))).rejects.toThrow();
    await expect(stat(t.file("soup"))).rejects.toThrow();
    expect(await readFile(t.file("tomato-soup"), "utf8")).toContain("name: Tomato Soup");
    // The marker announcing the media move (media-move.ts) is gone once the move is done.
    expect(await readdir(t.folder.tmpDir)).toEqual([]);
    expect(s?.events.at(-1)).toEqual({
      type: "renamed",
      groupSlug: "home",
      slug: "tomato-soup",
      oldSlug: "soup",
      id: e.id,
    });
  });

  it("rename refuses a slug that is taken", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    await store.create("home", "stew", recipe("Stew"));
    expect(await status(store.rename("home", "soup", "stew", e.doc))).toBe(409);
    expect(store.get("home", "soup")?.id).toBe(e.id);
  });

  it("remove deletes the file and its media folder", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    await mkdir(t.folder.recipeMediaDir("home", "soup"), { recursive: true });
    await store.remove("home", "soup");
    expect(store.getById(e.id)).toBeNull();
    await expect(stat(t.file("soup"))).rejects.toThrow();
    await expect(stat(t.folder.recipeMediaDir("home", "soup"))).rejects.toThrow();
    expect(await status(store.remove("home", "soup"))).toBe(404);
  });
});

describe("saves side by side (write-gate.ts)", () => {
  it("keeps every recipe's last save when many recipes are saved at once, some of them twice", async () => {
    const store = await open();
    const slugs = ["soup", "stew", "pie", "cake", "bread"];
    const made = await Promise.all(slugs.map((slug) => store.create("home", slug, recipe(slug))));
    await Promise.all(
      [0, 1, 2].flatMap((round) =>
        made.map((e) => store.save("home", e.slug, { ...e.doc, description: `${e.slug} ${round}` })),
      ),
    );
    for (const e of made) {
      const now = store.get("home", e.slug)!;
      expect(now.doc.description).toBe(`${e.slug} 2`);
      expect(await readFile(t.file(e.slug), "utf8")).toBe(serializeRecipeFile(now.doc, VOCAB));
    }
  });

  it("a rescan asked for between saves sees the saves before it, and the saves after it see the rescan", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    const first = store.save("home", "soup", { ...e.doc, description: "before" });
    const rescan = store.rescan("home");
    const second = store.save("home", "soup", { ...e.doc, description: "after" });
    await Promise.all([first, rescan, second]);
    expect(store.get("home", "soup")?.doc.description).toBe("after");
    expect(await readFile(t.file("soup"), "utf8")).toContain("after");
  });
});

describe("nothing lost (invariant 4), watcher paused", () => {
  it("refuses a save when the file changed on disk, and loads the disk's version", async () => {
    s = await openStore(t);
    const store = s.store;
    const e = await store.create("home", "soup", recipe("Soup"));
    store.watcher?.pause();
    const hand = serializeRecipeFile({ ...e.doc, description: "Edited by hand." }, VOCAB);
    await writeFile(t.file("soup"), hand);
    const err = await store
      .save("home", "soup", { ...e.doc, description: "From the app." })
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).status).toBe(409);
    expect((err as ConflictError).message).toMatch(/changed on disk/);
    expect((err as ConflictError).body()).toMatchObject({
      detail: { message: expect.stringMatching(/changed on disk/), error: true },
    });
    expect(await readFile(t.file("soup"), "utf8")).toBe(hand);
    expect(store.get("home", "soup")?.doc.description).toBe("Edited by hand.");
    expect(s.seen()).toEqual(["created home/soup", "updated home/soup"]);
    await store.watcher?.resume();
    expect(s.seen()).toEqual(["created home/soup", "updated home/soup"]);
  });

  it("refuses rename and remove of a file changed on disk too", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    await writeFile(t.file("soup"), serializeRecipeFile({ ...e.doc, description: "hand" }, VOCAB));
    expect(await status(store.rename("home", "soup", "stew", e.doc))).toBe(409);
    await writeFile(t.file("soup"), serializeRecipeFile({ ...e.doc, description: "hand again" }, VOCAB));
    expect(await status(store.remove("home", "soup"))).toBe(409);
    expect(await readFile(t.file("soup"), "utf8")).toContain("hand again");
  });

  it("refuses to create over a file that appeared on disk unseen", async () => {
    const store = await open();
    await t.put("soup", recipe("Hand soup", { id: ID_A, owner: ADMIN }));
    expect(await status(store.create("home", "soup", recipe("Soup")))).toBe(409);
    expect(store.get("home", "soup")?.id).toBe(ID_A);
  });

  it("refuses a save whose updatedAt is older than a hand edit the index saw", async () => {
    let clock = new Date("2026-03-01T10:00:00.000Z");
    const store = await open({ now: () => clock });
    const e = await store.create("home", "soup", recipe("Soup", { dateUpdated: "2026-03-01T09:00:00.000Z" }));
    clock = new Date("2026-03-01T10:05:00.250Z");
    await writeFile(t.file("soup"), serializeRecipeFile({ ...e.doc, description: "hand" }, VOCAB));
    await store.reload("home", "soup");
    const edited = store.get("home", "soup");
    expect(edited?.seenAt).toBe("2026-03-01T10:05:00.250Z");
    expect(entryUpdatedAt(edited!)).toBe("2026-03-01T10:05:00.250Z");
    expect(
      await status(
        store.save(
          "home",
          "soup",
          { ...e.doc, description: "stale" },
          { ifUnchangedSince: "2026-03-01T09:00:00" },
        ),
      ),
    ).toBe(409);
    expect(await readFile(t.file("soup"), "utf8")).toContain("hand");
    // A client that read after the edit (echoing whole seconds, as Mealie clients do) may save.
    expect(
      await status(
        store.save(
          "home",
          "soup",
          { ...e.doc, description: "fresh" },
          { ifUnchangedSince: "2026-03-01T10:05:00" },
        ),
      ),
    ).toBe(200);
  });

  it("never overwrites a file that does not parse; its last good version keeps serving reads", async () => {
    const store = await open();
    const e = await store.create("home", "soup", recipe("Soup"));
    await store.create("home", "stew", recipe("Stew"));
    await writeFile(t.file("soup"), "---\nname: [unclosed\n---\n");
    await store.reload("home", "soup");
    expect(store.broken()).toMatchObject([{ groupSlug: "home", slug: "soup", id: e.id }]);
    expect(store.get("home", "soup")?.doc.name).toBe("Soup");
    expect(await status(store.save("home", "soup", { ...e.doc, description: "x" }))).toBe(409);
    expect(await status(store.remove("home", "soup"))).toBe(409);
    expect(await readFile(t.file("soup"), "utf8")).toBe("---\nname: [unclosed\n---\n");
    expect(
      await status(store.save("home", "stew", { ...store.get("home", "stew")!.doc, description: "fine" })),
    ).toBe(200);
  });
});
