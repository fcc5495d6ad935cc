import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as policy from "./index.js";

const here = dirname(fileURLToPath(import.meta.url));
const sources = readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));

describe("core/policy", () => {
  it("exports every policy from its index", () => {
    for (const name of [
      "canReadRecipe",
      "canUpdateRecipe",
      "canDeleteRecipe",
      "canChangeLocked",
      "recipeMenuItems",
      "isOwnGroup",
      "canUpdateUser",
      "canChangePermissions",
      "canDeleteUser",
      "superUserIdOf",
      "checkGuards",
      "requirePermission",
      "canDeleteGroup",
      "canDeleteHousehold",
    ]) {
      expect(typeof (policy as Record<string, unknown>)[name], name).toBe("function");
    }
  });

  // The web UI bundles these modules for the browser: at run time they may reach only each other and
  // core/errors.ts (plain classes); everything else must be a type-only import.
  it.each(sources)("%s imports nothing the browser cannot load", (file) => {
    const text = readFileSync(join(here, file), "utf8");
    const runtimeImports = [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)].map(
      (m) => m[1],
    );
    for (const spec of runtimeImports)
      expect(spec, `${file} imports ${spec}`).toMatch(/^(\.\/[\w-]+\.js|\.\.\/errors\.js)$/);
  });
});
