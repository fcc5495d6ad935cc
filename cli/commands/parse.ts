/**
 * `larder parse "2 cups flour, sifted"`: split ingredient lines into quantity, unit, food and note with
 * one of the parsers (nlp, brute, openai), matching against the en-US seed vocabulary. Lines come from
 * the arguments, or one per line from stdin.
 */
import type { Command } from "commander";
import { consoleLogger } from "../../core/log/logger.js";
import { PluginRegistry } from "../../core/plugins/registry.js";
import { configFor, resolveDataDir } from "../context.js";
import { CliError, EXIT, isJsonMode, printJson, printTable } from "../output.js";
import { readStdin } from "../bounded-read.js";

/** Lines on stdin, up to this many bytes in all (about 400,000 ingredient lines). */
const STDIN_BYTES = 16 * 1024 * 1024;

async function stdinLines(): Promise<string[]> {
  return (await readStdin(STDIN_BYTES, "ingredient lines")).split(/\r?\n/).filter((l) => l.trim() !== "");
}

export function registerParse(program: Command): void {
  program
    .command("parse")
    .description(
      "parse ingredient lines into quantity, unit, food and note (lines from the arguments or stdin)",
    )
    .argument("[lines...]", 'ingredient lines, e.g. "2 cups flour, sifted"')
    .option(
      "--parser <name>",
      "nlp (trained tagger), brute (Mealie's rules) or openai (OPENAI_* settings)",
      "nlp",
    )
    .action(async (args: string[], opts: { parser: string }) => {
      const lines = args.length > 0 ? args : process.stdin.isTTY ? [] : await stdinLines();
      if (lines.length === 0)
        throw new CliError('Give ingredient lines to parse, e.g. larder parse "2 cups flour"', EXIT.invalid);
      const config = configFor(resolveDataDir());
      const log = consoleLogger(process.env.LARDER_DEBUG === "1" ? "info" : "silent");
      const plugins = new PluginRegistry(log);
      const { builtinPlugins } = await import("../../plugins/builtins.js");
      for (const p of builtinPlugins) plugins.register(p, "builtin");
      await plugins.load(config.plugins, process.cwd());
      const { parseDetached } = await import("../../core/parsers/standalone.js");
      const parsed = await parseDetached({ config, log, plugins }, lines, opts.parser);
      if (isJsonMode()) return printJson(parsed);
      await printTable(
        parsed.map((p) => ({
          quantity: p.ingredient.quantity ?? 0,
          unit: p.ingredient.unit?.name ?? "",
          food: p.ingredient.food?.name ?? "",
          note: p.ingredient.note,
          confidence: p.confidence.average ?? "",
        })),
        { columns: ["quantity", "unit", "food", "note", "confidence"] },
      );
    });
}
