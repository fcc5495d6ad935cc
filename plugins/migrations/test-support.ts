/**
 * Helpers for the migration tests: run a plugin over a file and collect what it yields, and the setup
 * the reader tests share (a scratch folder for the exports they build, pictures, a Larder to migrate into).
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { Actor } from "../../core/actor.js";
import { loadConfig } from "../../core/config.js";
import type { Larder } from "../../core/larder.js";
import { loadSharp } from "../../core/lazy/modules.js";
import { consoleLogger } from "../../core/log/logger.js";
import type { MigratedEntry, MigrationPlugin } from "../../core/plugins/kinds.js";
import { makeZip, type ZipSpec } from "../../tests/support/zip-writer.js";
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

/** `onTotal` hears the count a reader announces before its entries, which the progress report shows. */
export async function collect(
  type: string,
  path: string,
  onTotal?: (total: number) => void,
): Promise<MigratedEntry[]> {
  const out: MigratedEntry[] = [];
  for await (const e of pluginFor(type).migrate({ path, type, onTotal }, {} as never)) out.push(e);
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

/** Tags, categories and tools are objects with ids and slugs; what a reader decides is only their names. */
export function names(list: Array<{ name: string }>): string[] {
  return list.map((x) => x.name);
}

export interface ScratchFolder {
  /** Writes `data` under `name` in the folder and resolves to its path. */
  file(name: string, data: string | Buffer): Promise<string>;
  /** Writes a zip of `specs` under `name` in the folder and resolves to its path. */
  zip(name: string, specs: ZipSpec[]): Promise<string>;
}

/**
 * A temporary folder for the exports a test file builds, removed after its tests. Reader tests write
 * their exports from the source rather than keeping binary archives in git, so each case shows the
 * shape it stands for. Call it at the top of a file or a `describe`: it registers that scope's hooks.
 */
export function scratchFolder(prefix: string): ScratchFolder {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const file = async (name: string, data: string | Buffer) => {
    if (!dir) throw new Error("scratchFolder: written to outside the tests of the scope that made it");
    const path = join(dir, name);
    await writeFile(path, data);
    return path;
  };
  return { file, zip: (name, specs) => file(name, makeZip(specs)) };
}

/**
 * A solid-colour picture: readers pass image bytes on untouched, so any real image will do, and tests
 * compare bytes. sharp is loaded on the first call, not with this module, which the fixture tests import
 * without wanting pictures.
 */
export async function picture(
  format: "jpeg" | "png" | "webp",
  width: number,
  height: number,
  background: string,
): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp({ create: { width, height, channels: 3, background } })
    .toFormat(format)
    .toBuffer();
}

export interface MigrationLarder {
  readonly larder: Larder;
  /** The first user, who owns what a migration brings in. */
  readonly actor: Actor;
  /** The temporary folder; the data folder is its `data`, so files put beside it are not Larder's. */
  readonly folder: string;
}

/**
 * A Larder over a temporary data folder, with the migration plugins, for tests that go through the
 * migration service: slugs, duplicates skipped on a re-run and the report come from there, not from a
 * reader. Call it at the top of a file or a `describe`; `perTest` opens a fresh one for each test, for
 * tests that register plugins or count what the data folder holds. Read its fields inside tests only.
 */
export function migrationLarder(prefix: string, opts: { perTest?: boolean } = {}): MigrationLarder {
  let folder: string | undefined;
  let larder: Larder | undefined;
  let actor: Actor | undefined;
  const open = async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
    // Imported here: the reader tests load this module and never open a Larder.
    const { Larder } = await import("../../core/larder.js");
    // A new data folder's first user gets a password hash; at bcrypt's default cost that would be
    // most of the time the open takes.
    larder = await Larder.open(
      loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(folder, "data"), bcryptRounds: 4 }),
      { log: consoleLogger("silent"), plugins: migrations },
    );
    actor = { kind: "user", user: larder.users.all()[0] };
  };
  const close = async () => {
    await larder?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
    folder = larder = actor = undefined;
  };
  if (opts.perTest) {
    beforeEach(open);
    afterEach(close);
  } else {
    beforeAll(open);
    afterAll(close);
  }
  const opened = <T>(v: T | undefined): T => {
    if (v === undefined)
      throw new Error("migrationLarder: used outside the tests of the scope that opened it");
    return v;
  };
  return {
    get larder() {
      return opened(larder);
    },
    get actor() {
      return opened(actor);
    },
    get folder() {
      return opened(folder);
    },
  };
}

/**
 * A zip as tools that predate the UTF-8 flag write it: the flag cleared and each name's bytes given by
 * `rename` (same length as the UTF-8 bytes makeZip wrote, so offsets hold). Windows' "Send to compressed
 * folder" writes names in the OEM code page (CP437); macOS's Archive Utility writes UTF-8 without the flag.
 */
export function unflaggedNames(zip: Buffer, rename: (utf8: Buffer) => Buffer = (b) => b): Buffer {
  const out = Buffer.from(zip);
  const end = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = out.readUInt32LE(end + 16);
  for (let i = 0; i < out.readUInt16LE(end + 10); i++) {
    const nameLen = out.readUInt16LE(at + 28);
    const local = out.readUInt32LE(at + 42);
    const name = rename(out.subarray(at + 46, at + 46 + nameLen));
    if (name.length !== nameLen) throw new Error("unflaggedNames: a new name must keep its length");
    for (const [flags, nameAt] of [
      [at + 8, at + 46],
      [local + 6, local + 30],
    ]) {
      out.writeUInt16LE(out.readUInt16LE(flags) & ~0x0800, flags);
      name.copy(out, nameAt);
    }
    at += 46 + nameLen + out.readUInt16LE(at + 30) + out.readUInt16LE(at + 32);
  }
  return out;
}
