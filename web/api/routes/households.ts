/**
 * /api/households self-service (mealie-api-notes §4.5): the caller's household, members,
 * preferences, permissions, statistics and invitations. Flags are checked in core.
 */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { listed } from "../listed.js";
import {
  presentHouseholdInDb,
  presentHouseholdPreferences,
  presentInviteToken,
} from "../../../core/presenters/people.js";

export const householdRoutes = [
  route("GET", "/api/households/self", "user", (ctx) => {
    const m = ctx.larder.membership;
    const h = m.household(ctx.actor);
    return {
      ...presentHouseholdInDb(h, m.group(ctx.actor), m.householdMembers(ctx.actor)),
      webhooks: ctx.larder.webhooks.all(ctx.actor),
    };
  }),
  route("GET", "/api/households/self/recipes/:slug", "user", (ctx) =>
    ctx.larder.membership.householdRecipe(ctx.actor, ctx.params.slug),
  ),
  route("GET", "/api/households/members", "user", (ctx) =>
    listed(ctx, "/api/households/members", (q) => ctx.larder.membership.householdMembersPage(ctx.actor, q)),
  ),
  route("GET", "/api/households/preferences", "user", (ctx) =>
    presentHouseholdPreferences(ctx.larder.membership.household(ctx.actor)),
  ),
  route("PUT", "/api/households/preferences", "user", async (ctx) =>
    presentHouseholdPreferences(
      await ctx.larder.membership.updateHouseholdPreferences(ctx.actor, await ctx.json()),
    ),
  ),
  route("PUT", "/api/households/permissions", "user", async (ctx) =>
    ctx.larder.directory.userOut(
      await ctx.larder.membership.setPermissions(ctx.actor, await ctx.json()),
      false,
    ),
  ),
  route("GET", "/api/households/statistics", "user", (ctx) => ctx.larder.membership.statistics(ctx.actor)),
  route("GET", "/api/households/invitations", "user", (ctx) =>
    ctx.larder.registration.listInvitations(ctx.actor).map(presentInviteToken),
  ),
  route("POST", "/api/households/invitations", "user", async (ctx) =>
    Reply.created(
      presentInviteToken(await ctx.larder.registration.createInvitation(ctx.actor, await ctx.json())),
    ),
  ),
  route("POST", "/api/households/invitations/email", "user", async (ctx) =>
    ctx.larder.registration.emailInvitation(ctx.actor, await ctx.json()),
  ),
];
