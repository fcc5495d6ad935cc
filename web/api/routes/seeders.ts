/** POST /api/groups/seeders/{foods|units|labels} `{locale}` (mealie-api-notes §4.4). */
import { route } from "../router.js";
import type { SeedKind } from "../../../core/labels/labels-service.js";

const seeder = (kind: SeedKind) =>
  route("POST", `/api/groups/seeders/${kind}`, "user", async (ctx) =>
    ctx.larder.labels.seed(ctx.actor, kind, await ctx.json()),
  );

export const seederRoutes = [seeder("foods"), seeder("units"), seeder("labels")];
