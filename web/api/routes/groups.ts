/** /api/groups (mealie-api-notes §4.4): the caller's group, its members, preferences, storage, households. */
import { route } from "../router.js";
import type { ApiContext } from "../context.js";
import { listQuery } from "../../../core/query/list.js";
import { textRanker } from "../../../core/search/text-search.js";
import { queryRecord } from "../../../core/recipes/recipe-list.js";
import { userAttributes } from "../../../core/query/attributes.js";
import { householdAttributes, type HouseholdQueryItem } from "../../../core/groups/attributes.js";
import type { UserRecord } from "../../../core/schemas/records.js";
import {
  presentGroupPreferences,
  presentGroupSummary,
  presentHouseholdSummary,
  presentUserSummary,
} from "../../../core/presenters/people.js";

function householdsPage(ctx: ApiContext): Record<string, unknown> {
  const group = ctx.larder.membership.group(ctx.actor);
  const items: HouseholdQueryItem[] = ctx.larder.membership
    .households(ctx.actor)
    .map((record) => ({ record, groupName: group.name }));
  const env = listQuery(items, queryRecord(ctx.query), householdAttributes, {
    route: "/api/groups/households",
    search: textRanker<HouseholdQueryItem>([(h) => h.record.name]),
    nullsInLinks: "none",
  });
  return { ...env, items: env.items.map((h) => presentHouseholdSummary(h.record)) };
}

export const groupRoutes = [
  route("GET", "/api/groups/self", "user", (ctx) =>
    presentGroupSummary(ctx.larder.membership.group(ctx.actor)),
  ),
  route("GET", "/api/groups/members", "user", (ctx) => {
    const env = listQuery(
      ctx.larder.membership.groupMembers(ctx.actor),
      queryRecord(ctx.query),
      userAttributes,
      {
        route: "/api/groups/members",
        search: textRanker<UserRecord>([(u) => u.username, (u) => u.fullName]),
        nullsInLinks: "none",
      },
    );
    return { ...env, items: env.items.map(presentUserSummary) };
  }),
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
  route("GET", "/api/groups/households", "user", householdsPage),
  route("GET", "/api/groups/households/:slugOrId", "user", (ctx) =>
    presentHouseholdSummary(ctx.larder.membership.householdInGroup(ctx.actor, ctx.params.slugOrId)),
  ),
];
