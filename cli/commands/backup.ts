/**
 * `larder backup create|list|verify|restore` (decisions 0070–0073). With a server holding the folder,
 * create and restore go through it (it is the only writer, and a restore must reopen its services);
 * list and verify only read, so they read the folder directly. Restore is destructive: it needs `--yes`
 * unless a person at a terminal confirms, and never prompts when stdin is not a terminal.
 */
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { isLarderError } from "../../core/errors.js";
import {
  cliLogger,
  configFor,
  liveServer,
  openLarder,
  requireDataFolder,
  resolveDataDir,
  withLock,
  dataOption,
} from "../context.js";
import { CliError, EXIT, isJsonMode, printJson, printLine, printTable } from "../output.js";
import { ServerClient } from "../users/server-client.js";

interface Opts {
  data?: string;
  secrets?: boolean;
  yes?: boolean;
}

async function store(dataDir: string) {
  const { BackupStore } = await import("../../core/backups/backup-store.js");
  return new BackupStore(dataDir);
}

/** A damaged backup, or one the disk has no room for, is a failure (exit 1), not a mistyped argument. */
function asCliError(e: unknown): unknown {
  if (
    isLarderError(e) &&
    ["InvalidBackupError", "NotEnoughSpaceError", "RestoreUndoneError"].includes(e.constructor.name)
  )
    return new CliError(e.message, EXIT.failure);
  return e;
}

/**
 * Restore into a folder no server holds: the folder is opened once after the swap, as a server
 * would, and data that will not open is swapped back out (core/backups/guarded-restore.ts).
 */
async function restoreInFolder(dataDir: string, name: string): Promise<string> {
  const { guardedRestore } = await import("../../core/backups/guarded-restore.js");
  const config = configFor(dataDir);
  const opens = async () => (await openLarder(config, { recipes: "when-needed" })).close();
  const { before } = await guardedRestore(await store(dataDir), name, {
    log: cliLogger(),
    reopen: async (swap, undo) => {
      await swap();
      try {
        await opens();
      } catch (e) {
        await undo(e);
        await opens();
      }
    },
  });
  return before;
}

/** A one-line bar on stderr, only on a terminal and never with --json. */
function progressBar(label: string) {
  const tty = process.stderr.isTTY === true && !isJsonMode();
  let drawn = false;
  return {
    update(done: number, total: number) {
      if (!tty) return;
      const width = 28;
      const filled = total > 0 ? Math.round((done / total) * width) : 0;
      process.stderr.write(
        `\r\u001b[2K${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}`,
      );
      drawn = true;
    },
    end() {
      if (drawn) process.stderr.write("\r\u001b[2K");
    },
  };
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } catch (e) {
    // Ctrl-C at the question: readline's "Aborted with Ctrl+C" with exit 1 read as a failure; it is a
    // cancel, said as the password prompt says it (exit 130).
    if ((e as { code?: string }).code === "ABORT_ERR") {
      process.stderr.write("\n");
      throw new CliError("Cancelled: nothing was restored", EXIT.interrupted);
    }
    throw e;
  } finally {
    rl.close();
  }
}

export function registerBackup(program: Command): void {
  const backup = program.command("backup").description("back up and restore the data folder");
  const data = (c: Command) => c.addOption(dataOption());

  data(
    backup
      .command("create")
      .description("write a backup zip of the data folder to .larder/backups/")
      .option("--secrets", "include the per-machine secrets (password hashes, JWT secret, API tokens)"),
  ).action(async (opts: Opts) => {
    const dataDir = resolveDataDir(opts.data);
    requireDataFolder(dataDir);
    const server = await liveServer(dataDir);
    let result: { name: string; files: number; recipes: number; bytes: number; via: "server" | "folder" };
    if (server) {
      const client = new ServerClient(server, dataDir);
      const before = new Set((await (await store(dataDir)).list()).map((b) => b.name));
      await client.request("POST", `/api/admin/backups${opts.secrets ? "?secrets=true" : ""}`);
      const made = (await (await store(dataDir)).list()).find((b) => !before.has(b.name));
      if (!made) throw new CliError("The server answered but no new backup appeared", EXIT.failure);
      const m = await (await store(dataDir)).verify(made.name);
      result = {
        name: made.name,
        files: m.counts.files,
        recipes: m.counts.recipes,
        bytes: made.bytes,
        via: "server",
      };
    } else {
      const bar = progressBar("backing up");
      try {
        const made = await withLock(dataDir, async () =>
          (await store(dataDir)).create({
            secrets: opts.secrets ?? false,
            onProgress: (d, t) => bar.update(d, t),
          }),
        );
        result = {
          name: made.name,
          files: made.manifest.counts.files,
          recipes: made.manifest.counts.recipes,
          bytes: made.bytes,
          via: "folder",
        };
      } finally {
        bar.end();
      }
    }
    if (isJsonMode()) return printJson(result);
    printLine(`${result.name}: ${result.files} files, ${result.recipes} recipes, ${result.bytes} bytes`);
  });

  data(backup.command("list").description("the backups in .larder/backups/, newest first")).action(
    async (opts: Opts) => {
      const dataDir = resolveDataDir(opts.data);
      requireDataFolder(dataDir);
      const all = await (await store(dataDir)).list();
      if (isJsonMode()) return printJson(all);
      await printTable(
        all.map((b) => ({ name: b.name, date: b.date, size: b.size })),
        { columns: ["name", "date", "size"], empty: "No backups yet (make one with: larder backup create)" },
      );
    },
  );

  data(
    backup
      .command("verify")
      .argument("<name>", "a backup's file name")
      .description("check a backup's manifest and every file's checksum"),
  ).action(async (name: string, opts: Opts) => {
    const dataDir = resolveDataDir(opts.data);
    requireDataFolder(dataDir);
    try {
      const m = await (await store(dataDir)).verify(name);
      if (isJsonMode())
        return printJson({
          name,
          ok: true,
          formatVersion: m.formatVersion,
          larderVersion: m.larderVersion,
          createdAt: m.createdAt,
          includesSecrets: m.includesSecrets,
          counts: m.counts,
        });
      printLine(
        `${name} is complete: ${m.counts.files} files, ${m.counts.recipes} recipes (format ${m.formatVersion}, Larder ${m.larderVersion})`,
      );
    } catch (e) {
      throw asCliError(e);
    }
  });

  data(
    backup
      .command("restore")
      .argument("<name>", "a backup's file name")
      .description("replace the data folder's content with a backup (ends every session)")
      .option("-y, --yes", "do not ask for confirmation (required when stdin is not a terminal)"),
  ).action(async (name: string, opts: Opts) => {
    const dataDir = resolveDataDir(opts.data);
    requireDataFolder(dataDir);
    const s = await store(dataDir);
    const check = async (): Promise<void> => {
      try {
        await s.verifyForRestore(name);
      } catch (e) {
        throw asCliError(e);
      }
    };
    // Checked before asking, so nobody confirms a restore that would be refused anyway. With --yes, a
    // restore of the folder checks every file as it unpacks: a pass over the zip less.
    if (!opts.yes) {
      await check();
      if (!process.stdin.isTTY || isJsonMode())
        throw new CliError(
          "Restoring replaces the data folder's content: pass --yes to confirm",
          EXIT.invalid,
        );
      if (!(await confirm(`Replace the content of ${dataDir} with ${name}? Every session ends.`)))
        throw new CliError("Cancelled: nothing was changed", EXIT.failure);
    }
    const server = await liveServer(dataDir);
    // A server's refusal would not say why as this command does.
    if (opts.yes && server) await check();
    let before: string;
    try {
      before = server
        ? (
            await new ServerClient(server, dataDir).request<{ before: string }>(
              "POST",
              `/api/admin/backups/${encodeURIComponent(name)}/restore`,
            )
          ).before
        : await withLock(dataDir, () => restoreInFolder(dataDir, name));
    } catch (e) {
      throw asCliError(e);
    }
    const result = { name, restored: true, via: server ? "server" : "folder", before };
    if (isJsonMode()) return printJson(result);
    printLine(
      `Restored ${name} into ${dataDir}; the data it replaced is kept as ${before}; every session has ended.`,
    );
  });
}
