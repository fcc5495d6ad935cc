/** `larder user unlock`: clear a lockout after too many wrong passwords (one user, or everyone with --all). */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { CliError, EXIT, isJsonMode, printJson, printStatus } from "../../output.js";
import { withUsers } from "../../users/users.js";

export function registerUserUnlock(user: Command): void {
  user
    .command("unlock")
    .description("unlock a user locked out by wrong passwords")
    .argument("[username]", "username or e-mail of the user")
    .option("--all", "unlock every locked user")
    .addOption(dataOption())
    .action(async (login: string | undefined, opts: { all?: boolean; data?: string }) => {
      if (!login === !opts.all) throw new CliError("Name one user, or pass --all", EXIT.invalid);
      const result = await withUsers(resolveDataDir(opts.data), (users) => users.unlock(login ?? null));
      if (isJsonMode()) return printJson(result);
      const who = login ? login : "every locked user";
      await printStatus(
        "ok",
        result.unlocked > 0
          ? `Unlocked ${who} (${result.unlocked})`
          : login
            ? `Nothing to unlock: ${login} was not locked`
            : "Nothing to unlock: no user is locked",
      );
    });
}
