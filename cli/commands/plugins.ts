/** `larder plugins`: which plugins are loaded, which failed to load, and why. */
import type { Command } from "commander";
import { PluginRegistry } from "../../core/plugins/registry.js";
import { consoleLogger } from "../../core/log/logger.js";
import { configFor, resolveDataDir, dataOption } from "../context.js";
import { EXIT, isJsonMode, printJson, printTable } from "../output.js";

export function registerPlugins(program: Command): void {
  program
    .command("plugins")
    .description("list the built-in and configured plugins (LARDER_PLUGINS) and whether each loaded")
    .addOption(dataOption())
    .action(async (opts: { data?: string }) => {
      const config = configFor(resolveDataDir(opts.data));
      const { builtinPlugins } = await import("../../plugins/builtins.js");
      const registry = new PluginRegistry(consoleLogger("silent"));
      for (const p of builtinPlugins) registry.register(p, "builtin");
      await registry.load(config.plugins, process.cwd());
      const rows = registry.list();
      if (isJsonMode()) printJson({ plugins: rows });
      else
        await printTable(
          rows.map((r) => ({
            kind: r.kind ?? "?",
            name: r.name,
            source: r.source,
            state: r.state,
            error: r.error ?? "",
          })),
          { columns: ["kind", "name", "source", "state", "error"] },
        );
      // A configured plugin that did not load is a misconfiguration a script should notice.
      if (rows.some((r) => r.state !== "loaded")) process.exitCode = EXIT.failure;
    });
}
