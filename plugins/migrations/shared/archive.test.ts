import { describe, expect, it } from "vitest";
import { makeZip } from "../../../tests/support/zip-writer.js";
import { entriesIn, linkedEntry, openZip, pathByNfc } from "./archive.js";

describe("finding entries in an archive", () => {
  it("lists a folder's own entries, not its subfolders' or its neighbours'", async () => {
    const archive = await openZip(
      makeZip([
        { name: "Soup/recipe.json", data: "{}" },
        { name: "Soup/full.jpg", data: "x" },
        { name: "Soup/old/full.jpg", data: "x" },
        { name: "Soup 2/full.jpg", data: "x" },
        { name: "top.json", data: "{}" },
      ]),
    );
    expect(entriesIn(archive, "Soup").map((e) => e.path)).toEqual(["Soup/recipe.json", "Soup/full.jpg"]);
    expect(entriesIn(archive, "").map((e) => e.path)).toEqual(["top.json"]);
    expect(entriesIn(archive, "Bread")).toEqual([]);
    archive.close();
  });

  it("finds a name stored decomposed (a Mac's zip) from its composed form", async () => {
    const decomposed = "images/Cre\u0301pes.jpg";
    const archive = await openZip(makeZip([{ name: decomposed, data: "x" }]));
    expect(pathByNfc(archive, "images/Cr\u00e9pes.jpg")).toBe(decomposed);
    expect(pathByNfc(archive, "images/Waffles.jpg")).toBeNull();
    archive.close();
  });

  it("keeps both entries of a zip that holds two of one name, the second as 'Name (2)'", async () => {
    const archive = await openZip(
      makeZip([
        { name: "Pancakes.zip", data: "first" },
        { name: "Pancakes.zip", data: "second" },
        { name: "notes/README", data: "a" },
        { name: "notes/README", data: "b" },
      ]),
    );
    expect(archive.entries.map((e) => e.path)).toEqual([
      "Pancakes.zip",
      "Pancakes (2).zip",
      "notes/README",
      "notes/README (2)",
    ]);
    expect((await archive.read("Pancakes (2).zip")).toString()).toBe("second");
    archive.close();
  });

  it("finds a picture linked in another case, but an exact name first", async () => {
    const archive = await openZip(
      makeZip([
        { name: "images/pie.jpg", data: "lower" },
        { name: "images/Tart.JPG", data: "upper" },
        { name: "images/tart.jpg", data: "exact" },
      ]),
    );
    expect(pathByNfc(archive, "images/Pie.JPG")).toBe("images/pie.jpg");
    expect(pathByNfc(archive, "images/tart.jpg")).toBe("images/tart.jpg");
    expect(linkedEntry(archive, "", "images\\PIE.jpg")).toBe("images/pie.jpg");
    archive.close();
  });
});
