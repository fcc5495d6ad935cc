import { describe, expect, it } from "vitest";
import type { Actor } from "../actor.js";
import type { UserRecord } from "../schemas/records.js";
import {
  RECIPE_EDIT_RULES,
  RECIPE_MENU_ITEMS,
  RECIPE_READ_RULES,
  canChangeLocked,
  canDeleteRecipe,
  canReadRecipe,
  canUpdateRecipe,
  recipeMenuItems,
  recipeReadDecision,
  recipeUpdateDecision,
  type RecipeEditContext,
  type RecipeReadContext,
} from "./recipes.js";
import type { PolicyRecipe, RoutedUser } from "./subjects.js";

// Group "home" (slug home) has households "family" and "flat"; group "away" has household "cabin".
function buildUser(over: Partial<RoutedUser> = {}): RoutedUser {
  return {
    id: "u-ann",
    groupId: "g-home",
    groupSlug: "home",
    householdId: "h-family",
    admin: false,
    advanced: false,
    canInvite: false,
    canManage: false,
    canManageHousehold: false,
    canOrganize: false,
    ...over,
  };
}
const owner = buildUser({ id: "u-owner" });
const housemate = buildUser({ id: "u-housemate" });
const neighbour = buildUser({ id: "u-neighbour", householdId: "h-flat" });
const stranger = buildUser({
  id: "u-stranger",
  groupId: "g-away",
  groupSlug: "away",
  householdId: "h-cabin",
});

function buildRecipe(
  over: { public?: boolean; locked?: boolean; householdId?: string; userId?: string } = {},
): PolicyRecipe {
  return {
    userId: over.userId ?? owner.id,
    groupId: "g-home",
    householdId: over.householdId ?? "h-family",
    settings: { public: over.public ?? false, locked: over.locked ?? false },
  };
}

function editCtx(lock: Record<string, boolean | undefined>): RecipeEditContext {
  return {
    householdPrefsOf: (id) =>
      lock[id] === undefined ? undefined : { lockRecipeEditsFromOtherHouseholds: lock[id] },
  };
}
const unlocked = editCtx({ "h-family": false, "h-flat": false });
const lockedHousehold = editCtx({ "h-family": true, "h-flat": true });

function readCtx(opts: { privateHousehold?: boolean; privateGroup?: boolean } = {}): RecipeReadContext {
  return {
    householdPrefsOf: (id) =>
      id === "h-family" ? { privateHousehold: opts.privateHousehold ?? false } : undefined,
    groupPrefsOf: (id) => (id === "g-home" ? { privateGroup: opts.privateGroup ?? false } : undefined),
  };
}

function actorFor(user: RoutedUser): Actor {
  const record: UserRecord = {
    ...user,
    username: user.id,
    fullName: "",
    email: `${user.id}@example.com`,
    authMethod: "Mealie",
    cacheKey: "1",
    showAnnouncements: true,
    lastReadAnnouncement: null,
    createdAt: null,
    updatedAt: null,
  };
  return { kind: "user", user: record };
}

describe("canReadRecipe", () => {
  it("lets a member of the recipe's group read a recipe that is not public", () => {
    expect(
      canReadRecipe(housemate, buildRecipe(), readCtx({ privateGroup: true, privateHousehold: true })),
    ).toBe(true);
    expect(canReadRecipe(neighbour, buildRecipe(), readCtx({ privateGroup: true }))).toBe(true);
  });

  it("lets a visitor read a public recipe of a public household in a public group", () => {
    expect(canReadRecipe(null, buildRecipe({ public: true }), readCtx())).toBe(true);
  });

  it("refuses a visitor a recipe not marked public", () => {
    expect(recipeReadDecision(null, buildRecipe(), readCtx())).toEqual({
      ok: false,
      reason: "the recipe is not public",
    });
  });

  it("refuses a visitor a public recipe of a private household", () => {
    expect(
      recipeReadDecision(null, buildRecipe({ public: true }), readCtx({ privateHousehold: true })),
    ).toEqual({
      ok: false,
      reason: "the recipe's household is private",
    });
  });

  it("refuses a visitor a public recipe of a public household in a private group", () => {
    expect(recipeReadDecision(null, buildRecipe({ public: true }), readCtx({ privateGroup: true }))).toEqual({
      ok: false,
      reason: "the recipe's group is private",
    });
  });

  it("treats unknown household or group preferences as private", () => {
    const recipe = buildRecipe({ public: true, householdId: "h-gone" });
    expect(canReadRecipe(null, recipe, readCtx())).toBe(false);
    const noGroup: RecipeReadContext = {
      householdPrefsOf: () => ({ privateHousehold: false }),
      groupPrefsOf: () => undefined,
    };
    expect(canReadRecipe(null, buildRecipe({ public: true }), noGroup)).toBe(false);
  });

  it("treats another group's user like a visitor: public recipes only", () => {
    expect(canReadRecipe(stranger, buildRecipe({ public: true }), readCtx())).toBe(true);
    expect(canReadRecipe(stranger, buildRecipe(), readCtx())).toBe(false);
    expect(canReadRecipe(stranger, buildRecipe({ public: true }), readCtx({ privateHousehold: true }))).toBe(
      false,
    );
  });

  it("accepts core's Actor as well as a plain user", () => {
    const publicActor: Actor = { kind: "public" };
    expect(canReadRecipe(publicActor, buildRecipe(), readCtx())).toBe(false);
    expect(canReadRecipe(publicActor, buildRecipe({ public: true }), readCtx())).toBe(true);
    expect(canReadRecipe(actorFor(housemate), buildRecipe(), readCtx({ privateGroup: true }))).toBe(true);
    expect(canReadRecipe(actorFor(stranger), buildRecipe(), readCtx())).toBe(false);
  });

  it("states every read rule as a sentence", () => {
    for (const rule of RECIPE_READ_RULES) expect(rule.says).toMatch(/^[a-z].+[a-z]$/);
  });
});

describe("canUpdateRecipe", () => {
  it("lets the owner edit their recipe, even when it is locked", () => {
    expect(canUpdateRecipe(owner, buildRecipe({ locked: true }), lockedHousehold)).toBe(true);
  });

  it("lets the owner edit a recipe left in a household they have moved out of", () => {
    const moved = buildUser({ id: owner.id, householdId: "h-flat" });
    expect(canUpdateRecipe(moved, buildRecipe(), lockedHousehold)).toBe(true);
  });

  it("lets a member of the same household edit an unlocked recipe, whatever the household lock", () => {
    expect(canUpdateRecipe(housemate, buildRecipe(), lockedHousehold)).toBe(true);
  });

  it("refuses everyone but the owner a locked recipe", () => {
    expect(recipeUpdateDecision(housemate, buildRecipe({ locked: true }), unlocked)).toEqual({
      ok: false,
      reason: "the recipe is locked by its owner",
    });
    expect(canUpdateRecipe(neighbour, buildRecipe({ locked: true }), unlocked)).toBe(false);
  });

  it("refuses another household when the recipe's household locks edits from other households", () => {
    expect(recipeUpdateDecision(neighbour, buildRecipe(), lockedHousehold)).toEqual({
      ok: false,
      reason: "the recipe's household locks edits from other households",
    });
  });

  it("lets another household of the group edit when the recipe's household does not lock edits", () => {
    expect(canUpdateRecipe(neighbour, buildRecipe(), unlocked)).toBe(true);
  });

  it("refuses another household when the recipe's household preferences are unknown", () => {
    expect(recipeUpdateDecision(neighbour, buildRecipe(), editCtx({}))).toEqual({
      ok: false,
      reason: "the recipe's household preferences are unknown",
    });
  });

  it("reads the lock of the recipe's household, not the editor's", () => {
    const onlyFlatLocks = editCtx({ "h-family": false, "h-flat": true });
    expect(canUpdateRecipe(neighbour, buildRecipe(), onlyFlatLocks)).toBe(true);
  });

  it("refuses another group's user even when nothing is locked", () => {
    expect(recipeUpdateDecision(stranger, buildRecipe({ public: true }), unlocked)).toEqual({
      ok: false,
      reason: "the recipe belongs to another group",
    });
  });

  it("gives admins no bypass", () => {
    const admin = buildUser({ id: "u-admin", householdId: "h-flat", admin: true });
    expect(canUpdateRecipe(admin, buildRecipe(), lockedHousehold)).toBe(false);
    expect(
      canUpdateRecipe(buildUser({ id: "u-admin", admin: true }), buildRecipe({ locked: true }), unlocked),
    ).toBe(false);
  });

  it("refuses a visitor", () => {
    expect(recipeUpdateDecision(null, buildRecipe(), unlocked)).toEqual({
      ok: false,
      reason: "sign in to change recipes",
    });
  });

  it("states every edit rule as a sentence", () => {
    expect(RECIPE_EDIT_RULES.map((r) => r.says)).toHaveLength(4);
  });
});

describe("canDeleteRecipe", () => {
  it("follows the edit rule case for case", () => {
    const cases: Array<[RoutedUser | null, PolicyRecipe, RecipeEditContext]> = [
      [owner, buildRecipe({ locked: true }), lockedHousehold],
      [housemate, buildRecipe(), unlocked],
      [housemate, buildRecipe({ locked: true }), unlocked],
      [neighbour, buildRecipe(), lockedHousehold],
      [neighbour, buildRecipe(), unlocked],
      [neighbour, buildRecipe(), editCtx({})],
      [stranger, buildRecipe(), unlocked],
      [null, buildRecipe(), unlocked],
    ];
    for (const [user, recipe, ctx] of cases)
      expect(canDeleteRecipe(user, recipe, ctx)).toBe(canUpdateRecipe(user, recipe, ctx));
  });
});

describe("canChangeLocked", () => {
  it("lets only the owner lock or unlock a recipe", () => {
    expect(canChangeLocked(owner, buildRecipe())).toBe(true);
    expect(canChangeLocked(housemate, buildRecipe())).toBe(false);
    expect(canChangeLocked(buildUser({ id: "u-admin", admin: true }), buildRecipe())).toBe(false);
    expect(canChangeLocked(null, buildRecipe())).toBe(false);
  });
});

describe("recipeMenuItems", () => {
  const publicOnly = { print: true, printPreferences: true };
  const allHidden = Object.fromEntries(RECIPE_MENU_ITEMS.map((i) => [i, false]));

  it("shows every item to an own-group user who may edit", () => {
    const menu = recipeMenuItems(housemate, "home", buildRecipe(), unlocked);
    expect(Object.values(menu).every(Boolean)).toBe(true);
    expect(Object.keys(menu)).toEqual([...RECIPE_MENU_ITEMS]);
  });

  it("shows a visitor only print and print preferences", () => {
    expect(recipeMenuItems(null, "home", buildRecipe({ public: true }), unlocked)).toEqual({
      ...allHidden,
      ...publicOnly,
    });
  });

  it("shows another group's user only print and print preferences", () => {
    expect(recipeMenuItems(stranger, "home", buildRecipe({ public: true }), unlocked)).toEqual({
      ...allHidden,
      ...publicOnly,
    });
  });

  it("hides edit and delete, but not the other members' items, on a recipe the user may not edit", () => {
    const menu = recipeMenuItems(housemate, "home", buildRecipe({ locked: true }), unlocked);
    expect(menu).toEqual({
      edit: false,
      delete: false,
      download: true,
      duplicate: true,
      mealplanner: true,
      shoppingList: true,
      share: true,
      print: true,
      printPreferences: true,
    });
  });

  it("without household preferences, hides edit on another household's recipe and shows it on one's own", () => {
    expect(recipeMenuItems(neighbour, "home", buildRecipe()).edit).toBe(false);
    expect(recipeMenuItems(housemate, "home", buildRecipe()).edit).toBe(true);
    expect(recipeMenuItems(owner, "home", buildRecipe({ locked: true })).delete).toBe(true);
  });

  it("treats a route without a group slug as not the user's own group", () => {
    expect(recipeMenuItems(housemate, undefined, buildRecipe(), unlocked)).toEqual({
      ...allHidden,
      ...publicOnly,
    });
  });
});
