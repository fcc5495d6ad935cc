import { Router } from "../router.js";
import { appRoutes } from "./app.js";
import { authRoutes } from "./auth.js";
import { userRoutes } from "./users.js";
import { recipeRoutes } from "./recipes.js";
import { organizerRoutesAll } from "./organizers.js";
import { foodUnitRoutes } from "./foods-units.js";
import { groupRoutes } from "./groups.js";
import { mediaRoutes } from "./media.js";

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
    ...mediaRoutes,
  );
}
