/** /api/validators (mealie-api-notes §4.14): public availability checks. */
import { route } from "../router.js";

export const validatorRoutes = [
  route("GET", "/api/validators/user/name", "public", (ctx) =>
    ctx.larder.validators.userName(ctx.query.get("name")),
  ),
  route("GET", "/api/validators/user/email", "public", (ctx) =>
    ctx.larder.validators.userEmail(ctx.query.get("email")),
  ),
  route("GET", "/api/validators/group", "public", (ctx) =>
    ctx.larder.validators.group(ctx.query.get("name")),
  ),
  route("GET", "/api/validators/household", "public", (ctx) =>
    ctx.larder.validators.household(ctx.query.get("name")),
  ),
  route("GET", "/api/validators/recipe", "public", (ctx) =>
    ctx.larder.validators.recipe(
      ctx.query.get("group_id") ?? ctx.query.get("groupId"),
      ctx.query.get("name"),
    ),
  ),
];
