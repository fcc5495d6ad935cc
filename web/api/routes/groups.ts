/** /api/groups (mealie-api-notes §4.4): the caller's group, its members, preferences, storage, households. */
import { route } from "../router.js";
import { listed } from "../listed.js";
import {
  presentGroupPreferences,
  presentGroupSummary,
  presentHouseholdSummary,
  presentUserSummary,
} from "../../../core/presenters/people.js";

export const groupRoutes = [
  route("GET", "/api/groups/self", "user", (ctx) =>
    presentGroupSummary(ctx.larder.membership.group(ctx.actor)),
  ),
  route("GET", "/api/groups/members", "user", (ctx) =>
    listed(ctx, "/api/groups/members", (q) => ctx.larder.membership.groupMembersPage(ctx.actor, q)),
  ),
  route("GET", "/api/groups/members/:usernameOrId", "user", (ctx) =>
    presentUserSummary(ctx.larder.membership.groupMember(ctx.actor, ctx.params.usernameOrId)),
  ),
  route("GET", "/api/groups/preferences", "user", (ctx) =>
    presentGroupPreferences(ctx.larder.membership.group(ctx.actor)),
  ),
  route("PUT", "/api/groups/preferences", "user", async (ctx) =>
    presentGroupPreferences(await ctx.larder.membership.updateGroupPreferences(ctx.actor, await ctx.json())),
  ),
  route("GET", "/api/groups/storage", "user", (ctx) => ctx.larder.membership.groupStorage(ctx.actor)),
  route("GET", "/api/groups/households", "user", (ctx) =>
    listed(ctx, "/api/groups/households", (q) => ctx.larder.membership.householdsPage(ctx.actor, q)),
  ),
  route("GET", "/api/groups/households/:slugOrId", "user", (ctx) =>
    presentHouseholdSummary(ctx.larder.membership.householdInGroup(ctx.actor, ctx.params.slugOrId)),
  ),
];
