/** `larder config`: the effective configuration (environment + defaults), secrets masked. */
import type { Command } from "commander";
import { maskedConfig } from "../../core/config.js";
import { configFor, resolveDataDir, dataOption } from "../context.js";
import { isJsonMode, printJson, printTable } from "../output.js";

export function registerConfig(program: Command): void {
  program
    .command("config")
    .description("print the effective configuration, secrets masked")
    .addOption(dataOption())
    .action(async (opts: { data?: string }) => {
      const config = maskedConfig(configFor(resolveDataDir(opts.data)));
      if (isJsonMode()) return printJson(config);
      await printTable(
        flatten(config).map(([key, value]) => ({ key, value })),
        { columns: ["key", "value"] },
      );
    });
}

/** Nested groups (smtp, ldap, …) become dotted keys, so the table stays two columns. */
function flatten(value: Record<string, unknown>, prefix = ""): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const nested = flatten(v as Record<string, unknown>, key);
      // An empty group is still worth a line: it says the setting exists and is unset.
      out.push(...(nested.length ? nested : [[key, "{}"] as [string, string]]));
    } else {
      out.push([key, Array.isArray(v) ? v.join(",") : String(v)]);
    }
  }
  return out;
}
