/** Helpers for the migration tests: run a plugin over a file and collect what it yields. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MigratedEntry, MigrationPlugin } from "../../core/plugins/kinds.js";
import { migrations } from "./index.js";

export const FIXTURES =
  process.env.LARDER_MEALIE_FIXTURES ??
  fileURLToPath(new URL("../../../shared/fixtures/mealie/", import.meta.url));
export const MIGRATIONS_DIR = `${FIXTURES}tests-data/migrations/`;
export const BACKUPS_DIR = `${FIXTURES}tests-data/backups/`;
export const fixturesPresent = existsSync(`${MIGRATIONS_DIR}nextcloud.zip`);
if (!fixturesPresent) {
  const msg = `migration fixture tests: no Mealie fixtures at ${FIXTURES}`;
  if (process.env.CI === "true") throw new Error(`${msg} (required under CI=true)`);
  console.warn(`${msg}; skipped`);
}

export function pluginFor(type: string): MigrationPlugin {
  const p = (migrations as MigrationPlugin[]).find((m) => m.types.includes(type));
  if (!p) throw new Error(`no migration plugin for ${type}`);
  return p;
}

export async function collect(type: string, path: string): Promise<MigratedEntry[]> {
  const out: MigratedEntry[] = [];
  for await (const e of pluginFor(type).migrate({ path, type }, {} as never)) out.push(e);
  return out;
}

export type Recipe = Record<string, unknown> & {
  name: string;
  recipeIngredient: Array<{ title: string | null; note: string }>;
  recipeInstructions: Array<{ title: string; text: string }>;
  tags: Array<{ name: string }>;
  recipeCategory: Array<{ name: string }>;
  nutrition: Record<string, string>;
};

/** The successful entries by recipe name; fails the test when any entry failed. */
export function byName(
  entries: MigratedEntry[],
): Map<string, { recipe: Recipe; entry: Extract<MigratedEntry, { ok: true }> }> {
  const failures = entries.filter((e) => !e.ok);
  if (failures.length) throw new Error(`entries failed: ${JSON.stringify(failures)}`);
  const map = new Map<string, { recipe: Recipe; entry: Extract<MigratedEntry, { ok: true }> }>();
  for (const e of entries) if (e.ok) map.set(e.name, { recipe: e.imported.recipe as Recipe, entry: e });
  return map;
}

export function imageBytes(e: Extract<MigratedEntry, { ok: true }>): Uint8Array | null {
  const img = e.imported.image;
  return img && "bytes" in img ? img.bytes : null;
}
