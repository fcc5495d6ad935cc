/**
 * `larder migrate --from TYPE ARCHIVE`: move in from another recipe app (or a Mealie backup) without
 * the web UI. It writes the same group report as the API, shows a progress bar on a terminal, prints
 * one result per recipe, and exits 1 when any entry failed. A server holding the folder is the only
 * writer (ARCHITECTURE §2), so with one running the command says to use the web UI or stop it.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { Larder } from "../../core/larder.js";
import type { Actor } from "../../core/actor.js";
import type { EntryOutcome, MigrationProgress } from "../../core/migrations/migration-service.js";
import {
  configFor,
  liveServer,
  requireDataFolder,
  resolveDataDir,
  withLarder,
  withLock,
  dataOption,
} from "../context.js";
import { CliError, EXIT, isJsonMode, printJson, printLine, printTable } from "../output.js";

interface MigrateOptions {
  from: string;
  group?: string;
  tag?: boolean;
  data?: string;
}

export interface MigrateResult {
  type: string;
  group: string;
  reportId: string;
  status: string;
  imported: number;
  skipped: number;
  failed: number;
  entries: EntryOutcome[];
  /** Notes for the person (users who must reset their password, groups brought in…). */
  notes: string[];
}

/** The group to migrate into (by slug or name; default: Home, else the first group) and an admin of it to act as. */
export function actorFor(larder: Larder, groupRef: string | undefined): { actor: Actor; groupSlug: string } {
  const dir = larder.directory;
  const group = groupRef
    ? dir.groupByRef(groupRef)
    : (dir.groupBySlug("home") ?? dir.all()[0]?.group ?? null);
  if (!group)
    throw new CliError(
      groupRef ? `No group '${groupRef}' (see: larder group list)` : "The data folder has no group",
      EXIT.notFound,
    );
  const user =
    larder.users.firstAdminOf(group.id) ??
    larder.users.all().find((u) => u.groupId === group.id && u.canManage) ??
    larder.users.all().find((u) => u.groupId === group.id);
  if (!user)
    throw new CliError(
      `Group '${group.slug}' has no member to own the recipes (add one with: larder user add)`,
      EXIT.failure,
    );
  return { actor: { kind: "user", user }, groupSlug: group.slug };
}

/** A one-line bar on stderr, redrawn in place; only on a terminal and never with --json. */
function progressBar(): { update: (p: MigrationProgress) => void; end: () => void } {
  const tty = process.stderr.isTTY === true && !isJsonMode();
  let drawn = false;
  return {
    update(p) {
      if (!tty) return;
      const width = 28;
      const total = p.total ?? p.done;
      const filled = total > 0 ? Math.round((p.done / total) * width) : 0;
      const name = p.last.name.length > 40 ? `${p.last.name.slice(0, 39)}…` : p.last.name;
      process.stderr.write(
        `\r\u001b[2K[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${p.done}/${p.total ?? "?"} ${name}`,
      );
      drawn = true;
    },
    end() {
      if (drawn) process.stderr.write("\r\u001b[2K");
    },
  };
}

export async function runMigration(
  larder: Larder,
  opts: { type: string; path: string; group?: string; tag?: boolean },
): Promise<MigrateResult> {
  const bar = progressBar();
  try {
    if (opts.type === "mealie_backup" && !opts.group) {
      // A whole site: every group of the backup, each into the Larder group of its name.
      const parts = await larder.migrations.importSite({
        type: opts.type,
        path: opts.path,
        onProgress: (p) => bar.update(p),
      });
      const all = parts.flatMap((p) => p.entries);
      return {
        type: opts.type,
        group: parts.map((p) => p.group).join(", "),
        reportId: parts.map((p) => p.reportId).join(", "),
        status: parts.every((p) => p.status === "success")
          ? "success"
          : parts.every((p) => p.status === "failure")
            ? "failure"
            : "partial",
        imported: all.filter((e) => e.status === "imported").length,
        skipped: all.filter((e) => e.status === "skipped").length,
        failed: all.filter((e) => e.status === "failed").length,
        entries: all,
        notes: parts.flatMap((p) => p.notes ?? []),
      };
    }
    const picked = actorFor(larder, opts.group);
    // Whoever runs the CLI on the data folder holds the site's files: they act with an admin's authority.
    const actor: Actor =
      picked.actor.kind === "user"
        ? { kind: "user", user: { ...picked.actor.user, admin: true } }
        : picked.actor;
    const { report, done } = await larder.migrations.start(actor, {
      type: opts.type,
      path: opts.path,
      addMigrationTag: opts.tag ?? false,
      foregroundMs: 0,
      onProgress: (p) => bar.update(p),
    });
    const summary = await done;
    return {
      type: opts.type,
      group: picked.groupSlug,
      reportId: report.id,
      status: summary.status,
      imported: summary.imported,
      skipped: summary.skipped,
      failed: summary.failed,
      entries: summary.entries,
      notes: summary.notes ?? [],
    };
  } finally {
    bar.end();
  }
}

/** The API's type name for what a person typed: any case, a hyphen or a space for the underscore ("Mealie-Backup"). */
export function migrationType(typed: string): string {
  return typed
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, "_");
}

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("bring recipes in from another app's export or a Mealie backup")
    .requiredOption(
      "--from <type>",
      "nextcloud, chowdown, copymethat, paprika, mealie_alpha, tandoor, plantoeat, myrecipebox, recipekeeper, cookn, cooklang, mealie_backup",
    )
    .argument(
      "<archive>",
      "the export: a zip, a CSV (My Recipe Box), one .paprikarecipe (Paprika), or a folder (Cooklang)",
    )
    .option(
      "--group <group>",
      "the group to bring the recipes into (slug or name; default: Home, else the first group)",
    )
    .option("--tag", "tag each recipe with the migration type, as Mealie's 'add migration tag'")
    .addOption(dataOption())
    .action(async (archive: string, opts: MigrateOptions) => {
      const dataDir = resolveDataDir(opts.data);
      requireDataFolder(dataDir);
      const path = resolve(archive);
      const kind = statSync(path, { throwIfNoEntry: false });
      if (!kind) throw new CliError(`No file or folder at ${path}`, EXIT.notFound);
      // A device (/dev/zero) or a pipe is no export: read as one, it gave a recipe made of NUL bytes.
      if (!kind.isFile() && !kind.isDirectory())
        throw new CliError(`Cannot migrate from ${path}: it is neither a file nor a folder`, EXIT.invalid);
      if (await liveServer(dataDir)) {
        throw new CliError(
          "A Larder server holds this data folder: upload the archive in the web UI (Settings → Data Migrations, or POST /api/groups/migrations), or stop the server and run this again.",
          EXIT.failure,
        );
      }
      const result = await withLock(dataDir, () =>
        withLarder(configFor(dataDir), (larder) =>
          runMigration(larder, { type: migrationType(opts.from), path, group: opts.group, tag: opts.tag }),
        ),
      );
      if (result.failed > 0) process.exitCode = EXIT.failure;
      if (isJsonMode()) return printJson(result);
      const unsafe = result.entries.filter((e) => e.status === "skipped" && e.reason !== undefined).length;
      await printTable(
        result.entries.map((e) => ({
          result: e.status,
          recipe: e.name,
          detail:
            e.status === "failed"
              ? e.error
              : e.status === "imported" && e.warnings?.length
                ? `${e.slug} (${e.warnings.join("; ")})`
                : e.status === "skipped" && e.reason !== undefined
                  ? e.reason
                  : e.slug,
        })),
        { columns: ["result", "recipe", "detail"], empty: "The archive held no recipe." },
      );
      printLine(
        `${result.imported} imported, ${result.skipped - unsafe} already here, ${unsafe ? `${unsafe} unsafe archive entries skipped, ` : ""}${result.failed} failed (report ${result.reportId} in group ${result.group})`,
      );
      for (const note of result.notes) printLine(note);
    });
}
