/**
 * `larder history SLUG [--rev REV]`: a recipe's versions from git (decision 0074) — the list, or one
 * version's text and diff. Only reads, so it runs beside a server. Restoring a version goes through
 * `POST /api/larder/recipes/{slug}/history/{rev}/restore` (or `git checkout REV -- FILE` by hand).
 */
import type { Command } from "commander";
import type { Actor } from "../../core/actor.js";
import { cliLogger, configFor, requireDataFolder, resolveDataDir, dataOption } from "../context.js";
import { CliError, EXIT, isJsonMode, printJson, printLine, recipeNamed } from "../output.js";

export function registerHistory(program: Command): void {
  program
    .command("history")
    .description("a recipe's earlier versions, when the data folder is a git repository")
    .argument("<slug>", "the recipe's slug")
    .option("--rev <rev>", "show this version's text and its diff")
    .addOption(dataOption())
    .action(async (slug: string, opts: { rev?: string; data?: string }) => {
      const dataDir = resolveDataDir(opts.data);
      requireDataFolder(dataDir);
      const { Larder } = await import("../../core/larder.js");
      const { RecipeHistory } = await import("../../core/git/history.js");
      const { builtinPlugins } = await import("../../plugins/builtins.js");
      // Read-only always: this command never writes, with or without a server.
      const larder = await Larder.open(configFor(dataDir), {
        log: cliLogger(),
        watch: false,
        readOnly: true,
        plugins: builtinPlugins,
      });
      try {
        const admin = larder.users.all().find((u) => u.admin);
        if (!admin) throw new CliError("The data folder has no admin", EXIT.failure);
        const actor: Actor = { kind: "user", user: admin };
        const h = new RecipeHistory(larder);
        if (opts.rev) {
          const v = await h.version(actor, slug, opts.rev);
          if (isJsonMode()) return printJson(v);
          printLine(`${v.rev}  ${v.date}  ${v.author}  ${v.message}`);
          printLine();
          printLine(v.diff);
          return;
        }
        const { items } = await recipeNamed(slug, () => h.list(actor, slug));
        if (isJsonMode()) return printJson(items);
        if (items.length === 0)
          printLine(
            "No history (the data folder is not a git repository, or the recipe was never committed).",
          );
        for (const i of items) printLine(`${i.rev.slice(0, 10)}  ${i.date}  ${i.author}  ${i.message}`);
      } finally {
        await larder.close();
      }
    });
}
