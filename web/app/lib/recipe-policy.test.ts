import { describe, expect, it } from "vitest";
// The replica is checked against core's policy itself (tests are never bundled).
// eslint-disable-next-line no-restricted-imports
import * as core from "../../../core/policy/index.js";
import { RECIPE_MENU_ITEMS, canUpdateRecipe, isOwnGroup, recipeMenuItems, type ViewerUser } from "./recipe-policy.js";

const flags = { advanced: false, canInvite: false, canManage: false, canManageHousehold: false, canOrganize: false };
const user = (id: string, groupId: string, groupSlug: string, householdId: string, admin = false): ViewerUser => ({
  id,
  groupId,
  groupSlug,
  householdId,
  admin,
});
const users: (ViewerUser | null)[] = [
  null,
  user("owner", "g1", "home", "h1"),
  user("mate", "g1", "home", "h1"),
  user("neighbour", "g1", "home", "h2"),
  user("neighbour-admin", "g1", "home", "h2", true),
  user("stranger", "g2", "away", "h3"),
];
const locks: (boolean | undefined)[] = [true, false, undefined];

describe("recipe policy replica", () => {
  it("agrees with core/policy on every viewer, route, lock and household preference", () => {
    for (const u of users)
      for (const route of ["home", "away", "", null])
        for (const locked of [false, true])
          for (const hhLock of locks) {
            const recipe = { userId: "owner", groupId: "g1", householdId: "h1", settings: { locked, public: true } };
            const lockOf = () => (hhLock === undefined ? undefined : { lockRecipeEditsFromOtherHouseholds: hhLock });
            const coreUser = u && { ...flags, ...u };
            const ctx = { householdPrefsOf: lockOf };
            const label = JSON.stringify({ u: u?.id, route, locked, hhLock });
            expect(canUpdateRecipe(u, recipe, lockOf), label).toBe(core.canUpdateRecipe(coreUser, recipe, ctx));
            expect(recipeMenuItems(u, route, recipe, lockOf), label).toEqual(core.recipeMenuItems(coreUser, route, recipe, ctx));
            expect(isOwnGroup(u, route), label).toBe(core.isOwnGroup(coreUser, route));
          }
  });

  it("lists the same menu items as core, in the same order", () => {
    expect([...RECIPE_MENU_ITEMS]).toEqual([...core.RECIPE_MENU_ITEMS]);
  });
});
