/**
 * Parsing outside any group (`larder parse`, scripts): against the built-in seed vocabulary of a locale
 * (templates/seed/<locale>/), with no data folder opened. Matched foods and units are shown by name.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config.js";
import type { Logger } from "../log/logger.js";
import { createGuardedFetcher } from "../net/index.js";
import type { ParserVocabulary } from "../plugins/kinds.js";
import type { PluginRegistry } from "../plugins/registry.js";
import { presentParsed, runParser, unsavedFood, unsavedUnit, type ParsedIngredientOut } from "./parser-service.js";

function seedDir(locale: string): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "templates", "seed", locale);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return null;
}

type SeedAlias = string | { name: string };
const aliasList = (a: SeedAlias[] | undefined) => (a ?? []).map((x) => ({ name: typeof x === "string" ? x : x.name }));

/** The units and foods a new group of this locale is seeded with (empty if the locale has none). */
export function seedVocabulary(locale = "en-US"): ParserVocabulary {
  const dir = seedDir(locale);
  const read = <T>(name: string): T[] => {
    if (!dir || !existsSync(join(dir, name))) return [];
    return JSON.parse(readFileSync(join(dir, name), "utf8")) as T[];
  };
  type Seed = { name: string; pluralName?: string | null; abbreviation?: string | null; pluralAbbreviation?: string | null; aliases?: SeedAlias[] };
  return {
    units: read<Seed>("units.json").map((u, i) => ({
      id: `seed-unit-${i}`,
      name: u.name,
      pluralName: u.pluralName ?? null,
      abbreviation: u.abbreviation ?? null,
      pluralAbbreviation: u.pluralAbbreviation ?? null,
      aliases: aliasList(u.aliases),
    })),
    foods: read<Seed>("foods.json").map((f, i) => ({ id: `seed-food-${i}`, name: f.name, pluralName: f.pluralName ?? null, aliases: aliasList(f.aliases) })),
  };
}

/** Parse lines with a registry's parser against a vocabulary that belongs to no group. */
export async function parseDetached(
  deps: { config: Config; log: Logger; plugins: PluginRegistry },
  lines: readonly string[],
  parserName: string,
  vocabulary: ParserVocabulary = seedVocabulary(),
): Promise<ParsedIngredientOut[]> {
  const results = await runParser(deps, createGuardedFetcher(deps.config), lines, parserName, vocabulary);
  return results.map((r, i) =>
    presentParsed(
      r,
      lines[i],
      (u) => (u?.name?.trim() ? unsavedUnit(u.name.trim()) : null),
      (f) => (f?.name?.trim() ? unsavedFood(f.name.trim()) : null),
    ),
  );
}
