import { describe, expect, it } from "vitest";
import {
  PERMISSION_CHANGE_RULES,
  USER_DELETE_RULES,
  USER_UPDATE_RULES,
  canChangePermissions,
  canDeleteUser,
  canUpdateUser,
  isOwnGroup,
  superUserIdOf,
} from "./users.js";
import type { PolicyUser } from "./subjects.js";

function buildUser(over: Partial<PolicyUser> = {}): PolicyUser {
  return {
    id: "u-ann",
    groupId: "g-home",
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
const ann = buildUser();
const bob = buildUser({ id: "u-bob" });
const admin = buildUser({ id: "u-admin", admin: true });
const manager = buildUser({ id: "u-manager", canManage: true });

describe("isOwnGroup", () => {
  it("is true for a signed-in user on their own group's route", () => {
    expect(isOwnGroup({ groupSlug: "home" }, "home")).toBe(true);
  });

  it("is false on another group's route, for a visitor, and without a route group", () => {
    expect(isOwnGroup({ groupSlug: "home" }, "away")).toBe(false);
    expect(isOwnGroup(null, "home")).toBe(false);
    expect(isOwnGroup({ groupSlug: "home" }, undefined)).toBe(false);
    expect(isOwnGroup({ groupSlug: "" }, "")).toBe(false);
  });
});

describe("canUpdateUser", () => {
  it("lets a user update themselves", () => {
    expect(canUpdateUser(ann, ann, {})).toEqual({ ok: true });
  });

  it("refuses a non-admin updating another user", () => {
    expect(canUpdateUser(ann, bob, {})).toEqual({ ok: false, reason: "only admins may change other users" });
  });

  it("lets an admin update another user, including their group, household, flags and admin", () => {
    const patch = { groupId: "g-away", householdId: "h-cabin", admin: true, canManage: true };
    expect(canUpdateUser(admin, bob, patch)).toEqual({ ok: true });
  });

  it("refuses a non-admin making themselves admin", () => {
    expect(canUpdateUser(ann, ann, { admin: true })).toEqual({
      ok: false,
      reason: "only admins may grant admin",
    });
  });

  it("lets a non-admin echo their current admin flag", () => {
    expect(canUpdateUser(ann, ann, { admin: false })).toEqual({ ok: true });
  });

  it("refuses a non-admin changing their group or household, and counts null as a change", () => {
    const moved = { ok: false, reason: "only admins may move a user to another group or household" };
    expect(canUpdateUser(ann, ann, { groupId: "g-away" })).toEqual(moved);
    expect(canUpdateUser(ann, ann, { groupId: null })).toEqual(moved);
    expect(canUpdateUser(ann, ann, { householdId: "h-flat" })).toEqual(moved);
    expect(canUpdateUser(ann, ann, { groupId: "g-home", householdId: "h-family" })).toEqual({ ok: true });
  });

  it("refuses a non-admin raising their own permission flags, but accepts the current values", () => {
    expect(canUpdateUser(ann, ann, { canManage: true })).toEqual({
      ok: false,
      reason: "permissions are changed through household permissions",
    });
    expect(canUpdateUser(manager, manager, { canManage: false })).toMatchObject({ ok: false });
    expect(canUpdateUser(manager, manager, { canManage: true, canInvite: false })).toEqual({ ok: true });
  });

  it("refuses an admin demoting themselves", () => {
    expect(canUpdateUser(admin, admin, { admin: false })).toEqual({
      ok: false,
      reason: "you cannot demote yourself",
    });
  });

  it("lets an admin keep their own admin flag and demote another admin", () => {
    expect(canUpdateUser(admin, admin, { admin: true })).toEqual({ ok: true });
    expect(canUpdateUser(admin, buildUser({ id: "u-admin2", admin: true }), { admin: false })).toEqual({
      ok: true,
    });
  });

  it("refuses a visitor", () => {
    expect(canUpdateUser(null, ann, {})).toMatchObject({ ok: false });
  });

  it("has one sentence per rule", () => {
    expect(new Set(USER_UPDATE_RULES.map((r) => r.says)).size).toBe(USER_UPDATE_RULES.length);
  });
});

describe("canChangePermissions", () => {
  it("lets a manager change the permissions of a member of their household", () => {
    expect(canChangePermissions(manager, ann)).toEqual({ ok: true });
  });

  it("refuses a user who cannot manage", () => {
    expect(canChangePermissions(bob, ann)).toEqual({
      ok: false,
      reason: "you do not have permission to manage members",
    });
  });

  it("gives an admin without canManage no bypass", () => {
    expect(canChangePermissions(admin, ann)).toMatchObject({ ok: false });
  });

  it("refuses a target in another group or another household, with Mealie's messages", () => {
    expect(
      canChangePermissions(manager, buildUser({ id: "u-x", groupId: "g-away", householdId: "h-cabin" })),
    ).toEqual({
      ok: false,
      reason: "User is not a member of this group",
    });
    expect(canChangePermissions(manager, buildUser({ id: "u-y", householdId: "h-flat" }))).toEqual({
      ok: false,
      reason: "User is not a member of this household",
    });
  });

  it("refuses a manager changing their own permissions", () => {
    expect(canChangePermissions(manager, manager)).toEqual({
      ok: false,
      reason: "you cannot change your own permissions",
    });
  });

  it("refuses a visitor", () => {
    expect(canChangePermissions(null, ann)).toMatchObject({ ok: false });
    expect(PERMISSION_CHANGE_RULES).toHaveLength(4);
  });
});

describe("canDeleteUser", () => {
  const site = { superUserId: "u-root" };

  it("lets an admin delete another user", () => {
    expect(canDeleteUser(admin, bob, site)).toEqual({ ok: true });
  });

  it("refuses a non-admin, even with every other flag", () => {
    const mighty = buildUser({
      canManage: true,
      canManageHousehold: true,
      canInvite: true,
      canOrganize: true,
    });
    expect(canDeleteUser(mighty, bob, site)).toEqual({ ok: false, reason: "only admins may delete users" });
  });

  it("refuses an admin deleting themselves", () => {
    expect(canDeleteUser(admin, admin, site)).toEqual({ ok: false, reason: "you cannot delete yourself" });
  });

  it("refuses deleting the super user, even by another admin", () => {
    expect(canDeleteUser(admin, { id: "u-root" }, site)).toEqual({
      ok: false,
      reason: "the super user cannot be deleted",
    });
  });

  it("refuses the super user deleting themselves as self-deletion", () => {
    const root = buildUser({ id: "u-root", admin: true });
    expect(canDeleteUser(root, root, site)).toEqual({ ok: false, reason: "you cannot delete yourself" });
  });

  it("allows deletion on a site without a super user", () => {
    expect(canDeleteUser(admin, bob, { superUserId: null })).toEqual({ ok: true });
    expect(canDeleteUser(null, bob, site)).toMatchObject({ ok: false });
    expect(USER_DELETE_RULES).toHaveLength(3);
  });
});

describe("superUserIdOf", () => {
  const at = (id: string, admin: boolean, createdAt: string | null) => ({ id, admin, createdAt });

  it("picks the earliest-created admin, ignoring older non-admins", () => {
    const users = [
      at("u-old", false, "2020-01-01T00:00:00Z"),
      at("u-b", true, "2022-01-01T00:00:00Z"),
      at("u-a", true, "2021-06-01T00:00:00Z"),
    ];
    expect(superUserIdOf(users)).toBe("u-a");
  });

  it("ranks a missing or unreadable date last and breaks ties by document order", () => {
    expect(superUserIdOf([at("u-x", true, null), at("u-y", true, "2024-01-01")])).toBe("u-y");
    expect(superUserIdOf([at("u-x", true, "garbage"), at("u-y", true, null)])).toBe("u-x");
    expect(superUserIdOf([at("u-1", true, "2024-01-01"), at("u-2", true, "2024-01-01")])).toBe("u-1");
  });

  it("compares instants, not strings, across time zone notations", () => {
    expect(
      superUserIdOf([at("u-z", true, "2024-01-01T01:00:00Z"), at("u-o", true, "2024-01-01T01:30:00+01:00")]),
    ).toBe("u-o");
  });

  it("is null when the site has no admin", () => {
    expect(superUserIdOf([at("u-x", false, null)])).toBeNull();
    expect(superUserIdOf([])).toBeNull();
  });
});
