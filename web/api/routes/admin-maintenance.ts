/** /api/admin/maintenance (mealie-api-notes §4.13, §10): sizes, logs and cleaning, in core/maintenance. */
import { route } from "../router.js";

export const adminMaintenanceRoutes = [
  route("GET", "/api/admin/maintenance", "admin", (ctx) => ctx.larder.maintenance.summary(ctx.actor)),
  // Larder's own: unreadable recipe files and what the identity rules settled (decision 0017).
  route("GET", "/api/admin/maintenance/problems", "admin", (ctx) =>
    ctx.larder.maintenance.problems(ctx.actor),
  ),
  route("GET", "/api/admin/maintenance/storage", "admin", (ctx) => ctx.larder.maintenance.storage(ctx.actor)),
  route("GET", "/api/admin/maintenance/logs", "admin", (ctx) =>
    ctx.larder.maintenance.logs(ctx.actor, Number(ctx.query.get("lines") ?? "100")),
  ),
  route("POST", "/api/admin/maintenance/clean/temp", "admin", (ctx) =>
    ctx.larder.maintenance.cleanTemp(ctx.actor),
  ),
  route("POST", "/api/admin/maintenance/clean/logs", "admin", (ctx) =>
    ctx.larder.maintenance.cleanLogs(ctx.actor),
  ),
  route("POST", "/api/admin/maintenance/clean/images", "admin", (ctx) =>
    ctx.larder.maintenance.cleanImages(ctx.actor),
  ),
  route("POST", "/api/admin/maintenance/clean/recipe-folders", "admin", (ctx) =>
    ctx.larder.maintenance.cleanRecipeFolders(ctx.actor),
  ),
];
