/** Resolving the caller's group and household, and presenting users, for route modules. */
import type { ApiContext } from "../context.js";
import type { GroupData, HouseholdData } from "../../../core/groups/registry.js";
import { NotFoundError } from "../../../core/errors.js";
import type { UserRecord } from "../../../core/schemas/records.js";
import type { Larder } from "../../../core/larder.js";
import { presentUser } from "../../../core/presenters/people.js";

export function groupOf(ctx: ApiContext): GroupData {
  const g = ctx.larder.groups.byId(ctx.user.groupId);
  if (!g) throw new NotFoundError("group not found");
  return g;
}

export function householdOf(ctx: ApiContext): HouseholdData {
  const h = ctx.larder.groups.household(ctx.user.groupId, ctx.user.householdId);
  if (!h) throw new NotFoundError("household not found");
  return h;
}

export function userOut(larder: Larder, u: UserRecord, withTokens = true): Record<string, unknown> {
  const found = larder.groups.householdById(u.householdId);
  if (!found) throw new NotFoundError("household not found");
  const tokens = withTokens ? larder.auth.listTokens(u.id) : null;
  return presentUser(u, found.group.doc.data, found.household.doc.data, tokens);
}
