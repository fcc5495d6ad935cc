/**
 * A Mealie backup of a large site: every recipe has a folder of its own with `images/` and `assets/`,
 * so 50,000 recipes are 300,001 entries, folders included. Such a backup used to be refused as having
 * more than 100,000 entries (decision 0279). Built here with tiny pictures; the real backups in the
 * fixtures are small, and one of them is padded out to that size.
 */
import { describe, expect, it } from "vitest";
import type { ZipSpec } from "../../../tests/support/zip-writer.js";
import { BACKUPS_DIR, fixturesPresent, pluginFor, scratchFolder } from "../test-support.js";
import { openZip } from "../shared/archive.js";

const dir = scratchFolder("larder-large-backup-");
const RECIPES = 50_000;

const idOf = (i: number) => `${i.toString(16).padStart(8, "0")}-1111-4222-8333-444455556666`;

/** Each recipe's folders and three pictures, as Mealie's backup (Python's zipfile) writes them. */
function recipeFolders(root: string, count: number): ZipSpec[] {
  const specs: ZipSpec[] = [];
  for (let i = 0; i < count; i++) {
    const d = `${root}data/recipes/${idOf(i)}/`;
    specs.push({ name: d, data: "", store: true });
    specs.push({ name: `${d}assets/`, data: "", store: true });
    specs.push({ name: `${d}images/`, data: "", store: true });
    for (const p of ["original", "min-original", "tiny-original"])
      specs.push({ name: `${d}images/${p}.webp`, data: `${p} ${i}`, store: true });
  }
  return specs;
}

const readSite = (path: string) =>
  pluginFor("mealie_backup").readSite!({ path, type: "mealie_backup" }, {} as never);

describe("a Mealie backup of a large site", () => {
  it("50,000 recipes in 300,001 entries are read, each with its picture", { timeout: 180_000 }, async () => {
    const database = {
      alembic_version: [{ version_num: "09aba125b57a" }],
      groups: [{ id: "g1", name: "Home" }],
      users: [],
      recipes: Array.from({ length: RECIPES }, (_, i) => ({
        id: idOf(i),
        group_id: "g1",
        name: `Recipe ${i}`,
        slug: `recipe-${i}`,
      })),
    };
    const specs = [
      { name: "mealie/database.json", data: JSON.stringify(database) },
      ...recipeFolders("mealie/", RECIPES),
    ];
    expect(specs).toHaveLength(300_001);
    const site = await readSite(await dir.zip("large.zip", specs));
    try {
      const recipes = site.groups[0].recipes;
      expect(recipes).toHaveLength(RECIPES);
      // No picture is held once the site is read: each is read as its recipe is brought in.
      expect(recipes.filter((r) => r.entry.ok && r.entry.imported.image)).toEqual([]);
      const last = recipes[RECIPES - 1];
      await last.loadPicture!();
      expect(last.entry.ok && last.entry.imported.image).toMatchObject({
        bytes: Buffer.from(`original ${RECIPES - 1}`),
      });
    } finally {
      site.close?.();
    }
  });

  it("an archive of more entries than a backup of any site has is still refused", async () => {
    const { DEFAULT_LIMITS } = await import("../shared/archive.js");
    expect(DEFAULT_LIMITS.maxEntries).toBeGreaterThanOrEqual(300_001);
    const path = await dir.zip("few.zip", recipeFolders("", 3));
    await expect(openZip(path, { ...DEFAULT_LIMITS, maxEntries: 17 })).rejects.toThrow(
      "The archive is refused: more than 17 entries",
    );
  });
});

describe.skipIf(!fixturesPresent)("a real Mealie backup padded past 100,000 entries", () => {
  it("is read with the same recipes as the backup itself", { timeout: 180_000 }, async () => {
    const real = `${BACKUPS_DIR}backup-version-44e8d670719d-1.zip`;
    const source = await openZip(real);
    const specs: ZipSpec[] = [];
    for (const e of source.entries) specs.push({ name: e.path, data: await source.read(e.path, 2 ** 30) });
    source.close();
    const root = specs.find((s) => s.name.endsWith("database.json"))!.name.replace(/database\.json$/, "");
    specs.push(...recipeFolders(root, 20_000));
    expect(specs.length).toBeGreaterThan(100_000);
    const padded = await readSite(await dir.zip("padded.zip", specs));
    const original = await readSite(real);
    padded.close?.();
    original.close?.();
    const names = (s: typeof original) => s.groups.flatMap((g) => g.recipes.map((r) => r.entry.name)).sort();
    expect(names(padded)).toEqual(names(original));
    expect(names(padded).length).toBeGreaterThan(0);
  });
});
