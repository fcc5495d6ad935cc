/**
 * The composition root: one Larder instance per data folder. `web/` and `cli/` are adapters over it.
 * Its services are built in open-services.ts, each from the parts it uses (core/parts.ts); a reload
 * builds them afresh in this same object.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "./config.js";
import { DataFolder } from "./storage/data-folder.js";
import { onDocumentOpened, onDocumentWrittenBack } from "./storage/json-doc.js";
import { changeCount, noteChange } from "./storage/change-count.js";
import { DocWatcher } from "./storage/doc-watcher.js";
import { startScheduler } from "./scheduler.js";
import { FIRST_ADMIN } from "./users/first-admin.js";
import { consoleLogger, type Logger } from "./log/logger.js";
import { PluginRegistry } from "./plugins/registry.js";
import { LiveHub } from "./live/live-hub.js";
import { recoverRestore } from "./backups/restore.js";
import { BackupStore } from "./backups/backup-store.js";
import { formatBytes } from "./maintenance/disk.js";
import type { Parts, Services } from "./parts.js";
import { openServices } from "./open-services.js";

/** Where templates/ lives, whether running from source (tsx) or from dist/. */
export function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, "templates");
    if (existsSync(join(candidate, "data-folder"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error("templates/ folder not found next to the Larder installation");
}

export { FIRST_ADMIN };

export interface OpenOptions {
  log?: Logger;
  /** Start the file watchers (the server does; one-shot CLI commands don't). */
  watch?: boolean;
  /** Never write recipe files (e.g. `larder check` beside a running server). */
  readOnly?: boolean;
  /**
   * Built-in plugins, handed over by the composition root (`plugins/builtins.ts`) so that core never
   * imports a plugin by path. Third-party plugins come from `config.plugins`.
   */
  plugins?: readonly unknown[];
  /** Seed the first group's foods, units and labels on first start (default true; `larder init --no-seed`). */
  seed?: boolean;
  /**
   * "when-needed": the recipes are read at the first `openRecipes()`, not while opening: for a CLI
   * command that needs none (decision 0202). Reading one before then throws.
   */
  recipes?: "now" | "when-needed";
}

export class Larder implements Parts {
  readonly folder: DataFolder;
  readonly plugins: PluginRegistry;
  /** Changed lists, items and plan entries with their wire objects, for the live channel (issue 14). */
  readonly live: LiveHub;
  #s: Services;
  private readonly openOptions: OpenOptions;
  private docWatcher: DocWatcher | null = null;
  private stopWatchingDocs: (() => void) | null = null;
  private stopScheduler: (() => void) | null = null;

  private constructor(
    readonly config: Config,
    readonly log: Logger,
    folder: DataFolder,
    plugins: PluginRegistry,
    live: LiveHub,
    opts: OpenOptions,
    services: Services,
  ) {
    this.folder = folder;
    this.plugins = plugins;
    this.live = live;
    this.openOptions = opts;
    this.#s = services;
  }

  /** Open a data folder; an empty or missing folder is initialised with Mealie's first-start state. */
  static async open(config: Config, opts: OpenOptions = {}): Promise<Larder> {
    const log = opts.log ?? consoleLogger();
    const folder = new DataFolder(resolve(config.dataDir));
    const plugins = new PluginRegistry(log);
    const live = new LiveHub();
    for (const p of opts.plugins ?? []) plugins.register(p, "builtin");
    if (config.plugins.length > 0) await plugins.load(config.plugins, process.cwd());
    // The services need the Larder's reload; it exists once the constructor has run.
    let larder: Larder | null = null;
    const reload: Parts["reload"] = (between, undo) => {
      if (!larder) throw new Error("the Larder is still opening");
      return larder.reload(between, undo);
    };
    const whileRestoring = <T>(fn: () => Promise<T>): Promise<T> => {
      if (!larder) throw new Error("the Larder is still opening");
      return larder.whileRestoring(fn);
    };
    const watchers = await Larder.beforeServices(config, log, folder, opts);
    if (!opts.readOnly) {
      // Whoever opens the folder to write holds it: no other process is writing a backup now.
      const freed = await new BackupStore(folder).removeLeftovers().catch(() => 0);
      if (freed > 0) log.warn(`removed the partial files of interrupted backups (${formatBytes(freed)})`);
    }
    const services = await openServices(
      { config, log, folder, plugins, live, reload, whileRestoring },
      Larder.serviceOptions(opts),
    ).catch(async (e: unknown) => {
      watchers.stop();
      await watchers.watcher?.close();
      throw e;
    });
    larder = new Larder(config, log, folder, plugins, live, opts, services);
    larder.docWatcher = watchers.watcher;
    larder.stopWatchingDocs = watchers.stop;
    try {
      await larder.afterServices();
    } catch (e) {
      // A first start or a watch that fails leaves nothing running, as a failed openServices does.
      await larder.close().catch(() => undefined);
      throw e;
    }
    return larder;
  }

  private static serviceOptions(opts: OpenOptions) {
    return {
      templatesDir: templatesDir(),
      watch: opts.watch ?? false,
      readOnly: opts.readOnly ?? false,
      recipesWhenNeeded: opts.recipes === "when-needed",
    };
  }

  /**
   * What comes before any document opens: a restore a crash interrupted is finished or undone, and the
   * server starts watching documents, so every one opened is watched.
   */
  private static async beforeServices(
    config: Config,
    log: Logger,
    folder: DataFolder,
    opts: OpenOptions,
  ): Promise<{ watcher: DocWatcher | null; stop: () => void }> {
    const recovered = opts.readOnly ? "none" : await recoverRestore(folder.root);
    if (recovered !== "none")
      log.warn(
        `an interrupted restore was found and ${recovered === "completed" ? "completed" : "rolled back"}`,
      );
    const stopReporting = reportDocuments(folder, log);
    if (!opts.watch) return { watcher: null, stop: stopReporting };
    const watching = watchDocuments(folder, log);
    return {
      watcher: watching.watcher,
      stop: () => {
        stopReporting();
        watching.stop();
      },
    };
  }

  /** First start, document watching, and the server's periodic jobs. */
  private async afterServices(): Promise<void> {
    const opts = this.openOptions;
    if (this.users.all().length === 0) {
      await this.openRecipes();
      await this.firstStart(opts.seed ?? true);
    }
    await this.docWatcher?.start();
    // The server (the only caller that watches) also runs the periodic jobs.
    if (opts.watch && !opts.readOnly) await this.demo.ensureBaseline();
    if (opts.watch) this.stopScheduler = startScheduler(this);
  }

  /** Read the folder's recipes, if opened with `recipes: "when-needed"` and not read yet. */
  openRecipes(): Promise<void> {
    return this.#s.recipes.opened();
  }

  get site(): Services["site"] {
    return this.#s.site;
  }
  get groups(): Services["groups"] {
    return this.#s.groups;
  }
  get events(): Services["events"] {
    return this.#s.events;
  }
  get organizers(): Services["organizers"] {
    return this.#s.organizers;
  }
  get vocabulary(): Services["vocabulary"] {
    return this.#s.vocabulary;
  }
  get gitAutoCommit(): Services["gitAutoCommit"] {
    return this.#s.gitAutoCommit;
  }
  get users(): Services["users"] {
    return this.#s.users;
  }
  get auth(): Services["auth"] {
    return this.#s.auth;
  }
  get email(): Services["email"] {
    return this.#s.email;
  }
  get registration(): Services["registration"] {
    return this.#s.registration;
  }
  get directory(): Services["directory"] {
    return this.#s.directory;
  }
  get aiProviders(): Services["aiProviders"] {
    return this.#s.aiProviders;
  }
  get parsers(): Services["parsers"] {
    return this.#s.parsers;
  }
  get activity(): Services["activity"] {
    return this.#s.activity;
  }
  get ratings(): Services["ratings"] {
    return this.#s.ratings;
  }
  get comments(): Services["comments"] {
    return this.#s.comments;
  }
  get recipes(): Services["recipes"] {
    return this.#s.recipes;
  }
  get images(): Services["images"] {
    return this.#s.images;
  }
  get assets(): Services["assets"] {
    return this.#s.assets;
  }
  get exports(): Services["exports"] {
    return this.#s.exports;
  }
  get organizerActions(): Services["organizerActions"] {
    return this.#s.organizerActions;
  }
  get accounts(): Services["accounts"] {
    return this.#s.accounts;
  }
  get membership(): Services["membership"] {
    return this.#s.membership;
  }
  get groupAdmin(): Services["groupAdmin"] {
    return this.#s.groupAdmin;
  }
  get maintenance(): Services["maintenance"] {
    return this.#s.maintenance;
  }
  get siteReport(): Services["siteReport"] {
    return this.#s.siteReport;
  }
  get timeline(): Services["timeline"] {
    return this.#s.timeline;
  }
  get cookbooks(): Services["cookbooks"] {
    return this.#s.cookbooks;
  }
  get recipeActions(): Services["recipeActions"] {
    return this.#s.recipeActions;
  }
  get labels(): Services["labels"] {
    return this.#s.labels;
  }
  get foodsUnits(): Services["foodsUnits"] {
    return this.#s.foodsUnits;
  }
  get suggestions(): Services["suggestions"] {
    return this.#s.suggestions;
  }
  get explore(): Services["explore"] {
    return this.#s.explore;
  }
  get validators(): Services["validators"] {
    return this.#s.validators;
  }
  get reports(): Services["reports"] {
    return this.#s.reports;
  }
  get webhooks(): Services["webhooks"] {
    return this.#s.webhooks;
  }
  get notifiers(): Services["notifiers"] {
    return this.#s.notifiers;
  }
  get mealplans(): Services["mealplans"] {
    return this.#s.mealplans;
  }
  get shopping(): Services["shopping"] {
    return this.#s.shopping;
  }
  get imports(): Services["imports"] {
    return this.#s.imports;
  }
  get migrations(): Services["migrations"] {
    return this.#s.migrations;
  }
  get backups(): Services["backups"] {
    return this.#s.backups;
  }
  get setup(): Services["setup"] {
    return this.#s.setup;
  }
  get demo(): Services["demo"] {
    return this.#s.demo;
  }
  get shares(): Services["shares"] {
    return this.#s.shares;
  }
  get bulkActions(): Services["bulkActions"] {
    return this.#s.bulkActions;
  }

  /** Fill an empty group's labels, units and foods from templates/seed/<locale>. */
  seedVocabulary(groupSlug: string, locale = "en-US"): Promise<void> {
    return this.#s.seedVocabulary(groupSlug, locale);
  }

  /** Mealie's first-start state: group Home, household Family, admin/changeme@example.com/MyPassword. */
  private async firstStart(seed: boolean): Promise<void> {
    const groups = this.#s.groups;
    let group = groups.bySlugOrNull("home") ?? groups.all()[0] ?? null;
    group ??= await groups.createGroup("Home", "Family");
    if (group.households.size === 0) await groups.createHousehold(group, "Family");
    if (seed) await this.seedVocabulary(group.slug);
    const household = [...group.households.values()][0];
    // With its password stored first: killed in between, the next start still finds no user and starts
    // afresh, where before it found an admin nobody could sign in as (decision 0206).
    await this.auth.withPassword(
      FIRST_ADMIN.password,
      (id) =>
        this.users.create(
          {
            username: FIRST_ADMIN.username,
            email: FIRST_ADMIN.email,
            fullName: FIRST_ADMIN.fullName,
            admin: true,
            advanced: false,
            canInvite: true,
            canManage: true,
            canManageHousehold: true,
            canOrganize: true,
          },
          { groupId: group.doc.data.id, householdId: household.doc.data.id },
          { id },
        ),
      { isDefault: true },
    );
    this.log.info(
      `first start: created admin '${FIRST_ADMIN.username}' (${FIRST_ADMIN.email}) in group '${group.doc.data.name}'`,
    );
  }

  /**
   * Close every service, run `between` (a restore swapping the folder), and open the folder again in
   * this same object, so whoever holds it (the HTTP handler) serves the new data (decision 0071).
   * Plugins stay registered; subscribers of the event bus are connected afresh. A folder that will not
   * open after `between` is handed to `undo`, then opened once more.
   */
  async reload(between?: () => Promise<void>, undo?: (why: unknown) => Promise<void>): Promise<void> {
    this.#reloading = true;
    noteChange();
    try {
      await this.reopen(between, undo);
    } finally {
      this.#reloading = false;
      noteChange();
    }
  }

  /**
   * A number that moves whenever anything a page may show changes (storage/change-count.ts): pages
   * answered before their loaders run are keyed by it (decision 0160).
   */
  get changeCount(): number {
    return changeCount();
  }

  #reloading = false;
  /** True while reload() swaps the folder: the server answers 503 rather than reach a closed service. */
  get reloading(): boolean {
    return this.#reloading;
  }

  #restoring = 0;
  /**
   * True while a backup is unpacked before its swap: reads are still served, but a write would be
   * answered 201 and then lost with the folder it went to, so the server answers writes 503.
   */
  get restoring(): boolean {
    return this.#restoring > 0;
  }

  async whileRestoring<T>(fn: () => Promise<T>): Promise<T> {
    this.#restoring++;
    noteChange();
    try {
      return await fn();
    } finally {
      this.#restoring--;
      noteChange();
    }
  }

  private async reopen(between?: () => Promise<void>, undo?: (why: unknown) => Promise<void>): Promise<void> {
    const localAdminToken = this.auth.getLocalAdminToken();
    await this.close();
    this.stopScheduler = null;
    this.stopWatchingDocs = null;
    this.docWatcher = null;
    try {
      await between?.();
    } finally {
      try {
        await this.openAgain();
      } catch (e) {
        if (!undo) throw e;
        await undo(e);
        await this.openAgain();
      }
      this.auth.setLocalAdminToken(localAdminToken);
    }
  }

  /** Open the services over the folder again; one that fails leaves nothing running or watching. */
  private async openAgain(): Promise<void> {
    const opts = this.openOptions;
    const watchers = await Larder.beforeServices(this.config, this.log, this.folder, opts);
    try {
      this.#s = await openServices(
        {
          config: this.config,
          log: this.log,
          folder: this.folder,
          plugins: this.plugins,
          live: this.live,
          reload: (b, u) => this.reload(b, u),
          whileRestoring: (fn) => this.whileRestoring(fn),
        },
        Larder.serviceOptions(opts),
      );
    } catch (e) {
      watchers.stop();
      await watchers.watcher?.close();
      throw e;
    }
    this.docWatcher = watchers.watcher;
    this.stopWatchingDocs = watchers.stop;
    try {
      await this.afterServices();
    } catch (e) {
      await this.close().catch(() => undefined);
      throw e;
    }
  }

  async close(): Promise<void> {
    const s = this.#s;
    this.stopScheduler?.();
    this.stopWatchingDocs?.();
    await this.docWatcher?.close();
    await s.imports.idle();
    await s.recipes.close();
    await s.migrations.idle();
    await s.events.idle();
    s.gitAutoCommit?.stop();
    await s.gitAutoCommit?.idle();
    await Promise.all([
      s.activity.idle(),
      s.ratings.idle(),
      s.cookbooks.idle(),
      s.recipeActions.idle(),
      s.mealplans.idle(),
      s.shopping.idle(),
      s.webhooks.idle(),
      s.notifiers.idle(),
    ]);
    await s.registration.idle();
    await s.auth.close();
  }
}

/**
 * A document whose file cannot be read when it is opened is named in the log with the reason: it
 * serves its defaults (no ratings, no lists …) and refuses every write until it is fixed, and a
 * person looking at an empty page should find out why (decision 0229). A document the site stands on
 * whose file was deleted is named when it is written back.
 */
function reportDocuments(folder: DataFolder, log: Logger): () => void {
  const prefix = folder.root + sep;
  const stopOpened = onDocumentOpened((doc) => {
    if (!doc.broken || doc.reportsOwnBreakage || !doc.path.startsWith(prefix)) return;
    log.warn(
      `${doc.path} cannot be read (${doc.broken.message}); until it is fixed the server uses its defaults (empty) and never writes it`,
    );
  });
  // Every put-back, whether the watcher or a write that found the file gone made it (decision 0268).
  const stopWrittenBack = onDocumentWrittenBack((doc) => {
    if (doc.path.startsWith(prefix))
      log.warn(`${doc.path} was deleted; it is written back from the server's last good state`);
  });
  return () => {
    stopOpened();
    stopWrittenBack();
  };
}

/**
 * JSON documents are live like recipes (ARCHITECTURE §2): a hand edit or `git pull` reloads them; one
 * that fails to parse keeps its last good state and is reported. Every document opened in this folder,
 * by any service, is watched.
 */
function watchDocuments(folder: DataFolder, log: Logger): { watcher: DocWatcher; stop: () => void } {
  const watcher = new DocWatcher();
  const prefix = folder.root + sep;
  const stop = onDocumentOpened((doc) => {
    if (doc.path.startsWith(prefix)) watcher.add(doc);
  });
  watcher.onEvent((e) => {
    if (e.type === "broken")
      log.warn(
        `${e.path} cannot be read${e.message ? ` (${e.message})` : ""}; keeping its last good state, and the file is not written until it is fixed`,
      );
    // "rewritten" is told by reportDocuments, which hears of every put-back, this one included.
    else if (e.type === "kept")
      log.warn(
        `${e.path} was deleted with its folder; its last good state is served until the folder is back or the server restarts`,
      );
    else if (e.type === "reloaded") log.info(`reloaded ${e.path}`);
    else if (e.type === "error") log.error(`watching ${e.path ?? "documents"} failed`, e.error);
  });
  return { watcher, stop };
}
