import { Router } from "../router.js";
import { appRoutes } from "./app.js";
import { authRoutes } from "./auth.js";
import { userRoutes } from "./users.js";
import { recipeRoutes } from "./recipes.js";
import { organizerRoutesAll } from "./organizers.js";
import { foodUnitRoutes } from "./foods-units.js";
import { groupRoutes } from "./groups.js";
import { householdRoutes } from "./households.js";
import { adminRoutes } from "./admin.js";
import { adminMaintenanceRoutes } from "./admin-maintenance.js";
import { adminBackupRoutes } from "./admin-backups.js";
import { larderHistoryRoutes } from "./larder-history.js";
import { mediaRoutes } from "./media.js";
import { ratingRoutes } from "./ratings.js";
import { commentRoutes } from "./comments.js";
import { timelineRoutes } from "./timeline.js";
import { cookbookRoutes } from "./cookbooks.js";
import { recipeActionRoutes } from "./recipe-actions.js";
import { labelRoutes } from "./labels.js";
import { aiProviderRoutes } from "./ai-providers.js";
import { legacyAliases } from "./legacy-aliases.js";
import { seederRoutes } from "./seeders.js";
import { exploreRoutes } from "./explore.js";
import { validatorRoutes } from "./validators.js";
import { suggestionRoutes } from "./suggestions.js";
import { recipeMediaRoutes } from "./recipe-media.js";
import { exportRoutes } from "./exports.js";
import { shareRoutes } from "./shares.js";
import { bulkActionRoutes } from "./bulk-actions.js";
import { utilRoutes } from "./utils.js";
import { importRoutes } from "./imports.js";
import { reportRoutes } from "./reports.js";
import { webhookRoutes } from "./webhooks.js";
import { notifierRoutes } from "./notifiers.js";
import { mealplanRoutes } from "./mealplans.js";
import { shoppingRoutes } from "./shopping.js";
import { liveRoutes } from "./live.js";
import { parserRoutes } from "./parser.js";
import { migrationRoutes } from "./migrations.js";

/** Every /api route, one module per Mealie router. */
export function buildRouter(): Router {
  return new Router().add(
    ...appRoutes,
    ...authRoutes,
    ...userRoutes,
    ...recipeRoutes,
    ...organizerRoutesAll,
    ...foodUnitRoutes,
    ...groupRoutes,
    ...householdRoutes,
    ...adminRoutes,
    ...adminMaintenanceRoutes,
    ...adminBackupRoutes,
    ...larderHistoryRoutes,
    ...mediaRoutes,
    ...ratingRoutes,
    ...commentRoutes,
    ...timelineRoutes,
    ...cookbookRoutes,
    ...recipeActionRoutes,
    ...labelRoutes,
    ...aiProviderRoutes,
    ...seederRoutes,
    ...exploreRoutes,
    ...validatorRoutes,
    ...suggestionRoutes,
    ...recipeMediaRoutes,
    ...exportRoutes,
    ...shareRoutes,
    ...bulkActionRoutes,
    ...utilRoutes,
    ...importRoutes,
    ...reportRoutes,
    ...webhookRoutes,
    ...notifierRoutes,
    ...mealplanRoutes,
    ...shoppingRoutes,
    ...liveRoutes,
    ...parserRoutes,
    ...migrationRoutes,
    ...legacyAliases([...shoppingRoutes, ...mealplanRoutes, ...importRoutes]),
  );
}
