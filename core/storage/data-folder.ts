/**
 * The layout of a data folder (ARCHITECTURE §2) as path builders. Every builder validates the slugs it
 * is given and checks that the result stays inside the folder: nothing a user types (a group slug, a
 * recipe slug from a URL) can name a path outside it. The builders of a group's and a household's paths
 * also refuse a folder on the way that is not a real folder (a symlink put in its place, decision
 * 0263): what is read or written there would be wherever the link points, outside the data folder.
 */
import { constants, lstatSync } from "node:fs";
import { chmod, copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { makeDirs } from "./make-dirs.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BadRequestError, ConflictError } from "../errors.js";
import { MAX_SLUG_LENGTH } from "../util/slug.js";
import { errnoCode } from "./atomic-write.js";
import { containedIn } from "../media/safe-path.js";

const SLUG_RE = /^[a-z0-9][a-z0-9-]*$/;
const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A path argument that would escape the data folder or is not a valid slug. */
export class UnsafePathError extends BadRequestError {
  constructor(what: string, value: string) {
    super(`Invalid ${what}: ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`);
  }
}

/** Throws unless `value` is a slug usable as one path segment. */
export function assertSlug(value: string, what = "slug"): string {
  if (typeof value !== "string" || value.length > MAX_SLUG_LENGTH || !SLUG_RE.test(value))
    throw new UnsafePathError(what, String(value));
  return value;
}

export function isSafeSlug(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_SLUG_LENGTH && SLUG_RE.test(value);
}

/** A folder of the data folder replaced by a symlink (or a file): nothing is read or written through it. */
export class ReplacedFolderError extends ConflictError {
  constructor(readonly folder: string) {
    super(
      `${folder} is not a folder of the data folder (a symlink?): Larder never reads or writes through it, so that nothing lands outside the data folder. Put the folder back by hand`,
    );
  }
}

/**
 * Throws ReplacedFolderError when a folder between `root` (excluded: the data folder itself may be a
 * link a person chose) and `dir` (included) exists as anything but a real folder. A folder not there
 * yet is fine: it is made as a real one. `known` holds folders already found real, which are skipped
 * and to which those found now are added.
 */
export function assertRealFolders(root: string, dir: string, known?: Set<string>): void {
  const rel = path.relative(root, dir);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return;
  let cur = root;
  for (const segment of rel.split(path.sep)) {
    cur = path.join(cur, segment);
    if (known?.has(cur)) continue;
    const st = lstatSync(cur, { throwIfNoEntry: false });
    if (st && !st.isDirectory())
      throw new ReplacedFolderError(path.relative(root, cur).split(path.sep).join("/"));
    known?.add(cur);
  }
}

export class DataFolder {
  /** Absolute path of the folder. */
  readonly root: string;

  /** `<root>/groups/`, for the paths built most often. */
  readonly #groupsPrefix: string;

  /**
   * Folders found real since the running code last gave way (an await, a callback): a warm start asks
   * for every recipe's path in one go, and checks its folders once. Emptied before anything else runs,
   * so a folder swapped for a link meanwhile is seen by the next caller.
   */
  readonly #real = new Set<string>();
  /** The groups whose `recipes/` is in `#real`, looked up by slug: cheaper than by a path built each time. */
  readonly #realRecipes = new Set<string>();

  constructor(root: string) {
    this.root = path.resolve(root);
    this.#groupsPrefix = path.join(this.root, "groups") + path.sep;
  }

  /** `dir`, once every folder from `groups/` down to it is found real (see assertRealFolders). */
  #realDir(dir: string): string {
    if (this.#real.size === 0)
      queueMicrotask(() => {
        this.#real.clear();
        this.#realRecipes.clear();
      });
    assertRealFolders(this.root, dir, this.#real);
    return dir;
  }

  /** Join fixed segments under the root and check the result did not leave it. */
  #inside(...segments: string[]): string {
    const p = path.resolve(this.root, ...segments);
    if (!containedIn(this.root, p)) throw new UnsafePathError("path", segments.join("/"));
    return p;
  }

  get larderJson(): string {
    return this.#inside("larder.json");
  }
  get usersJson(): string {
    return this.#inside("users.json");
  }
  get groupsDir(): string {
    return this.#inside("groups");
  }

  groupDir(groupSlug: string): string {
    return this.#realDir(this.#inside("groups", assertSlug(groupSlug, "group slug")));
  }
  groupJson(groupSlug: string): string {
    return path.join(this.groupDir(groupSlug), "group.json");
  }
  recipesDir(groupSlug: string): string {
    return this.#realDir(path.join(this.groupDir(groupSlug), "recipes"));
  }
  recipeFile(groupSlug: string, recipeSlug: string): string {
    // Two checked slugs are plain segments, so the path is inside by construction: built without a
    // resolve and a containment check, since a warm start asks for every recipe's path.
    const g = assertSlug(groupSlug, "group slug");
    const r = assertSlug(recipeSlug, "recipe slug");
    if (!this.#realRecipes.has(g)) {
      this.#realDir(`${this.#groupsPrefix}${g}${path.sep}recipes`);
      this.#realRecipes.add(g);
    }
    return `${this.#groupsPrefix}${g}${path.sep}recipes${path.sep}${r}.md`;
  }
  recipeMediaDir(groupSlug: string, recipeSlug: string): string {
    return path.join(this.recipesDir(groupSlug), assertSlug(recipeSlug, "recipe slug"));
  }
  organizersJson(groupSlug: string): string {
    return path.join(this.groupDir(groupSlug), "organizers.json");
  }
  foodsJson(groupSlug: string): string {
    return path.join(this.groupDir(groupSlug), "foods.json");
  }
  unitsJson(groupSlug: string): string {
    return path.join(this.groupDir(groupSlug), "units.json");
  }
  labelsJson(groupSlug: string): string {
    return path.join(this.groupDir(groupSlug), "labels.json");
  }
  ratingsJson(groupSlug: string): string {
    return path.join(this.groupDir(groupSlug), "ratings.json");
  }
  sharesJson(groupSlug: string): string {
    return path.join(this.groupDir(groupSlug), "shares.json");
  }
  activityDir(groupSlug: string): string {
    return this.#realDir(path.join(this.groupDir(groupSlug), "activity"));
  }
  /** One month of timeline events and comments, `month` as `yyyy-mm`. */
  activityFile(groupSlug: string, month: string): string {
    if (!MONTH_RE.test(month)) throw new UnsafePathError("month", month);
    return path.join(this.activityDir(groupSlug), `${month}.jsonl`);
  }

  /** Group reports (imports, migrations, backups): one file per report, `<id>.json`. */
  reportsDir(groupSlug: string): string {
    return this.#realDir(path.join(this.groupDir(groupSlug), "reports"));
  }
  reportFile(groupSlug: string, reportId: string): string {
    if (!/^[0-9a-f-]{36}$/.test(reportId)) throw new UnsafePathError("report id", reportId);
    return path.join(this.reportsDir(groupSlug), `${reportId}.json`);
  }

  householdsDir(groupSlug: string): string {
    return this.#realDir(path.join(this.groupDir(groupSlug), "households"));
  }
  householdDir(groupSlug: string, householdSlug: string): string {
    return this.#realDir(
      path.join(this.householdsDir(groupSlug), assertSlug(householdSlug, "household slug")),
    );
  }
  householdJson(g: string, h: string): string {
    return path.join(this.householdDir(g, h), "household.json");
  }
  mealplansJson(g: string, h: string): string {
    return path.join(this.householdDir(g, h), "mealplans.json");
  }
  mealplanRulesJson(g: string, h: string): string {
    return path.join(this.householdDir(g, h), "mealplan-rules.json");
  }
  shoppingListsJson(g: string, h: string): string {
    return path.join(this.householdDir(g, h), "shopping-lists.json");
  }
  /** The household's shopping lists, one file per list (decision 0030). */
  shoppingListsDir(g: string, h: string): string {
    return this.#realDir(path.join(this.householdDir(g, h), "shopping-lists"));
  }
  cookbooksJson(g: string, h: string): string {
    return path.join(this.householdDir(g, h), "cookbooks.json");
  }
  webhooksJson(g: string, h: string): string {
    return path.join(this.householdDir(g, h), "webhooks.json");
  }
  notifiersJson(g: string, h: string): string {
    return path.join(this.householdDir(g, h), "notifiers.json");
  }
  recipeActionsJson(g: string, h: string): string {
    return path.join(this.householdDir(g, h), "recipe-actions.json");
  }

  // `.larder/`: per machine, never in git (secrets, credentials, sessions, caches, temp files).
  get privateDir(): string {
    return this.#inside(".larder");
  }
  get secretsJson(): string {
    return this.#inside(".larder", "secrets.json");
  }
  get credentialsJson(): string {
    return this.#inside(".larder", "credentials.json");
  }
  get sessionsJson(): string {
    return this.#inside(".larder", "sessions.json");
  }
  /** Notifiers' Apprise URLs: they carry tokens and passwords, so they stay on this machine. */
  get notifierUrlsJson(): string {
    return this.#inside(".larder", "notifier-urls.json");
  }
  get apiTokensJson(): string {
    return this.#inside(".larder", "api-tokens.json");
  }
  get lockFile(): string {
    return this.#inside(".larder", "lock");
  }
  get cacheDir(): string {
    return this.#inside(".larder", "cache");
  }
  /** Temp files for atomic writes: inside the folder, so on the same file system as their targets. */
  get tmpDir(): string {
    return this.#inside(".larder", "tmp");
  }
  get logsDir(): string {
    return this.#inside(".larder", "logs");
  }
  get backupsDir(): string {
    return this.#inside(".larder", "backups");
  }
  /** Derived image sizes: volatile, so kept out of the tracked recipe folders. */
  get imagesCacheDir(): string {
    return this.#inside(".larder", "cache", "images");
  }
}

/** Create `.larder/` (mode 0700) and its subfolders. A folder cloned with git has none, so every open calls this. */
export async function ensurePrivateDirs(folder: DataFolder): Promise<void> {
  await mkdir(folder.privateDir, { recursive: true, mode: 0o700 });
  // mkdir's mode is filtered by the umask and ignored for an existing folder: set it explicitly.
  await chmod(folder.privateDir, 0o700);
  for (const dir of [
    folder.tmpDir,
    folder.cacheDir,
    folder.logsDir,
    folder.backupsDir,
    folder.imagesCacheDir,
  ]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  }
}

/** Entries tolerated in a folder `larder init` adopts: a fresh `git init` or `git clone` of an empty repository. */
const ADOPTABLE = new Set([".git"]);

export interface InitResult {
  folder: DataFolder;
  /** False when the folder already was a Larder folder (init is idempotent). */
  created: boolean;
}

/**
 * `larder init`: copy `templates/data-folder/` into `dir` (its `gitignore` becomes `.gitignore`, since
 * npm pack drops dot-gitignore files) and create `.larder/`. Refuses a non-empty folder that is not a
 * Larder folder; for an existing Larder folder it only ensures `.larder/`.
 */
export async function initDataFolder(dir: string, options: { templatesDir: string }): Promise<InitResult> {
  const folder = new DataFolder(dir);
  let entries: string[] = [];
  try {
    const st = await stat(folder.root);
    if (!st.isDirectory()) throw new ConflictError(`${folder.root} exists and is not a folder`);
    entries = await readdir(folder.root);
  } catch (e) {
    if (errnoCode(e) !== "ENOENT") throw e;
    await makeDirs(folder.root);
  }
  if (entries.includes("larder.json")) {
    await ensurePrivateDirs(folder);
    return { folder, created: false };
  }
  if (entries.some((name) => !ADOPTABLE.has(name))) {
    throw new ConflictError(
      `${folder.root} is not empty and is not a Larder data folder (no larder.json); refusing to initialise it`,
    );
  }
  await copyTemplate(path.join(options.templatesDir, "data-folder"), folder.root);
  await ensurePrivateDirs(folder);
  return { folder, created: true };
}

async function copyTemplate(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const target = path.join(to, entry.name === "gitignore" ? ".gitignore" : entry.name);
    if (entry.isDirectory()) await copyTemplate(path.join(from, entry.name), target);
    // COPYFILE_EXCL: never overwrite something the user already has.
    else if (entry.isFile()) await copyFile(path.join(from, entry.name), target, constants.COPYFILE_EXCL);
  }
}

/** The `templates/` folder shipped with Larder, whether running from source (tsx) or from `dist/`. */
export async function findTemplatesDir(): Promise<string> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // core/storage → ../../templates; dist/core/storage → ../../../templates.
  for (const candidate of [path.resolve(here, "../../templates"), path.resolve(here, "../../../templates")]) {
    try {
      if ((await stat(path.join(candidate, "data-folder"))).isDirectory()) return candidate;
    } catch {
      // try the next layout
    }
  }
  throw new Error("Larder's templates folder was not found next to the code");
}
