/**
 * `larder maintenance clean temp|images|logs|orphans [--dry-run]`: the admin maintenance page's
 * cleaning from a shell (core/maintenance: what each means in Larder's layout). `--dry-run` lists
 * what would go and removes nothing. With a server holding the folder, cleaning goes through its API
 * (it is the only writer); a dry run only reads, so it reads the folder directly.
 */
import type { Command } from "commander";
import type { Actor } from "../../core/actor.js";
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
import { ServerClient } from "../users/server-client.js";

const KINDS = ["temp", "images", "logs", "orphans"] as const;
type Kind = (typeof KINDS)[number];
/** The contract's route for each (orphans are Mealie's "recipe-folders"). */
const ROUTE: Record<Kind, string> = {
  temp: "temp",
  images: "images",
  logs: "logs",
  orphans: "recipe-folders",
};

export function registerMaintenance(program: Command): void {
  const m = program.command("maintenance").description("clean what the data folder no longer needs");
  m.command("clean")
    .argument(
      "<what>",
      "temp (old temp files), images (derived sizes with no source), logs, orphans (media folders with no recipe)",
    )
    .option("--dry-run", "list what would be removed, remove nothing")
    .addOption(dataOption())
    .description("remove temp files, stale image sizes, logs or orphaned media folders")
    .action(async (what: string, opts: { dryRun?: boolean; data?: string }) => {
      if (!(KINDS as readonly string[]).includes(what))
        throw new CliError(`Unknown kind '${what}': use temp, images, logs or orphans`, EXIT.invalid);
      const kind = what as Kind;
      const dataDir = resolveDataDir(opts.data);
      requireDataFolder(dataDir);
      const server = await liveServer(dataDir);
      let result: { kind: Kind; dryRun: boolean; paths: string[]; message: string };
      if (server && !opts.dryRun) {
        const r = await new ServerClient(server, dataDir).request<{ message: string }>(
          "POST",
          `/api/admin/maintenance/clean/${ROUTE[kind]}`,
        );
        result = { kind, dryRun: false, paths: [], message: r.message };
      } else {
        const run = async () => {
          const { Larder } = await import("../../core/larder.js");
          const { builtinPlugins } = await import("../../plugins/builtins.js");
          const larder = await Larder.open(configFor(dataDir), {
            log: cliLogger(),
            watch: false,
            readOnly: server !== null || opts.dryRun === true,
            plugins: builtinPlugins,
          });
          try {
            const admin = larder.users.all().find((u) => u.admin);
            if (!admin) throw new CliError("The data folder has no admin", EXIT.failure);
            const actor: Actor = { kind: "user", user: admin };
            const paths = await larder.maintenance.preview(actor, kind);
            if (opts.dryRun)
              return { kind, dryRun: true, paths, message: `${paths.length} would be removed` };
            const svc = larder.maintenance;
            const r = await (kind === "temp"
              ? svc.cleanTemp(actor)
              : kind === "logs"
                ? svc.cleanLogs(actor)
                : kind === "images"
                  ? svc.cleanImages(actor)
                  : svc.cleanRecipeFolders(actor));
            return { kind, dryRun: false, paths, message: r.message };
          } finally {
            await larder.close();
          }
        };
        result = server ? await run() : await withLock(dataDir, run);
      }
      if (isJsonMode()) return printJson(result);
      for (const p of result.paths) printLine(`${opts.dryRun ? "would clean" : "cleaned"} ${p}`);
      printLine(result.message);
    });
}
