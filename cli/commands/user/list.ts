/** `larder user list`: every user of the folder, all groups. */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { isJsonMode, printJson, printTable } from "../../output.js";
import { withUsers } from "../../users/users.js";

export function registerUserList(user: Command): void {
  user
    .command("list")
    .description("list users")
    .addOption(dataOption())
    .action(async (opts: { data?: string }) => {
      const users = await withUsers(resolveDataDir(opts.data), (backend) => backend.list());
      users.sort((a, b) => a.username.localeCompare(b.username));
      if (isJsonMode()) return printJson(users);
      await printTable(
        users.map((u) => ({
          username: u.username,
          "full name": u.fullName,
          email: u.email,
          admin: u.admin,
          group: u.group,
          household: u.household,
        })),
        { columns: ["username", "full name", "email", "admin", "group", "household"], empty: "No users." },
      );
    });
}
