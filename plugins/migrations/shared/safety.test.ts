/**
 * Hostile and broken uploads: each attack replayed against the readers. Nothing is ever extracted, so
 * the checks are that the archive is refused with a clear message naming the problem.
 */
import { mkdtemp, rm, symlink, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeZip } from "../../../tests/support/zip-writer.js";
import { collect } from "../test-support.js";
import { decodeText, gunzipCapped, openZip, unsafeEntryName } from "./archive.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-migrate-safety-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, data: Buffer | string): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, data);
  return p;
}

const recipeJson = JSON.stringify({
  name: "Fine",
  recipeIngredient: ["1 egg"],
  recipeInstructions: ["Boil."],
});

describe("unsafe entries are passed over, named, and never read; the rest import", () => {
  it.each([
    ["zip-slip", "../../etc/cron.d/evil/recipe.json", "a '..' path segment"],
    ["zip-slip in the middle", "ok/../../x/recipe.json", "a '..' path segment"],
    ["a Mac's stray resource fork", "__MACOSX/../x", "a '..' path segment"],
    ["absolute path", "/etc/passwd/recipe.json", "an absolute path"],
    ["Windows drive path", "C:/evil/recipe.json", "an absolute path"],
    ["a NUL in the name", "B/recipe.json\0.jpg", "a NUL byte in its name", "B/recipe.json\\u0000.jpg"],
    // yauzl reads Windows separators as '/', so the name is reported that way.
    ["backslash path", "..\\..\\evil\\recipe.json", "a '..' path segment", "../../evil/recipe.json"],
  ])("%s", async (_label, name, why, shown = name) => {
    const p = await file(
      `slip-${_label.replace(/\W/g, "")}.zip`,
      makeZip([
        { name: "A/recipe.json", data: recipeJson },
        { name, data: recipeJson },
      ]),
    );
    expect(await collect("nextcloud", p)).toEqual([
      expect.objectContaining({ ok: true, name: "Fine" }),
      {
        ok: false,
        skipped: true,
        name: `entry '${shown}' of the archive`,
        error: `it has ${why}: it was not read, and nothing was written from it`,
      },
    ]);
    const archive = await openZip(p);
    expect(archive.entries.map((e) => e.path)).toEqual(["A/recipe.json"]);
    archive.close();
  });

  it("a symlink entry", async () => {
    const p = await file(
      "symlink.zip",
      makeZip([
        { name: "A/recipe.json", data: "/etc/passwd", mode: 0o120777, store: true },
        { name: "B/recipe.json", data: recipeJson },
      ]),
    );
    const entries = await collect("nextcloud", p);
    expect(entries.map((e) => e.ok && e.name)).toEqual(["Fine", false]);
    expect(entries[1]).toMatchObject({
      skipped: true,
      name: "entry 'A/recipe.json' of the archive",
      error: "it is a symbolic link: it was not read, and nothing was written from it",
    });
  });

  it("an archive of more unsafe entries than any export strays into is refused whole", async () => {
    const { MAX_SKIPPED } = await import("./archive.js");
    const specs = Array.from({ length: MAX_SKIPPED + 1 }, (_, i) => ({ name: `../x${i}`, data: "x" }));
    const p = await file("many-slips.zip", makeZip([{ name: "A/recipe.json", data: recipeJson }, ...specs]));
    await expect(collect("nextcloud", p)).rejects.toThrow(
      `The archive is refused: more than ${MAX_SKIPPED} of its entries have unsafe names or are links`,
    );
  });

  // A folder is the person's own, named on the command line: a link in it is refused, not passed over.
  it("a symlink inside a folder given to the CLI refuses the folder", async () => {
    const folder = join(dir, "cookfolder");
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "a.cook"), "@egg{1}");
    await symlink("/etc/passwd", join(folder, "b.cook"));
    await expect(collect("cooklang", folder)).rejects.toThrow("entry 'b.cook' has a symbolic link");
  });

  it("a zip bomb that declares its size fails its own entry before anything inflates; the others import", async () => {
    const p = await file(
      "bomb-declared.zip",
      makeZip([
        { name: "A/recipe.json", data: Buffer.alloc(65 * 1024 * 1024) },
        { name: "B/recipe.json", data: recipeJson },
      ]),
    );
    const entries = await collect("nextcloud", p);
    expect(entries.map((e) => [e.name, e.ok])).toEqual([
      ["A", false],
      ["Fine", true],
    ]);
    expect((entries[0] as { error: string }).error).toMatch(
      /entry 'A\/recipe\.json' has an inflated size over \d+ bytes/,
    );
  });

  it("an archive declaring more than the total cap is refused before anything inflates", async () => {
    const { DEFAULT_LIMITS } = await import("./archive.js");
    const zip = makeZip([
      { name: "A/recipe.json", data: Buffer.alloc(1024) },
      { name: "B/recipe.json", data: Buffer.alloc(1024) },
    ]);
    await expect(openZip(zip, { ...DEFAULT_LIMITS, maxTotalBytes: 1500 })).rejects.toThrow(
      "The archive is refused: it inflates to more than 1500 bytes",
    );
  });

  it("an entry larger than the default read cap is read by a reader that allows more (a backup's database)", async () => {
    const { DEFAULT_LIMITS } = await import("./archive.js");
    const archive = await openZip(makeZip([{ name: "database.json", data: Buffer.alloc(2048, 0x20) }]), {
      ...DEFAULT_LIMITS,
      maxEntryBytes: 1024,
    });
    await expect(archive.read("database.json")).rejects.toThrow("has an inflated size over 1024 bytes");
    expect((await archive.read("database.json", 4096)).length).toBe(2048);
    archive.close();
  });

  it("a zip bomb that lies about its size is stopped while inflating", async () => {
    const p = await file(
      "bomb-lying.zip",
      makeZip([{ name: "A/recipe.json", data: Buffer.alloc(8 * 1024 * 1024, 0x20), declaredSize: 100 }]),
    );
    const entries = await collect("nextcloud", p);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ok: false, name: "A" });
    expect((entries[0] as { error: string }).error).toMatch(/cannot be read|too many bytes|inflated size/);
  });

  it("too many entries", async () => {
    const { DEFAULT_LIMITS } = await import("./archive.js");
    const specs = Array.from({ length: 12 }, (_, i) => ({
      name: `r${i}/recipe.json`,
      data: "{}",
      store: true,
    }));
    const zip = makeZip(specs);
    await expect(openZip(zip, { ...DEFAULT_LIMITS, maxEntries: 10 })).rejects.toThrow("more than 10 entries");
  });

  it("the names an entry may not have", () => {
    expect(unsafeEntryName("a/b/c.json")).toBeNull();
    expect(unsafeEntryName("a/..b/c.json")).toBeNull();
    expect(unsafeEntryName("a/\0.json")).toBe("a NUL byte in its name");
  });
});

describe("gzip inside the archive (Paprika)", () => {
  it("a gzip bomb fails its own entry with a clear message; the other recipes still read", async () => {
    const good = gzipSync(
      JSON.stringify({ name: "Good Soup", ingredients: "1 leek", directions: "Simmer." }),
    );
    const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024, 0x20));
    const p = await file(
      "bomb.paprikarecipes",
      makeZip([
        { name: "Good.paprikarecipe", data: good, store: true },
        { name: "Bomb.paprikarecipe", data: bomb, store: true },
      ]),
    );
    const entries = await collect("paprika", p);
    expect(entries.find((e) => e.name === "Good Soup")).toMatchObject({ ok: true });
    const failed = entries.find((e) => !e.ok) as { name: string; error: string };
    expect(failed.name).toBe("Bomb");
    expect(failed.error).toMatch(/Recipe 'Bomb' is refused: it inflates to more than \d+ bytes/);
  });

  it("gunzipCapped stops at the cap and names what it was reading", async () => {
    await expect(gunzipCapped(gzipSync(Buffer.alloc(2048)), 1024, "The thing")).rejects.toThrow(
      "The thing is refused: it inflates to more than 1024 bytes",
    );
    await expect(gunzipCapped(Buffer.from("not gzip"), 1024, "The thing")).rejects.toThrow(
      "The thing is not valid gzip data",
    );
  });

  it("a .paprikarecipe that is not gzip fails its entry only", async () => {
    const p = await file("notgz.paprikarecipes", makeZip([{ name: "Plain.paprikarecipe", data: "{}" }]));
    const [e] = await collect("paprika", p);
    expect(e).toMatchObject({ ok: false, name: "Plain" });
  });
});

describe("CSV with broken quoting", () => {
  it("is refused with the line it broke on", async () => {
    const csv = 'title,ingredients,instructions\nGood,"1 egg","Boil."\nBad,"1 egg,"Boil.\n';
    const p = await file("broken.csv", csv);
    await expect(collect("myrecipebox", p)).rejects.toThrow(
      /The My Recipe Box file cannot be read as CSV \(near line \d+\)/,
    );
  });
});

describe("the wrong migration type for an archive", () => {
  it.each([
    ["paprika", "no .paprikarecipe file was found"],
    ["chowdown", "no _recipes/*.md file was found"],
    ["copymethat", "no recipes.html was found"],
    ["tandoor", "no per-recipe zip holding recipe.json was found"],
    ["plantoeat", "no CSV file was found"],
    ["mealie_alpha", "no recipes/<slug>/<slug>.json file was found"],
    ["cooklang", "no .cook file was found"],
  ])("%s given a Nextcloud zip", async (type, missing) => {
    const p = await file(
      `nextcloud-for-${type}.zip`,
      makeZip([{ name: "Soup/recipe.json", data: recipeJson }]),
    );
    await expect(collect(type, p)).rejects.toThrow(missing);
  });

  it("a zip-only format given a CSV", async () => {
    const p = await file("plain.csv", "title,ingredients\nA,B\n");
    await expect(collect("nextcloud", p)).rejects.toThrow(
      "The upload is not a zip archive: a Nextcloud Cookbook migration expects a zip. Check the migration type.",
    );
  });

  it("a CSV of another app given as My Recipe Box", async () => {
    const p = await file("other.csv", "Name,Stuff\nA,B\n");
    await expect(collect("myrecipebox", p)).rejects.toThrow(
      "This archive is not a My Recipe Box export: the CSV has no title and ingredients columns",
    );
  });
});

describe("odd encodings", () => {
  it("UTF-8 with a BOM, UTF-16 and Windows-1252 all read as text", () => {
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toBe("A");
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0xe9, 0x00]))).toBe("Aé");
    expect(decodeText(Buffer.from([0x43, 0x72, 0xea, 0x70, 0x65]))).toBe("Crêpe");
    expect(decodeText(Buffer.from("Crème", "utf8"))).toBe("Crème");
  });
});
