/**
 * The built-in migrations plugins, one folder each (`plugins/migrations/<name>/`). Keep this module
 * light: each reader (and the zip, CSV and HTML libraries it needs) loads on first use.
 */
import type { MigratedEntry, MigrationPlugin } from "../../core/plugins/kinds.js";
import type { Archive, BareFile, ReaderContext } from "./shared/archive.js";

type Reader = (archive: Archive, ctx: ReaderContext) => AsyncIterable<MigratedEntry>;

function migration(
  name: string,
  label: string,
  description: string,
  load: () => Promise<Reader>,
  opts: { bareFile?: BareFile; types?: string[] } = {},
): MigrationPlugin {
  return {
    kind: "migration",
    name,
    description,
    types: opts.types ?? [name],
    async *migrate(archive) {
      const { openUpload } = await import("./shared/archive.js");
      const { readUnwrapping } = await import("./shared/nested.js");
      const { skippedEntries } = await import("./shared/entry.js");
      const read = await load();
      const opened = await openUpload(archive.path, { bareFile: opts.bareFile, label });
      try {
        yield* readUnwrapping(read, opened, { onTotal: archive.onTotal });
        // Last, once the zips within were read too: a wrong upload is still refused before any entry.
        yield* skippedEntries(opened);
      } finally {
        opened.close();
      }
    },
  };
}

/**
 * A Mealie backup is a whole site: the service reads it with `readSite` and brings in users, vocabulary,
 * organizers and cookbooks before the recipes. `migrate` alone gives the recipes of every group.
 */
const mealieBackup: MigrationPlugin = {
  kind: "migration",
  name: "mealie-backup",
  description: "Mealie admin backup, v1.0 or later (database.json and data/)",
  types: ["mealie_backup"],
  async readSite(archive) {
    const { openUpload } = await import("./shared/archive.js");
    const { readBackup } = await import("./mealie-backup/read.js");
    const { readSiteUnwrapping } = await import("./shared/nested.js");
    const { skippedEntries } = await import("./shared/entry.js");
    const opened = await openUpload(archive.path, { label: "Mealie backup" });
    try {
      const { value: site, from } = await readSiteUnwrapping(readBackup, opened);
      archive.onTotal?.(site.groups.reduce((n, g) => n + g.recipes.length, 0));
      // Left open for the pictures, each read as its recipe is brought in.
      const close = () => {
        if (from !== opened) from.close();
        opened.close();
      };
      return { ...site, skipped: skippedEntries(opened), close };
    } catch (e) {
      opened.close();
      throw e;
    }
  },
  async *migrate(archive, ctx) {
    const site = await this.readSite!(archive, ctx);
    try {
      for (const g of site.groups)
        for (const r of g.recipes) {
          await r.loadPicture?.();
          yield r.entry;
        }
      yield* site.skipped ?? [];
    } finally {
      site.close?.();
    }
  },
};

export const migrations: readonly unknown[] = [
  migration(
    "nextcloud",
    "Nextcloud Cookbook",
    "Nextcloud Cookbook export (zip of recipe.json folders)",
    async () => (await import("./nextcloud/read.js")).readNextcloud,
  ),
  migration(
    "chowdown",
    "Chowdown",
    "Chowdown Jekyll site (zip of _recipes/*.md and images/)",
    async () => (await import("./chowdown/read.js")).readChowdown,
  ),
  migration(
    "copymethat",
    "CopyMeThat",
    "CopyMeThat export (recipes.html and images/)",
    async () => (await import("./copymethat/read.js")).readCopyMeThat,
  ),
  migration(
    "paprika",
    "Paprika",
    "Paprika .paprikarecipes export, or one shared .paprikarecipe",
    async () => (await import("./paprika/read.js")).readPaprika,
    // Paprika shares a single recipe as one gzipped .paprikarecipe file; anything else must be the zip.
    { bareFile: { name: "recipe.paprikarecipe", head: (h) => h[0] === 0x1f && h[1] === 0x8b } },
  ),
  migration(
    "mealie-alpha",
    "Mealie (pre-v1)",
    "Mealie pre-v1 export (recipes/<slug>/<slug>.json)",
    async () => (await import("./mealie-alpha/read.js")).readMealieAlpha,
    { types: ["mealie_alpha"] },
  ),
  migration(
    "tandoor",
    "Tandoor",
    "Tandoor export (zip of per-recipe zips)",
    async () => (await import("./tandoor/read.js")).readTandoor,
  ),
  migration(
    "plantoeat",
    "Plan to Eat",
    "Plan to Eat export (zip holding a CSV)",
    async () => (await import("./plantoeat/read.js")).readPlanToEat,
  ),
  migration(
    "myrecipebox",
    "My Recipe Box",
    "My Recipe Box CSV export",
    async () => (await import("./myrecipebox/read.js")).readMyRecipeBox,
    { bareFile: { name: "recipes.csv" } },
  ),
  migration(
    "recipekeeper",
    "Recipe Keeper",
    "Recipe Keeper HTML export (recipes.html and images/)",
    async () => (await import("./recipekeeper/read.js")).readRecipeKeeper,
  ),
  migration(
    "cooklang",
    "Cooklang",
    "Cooklang .cook files (a folder or a zip)",
    async () => (await import("./cooklang/read.js")).readCooklang,
    { bareFile: { name: "recipe.cook" } },
  ),
  migration(
    "cookn",
    "Cook'n",
    "Cook'n cookbook export (zip of .dsv tables and media)",
    async () => (await import("./cookn/read.js")).readCookn,
    { types: ["cookn"] },
  ),
  mealieBackup,
];
