/**
 * The composition of a Larder's services over its data folder (issue 12): each one is built from the
 * parts it uses, after them, as a `const` — so using a part before it exists does not compile. Three
 * pairs call each other at request time only; the later part is handed to the earlier one as a getter,
 * the only edges the compiler does not order (decision 0141):
 *
 * - ratings and comments → recipes: built first, because the recipe summaries the store makes while it
 *   opens carry ratings and comments; they look recipes up when a request names one.
 * - recipes → cookbooks: the recipe list ANDs a cookbook's filter when a request names one; the
 *   cookbooks read recipes to answer theirs.
 * - the git auto-commit → users: it starts before any document opens, so it sees every write, and names
 *   the user who made one when it commits.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Base, Services } from "./parts.js";
import { removeStaleTempFiles } from "./storage/atomic-write.js";
import { ensurePrivateDirs, initDataFolder } from "./storage/data-folder.js";
import { JsonDoc } from "./storage/json-doc.js";
import { GroupsRegistry } from "./groups/registry.js";
import { UsersService } from "./users/users-service.js";
import { UsersDoc, SiteDoc } from "./schemas/records.js";
import { OrganizersService } from "./organizers/organizers-service.js";
import { VocabularyService } from "./foods/vocabulary-service.js";
import { FoodsUnitsService } from "./foods/foods-units-service.js";
import { seedGroup } from "./foods/seed.js";
import { markSeedAliasesOffered, readSeedAliases, topUpSeedAliases } from "./foods/seed-top-up.js";
import { AuthService } from "./users/auth-service.js";
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
import { ReportsService } from "./reports/reports-service.js";
import { WebhooksService } from "./webhooks/webhooks-service.js";
import { NotifiersService } from "./notifiers/notifiers-service.js";
import { connectEventPublishers } from "./events/publishers.js";
import { MealplansService } from "./mealplans/mealplans-service.js";
import { ShoppingService } from "./shopping/shopping-service.js";
import { ParserService } from "./parsers/parser-service.js";
import { ImportService } from "./imports/import-service.js";
import { MigrationService } from "./migrations/migration-service.js";
import { BackupsService } from "./backups/backups-service.js";
import { FirstSetup } from "./users/first-setup.js";
import { DemoService } from "./demo/demo-service.js";
import { GitAutoCommit } from "./git/autocommit.js";
import { noteChange } from "./storage/change-count.js";
import { removeAbandonedMedia } from "./imports/pending-media.js";
import { finishAbandonedMediaMoves } from "./recipes/store/media-move.js";

export interface ServiceOptions {
  templatesDir: string;
  /** The server: file watchers and the git auto-commit. */
  watch: boolean;
  /** Never write recipe files (e.g. `larder check` beside a running server). */
  readOnly: boolean;
  /** Read the recipes at the first `recipes.opened()` (Larder's `recipes: "when-needed"`). */
  recipesWhenNeeded?: boolean;
}

/**
 * Open the folder (initialised first when fresh) and build every service over it. A step that throws
 * first releases what the steps before it started, the latest first: a listener, watcher or write left
 * running would keep a server that gives up from exiting, and keep committing to or writing in a folder
 * a rolled-back restore is about to put back.
 */
export async function openServices(base: Base, opts: ServiceOptions): Promise<Services> {
  const started: Array<() => unknown> = [];
  try {
    return await composeServices(base, opts, (release) => started.push(release));
  } catch (e) {
    for (const release of started.reverse()) {
      try {
        await release();
      } catch (err) {
        base.log.warn("releasing a service of a folder that did not open failed:", err);
      }
    }
    throw e;
  }
}

/** What `release` is handed is undone, in reverse order, if a later step throws. */
async function composeServices(
  base: Base,
  opts: ServiceOptions,
  onFailure: (release: () => unknown) => void,
): Promise<Services> {
  const { config, log, folder, plugins, live } = base;
  const root = folder.root;
  const groups = new GroupsRegistry(folder);
  const events = new EventBus(log);
  onFailure(() => events.idle());
  const organizers = new OrganizersService();
  const vocabulary = new VocabularyService();
  // The server only: one-shot CLI commands leave committing to whoever runs git. Started before any
  // document opens, so every curated document's writes are seen.
  let gitAutoCommit: GitAutoCommit | null = null;
  if (opts.watch && !opts.readOnly) {
    gitAutoCommit = new GitAutoCommit({
      config,
      events,
      folder,
      groups,
      log,
      get users() {
        return users;
      },
    });
    if (gitAutoCommit.start()) {
      const started = gitAutoCommit;
      onFailure(() => {
        started.stop();
        return started.idle();
      });
    } else gitAutoCommit = null;
  }
  if (!existsSync(join(root, "larder.json"))) {
    // A fresh `git init` folder is as good as an empty one.
    if (existsSync(root) && readdirSync(root).some((n) => n !== ".git")) {
      throw new Error(`${root} is not empty and is not a Larder data folder (no larder.json)`);
    }
    await initDataFolder(root, { templatesDir: opts.templatesDir });
  }
  // A folder cloned with git has no .larder/: it is per machine.
  await ensurePrivateDirs(folder);
  const tmpDir = folder.tmpDir;
  // Temp files of a writer killed mid-write would otherwise wait for the hourly job, or survive
  // every restart that comes sooner.
  if (!opts.readOnly) {
    for (const dir of [tmpDir, folder.cacheDir])
      await removeStaleTempFiles(dir, 60 * 60 * 1000, Date.now(), { deadWriters: true });
    for (const dir of await removeAbandonedMedia(folder))
      log.warn(
        `removed ${dir}/: the media folder of an import that was killed before its recipe was written`,
      );
    for (const move of await finishAbandonedMediaMoves(folder))
      log.warn(`moved ${move}: the media folder of a rename that was killed after its recipe file moved`);
  }
  const site = await JsonDoc.open(folder.larderJson, {
    schema: SiteDoc,
    tmpDir,
    // jitless, as JsonDoc's own parse: a parse or two per start does not pay for zod compiling a parser.
    defaults: () => SiteDoc.parse({}, { jitless: true }),
    writtenBackWhenDeleted: true,
  });
  const usersDoc = await JsonDoc.open(folder.usersJson, {
    schema: UsersDoc,
    tmpDir,
    defaults: () => UsersDoc.parse({}, { jitless: true }),
    writtenBackWhenDeleted: true,
  });
  if (usersDoc.broken)
    // Opened without its people, the site would refuse everyone, or (with no user at all) run its
    // first start over the file; a person must fix it first (decision 0229).
    throw new Error(
      `${usersDoc.path} cannot be read (${usersDoc.broken.message}): Larder does not open without its users. Fix the file, or take it back from git or a backup; it is never overwritten`,
    );
  const users = new UsersService(usersDoc);
  await groups.open();
  // Seed aliases added since a group was seeded, for the foods it never edited (decision 0251).
  const seedAliases = await readSeedAliases(join(opts.templatesDir, "seed"));
  for (const g of groups.all()) await topUpSeedAliases(g, seedAliases);
  for (const b of groups.broken())
    log.warn(
      `${b.path} cannot be read (${b.message}): its group or household is left out until the file is fixed and the server restarted; the file is never overwritten`,
    );
  const auth = await AuthService.open({ config, folder, groups, log, site, users });
  onFailure(() => auth.close());
  const email = new EmailService(config, join(opts.templatesDir, "email"), log);
  const seedVocabulary = async (groupSlug: string, locale = "en-US"): Promise<void> => {
    const g = groups.bySlugOrNull(groupSlug);
    if (!g) return;
    await seedGroup(g, join(opts.templatesDir, "seed", locale));
    // Just seeded, so already offered this seed's aliases: one deleted by hand before the next start stays deleted.
    await markSeedAliasesOffered(g, seedAliases);
  };
  const registration = await RegistrationService.open(
    { auth, config, email, events, folder, groups, log, seedVocabulary, users },
    opts.templatesDir,
  );
  onFailure(() => registration.idle());
  const directory = new Directory({
    auth,
    groups,
    site,
    get recipes() {
      return recipes;
    },
  });
  const aiProviders = await AIProvidersService.open({ config, folder, groups, log });
  const parsers = new ParserService({ aiProviders, config, groups, log, plugins });
  const activity = new ActivityLog(folder, log);
  await activity.open(groups.all().map((g) => g.slug));
  onFailure(() => activity.idle());
  // Ratings and comments before recipes: the summaries built while the store opens carry them.
  const ratings = await RatingsService.open({
    folder,
    groups,
    log,
    users,
    get recipes() {
      return recipes;
    },
  });
  onFailure(() => ratings.idle());
  const comments = new CommentsService(
    {
      groups,
      users,
      get recipes() {
        return recipes;
      },
    },
    activity,
  );
  const recipes: RecipesService = await RecipesService.open(
    {
      events,
      folder,
      groups,
      log,
      organizers,
      users,
      vocabulary,
      ratings,
      comments,
      get cookbooks() {
        return cookbooks;
      },
    },
    { watch: opts.watch, readOnly: opts.readOnly, whenNeeded: opts.recipesWhenNeeded },
  );
  onFailure(() => recipes.close());
  const images = new ImagesService({ config, folder, groups, log, recipes });
  const assets = new AssetsService({ config, folder, groups, recipes });
  const exports = await ExportsService.open({ folder, groups, recipes, images, log });
  const organizerActions = new OrganizerActions({ groups, organizers, recipes });
  const accounts = new AccountsService({ auth, config, directory, folder, groups, recipes, site, users });
  const membership = new MembershipService({ directory, folder, groups, recipes, users });
  const groupAdmin = new GroupAdminService({ config, groups, recipes, registration, site, users });
  const siteReport = new SiteReport({ config, email, groups, recipes, users });
  const timeline = new TimelineService({ events, groups, images, log, recipes, users }, activity);
  const cookbooks: CookbooksService = await CookbooksService.open({ events, folder, groups, log, recipes });
  onFailure(() => cookbooks.idle());
  const recipeActions = await RecipeActionsService.open({ config, folder, groups, log, recipes });
  onFailure(() => recipeActions.idle());
  const labels = new LabelsService({ groups });
  const foodsUnits = new FoodsUnitsService({ groups, recipes, vocabulary });
  const suggestions = new SuggestionsService({ groups, recipes });
  const explore = new ExploreService({ cookbooks, groups, recipes, suggestions });
  const validators = new ValidatorsService({ groups, recipes, users });
  const reports = new ReportsService({ folder, groups, log });
  const webhooks = await WebhooksService.open({ config, events, folder, groups, log });
  onFailure(() => webhooks.idle());
  const notifiers = await NotifiersService.open({ config, events, folder, groups, log, plugins });
  onFailure(() => notifiers.idle());
  const mealplans = await MealplansService.open({
    events,
    folder,
    groups,
    live,
    log,
    recipes,
    timeline,
    users,
  });
  onFailure(() => mealplans.idle());
  const shopping = await ShoppingService.open({ events, folder, groups, live, log, recipes, users });
  onFailure(() => shopping.idle());
  const maintenance = new MaintenanceService({
    accounts,
    folder,
    groups,
    images,
    mealplans,
    notifiers,
    recipes,
    shopping,
    webhooks,
  });
  // The webhook digest reads the household's plan through the meal-plan service.
  webhooks.useMealPlans(mealplans);
  const imports = new ImportService({
    aiProviders,
    comments,
    config,
    events,
    folder,
    groups,
    images,
    log,
    parsers,
    plugins,
    ratings,
    recipes,
    reports,
    users,
  });
  const migrations = new MigrationService({
    comments,
    cookbooks,
    folder,
    groups,
    imports,
    labels,
    log,
    mealplans,
    organizers,
    plugins,
    ratings,
    recipes,
    reports,
    shopping,
    users,
    vocabulary,
  });
  const backups = new BackupsService({
    config,
    exports,
    folder,
    log,
    migrations,
    reload: base.reload,
    whileRestoring: base.whileRestoring,
  });
  const setup = new FirstSetup({ auth, config, groups, log, seedVocabulary, users }, opts.templatesDir);
  const demo = new DemoService({ backups, config, folder, log });
  connectRecipeRecords({ activity, ratings, recipes });
  // Recipe files (saved here or edited by hand) move the count pages are keyed by (change-count.ts).
  recipes.store.on("change", noteChange);
  connectEventPublishers({ events, organizers });
  const shares = new SharesService({ folder, groups, recipes });
  const bulkActions = new BulkActions({ exports, groups, log, organizers, recipes });
  return {
    site,
    groups,
    events,
    organizers,
    vocabulary,
    gitAutoCommit,
    users,
    auth,
    email,
    seedVocabulary,
    registration,
    directory,
    aiProviders,
    parsers,
    activity,
    ratings,
    comments,
    recipes,
    images,
    assets,
    exports,
    organizerActions,
    accounts,
    membership,
    groupAdmin,
    maintenance,
    siteReport,
    timeline,
    cookbooks,
    recipeActions,
    labels,
    foodsUnits,
    suggestions,
    explore,
    validators,
    reports,
    webhooks,
    notifiers,
    mealplans,
    shopping,
    imports,
    migrations,
    backups,
    setup,
    demo,
    shares,
    bulkActions,
  };
}
