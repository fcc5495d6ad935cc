/**
 * `larder export SLUG… --format md|json|zip [--out DIR]`: recipes out of the folder as files — the
 * Markdown as on disk, Mealie's export JSON, or the recipe zip the web UI downloads (core/exports).
 * It only reads, so it runs beside a server too (opening the folder read-only). Every slug is looked
 * up before anything is written: one unknown slug writes nothing (exit 4).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { Larder } from "../../core/larder.js";
import {
  cliLogger,
  configFor,
  liveServer,
  requireDataFolder,
  resolveDataDir,
  withLock,
  dataOption,
} from "../context.js";
import { CliError, EXIT, isJsonMode, printJson, printLine } from "../output.js";

interface ExportOptions {
  format: string;
  out?: string;
  group?: string;
  data?: string;
}

const FORMATS = ["md", "json", "zip"] as const;
type Format = (typeof FORMATS)[number];

export async function exportRecipes(
  larder: Larder,
  slugs: string[],
  format: Format,
  outDir: string,
  groupRef?: string,
) {
  const dir = larder.directory;
  const group = groupRef ? dir.groupBySlug(groupRef) : (dir.groupBySlug("home") ?? dir.all()[0]?.group);
  if (!group) throw new CliError(`No group '${groupRef ?? "home"}' (see: larder group list)`, EXIT.notFound);
  const { exportRecipeAs } = await import("../../core/exports/recipe-zip.js");
  // Every recipe first: a wrong slug writes nothing rather than half the export.
  const out: Array<{ slug: string; data: string | Buffer }> = [];
  for (const slug of slugs) {
    const data = await exportRecipeAs(larder, group.slug, slug, format);
    if (data === null) throw new CliError(`No recipe '${slug}' in group '${group.slug}'`, EXIT.notFound);
    out.push({ slug, data });
  }
  await mkdir(outDir, { recursive: true });
  const written: Array<{ slug: string; path: string; bytes: number }> = [];
  for (const { slug, data } of out) {
    const path = join(outDir, `${slug}.${format}`);
    await writeFile(path, data);
    written.push({ slug, path, bytes: Buffer.byteLength(data) });
  }
  return written;
}

export function registerExport(program: Command): void {
  program
    .command("export")
    .description("write recipes out as Markdown, Mealie JSON or recipe zips")
    .argument("<slug...>", "the recipes' slugs")
    .option("--format <format>", "md, json or zip", "md")
    .option("--out <dir>", "folder to write into (default: the current folder)")
    .option("--group <group>", "the group's slug (default: the first group)")
    .addOption(dataOption())
    .action(async (slugs: string[], opts: ExportOptions) => {
      if (!(FORMATS as readonly string[]).includes(opts.format))
        throw new CliError(`Unknown format '${opts.format}': use md, json or zip`, EXIT.invalid);
      const dataDir = resolveDataDir(opts.data);
      requireDataFolder(dataDir);
      const outDir = resolve(opts.out ?? ".");
      const serverRunning = (await liveServer(dataDir)) !== null;
      const run = async () => {
        const { Larder } = await import("../../core/larder.js");
        const { builtinPlugins } = await import("../../plugins/builtins.js");
        const larder = await Larder.open(configFor(dataDir), {
          log: cliLogger(),
          watch: false,
          readOnly: serverRunning,
          plugins: builtinPlugins,
        });
        try {
          return await exportRecipes(larder, slugs, opts.format as Format, outDir, opts.group);
        } finally {
          await larder.close();
        }
      };
      const written = serverRunning ? await run() : await withLock(dataDir, run);
      if (isJsonMode()) return printJson(written);
      for (const w of written) printLine(`${w.path} (${w.bytes} bytes)`);
    });
}
