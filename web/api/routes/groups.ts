/** /api/groups/self and /api/households/self (the rest of people management is issue #6). */
import { route } from "../router.js";
import { groupOf, householdOf } from "./scope.js";
import { presentGroupSummary, presentHouseholdInDb } from "../../../core/presenters/people.js";

export const groupRoutes = [
  route("GET", "/api/groups/self", "user", (ctx) => presentGroupSummary(groupOf(ctx).doc.data)),
  route("GET", "/api/households/self", "user", (ctx) => {
    const h = householdOf(ctx).doc.data;
    const users = ctx.larder.users.all().filter((u) => u.householdId === h.id);
    return presentHouseholdInDb(h, groupOf(ctx).doc.data, users);
  }),
];
