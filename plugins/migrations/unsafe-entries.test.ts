/**
 * One stray entry with an unsafe name (`__MACOSX/../x`, a NUL) in an export of many recipes: the
 * recipes come in, the entry is listed in the report as skipped with why, and nothing is written from
 * it anywhere (decision 0280). Archives built here.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeZip } from "../../tests/support/zip-writer.js";
import { migrationLarder, scratchFolder } from "./test-support.js";

const env = migrationLarder("larder-unsafe-entries-", { perTest: true });
const scratch = scratchFolder("larder-unsafe-upload-");

const recipe = (name: string) =>
  JSON.stringify({ name, recipeIngredient: ["1 egg"], recipeInstructions: ["Boil."] });

/** Every file under `dir`, by its path there. */
async function filesUnder(dir: string): Promise<string[]> {
  const found = await readdir(dir, { recursive: true, withFileTypes: true });
  return found.filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

async function migrate(type: string, path: string) {
  const { report, done } = await env.larder.migrations.start(env.actor, { type, path });
  const summary = await done;
  return { summary, full: await env.larder.reports.get(env.actor, report.id) };
}

const SKIPPED_LINES = [
  {
    success: true,
    message: "Skipped entry '__MACOSX/../x' of the archive",
    exception: "it has a '..' path segment: it was not read, and nothing was written from it",
  },
  {
    success: true,
    message: "Skipped entry 'Soup/full\\u0000.jpg' of the archive",
    exception: "it has a NUL byte in its name: it was not read, and nothing was written from it",
  },
];

describe("an export with a stray unsafe entry", () => {
  it("nextcloud: the recipes import, the entries are reported as skipped, nothing is written from them", async () => {
    const upload = await scratch.zip("nextcloud.zip", [
      { name: "Soup/recipe.json", data: recipe("Soup") },
      { name: "__MACOSX/../x", data: "evil" },
      { name: "Soup/full\0.jpg", data: "evil" },
      { name: "Bread/recipe.json", data: recipe("Bread") },
      { name: "Cake/recipe.json", data: recipe("Cake") },
    ]);
    const before = await filesUnder(env.folder);
    const { summary, full } = await migrate("nextcloud", upload);
    expect(summary).toMatchObject({ status: "success", imported: 3, skipped: 2, failed: 0 });
    expect(summary.entries.filter((e) => e.status === "skipped")).toEqual([
      expect.objectContaining({ name: "entry '__MACOSX/../x' of the archive" }),
      expect.objectContaining({ name: "entry 'Soup/full\\u0000.jpg' of the archive" }),
    ]);
    expect(full.entries.slice(-2)).toEqual(SKIPPED_LINES.map((l) => expect.objectContaining(l)));
    // Nothing new beside the data folder (where `../x` would land), and no file named like either entry.
    const after = await filesUnder(env.folder);
    const added = after.filter((f) => !before.includes(f));
    expect(added.filter((f) => !f.startsWith(join(env.folder, "data")))).toEqual([]);
    expect(added.filter((f) => /(^|\/)x$|\0/.test(f))).toEqual([]);
  });

  it("a Mealie backup: its recipes import and the same lines are in its report", async () => {
    const database = {
      alembic_version: [{ version_num: "09aba125b57a" }],
      groups: [{ id: "g1", name: "Home" }],
      users: [],
      recipes: ["Soup", "Bread"].map((name, i) => ({ id: `r${i}`, group_id: "g1", name, slug: name })),
    };
    const upload = await scratch.file(
      "backup.zip",
      makeZip([
        { name: "database.json", data: JSON.stringify(database) },
        { name: "__MACOSX/../x", data: "evil" },
        { name: "Soup/full\0.jpg", data: "evil" },
      ]),
    );
    const { summary, full } = await migrate("mealie_backup", upload);
    expect(summary).toMatchObject({ imported: 2, skipped: 2, failed: 0 });
    for (const line of SKIPPED_LINES) expect(full.entries).toContainEqual(expect.objectContaining(line));
  });
});
