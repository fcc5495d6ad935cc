/**
 * File names in zips written without the UTF-8 flag: macOS's Archive Utility writes UTF-8 bytes, Windows'
 * "Send to compressed folder" the OEM code page. Built here, never copied from a real export.
 */
import { describe, expect, it } from "vitest";
import { makeZip } from "../../tests/support/zip-writer.js";
import { byName, collect, scratchFolder, unflaggedNames } from "./test-support.js";

const dir = scratchFolder("larder-migrate-names-");
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

describe("file names written without the UTF-8 flag", () => {
  it("a Mac's zip (UTF-8 bytes, no flag): the recipe keeps its accented name and finds its picture", async () => {
    const zip = unflaggedNames(
      makeZip([
        { name: "Crème brûlée.cook", data: "Whisk @eggs{4} with @cream{500%ml}." },
        { name: "Crème brûlée.jpg", data: JPEG },
      ]),
    );
    const r = byName(await collect("cooklang", await dir.file("mac.zip", zip)));
    expect([...r.keys()]).toEqual(["Crème brûlée"]);
    expect(r.get("Crème brûlée")!.entry.imported.image).toMatchObject({ bytes: JPEG });
  });

  it("a Windows zip (CP437 bytes, no flag): the name reads as the code page has it", async () => {
    // "Cr?pes.cook" with the '?' byte replaced by CP437's ê (0x88).
    const zip = unflaggedNames(makeZip([{ name: "Cr?pes.cook", data: "Mix @flour{200%g}." }]), (b) =>
      Buffer.from(b.map((c) => (c === 0x3f ? 0x88 : c))),
    );
    const r = byName(await collect("cooklang", await dir.file("windows.zip", zip)));
    expect([...r.keys()]).toEqual(["Crêpes"]);
  });

  it("chowdown: a picture named with accents in front matter is found in a Mac's zip", async () => {
    const zip = unflaggedNames(
      makeZip([
        {
          name: "site/_recipes/gateau.md",
          data: "---\ntitle: Gâteau\nimage: gâteau.jpg\ningredients:\n- 1 egg\ndirections:\n- Bake.\n---\n",
        },
        { name: "site/images/gâteau.jpg", data: JPEG },
      ]),
    );
    const r = byName(await collect("chowdown", await dir.file("chowdown-mac.zip", zip)));
    expect(r.get("Gâteau")!.entry.imported.image).toMatchObject({ bytes: JPEG });
  });
});
