/**
 * `larder stats`: what the recipe index holds (recipes per group, files that do not parse) and the
 * state of its warm-start cache (ARCHITECTURE §4), as this command's own open of the folder saw it.
 * With a server running, the folder is opened read-only and the cache is only read.
 */
import type { Command } from "commander";
import type { Larder } from "../../core/larder.js";
import type { RecipeStats } from "../../core/recipes/recipes-service.js";
import {
  cliLogger,
  configFor,
  liveServer,
  requireDataFolder,
  resolveDataDir,
  withLock,
  dataOption,
} from "../context.js";
import { isJsonMode, printJson, printTable } from "../output.js";

export interface StatsReport extends RecipeStats {
  dataDir: string;
  /** A server holds the folder: this command opened it read-only. */
  serverRunning: boolean;
}

export function registerStats(program: Command): void {
  program
    .command("stats")
    .description("print the recipe index's counts and the state of its cache")
    .addOption(dataOption())
    .action(async (opts: { data?: string }) => {
      const dataDir = resolveDataDir(opts.data);
      requireDataFolder(dataDir);
      const serverRunning = (await liveServer(dataDir)) !== null;
      const inspect = async (): Promise<StatsReport> => {
        const { Larder } = await import("../../core/larder.js");
        // Read-only while a server holds the folder: it alone writes (ids, the cache).
        const larder: Larder = await Larder.open(configFor(dataDir), {
          log: cliLogger(),
          watch: false,
          readOnly: serverRunning,
          plugins: (await import("../../plugins/builtins.js")).builtinPlugins,
        });
        try {
          return { dataDir, serverRunning, ...larder.recipes.stats() };
        } finally {
          await larder.close();
        }
      };
      const report = serverRunning ? await inspect() : await withLock(dataDir, inspect);
      if (isJsonMode()) return printJson(report);
      await printTable(rows(report), { columns: ["what", "value"] });
    });
}

function rows(r: StatsReport): { what: string; value: string }[] {
  const out = [
    { what: "recipes", value: String(r.recipes) },
    ...Object.entries(r.groups).map(([g, n]) => ({ what: `  in group ${g}`, value: String(n) })),
    { what: "files that do not parse", value: String(r.broken) },
    { what: "index built in", value: `${Math.round(r.openMs)} ms` },
  ];
  const c = r.cache;
  if (!c) return [...out, { what: "cache", value: "off" }];
  const state = {
    none: "none yet",
    loaded: "loaded",
    unreadable: "unreadable (ignored, rebuilt)",
    "other-format": "other format (ignored, rebuilt)",
  }[c.state];
  return [
    ...out,
    { what: "cache", value: `${state}: ${c.path}` },
    {
      what: "cache entries",
      value: `${c.loadedEntries} (${(c.bytes / 1e6).toFixed(1)} MB), saved ${c.savedAt ?? "never"}`,
    },
    { what: "files from the cache", value: String(c.hits) },
    { what: "files read", value: String(c.misses) },
    { what: "cache format", value: c.format },
  ];
}
