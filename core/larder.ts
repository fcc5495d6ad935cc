/**
 * The composition root: one Larder instance per data folder. `web/` and `cli/` are adapters over it.
 */
import { removeStaleTempFiles } from "./storage/atomic-write.js";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "./config.js";
import { DataFolder, ensurePrivateDirs, initDataFolder } from "./storage/data-folder.js";
import { JsonDoc, onDocumentOpened } from "./storage/json-doc.js";
import { DocWatcher } from "./storage/doc-watcher.js";
import { startScheduler } from "./scheduler.js";
import { GroupsRegistry } from "./groups/registry.js";
import { UsersService } from "./users/users-service.js";
import { UsersDoc, SiteDoc } from "./schemas/records.js";
import { OrganizersService } from "./organizers/organizers-service.js";
import { VocabularyService } from "./foods/vocabulary-service.js";
import { FoodsUnitsService } from "./foods/foods-units-service.js";
import { seedGroup } from "./foods/seed.js";
import { AuthService } from "./users/auth-service.js";
import { FIRST_ADMIN } from "./users/first-admin.js";
import { AccountsService } from "./users/accounts-service.js";
import { RegistrationService } from "./users/registration-service.js";
import { MembershipService } from "./groups/membership-service.js";
import { GroupAdminService } from "./groups/group-admin.js";
import { OrganizerActions } from "./organizers/organizer-actions.js";
import { Directory } from "./groups/directory.js";
import { EmailService } from "./email/email-service.js";
import { MaintenanceService } from "./maintenance/maintenance-service.js";
import { SiteReport } from "./maintenance/site-report.js";
import { RecipesService } from "./recipes/recipes-service.js";
import { ImagesService } from "./media/images.js";
import { AssetsService } from "./media/assets.js";
import { ExportsService } from "./exports/exports-service.js";
import { SharesService } from "./shares/shares-service.js";
import { BulkActions } from "./recipes/bulk-actions.js";
import { consoleLogger, type Logger } from "./log/logger.js";
import { RatingsService } from "./ratings/ratings-service.js";
import { AIProvidersService } from "./ai/providers.js";
import { ActivityLog } from "./activity/activity-log.js";
import { connectRecipeRecords } from "./activity/cascade.js";
import { CommentsService } from "./comments/comments-service.js";
import { TimelineService } from "./timeline/timeline-service.js";
import { CookbooksService } from "./cookbooks/cookbooks-service.js";
import { RecipeActionsService } from "./recipe-actions/recipe-actions-service.js";
import { LabelsService } from "./labels/labels-service.js";
import { ExploreService } from "./explore/explore-service.js";
import { SuggestionsService } from "./suggestions/suggestions-service.js";
import { ValidatorsService } from "./validators/validators-service.js";
import { EventBus } from "./events/bus.js";
import { PluginRegistry } from "./plugins/registry.js";
import { ReportsService } from "./reports/reports-service.js";
import { WebhooksService } from "./webhooks/webhooks-service.js";
import { NotifiersService } from "./notifiers/notifiers-service.js";
import { LiveHub } from "./live/live-hub.js";
import { connectEventPublishers } from "./events/publishers.js";
import { MealplansService } from "./mealplans/mealplans-service.js";
import { ShoppingService } from "./shopping/shopping-service.js";
import { ParserService } from "./parsers/parser-service.js";
import { ImportService } from "./imports/import-service.js";
import { MigrationService } from "./migrations/migration-service.js";
import { BackupsService } from "./backups/backups-service.js";
import { FirstSetup } from "./users/first-setup.js";
import { DemoService } from "./demo/demo-service.js";
import { recoverRestore } from "./backups/restore.js";
import { GitAutoCommit } from "./git/autocommit.js";

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
}

export class Larder {
  readonly folder: DataFolder;
  readonly groups: GroupsRegistry;
  readonly organizers = new OrganizersService();
  /** The organizer screens' operations, actor-first (counts, rename, merge, delete). */
  readonly vocabulary = new VocabularyService();
  /** Organizers as a signed-in person uses them: scoped, presented, cascades included (foods/units: foodsUnits). */
  readonly organizerActions = new OrganizerActions(this);
  /** Groups and households as records, for web/ and cli/. */
  readonly directory = new Directory(this);
  /** Typed domain events (ARCHITECTURE §6): webhooks, notifiers, reports and the live channel subscribe. */
  readonly events: EventBus;
  readonly plugins: PluginRegistry;
  /** Changed lists, items and plan entries with their wire objects, for the live channel (issue 14). */
  readonly live = new LiveHub();
  /** Ingredient parsers (issue 16): `parsers.parse(actor, lines, parserName)`. */
  readonly parsers: ParserService;
  users!: UsersService;
  auth!: AuthService;
  /** People (issue #6): accounts, sign-up and invitations, own group/household, admin, e-mail, maintenance. */
  accounts!: AccountsService;
  registration!: RegistrationService;
  /** The first-time setup of a fresh server (decision 0100). */
  setup!: FirstSetup;
  /** Demo mode's baseline and scheduled reset (decision 0101). */
  demo!: DemoService;
  membership!: MembershipService;
  groupAdmin!: GroupAdminService;
  email!: EmailService;
  maintenance!: MaintenanceService;
  siteReport!: SiteReport;
  recipes!: RecipesService;
  images!: ImagesService;
  assets!: AssetsService;
  exports!: ExportsService;
  shares!: SharesService;
  bulkActions!: BulkActions;
  site!: JsonDoc<SiteDoc>;
  ratings!: RatingsService;
  aiProviders!: AIProvidersService;
  activity!: ActivityLog;
  comments!: CommentsService;
  timeline!: TimelineService;
  cookbooks!: CookbooksService;
  recipeActions!: RecipeActionsService;
  labels!: LabelsService;
  /** Foods and units for an actor (data-management screens). */
  foodsUnits!: FoodsUnitsService;
  explore!: ExploreService;
  suggestions!: SuggestionsService;
  validators!: ValidatorsService;
  /** Group reports: imports and migrations write them (`reports.start`), the API reads them. */
  reports!: ReportsService;
  /** Household webhooks: the meal-plan digest at each webhook's time (scheduler, every 5 minutes). */
  webhooks!: WebhooksService;
  /** Household notifiers (Apprise URLs through `notifier` plugins), told about events on the bus. */
  notifiers!: NotifiersService;
  mealplans!: MealplansService;
  shopping!: ShoppingService;
  /** Recipes from imported data (pages, zips, photos, migrations): one atomic write each. */
  imports!: ImportService;
  /** Moving in from other recipe apps and Mealie backups (issue 17): a group report per run. */
  migrations!: MigrationService;
  /** Backups and restore (issue 18, decisions 0070–0072). */
  backups!: BackupsService;
  /** One commit per recipe change when the folder is a git repository (decision 0074). */
  gitAutoCommit: GitAutoCommit | null = null;
  private openOptions: OpenOptions = {};
  private usersDoc!: JsonDoc<UsersDoc>;
  private docWatcher: DocWatcher | null = null;
  private stopWatchingDocs: (() => void) | null = null;
  private stopScheduler: (() => void) | null = null;

  private constructor(
    readonly config: Config,
    readonly log: Logger,
  ) {
    this.folder = new DataFolder(resolve(config.dataDir));
    this.groups = new GroupsRegistry(this.folder);
    this.events = new EventBus(log);
    this.plugins = new PluginRegistry(log);
    this.parsers = new ParserService(this);
  }

  /** Open a data folder; an empty or missing folder is initialised with Mealie's first-start state. */
  static async open(config: Config, opts: OpenOptions = {}): Promise<Larder> {
    const larder = new Larder(config, opts.log ?? consoleLogger());
    await larder.init(opts);
    return larder;
  }

  private async init(opts: OpenOptions, reloading = false): Promise<void> {
    const root = this.folder.root;
    this.openOptions = opts;
    if (!reloading) {
      for (const p of opts.plugins ?? []) this.plugins.register(p, "builtin");
      if (this.config.plugins.length > 0) await this.plugins.load(this.config.plugins, process.cwd());
    }
    // A restore a crash interrupted is finished or undone before anything reads the folder.
    const recovered = opts.readOnly ? "none" : await recoverRestore(root);
    if (recovered !== "none")
      this.log.warn(
        `an interrupted restore was found and ${recovered === "completed" ? "completed" : "rolled back"}`,
      );
    if (opts.watch) this.watchDocuments();
    // The server only: one-shot CLI commands leave committing to whoever runs git. Started before any
    // document opens, so every curated document's writes are seen.
    if (opts.watch && !opts.readOnly) {
      this.gitAutoCommit = new GitAutoCommit(this);
      if (!this.gitAutoCommit.start()) this.gitAutoCommit = null;
    }
    const fresh = !existsSync(join(root, "larder.json"));
    if (fresh) {
      // A fresh `git init` folder is as good as an empty one.
      if (existsSync(root) && readdirSync(root).some((n) => n !== ".git")) {
        throw new Error(`${root} is not empty and is not a Larder data folder (no larder.json)`);
      }
      await initDataFolder(root, { templatesDir: templatesDir() });
    }
    // A folder cloned with git has no .larder/: it is per machine.
    await ensurePrivateDirs(this.folder);
    const tmpDir = this.folder.tmpDir;
    // Temp files of a writer killed mid-write would otherwise wait for the hourly job, or survive
    // every restart that comes sooner.
    if (!opts.readOnly) await removeStaleTempFiles(tmpDir, 60 * 60 * 1000, Date.now(), { deadWriters: true });
    this.site = await JsonDoc.open(this.folder.larderJson, {
      schema: SiteDoc,
      tmpDir,
      defaults: () => SiteDoc.parse({}),
    });
    this.usersDoc = await JsonDoc.open(this.folder.usersJson, {
      schema: UsersDoc,
      tmpDir,
      defaults: () => UsersDoc.parse({}),
    });
    this.users = new UsersService(this.usersDoc);
    await this.groups.open();
    this.auth = await AuthService.open(this);
    this.email = new EmailService(this.config, join(templatesDir(), "email"), this.log);
    this.accounts = new AccountsService(this);
    this.registration = await RegistrationService.open(this, templatesDir());
    this.membership = new MembershipService(this);
    this.groupAdmin = new GroupAdminService(this);
    this.maintenance = new MaintenanceService(this);
    this.siteReport = new SiteReport(this);
    this.images = new ImagesService(this);
    this.assets = new AssetsService(this);
    this.exports = await ExportsService.open(this);
    this.aiProviders = await AIProvidersService.open(this);
    // Ratings and comments first: recipe summaries built while the store opens carry them.
    this.ratings = await RatingsService.open(this);
    this.activity = new ActivityLog(this.folder, this.log);
    await this.activity.open(this.groups.all().map((g) => g.slug));
    this.comments = new CommentsService(this, this.activity);
    this.recipes = await RecipesService.open(this, {
      watch: opts.watch ?? false,
      readOnly: opts.readOnly ?? false,
    });
    this.timeline = new TimelineService(this, this.activity);
    this.cookbooks = await CookbooksService.open(this);
    this.recipeActions = await RecipeActionsService.open(this);
    this.labels = new LabelsService(this);
    this.foodsUnits = new FoodsUnitsService(this);
    this.explore = new ExploreService(this);
    this.suggestions = new SuggestionsService(this);
    this.validators = new ValidatorsService(this);
    this.reports = new ReportsService(this);
    this.webhooks = await WebhooksService.open(this);
    this.notifiers = await NotifiersService.open(this);
    this.mealplans = await MealplansService.open(this);
    this.shopping = await ShoppingService.open(this);
    // The webhook digest reads the household's plan through the meal-plan service.
    this.webhooks.useMealPlans(this.mealplans);
    this.imports = new ImportService(this);
    this.migrations = new MigrationService(this);
    this.backups = new BackupsService(this);
    this.setup = new FirstSetup(this, templatesDir());
    this.demo = new DemoService(this);
    connectRecipeRecords(this);
    connectEventPublishers(this);
    this.shares = new SharesService(this);
    this.bulkActions = new BulkActions(this);
    if (this.users.all().length === 0) await this.firstStart(opts.seed ?? true);
    await this.docWatcher?.start();
    // The server (the only caller that watches) also runs the periodic jobs.
    if (opts.watch && !opts.readOnly) await this.demo.ensureBaseline();
    if (opts.watch) this.stopScheduler = startScheduler(this);
  }

  /** Mealie's first-start state: group Home, household Family, admin/changeme@example.com/MyPassword. */
  private async firstStart(seed: boolean): Promise<void> {
    let group = this.groups.bySlugOrNull("home") ?? this.groups.all()[0] ?? null;
    group ??= await this.groups.createGroup("Home", "Family");
    if (group.households.size === 0) await this.groups.createHousehold(group, "Family");
    if (seed) await this.seedVocabulary(group.slug);
    const household = [...group.households.values()][0];
    const user = await this.users.create(
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
    );
    await this.auth.setPassword(user.id, FIRST_ADMIN.password, { isDefault: true });
    this.log.info(
      `first start: created admin '${FIRST_ADMIN.username}' (${FIRST_ADMIN.email}) in group '${group.doc.data.name}'`,
    );
  }

  /** Fill an empty group's labels, units and foods from templates/seed/<locale>. */
  async seedVocabulary(groupSlug: string, locale = "en-US"): Promise<void> {
    const g = this.groups.bySlugOrNull(groupSlug);
    if (!g) return;
    await seedGroup(g, join(templatesDir(), "seed", locale));
  }

  /**
   * JSON documents are live like recipes (ARCHITECTURE §2): a hand edit or `git pull` reloads them; one
   * that fails to parse keeps its last good state and is reported. Every document opened in this folder,
   * by any service, is watched.
   */
  private watchDocuments(): void {
    const watcher = new DocWatcher();
    const prefix = this.folder.root + sep;
    this.stopWatchingDocs = onDocumentOpened((doc) => {
      if (doc.path.startsWith(prefix)) watcher.add(doc);
    });
    watcher.onEvent((e) => {
      if (e.type === "broken")
        this.log.warn(`${e.path} cannot be read; keeping its last good state until it is fixed`);
      else if (e.type === "reloaded") this.log.info(`reloaded ${e.path}`);
      else if (e.type === "error") this.log.error(`watching ${e.path ?? "documents"} failed`, e.error);
    });
    this.docWatcher = watcher;
  }

  /**
   * Close every service, run `between` (a restore swapping the folder), and open the folder again in
   * this same object, so whoever holds it (the HTTP handler) serves the new data (decision 0071).
   * Plugins stay registered; subscribers of the event bus are connected afresh.
   */
  async reload(between?: () => Promise<void>): Promise<void> {
    this.#reloading = true;
    try {
      await this.reopen(between);
    } finally {
      this.#reloading = false;
    }
  }

  #reloading = false;
  /** True while reload() swaps the folder: the server answers 503 rather than reach a closed service. */
  get reloading(): boolean {
    return this.#reloading;
  }

  private async reopen(between?: () => Promise<void>): Promise<void> {
    const localAdminToken = this.auth?.getLocalAdminToken() ?? null;
    await this.close();
    this.stopScheduler = null;
    this.stopWatchingDocs = null;
    this.docWatcher = null;
    try {
      await between?.();
    } finally {
      const self = this as unknown as {
        groups: GroupsRegistry;
        events: EventBus;
        organizers: OrganizersService;
        vocabulary: VocabularyService;
      };
      self.groups = new GroupsRegistry(this.folder);
      self.events = new EventBus(this.log);
      self.organizers = new OrganizersService();
      self.vocabulary = new VocabularyService();
      await this.init(this.openOptions, true);
      this.auth.setLocalAdminToken(localAdminToken);
    }
  }

  async close(): Promise<void> {
    this.stopScheduler?.();
    this.stopWatchingDocs?.();
    await this.docWatcher?.close();
    await this.imports?.idle();
    await this.recipes?.close();
    await this.migrations?.idle();
    await this.events.idle();
    this.gitAutoCommit?.stop();
    await this.gitAutoCommit?.idle();
    await Promise.all([
      this.activity?.idle(),
      this.ratings?.idle(),
      this.cookbooks?.idle(),
      this.recipeActions?.idle(),
      this.mealplans?.idle(),
      this.shopping?.idle(),
      this.webhooks?.idle(),
      this.notifiers?.idle(),
    ]);
    await this.registration?.idle();
    await this.auth?.close();
  }
}
