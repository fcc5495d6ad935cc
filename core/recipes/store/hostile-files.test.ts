/**
 * Files a careless hand (or an attacker with write access to the synced folder) can leave in a
 * recipe folder: not text, a foreign owner. Each was accepted or rewritten lossily before (issue 11
 * §4 and §6); each is now reported and never written.
 */
import { readFile, writeFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRecipeFile, serializeRecipeFile } from "../file/recipe-file.js";
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

const OTHER_GROUP_USER = "99999999-9999-4999-8999-999999999999";
const MEMBER = "33333333-3333-4333-8333-333333333333";

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

const members = (g: string, u: string) => (g === "home" ? u === ADMIN || u === MEMBER : null);

describe("a file that is not UTF-8 text", () => {
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from("---\nname: Soup\n---\nHot.\n", "utf16le"),
  ]);
  const utf16NoBom = Buffer.from("---\nname: Soup\n---\nHot.\n", "utf16le");
  const binary = Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xc3, 0x28, 0xa0, 0xa1, 0xff, 0x00, 0x10,
  ]);
  const latin1 = Buffer.from("---\nname: Crème brûlée\n---\n", "latin1");

  for (const [label, bytes] of [
    ["UTF-16 with a byte-order mark", utf16],
    ["UTF-16 without one", utf16NoBom],
    ["binary", binary],
    ["Latin-1", latin1],
  ] as const) {
    it(`(${label}) is reported as broken and left byte for byte as it was, at open and when it appears`, async () => {
      await writeFile(t.file("cold"), bytes);
      s = await openStore(t, { watch: true, isGroupMember: members });
      expect(s.store.broken().map((b) => [b.slug, b.message])).toEqual([
        ["cold", expect.stringContaining("not UTF-8 text")],
      ]);
      await writeFile(t.file("hot"), bytes);
      await waitFor(() => s!.store.broken().some((b) => b.slug === "hot"));
      await s.store.settled();
      expect(await readFile(t.file("cold"))).toEqual(bytes);
      expect(await readFile(t.file("hot"))).toEqual(bytes);
      expect(s.store.get("home", "cold")).toBeNull();
    });
  }

  it("that replaces a good recipe refuses API writes until fixed; the last good version keeps serving", async () => {
    s = await openStore(t, { watch: false, isGroupMember: members });
    const e = await s.store.create("home", "soup", recipe("Soup"));
    await writeFile(t.file("soup"), utf16);
    await s.store.reload("home", "soup");
    await expect(s.store.save("home", "soup", { ...e.doc, description: "api" })).rejects.toMatchObject({
      status: 409,
    });
    expect(await readFile(t.file("soup"))).toEqual(utf16);
    expect(s.store.get("home", "soup")?.doc.name).toBe("Soup");
  });
});

describe("an owner that is not a user of the file's group", () => {
  for (const owner of [OTHER_GROUP_USER, "../../x"]) {
    it(`(${owner}) is reported and treated as missing: the group's first admin owns the recipe; the line is left as written`, async () => {
      const text = serializeRecipeFile(recipe("Soup", { owner }), VOCAB);
      await t.putText("soup", text);
      s = await openStore(t, { watch: false, isGroupMember: members });
      expect(s.store.get("home", "soup")?.doc.owner).toBe(ADMIN);
      expect(s.store.problems()).toEqual([expect.objectContaining({ slug: "soup", kind: "foreign-owner" })]);
      expect(parseRecipeFile(await readFile(t.file("soup"), "utf8"), VOCAB).owner).toBe(owner);
    });
  }

  it("a hand edit to a foreign owner keeps the owner the index had", async () => {
    s = await openStore(t, { watch: false, isGroupMember: members });
    const e = await s.store.create("home", "soup", recipe("Soup", { owner: MEMBER }));
    await t.putText(
      "soup",
      serializeRecipeFile({ ...e.doc, owner: OTHER_GROUP_USER, description: "edited" }, VOCAB),
    );
    await s.store.reload("home", "soup");
    expect(s.store.get("home", "soup")?.doc).toMatchObject({ owner: MEMBER, description: "edited" });
    // Fixed by hand: the problem goes away.
    await t.putText("soup", serializeRecipeFile({ ...e.doc, owner: MEMBER, description: "fixed" }, VOCAB));
    await s.store.reload("home", "soup");
    expect(s.store.problems()).toEqual([]);
  });
});
