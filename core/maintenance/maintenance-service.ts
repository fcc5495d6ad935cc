/**
 * The admin's maintenance page (mealie-api-notes §4.13, §10): sizes, the log, and cleaning. Larder's
 * layout differs from Mealie's, so each "clean" means the Larder equivalent:
 * - temp: leftovers in `.larder/tmp` (not files written in the last minutes: a write may be in flight);
 * - logs: rotated log files go, the current one is kept;
 * - images: derived image sizes in `.larder/cache/images` that no longer match a source image;
 * - recipe-folders: media folders of recipes that are gone.
 * None of them ever touches an original image or the folder of a recipe that exists.
 */
import { open, readdir, rm, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import { adminOf } from "../users/accounts-service.js";
import { isSafeSlug } from "../storage/data-folder.js";
import { filesUnder, folderSizes, formatBytes } from "./disk.js";
import { brokenWeekDocuments, markdownInside } from "./folder-check.js";
import { LOG_FILE } from "../log/file-log.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<
  Parts,
  | "accounts"
  | "folder"
  | "groups"
  | "images"
  | "mealplans"
  | "notifiers"
  | "recipes"
  | "shopping"
  | "webhooks"
>;

/** Files younger than this in `.larder/tmp` may belong to a write in progress. */
const TEMP_MIN_AGE_MS = 5 * 60 * 1000;
/** The most of a log file read for `logs?lines=`; older lines are not worth the memory. */
const LOG_TAIL_BYTES = 4 * 1024 * 1024;

export interface SuccessResponse {
  message: string;
  error: false;
}

const success = (message: string): SuccessResponse => ({ message, error: false });

async function dirNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

async function countFiles(dir: string): Promise<number> {
  return (await filesUnder(dir)).length;
}

export class MaintenanceService {
  private walking: ReturnType<MaintenanceService["walk"]> | null = null;

  constructor(private readonly larder: Deps) {}

  /**
   * The data folder's size and its parts' sizes, from one walk of the folder shared by the callers that
   * ask while it runs: the maintenance page asks for the summary and the storage figures at once.
   */
  private sizes(): ReturnType<MaintenanceService["walk"]> {
    this.walking ??= this.walk().finally(() => (this.walking = null));
    return this.walking;
  }

  private walk() {
    const f = this.larder.folder;
    return folderSizes(
      f.root,
      {
        temp: [f.tmpDir],
        backups: [f.backupsDir],
        groups: [f.groupsDir],
        recipes: this.larder.groups.all().map((g) => f.recipesDir(g.slug)),
        users: [this.larder.accounts.avatars.dir],
      },
      new Set([".git"]),
    );
  }

  /** GET /admin/maintenance. */
  async summary(
    actor: Actor,
  ): Promise<{ dataDirSize: string; cleanableImages: number; cleanableDirs: number }> {
    adminOf(actor);
    let cleanableImages = 0;
    for (const dir of await this.staleImageDirs()) cleanableImages += await countFiles(dir);
    return {
      dataDirSize: formatBytes((await this.sizes()).total),
      cleanableImages,
      cleanableDirs: (await this.orphanRecipeFolders()).length,
    };
  }

  /**
   * Larder's GET /admin/maintenance/problems: what a person should look at in the recipe files —
   * files that cannot be read, recipes and the week's JSON documents (never written until fixed: not UTF-8, front matter that does not
   * parse, too large) and what the identity rules settled on their own (a copied file's duplicate id,
   * an owner from outside the group). The same list `larder check` prints and the log reports.
   */
  problems(actor: Actor): {
    items: Array<{ path: string; kind: string; line: number | null; message: string }>;
  } {
    adminOf(actor);
    const store = this.larder.recipes.store;
    const where = (g: string, s: string) => `groups/${g}/recipes/${s}.md`;
    return {
      items: [
        ...store.broken().map((b) => ({
          path: where(b.groupSlug, b.slug),
          kind: "broken",
          line: b.line,
          message: b.message,
        })),
        ...store
          .problems()
          .map((p) => ({ path: where(p.groupSlug, p.slug), kind: p.kind, line: null, message: p.message })),
        ...brokenWeekDocuments(this.larder).map((b) => ({ ...b, kind: "broken" })),
      ],
    };
  }

  /** GET /admin/maintenance/storage. */
  async storage(
    actor: Actor,
  ): Promise<
    Record<"tempDirSize" | "backupsDirSize" | "groupsDirSize" | "recipesDirSize" | "userDirSize", string>
  > {
    adminOf(actor);
    const { parts } = await this.sizes();
    return {
      tempDirSize: formatBytes(parts.temp),
      backupsDirSize: formatBytes(parts.backups),
      groupsDirSize: formatBytes(parts.groups),
      recipesDirSize: formatBytes(parts.recipes),
      userDirSize: formatBytes(parts.users),
    };
  }

  /** GET /admin/maintenance/logs?lines=N: the last N lines of the log files in `.larder/logs`. */
  async logs(actor: Actor, lines: number): Promise<{ logs: string[] }> {
    adminOf(actor);
    const want = Math.min(Math.max(1, Math.floor(lines) || 100), 10_000);
    const dir = this.larder.folder.logsDir;
    const files = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const dated: { name: string; mtime: number }[] = [];
    for (const e of files)
      if (e.isFile()) dated.push({ name: e.name, mtime: (await stat(join(dir, e.name))).mtimeMs });
    dated.sort((a, b) => a.mtime - b.mtime || a.name.localeCompare(b.name));
    const out: string[] = [];
    // Newest file last; read from the newest backwards until enough lines are collected.
    for (const { name } of dated.reverse()) {
      const text = await tail(join(dir, name), LOG_TAIL_BYTES);
      const fileLines = text.split(/\r?\n/).filter((l) => l.length > 0);
      out.unshift(...fileLines.slice(-(want - out.length)));
      if (out.length >= want) break;
    }
    return { logs: out };
  }

  /** POST /admin/maintenance/clean/temp. */
  async cleanTemp(actor: Actor): Promise<SuccessResponse> {
    adminOf(actor);
    const dir = this.larder.folder.tmpDir;
    const now = Date.now();
    let removed = 0;
    for (const name of await readdir(dir).catch(() => [])) {
      const p = join(dir, name);
      try {
        if (now - (await stat(p)).mtimeMs < TEMP_MIN_AGE_MS) continue;
        await rm(p, { recursive: true, force: true });
        removed++;
      } catch {
        // gone already, or in use: left for the next clean
      }
    }
    return success(`'.larder/tmp' directory cleaned (${removed} removed)`);
  }

  /** POST /admin/maintenance/clean/logs. */
  async cleanLogs(actor: Actor): Promise<SuccessResponse> {
    adminOf(actor);
    const dir = this.larder.folder.logsDir;
    let n = 0;
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!e.isFile()) continue;
      const p = join(dir, e.name);
      // The current log is kept (the page says so); rotated and other files go.
      if (e.name === LOG_FILE) continue;
      await rm(p, { force: true });
      n++;
    }
    return success(`${n} log files cleaned`);
  }

  /** POST /admin/maintenance/clean/images: derived sizes whose source is gone or has changed. */
  async cleanImages(actor: Actor): Promise<SuccessResponse> {
    adminOf(actor);
    let n = 0;
    for (const dir of await this.staleImageDirs()) {
      n += await countFiles(dir);
      await rm(dir, { recursive: true, force: true });
    }
    return success(`${n} Images cleaned`);
  }

  /** POST /admin/maintenance/clean/recipe-folders: media folders whose recipe is gone. */
  async cleanRecipeFolders(actor: Actor): Promise<SuccessResponse> {
    adminOf(actor);
    const orphans = await this.orphanRecipeFolders();
    for (const dir of orphans) await rm(dir, { recursive: true, force: true });
    return success(`${orphans.length} Recipe folders removed`);
  }

  /**
   * What a clean would remove, without removing anything (`larder maintenance clean … --dry-run`):
   * paths relative to the data folder.
   */
  async preview(actor: Actor, what: "temp" | "images" | "logs" | "orphans"): Promise<string[]> {
    adminOf(actor);
    const f = this.larder.folder;
    const rel = (p: string) => relative(f.root, p).split(sep).join("/");
    if (what === "images") return (await this.staleImageDirs()).map(rel);
    if (what === "orphans") return (await this.orphanRecipeFolders()).map(rel);
    if (what === "logs") {
      const entries = await readdir(f.logsDir, { withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isFile()).map((e) => rel(join(f.logsDir, e.name)));
    }
    const now = Date.now();
    const out: string[] = [];
    for (const name of await readdir(f.tmpDir).catch(() => [])) {
      const st = await stat(join(f.tmpDir, name)).catch(() => null);
      if (st && now - st.mtimeMs >= TEMP_MIN_AGE_MS) out.push(rel(join(f.tmpDir, name)));
    }
    return out;
  }

  /**
   * Cache folders of derived image sizes that serve nothing: under `.larder/cache/images/<recipe id>/`
   * one folder per version of the original (and `timeline/<event id>/` likewise for timeline images).
   * A version is stale when the recipe is gone, its original image is gone, or a newer version exists
   * (the newest is the one the current original produced, or it is replaced on the next request).
   */
  async staleImageDirs(): Promise<string[]> {
    const root = this.larder.folder.imagesCacheDir;
    const stale: string[] = [];
    for (const recipeId of await dirNames(root)) {
      const dir = join(root, recipeId);
      const entry = this.larder.recipes.entryById(recipeId);
      if (!entry) {
        stale.push(dir);
        continue;
      }
      const media = this.larder.folder.recipeMediaDir(entry.groupSlug, entry.slug);
      const hasOriginal = (await this.larder.images.originalPath(entry.groupSlug, entry.slug)) !== null;
      stale.push(...(await staleVersions(dir, hasOriginal, new Set(["timeline"]))));
      for (const eventId of await dirNames(join(dir, "timeline"))) {
        const eventDir = join(dir, "timeline", eventId);
        stale.push(
          ...(await staleVersions(
            eventDir,
            await hasOriginalIn(join(media, "timeline", eventId)),
            new Set(),
          )),
        );
      }
    }
    return stale;
  }

  /**
   * Media folders (`groups/<g>/recipes/<slug>/`) with no recipe: neither a `<slug>.md` on disk (even a
   * broken one keeps its folder) nor an entry in the index. Only slug-named folders are considered,
   * so a folder someone put there by hand under another name is left alone.
   */
  async orphanRecipeFolders(): Promise<string[]> {
    const f = this.larder.folder;
    const out: string[] = [];
    for (const g of this.larder.groups.all()) {
      const recipesDir = f.recipesDir(g.slug);
      for (const name of await dirNames(recipesDir)) {
        if (!isSafeSlug(name)) continue;
        if (existsSync(join(recipesDir, `${name}.md`)) || this.larder.recipes.store.get(g.slug, name))
          continue;
        // Recipe files a person sorted into a subfolder are theirs, never a recipe's leftover media.
        if (await markdownInside(join(recipesDir, name))) continue;
        out.push(join(recipesDir, name));
      }
    }
    return out;
  }
}

const ORIGINAL_RE = /^original\.[a-z0-9]+$/i;

/** Whether a media folder holds an original image (a hand-edited folder may have lost it). */
async function hasOriginalIn(dir: string): Promise<boolean> {
  return (await readdir(dir).catch(() => [] as string[])).some((n) => ORIGINAL_RE.test(n));
}

/** Version folders of one cache folder that can go: all without a source, else all but the newest. */
async function staleVersions(dir: string, hasSource: boolean, skip: ReadonlySet<string>): Promise<string[]> {
  const names = (await dirNames(dir)).filter((n) => !skip.has(n));
  if (!hasSource) return names.map((n) => join(dir, n));
  const dated = await Promise.all(
    names.map(async (n) => ({ p: join(dir, n), mtime: (await stat(join(dir, n))).mtimeMs })),
  );
  dated.sort((a, b) => b.mtime - a.mtime);
  return dated.slice(1).map((d) => d.p);
}

/** The last `maxBytes` of a file as text (the first, probably partial, line dropped when cut). */
async function tail(file: string, maxBytes: number): Promise<string> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const buf = Buffer.alloc(size - start);
    await handle.read(buf, 0, buf.length, start);
    const text = buf.toString("utf8");
    return start > 0 ? text.slice(text.indexOf("\n") + 1) : text;
  } finally {
    await handle.close();
  }
}
