/** `larder user add`: create a user (through the live server when one holds the folder). */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { isJsonMode, printJson, printStatus } from "../../output.js";
import { obtainPassword } from "../../password.js";
import { withUsers } from "../../users/users.js";
import { validateNewUser } from "../../users/validate.js";

interface AddOptions {
  data?: string;
  username?: string;
  email?: string;
  fullName?: string;
  password?: string;
  passwordStdin?: boolean;
  admin?: boolean;
  group?: string;
  household?: string;
}

export function registerUserAdd(user: Command): void {
  user
    .command("add")
    .description("create a user with a password")
    .addOption(dataOption())
    // Not requiredOption: a missing field gets the same message the API and the UI give.
    .option("--username <name>", "login name (no whitespace)")
    .option("--email <address>", "e-mail address (also a login)")
    .option("--full-name <name>", "name shown in the app")
    .option("--password <password>", "password (visible in shell history: prefer --password-stdin)")
    .option("--password-stdin", "read the password from stdin")
    .option("--admin", "make the user an administrator", false)
    .option("--group <slug>", "group to join (slug or name; default: Home, else the first group)")
    .option("--household <slug>", "household in that group (slug or name; default: Family, else the first)")
    .action(async (opts: AddOptions) => {
      const password = await obtainPassword(opts, { confirm: true });
      const input = validateNewUser({
        username: opts.username,
        fullName: opts.fullName,
        email: opts.email,
        password,
        admin: opts.admin ?? false,
      });
      const created = await withUsers(resolveDataDir(opts.data), (users) =>
        users.add({ ...input, group: opts.group, household: opts.household }),
      );
      if (isJsonMode()) return printJson(created);
      const role = created.admin ? " as administrator" : "";
      await printStatus(
        "ok",
        `Created user ${created.username} <${created.email}> in ${created.group} / ${created.household}${role}`,
      );
    });
}
