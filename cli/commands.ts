/** The whole program: every command, in the order `larder --help` lists them. */
import type { Command } from "commander";
import { registerCheck } from "./commands/check.js";
import { registerConfig } from "./commands/config.js";
import { registerInit } from "./commands/init.js";
import { registerServe } from "./commands/serve.js";
import { registerStats } from "./commands/stats.js";
import { registerPlugins } from "./commands/plugins.js";
import { registerParse } from "./commands/parse.js";
import { registerUser } from "./commands/user/index.js";
import { registerGroup } from "./commands/group/index.js";
import { registerHousehold } from "./commands/household/index.js";
import { registerPlan } from "./commands/plan/index.js";
import { registerList } from "./commands/list/index.js";
import { registerImport } from "./commands/import.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerTui } from "./tui/command.js";
import { registerBackup } from "./commands/backup.js";
import { registerExport } from "./commands/export.js";
import { registerMaintenance } from "./commands/maintenance.js";
import { registerHistory } from "./commands/history.js";
import { programShell } from "./program.js";

export function buildProgram(): Command {
  const program = programShell();
  registerServe(program);
  registerInit(program);
  registerCheck(program);
  registerUser(program);
  registerGroup(program);
  registerHousehold(program);
  registerPlan(program);
  registerList(program);
  registerImport(program);
  registerConfig(program);
  registerStats(program);
  registerPlugins(program);
  registerParse(program);
  registerMigrate(program);
  registerTui(program);
  registerBackup(program);
  registerExport(program);
  registerMaintenance(program);
  registerHistory(program);
  return program;
}
