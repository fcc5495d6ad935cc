/** `larder household list|add`: households of the folder's groups. */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { isJsonMode, printJson, printStatus, printTable } from "../../output.js";
import { withPlaces } from "../../users/places.js";

export function registerHousehold(program: Command): void {
  const household = program
    .command("household")
    .description("manage households (through the running server when one holds the folder)");
  household
    .command("list")
    .description("list households and their member counts")
    .option("--group <group>", "only this group (slug or name)")
    .addOption(dataOption())
    .action(async (opts: { group?: string; data?: string }) => {
      const rows = await withPlaces(resolveDataDir(opts.data), (p) => p.listHouseholds(opts.group));
      rows.sort((a, b) => a.groupSlug.localeCompare(b.groupSlug) || a.slug.localeCompare(b.slug));
      if (isJsonMode()) return printJson(rows);
      await printTable(
        rows.map((h) => ({ group: h.group, slug: h.slug, name: h.name, users: h.users })),
        { columns: ["group", "slug", "name", "users"], empty: "No households." },
      );
    });
  household
    .command("add")
    .description("create a household in a group")
    .argument("<name>", "the household's name")
    .option("--group <group>", "the group (slug or name; default: the site's default group)")
    .addOption(dataOption())
    .action(async (name: string, opts: { group?: string; data?: string }) => {
      const created = await withPlaces(resolveDataDir(opts.data), (p) => p.addHousehold(name, opts.group));
      if (isJsonMode()) return printJson(created);
      await printStatus("ok", `Created household ${created.name} in group ${created.group}`);
    });
}
