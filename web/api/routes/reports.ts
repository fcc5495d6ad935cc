/** /api/groups/reports (mealie-api-notes §4.4): what imports, migrations and backups did. */
import { route } from "../router.js";

export const reportRoutes = [
  route("GET", "/api/groups/reports", "user", (ctx) =>
    ctx.larder.reports.list(ctx.actor, ctx.query.get("report_type") ?? ctx.query.get("reportType")),
  ),
  route("GET", "/api/groups/reports/:id", "user", (ctx) => ctx.larder.reports.get(ctx.actor, ctx.params.id)),
  route("DELETE", "/api/groups/reports/:id", "user", (ctx) =>
    ctx.larder.reports.remove(ctx.actor, ctx.params.id),
  ),
];
