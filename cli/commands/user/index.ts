/** `larder user …`: manage users and their passwords. */
import type { Command } from "commander";
import { registerUserAdd } from "./add.js";
import { registerUserList } from "./list.js";
import { registerUserPasswd } from "./passwd.js";
import { registerUserPromote } from "./promote.js";
import { registerUserUnlock } from "./unlock.js";

export function registerUser(program: Command): void {
  const user = program
    .command("user")
    .description("manage users (through the running server when one holds the folder)");
  registerUserAdd(user);
  registerUserPasswd(user);
  registerUserList(user);
  registerUserUnlock(user);
  registerUserPromote(user);
}
