/**
 * The parts of a Larder, by name (issue 12): what a service may ask for. A service declares the few
 * it uses as `Pick<Parts, …>` and receives exactly those, built before it, from the composition in
 * open-services.ts — so the compiler checks that nothing is used before it exists. `Larder`
 * implements this interface for web/ and cli/.
 */
import type { Config } from "./config.js";
import type { Logger } from "./log/logger.js";
import type { DataFolder } from "./storage/data-folder.js";
import type { JsonDoc } from "./storage/json-doc.js";
import type { SiteDoc } from "./schemas/records.js";
import type { GroupsRegistry } from "./groups/registry.js";
import type { UsersService } from "./users/users-service.js";
import type { OrganizersService } from "./organizers/organizers-service.js";
import type { VocabularyService } from "./foods/vocabulary-service.js";
import type { FoodsUnitsService } from "./foods/foods-units-service.js";
import type { AuthService } from "./users/auth-service.js";
import type { AccountsService } from "./users/accounts-service.js";
import type { RegistrationService } from "./users/registration-service.js";
import type { MembershipService } from "./groups/membership-service.js";
import type { GroupAdminService } from "./groups/group-admin.js";
import type { OrganizerActions } from "./organizers/organizer-actions.js";
import type { Directory } from "./groups/directory.js";
import type { EmailService } from "./email/email-service.js";
import type { MaintenanceService } from "./maintenance/maintenance-service.js";
import type { SiteReport } from "./maintenance/site-report.js";
import type { RecipesService } from "./recipes/recipes-service.js";
import type { ImagesService } from "./media/images.js";
import type { AssetsService } from "./media/assets.js";
import type { ExportsService } from "./exports/exports-service.js";
import type { SharesService } from "./shares/shares-service.js";
import type { BulkActions } from "./recipes/bulk-actions.js";
import type { RatingsService } from "./ratings/ratings-service.js";
import type { AIProvidersService } from "./ai/providers.js";
import type { ActivityLog } from "./activity/activity-log.js";
import type { CommentsService } from "./comments/comments-service.js";
import type { TimelineService } from "./timeline/timeline-service.js";
import type { CookbooksService } from "./cookbooks/cookbooks-service.js";
import type { RecipeActionsService } from "./recipe-actions/recipe-actions-service.js";
import type { LabelsService } from "./labels/labels-service.js";
import type { ExploreService } from "./explore/explore-service.js";
import type { SuggestionsService } from "./suggestions/suggestions-service.js";
import type { ValidatorsService } from "./validators/validators-service.js";
import type { EventBus } from "./events/bus.js";
import type { PluginRegistry } from "./plugins/registry.js";
import type { ReportsService } from "./reports/reports-service.js";
import type { WebhooksService } from "./webhooks/webhooks-service.js";
import type { NotifiersService } from "./notifiers/notifiers-service.js";
import type { LiveHub } from "./live/live-hub.js";
import type { MealplansService } from "./mealplans/mealplans-service.js";
import type { ShoppingService } from "./shopping/shopping-service.js";
import type { ParserService } from "./parsers/parser-service.js";
import type { ImportService } from "./imports/import-service.js";
import type { MigrationService } from "./migrations/migration-service.js";
import type { BackupsService } from "./backups/backups-service.js";
import type { FirstSetup } from "./users/first-setup.js";
import type { DemoService } from "./demo/demo-service.js";
import type { GitAutoCommit } from "./git/autocommit.js";

/** What lives as long as the Larder object: kept across a reload (a restore swapping the folder). */
export interface Base {
  readonly config: Config;
  readonly log: Logger;
  readonly folder: DataFolder;
  readonly plugins: PluginRegistry;
  /** Changed lists, items and plan entries with their wire objects, for the live channel (issue 14). */
  readonly live: LiveHub;
  /**
   * Close every service, run `between`, and open the folder again in the same Larder (decision 0071).
   * A service that calls it is closed by it: it must not touch its parts afterwards. When the folder
   * will not open after `between`, `undo` runs and it is opened once more.
   */
  reload(between?: () => Promise<void>, undo?: (why: unknown) => Promise<void>): Promise<void>;
  /** Run a restore's unpacking with writes answered 503 meanwhile (Larder.restoring). */
  whileRestoring<T>(fn: () => Promise<T>): Promise<T>;
}

/** What is opened from the data folder, afresh after a reload. */
export interface Services {
  readonly site: JsonDoc<SiteDoc>;
  readonly groups: GroupsRegistry;
  /** Typed domain events (ARCHITECTURE §6): webhooks, notifiers, reports and the live channel subscribe. */
  readonly events: EventBus;
  readonly organizers: OrganizersService;
  /** The organizer screens' operations, actor-first (counts, rename, merge, delete). */
  readonly vocabulary: VocabularyService;
  /** One commit per recipe change when the folder is a git repository (decision 0074). */
  readonly gitAutoCommit: GitAutoCommit | null;
  readonly users: UsersService;
  readonly auth: AuthService;
  readonly email: EmailService;
  /** Fill an empty group's labels, units and foods from templates/seed/<locale>. */
  seedVocabulary(groupSlug: string, locale?: string): Promise<void>;
  /** People (issue #6): accounts, sign-up and invitations, own group/household, admin, e-mail, maintenance. */
  readonly registration: RegistrationService;
  /** Groups and households as records, for web/ and cli/. */
  readonly directory: Directory;
  readonly aiProviders: AIProvidersService;
  /** Ingredient parsers (issue 16): `parsers.parse(actor, lines, parserName)`. */
  readonly parsers: ParserService;
  readonly activity: ActivityLog;
  readonly ratings: RatingsService;
  readonly comments: CommentsService;
  readonly recipes: RecipesService;
  readonly images: ImagesService;
  readonly assets: AssetsService;
  readonly exports: ExportsService;
  /** Organizers as a signed-in person uses them: scoped, presented, cascades included (foods/units: foodsUnits). */
  readonly organizerActions: OrganizerActions;
  readonly accounts: AccountsService;
  readonly membership: MembershipService;
  readonly groupAdmin: GroupAdminService;
  readonly maintenance: MaintenanceService;
  readonly siteReport: SiteReport;
  readonly timeline: TimelineService;
  readonly cookbooks: CookbooksService;
  readonly recipeActions: RecipeActionsService;
  readonly labels: LabelsService;
  /** Foods and units for an actor (data-management screens). */
  readonly foodsUnits: FoodsUnitsService;
  readonly suggestions: SuggestionsService;
  readonly explore: ExploreService;
  readonly validators: ValidatorsService;
  /** Group reports: imports and migrations write them (`reports.start`), the API reads them. */
  readonly reports: ReportsService;
  /** Household webhooks: the meal-plan digest at each webhook's time (scheduler, every 5 minutes). */
  readonly webhooks: WebhooksService;
  /** Household notifiers (Apprise URLs through `notifier` plugins), told about events on the bus. */
  readonly notifiers: NotifiersService;
  readonly mealplans: MealplansService;
  readonly shopping: ShoppingService;
  /** Recipes from imported data (pages, zips, photos, migrations): one atomic write each. */
  readonly imports: ImportService;
  /** Moving in from other recipe apps and Mealie backups (issue 17): a group report per run. */
  readonly migrations: MigrationService;
  /** Backups and restore (issue 18, decisions 0070–0072). */
  readonly backups: BackupsService;
  /** The first-time setup of a fresh server (decision 0100). */
  readonly setup: FirstSetup;
  /** Demo mode's baseline and scheduled reset (decision 0101). */
  readonly demo: DemoService;
  readonly shares: SharesService;
  readonly bulkActions: BulkActions;
}

export interface Parts extends Base, Services {}
