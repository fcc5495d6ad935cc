/**
 * `larder check`: read every recipe file and report what is wrong — files that fail to parse (never
 * overwritten, ARCHITECTURE §3 invariant 4) and leftovers a hand delete leaves behind. Exit 1 when
 * anything is listed, so CI or a git hook can run it.
 */
import type { Command } from "commander";
import { checkFolder, type CheckReport } from "../../core/maintenance/folder-check.js";
import {
  configFor,
  liveServer,
  requireDataFolder,
  resolveDataDir,
  withLarder,
  withLock,
  dataOption,
} from "../context.js";
import { EXIT, isJsonMode, printJson, printStatus, printTable } from "../output.js";

export type {
  BrokenReport,
  CheckReport,
  OrphanReport,
  ProblemReport,
} from "../../core/maintenance/folder-check.js";

export function registerCheck(program: Command): void {
  program
    .command("check")
    .description("check every recipe file; list broken files and orphans (exit 1 when any)")
    .addOption(dataOption())
    .action(async (opts: { data?: string }) => {
      const dataDir = resolveDataDir(opts.data);
      requireDataFolder(dataDir);
      const config = configFor(dataDir);
      const inspect = () => withLarder(config, (larder) => checkFolder(larder));
      // Opening the folder may settle hand-made files (ids written once), so take the lock unless a
      // live server holds it — then the server has already done that, and we only read.
      const report = (await liveServer(dataDir)) ? await inspect() : await withLock(dataDir, inspect);
      const problems = report.broken.length + report.orphans.length + report.problems.length;
      if (problems > 0) process.exitCode = EXIT.failure;
      if (isJsonMode()) return printJson(report);
      await printHuman(report);
    });
}

async function printHuman(report: CheckReport): Promise<void> {
  const { recipes, broken, orphans, problems } = report;
  const recipesText = `${recipes} recipe${recipes === 1 ? "" : "s"}`;
  if (broken.length + orphans.length + problems.length === 0) {
    await printStatus("ok", `${recipesText}, no problems`);
    return;
  }
  await printTable(
    [
      ...broken.map((b) => ({ file: b.path, line: b.line ?? "", problem: b.message })),
      ...orphans.map((o) => ({ file: o.path, line: "", problem: o.message })),
      ...problems.map((p) => ({ file: p.path, line: "", problem: p.message })),
    ],
    { columns: ["file", "line", "problem"] },
  );
  const parts = [
    broken.length ? `${broken.length} broken file${broken.length === 1 ? "" : "s"}` : "",
    orphans.length ? `${orphans.length} orphan${orphans.length === 1 ? "" : "s"}` : "",
    problems.length ? `${problems.length} other problem${problems.length === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  await printStatus("error", `${recipesText}; ${parts.join(", ")}`);
}
