/** `larder group list|add`: the folder's groups (through the running server when one holds the folder). */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { isJsonMode, printJson, printStatus, printTable } from "../../output.js";
import { withPlaces } from "../../users/places.js";

export function registerGroup(program: Command): void {
  const group = program
    .command("group")
    .description("manage groups (through the running server when one holds the folder)");
  group
    .command("list")
    .description("list groups with their households and member counts")
    .addOption(dataOption())
    .action(async (opts: { data?: string }) => {
      const groups = await withPlaces(resolveDataDir(opts.data), (p) => p.listGroups());
      groups.sort((a, b) => a.slug.localeCompare(b.slug));
      if (isJsonMode()) return printJson(groups);
      await printTable(
        groups.map((g) => ({
          slug: g.slug,
          name: g.name,
          households: g.households.join(", "),
          users: g.users,
        })),
        { columns: ["slug", "name", "households", "users"], empty: "No groups." },
      );
    });
  group
    .command("add")
    .description("create a group with its household Family")
    .argument("<name>", "the group's name (its folder name is derived once, from this)")
    .addOption(dataOption())
    .action(async (name: string, opts: { data?: string }) => {
      const created = await withPlaces(resolveDataDir(opts.data), (p) => p.addGroup(name));
      if (isJsonMode()) return printJson(created);
      await printStatus(
        "ok",
        `Created group ${created.name} (groups/${created.slug}) with household ${created.households.join(", ")}`,
      );
    });
}
