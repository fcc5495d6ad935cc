/** `larder init DIR`: a new data folder in Mealie's first-start state (group Home, household Family, admin). */
import type { Command } from "commander";
import { resolve } from "node:path";
import { findTemplatesDir, initDataFolder } from "../../core/storage/data-folder.js";
import { FIRST_ADMIN } from "../../core/users/first-admin.js";
import { configFor, isLarderFolder, withLarder } from "../context.js";
import { CliError, EXIT, isJsonMode, printJson, printLine, printStatus } from "../output.js";

export function registerInit(program: Command): void {
  program
    .command("init")
    .description("create a new data folder with a first admin")
    .argument("<dir>", "folder to create (must be missing or empty)")
    .option("--no-seed", "start with no foods, units and labels (Mealie's state before its seeders run)")
    .option(
      "--git",
      "make the folder a git repository (.gitattributes, a first commit; .larder/ stays ignored)",
    )
    .action(async (dirArg: string, opts: { seed: boolean; git?: boolean }) => {
      const dir = resolve(dirArg);
      if (isLarderFolder(dir)) {
        throw new CliError(
          `${dir} is already a Larder data folder (serve it with: larder serve --data ${dirArg})`,
          EXIT.failure,
        );
      }
      // The template first (it tolerates a `.git`), then Larder.open writes the first-start state. No
      // lock: the folder was empty a moment ago, so no server can be holding it.
      await initDataFolder(dir, { templatesDir: await findTemplatesDir() });
      await withLarder(configFor(dir), async () => {}, { seed: opts.seed });
      if (opts.git) await (await import("../../core/git/autocommit.js")).initRepository(dir);
      const login = {
        username: FIRST_ADMIN.username,
        email: FIRST_ADMIN.email,
        password: FIRST_ADMIN.password,
      };
      if (isJsonMode()) return printJson({ dataDir: dir, login, ...(opts.git ? { git: true } : {}) });
      await printStatus("ok", `Created a Larder data folder in ${dir}`);
      printLine(
        `Log in as ${login.username} (or ${login.email}) with password ${login.password}, then change it.`,
      );
      printLine(`Start the server with: larder serve --data ${dirArg}`);
    });
}
