/** `larder user promote`: make a user an administrator, or with --demote take it away. */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { isJsonMode, printJson, printStatus } from "../../output.js";
import { withUsers } from "../../users/users.js";

export function registerUserPromote(user: Command): void {
  user
    .command("promote")
    .description("make a user an administrator (with every permission), or --demote")
    .argument("<username>", "username or e-mail of the user")
    .option("--demote", "take administrator rights away instead")
    .addOption(dataOption())
    .action(async (login: string, opts: { demote?: boolean; data?: string }) => {
      const admin = !opts.demote;
      const changed = await withUsers(resolveDataDir(opts.data), (users) => users.setAdmin(login, admin));
      if (isJsonMode()) return printJson(changed);
      await printStatus(
        "ok",
        `${changed.username} is ${admin ? "now an administrator" : "no longer an administrator"}`,
      );
    });
}
