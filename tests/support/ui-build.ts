/**
 * Whether tests that need the web UI's build (`npm run build`) should skip: only when it is missing
 * outside CI, with a line saying so. Under CI=true a missing build is a failure, not a skip.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { defaultBuildDir } from "../../web/server/server.js";

export function withoutUiBuild(what: string): boolean {
  if (existsSync(join(defaultBuildDir(), "server", "index.js")) || process.env.CI === "true") return false;
  console.warn(`[${what}] skipped: run \`npm run build\` first`);
  return true;
}
