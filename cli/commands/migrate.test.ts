/** `larder migrate`: a per-recipe result, --json, exit 1 when any entry failed, clear refusals. */
import { readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, larder, tempDir } from "../testing/run-cli.js";
import { makeZip } from "../../tests/support/zip-writer.js";
import { migrationType, type MigrateResult } from "./migrate.js";

const cooklang = fileURLToPath(new URL("../../plugins/migrations/cooklang/fixture", import.meta.url));

describe("larder migrate", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    const init = await larder(["init", dir]);
    expect(init.exitCode, String(init.stderr)).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it("brings in a folder of Cooklang files, then skips them on a second run", async () => {
    const first = await larder(["migrate", "--from", "cooklang", cooklang, "--tag", "--data", dir, "--json"]);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const r = json<MigrateResult>(first);
    expect(r).toMatchObject({
      type: "cooklang",
      group: "home",
      status: "success",
      imported: 3,
      skipped: 0,
      failed: 0,
    });
    expect(r.entries.map((e) => e.name).sort()).toEqual(["Crêpes", "Zucchini Fritters", "tea"]);
    // Every key the docs list, notes too when there are none.
    expect(r.notes).toEqual([]);
    // The type as a person may type it: any case.
    const second = json<MigrateResult>(
      await larder(["migrate", "--from", "CookLang", cooklang, "--data", dir, "--json"]),
    );
    expect(second).toMatchObject({ imported: 0, skipped: 3, failed: 0 });

    // A run stopped (Ctrl-C) after creating its recipes but before noting them: the next run still
    // knows them, by the ids it derived from their source, and brings nothing in twice.
    await rm(join(dir, "groups", "home", "migrations.json"));
    const third = json<MigrateResult>(
      await larder(["migrate", "--from", "cooklang", cooklang, "--data", dir, "--json"]),
    );
    expect(third).toMatchObject({ imported: 0, skipped: 3, failed: 0 });
    expect(
      (await readdir(join(dir, "groups", "home", "recipes"))).filter((f) => f.endsWith("-1.md")),
    ).toEqual([]);
  });

  it("prints one line per recipe for a person and exits 1 when an entry failed", async () => {
    const zip = join(tmp.path, "mixed.zip");
    await writeFile(
      zip,
      makeZip([
        {
          name: "Soup/recipe.json",
          data: JSON.stringify({ name: "Leek Soup", recipeIngredient: ["2 leeks"] }),
        },
        { name: "Broken/recipe.json", data: "{oops" },
      ]),
    );
    const res = await larder(["migrate", "--from", "nextcloud", zip, "--data", dir]);
    expect(res.exitCode).toBe(1);
    const out = String(res.stdout);
    expect(out).toMatch(/imported\s+Leek Soup\s+leek-soup/);
    expect(out).toMatch(/failed\s+Broken\s+Error: Broken\/recipe\.json is not valid JSON/);
    expect(out).toContain("1 imported, 0 already here, 1 failed");
  });

  it("the wrong type for an archive exits 2 with the reason; an unknown type lists the known ones", async () => {
    const res = await larder(["migrate", "--from", "paprika", cooklang, "--data", dir, "--json"]);
    expect(res.exitCode).toBe(2);
    expect(json<{ error: { message: string } }>(res).error.message).toBe(
      "This archive is not a Paprika export: no .paprikarecipe file was found. Check the migration type.",
    );
    const unknown = await larder(["migrate", "--from", "cookbookapp", cooklang, "--data", dir]);
    expect(unknown.exitCode).toBe(2);
    expect(String(unknown.stderr)).toContain("'nextcloud'");
  });

  it("takes a type written with hyphens, spaces or capitals as the API's name", () => {
    expect(migrationType("Mealie-Backup")).toBe("mealie_backup");
    expect(migrationType(" mealie alpha ")).toBe("mealie_alpha");
    expect(migrationType("copymethat")).toBe("copymethat");
  });

  it("a missing archive or group is named", async () => {
    const missing = await larder(["migrate", "--from", "paprika", join(tmp.path, "nope.zip"), "--data", dir]);
    expect(missing.exitCode).toBe(4);
    const group = await larder([
      "migrate",
      "--from",
      "cooklang",
      cooklang,
      "--group",
      "nowhere",
      "--data",
      dir,
    ]);
    expect(group.exitCode).toBe(4);
    expect(String(group.stderr)).toContain("No group 'nowhere'");
  });

  it("a device is no export: refused with exit 2, nothing imported", async () => {
    const r = await larder(["migrate", "--from", "cooklang", "/dev/zero", "--data", dir]);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain("Cannot migrate from /dev/zero: it is neither a file nor a folder");
  });
});
