/** `larder user passwd`: set a user's password (a folder cloned with git has users but no passwords). */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { isJsonMode, printJson, printStatus } from "../../output.js";
import { obtainPassword } from "../../password.js";
import { withUsers } from "../../users/users.js";
import { validatePassword } from "../../users/validate.js";

interface PasswdOptions {
  data?: string;
  password?: string;
  passwordStdin?: boolean;
}

export function registerUserPasswd(user: Command): void {
  user
    .command("passwd")
    .description("set a user's password (prompts without echo on a terminal)")
    .argument("<username>", "username or e-mail of the user")
    .addOption(dataOption())
    .option("--password <password>", "new password (visible in shell history: prefer --password-stdin)")
    .option("--password-stdin", "read the new password from stdin")
    .action(async (login: string, opts: PasswdOptions) => {
      const password = validatePassword(await obtainPassword(opts, { confirm: true }));
      const user = await withUsers(resolveDataDir(opts.data), (users) => users.setPassword(login, password));
      if (isJsonMode()) return printJson({ ...user, passwordChanged: true });
      await printStatus("ok", `Password changed for ${user.username} <${user.email}>`);
    });
}
