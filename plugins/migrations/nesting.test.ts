/**
 * How users hand over an export: zipped again, inside a folder, beside a Mac's resource forks. Built
 * here, never copied from a real export.
 */
import { describe, expect, it } from "vitest";
import { makeZip } from "../../tests/support/zip-writer.js";
import { readFileSync } from "node:fs";
import { BACKUPS_DIR, byName, collect, fixturesPresent, pluginFor, scratchFolder } from "./test-support.js";

const dir = scratchFolder("larder-migrate-nesting-");

describe("how the export is nested", () => {
  const nextcloud = makeZip([
    {
      name: "Soup/recipe.json",
      data: JSON.stringify({ name: "Soup", recipeIngredient: ["1 leek"], recipeInstructions: ["Boil."] }),
    },
  ]);

  it("the export zip zipped again (a zip whose only entry is the export) reads as the export", async () => {
    const outer = makeZip([{ name: "nextcloud-export.zip", data: nextcloud, store: true }]);
    const r = byName(await collect("nextcloud", await dir.file("zip-in-zip.zip", outer)));
    expect([...r.keys()]).toEqual(["Soup"]);
  });

  it("a zip inside a folder inside a zip, with a Mac's resource forks beside it", async () => {
    const outer = makeZip([
      { name: "Downloads/export.zip", data: nextcloud, store: true },
      { name: "__MACOSX/Downloads/._export.zip", data: "junk" },
    ]);
    const r = byName(await collect("nextcloud", await dir.file("folder-zip-in-zip.zip", outer)));
    expect([...r.keys()]).toEqual(["Soup"]);
  });

  it("a Paprika .paprikarecipes file zipped again", async () => {
    const { gzipSync } = await import("node:zlib");
    const inner = makeZip([
      { name: "Tea.paprikarecipe", data: gzipSync(JSON.stringify({ name: "Tea" })), store: true },
    ]);
    const outer = makeZip([{ name: "My Recipes.paprikarecipes", data: inner, store: true }]);
    const r = byName(await collect("paprika", await dir.file("paprika-twice.zip", outer)));
    expect([...r.keys()]).toEqual(["Tea"]);
  });

  it("tandoor: the export zip zipped again still gives each recipe, not one failed 'export'", async () => {
    const recipe = (name: string) =>
      makeZip([{ name: "recipe.json", data: JSON.stringify({ name, steps: [] }) }]);
    const exported = makeZip([
      { name: "Soup.zip", data: recipe("Soup"), store: true },
      { name: "Bread.zip", data: recipe("Bread"), store: true },
    ]);
    const outer = makeZip([{ name: "export.zip", data: exported, store: true }]);
    const r = byName(await collect("tandoor", await dir.file("tandoor-twice.zip", outer)));
    expect([...r.keys()].sort()).toEqual(["Bread", "Soup"]);
  });
});

describe.skipIf(!fixturesPresent)("a Mealie backup zipped again", () => {
  it("reads as the backup inside it", async () => {
    const backup = readFileSync(`${BACKUPS_DIR}backup-version-ba1e4a6cfe99-1.zip`);
    const outer = makeZip([{ name: "mealie_2024.zip", data: backup, store: true }]);
    const path = await dir.file("backup-twice.zip", outer);
    const plugin = pluginFor("mealie_backup");
    const site = await plugin.readSite!({ path, type: "mealie_backup" }, {} as never);
    const direct = await plugin.readSite!(
      { path: `${BACKUPS_DIR}backup-version-ba1e4a6cfe99-1.zip`, type: "mealie_backup" },
      {} as never,
    );
    expect(site.groups.map((g) => g.recipes.length)).toEqual(direct.groups.map((g) => g.recipes.length));
    site.close?.();
    direct.close?.();
  });
});

describe("a Mealie backup zipped again, built here", () => {
  it("its pictures are read from the backup inside it, after the site is read", async () => {
    const backup = makeZip([
      {
        name: "database.json",
        data: JSON.stringify({
          alembic_version: [{ version_num: "09aba125b57a" }],
          groups: [{ id: "g1", name: "Home" }],
          users: [],
          recipes: [{ id: "r1", group_id: "g1", name: "Soup", slug: "soup" }],
        }),
      },
      { name: "data/recipes/r1/images/original.webp", data: "soup picture" },
    ]);
    const path = await dir.file("pictures-twice.zip", makeZip([{ name: "backup.zip", data: backup }]));
    const site = await pluginFor("mealie_backup").readSite!({ path, type: "mealie_backup" }, {} as never);
    const [soup] = site.groups[0].recipes;
    await soup.loadPicture!();
    site.close?.();
    expect(soup.entry.ok && soup.entry.imported.image).toMatchObject({ bytes: Buffer.from("soup picture") });
  });
});

describe("an archive that is not the export, zipped again", () => {
  it("is refused with the message about the upload, not about the archive inside it", async () => {
    const inner = makeZip([{ name: "notes.txt", data: "hello" }]);
    const path = await dir.file(
      "other-twice.zip",
      makeZip([{ name: "other.zip", data: inner, store: true }]),
    );
    await expect(collect("nextcloud", path)).rejects.toThrow(
      "This archive is not a Nextcloud Cookbook export: no recipe.json was found",
    );
  });
});

describe("a bomb posing as an export zipped again", () => {
  it("is not inflated into memory to see whether it is a zip", async () => {
    const { soleInnerArchive } = await import("./shared/nested.js");
    const bomb = {
      entries: [{ path: "export.zip", size: 400 * 1024 * 1024, packed: 400 * 1024 }],
      skipped: [],
      has: () => true,
      read: () => Promise.reject(new Error("read")),
      readText: () => Promise.reject(new Error("read")),
      close: () => undefined,
    };
    await expect(soleInnerArchive(bomb)).resolves.toBeNull();
    // The same size, as a zip zipped again is: barely smaller than it inflates to.
    const real = {
      ...bomb,
      entries: [{ path: "export.zip", size: 400 * 1024 * 1024, packed: 390 * 1024 * 1024 }],
    };
    await expect(soleInnerArchive(real)).rejects.toThrow("read");
  });

  it("tandoor: a lone recipe zip that inflates hundreds of times over is not read whole into memory", async () => {
    const { readTandoor } = await import("./tandoor/read.js");
    const reads: Array<number | undefined> = [];
    const bomb = {
      entries: [{ path: "Soup.zip", size: 400 * 1024 * 1024, packed: 400 * 1024 }],
      skipped: [],
      has: () => true,
      read: (_p: string, max?: number) => {
        reads.push(max);
        return Promise.reject(new Error("too large"));
      },
      readText: () => Promise.reject(new Error("read")),
      close: () => undefined,
    };
    const out = [];
    for await (const e of readTandoor(bomb)) out.push(e);
    expect(out).toMatchObject([{ ok: false, name: "Soup" }]);
    // Read once, as a recipe's zip, under the 64 MB cap of one: never under the 512 MB of a whole export.
    expect(reads).toEqual([64 * 1024 * 1024]);
  });
});
