import { describe, expect, it } from "vitest";
import { ForbiddenError } from "../errors.js";
import {
  GUARD_NAMES,
  GUARD_RULES,
  checkGuards,
  requirePermission,
  type GuardName,
  type GuardUser,
} from "./guards.js";
import { PERMISSION_FLAGS } from "./subjects.js";

function buildUser(over: Partial<GuardUser> = {}): GuardUser {
  return {
    groupSlug: "home",
    admin: false,
    advanced: false,
    canInvite: false,
    canManage: false,
    canManageHousehold: false,
    canOrganize: false,
    ...over,
  };
}
const flagGuards = ["admin", "advanced", "canManageHousehold", "canManage", "canOrganize"] as const;

describe("checkGuards", () => {
  it("lets everyone, visitors included, into a route without guards", () => {
    expect(checkGuards(null, {})).toEqual({ ok: true });
    expect(checkGuards(buildUser(), {})).toEqual({ ok: true });
  });

  it("ignores guards set to false", () => {
    expect(checkGuards(null, { admin: false, groupMatch: false })).toEqual({ ok: true });
  });

  it.each(GUARD_NAMES)("refuses a visitor on a route guarded by %s and says so", (name: GuardName) => {
    const verdict = checkGuards(null, { [name]: true }, { groupSlug: "home" });
    expect(verdict).toEqual({ ok: false, reason: `not signed in; the route ${GUARD_RULES[name].says}` });
  });

  it.each(flagGuards)("passes the %s guard only for a user holding the flag", (flag) => {
    expect(checkGuards(buildUser({ [flag]: true }), { [flag]: true })).toEqual({ ok: true });
    expect(checkGuards(buildUser(), { [flag]: true })).toEqual({
      ok: false,
      reason: `guard ${flag} failed: the route ${GUARD_RULES[flag].says}`,
    });
  });

  it("gives admins no bypass of the permission-flag guards", () => {
    expect(checkGuards(buildUser({ admin: true }), { canManage: true })).toMatchObject({ ok: false });
  });

  it("passes the group-match guard on the user's own group only", () => {
    expect(checkGuards(buildUser(), { groupMatch: true }, { groupSlug: "home" })).toEqual({ ok: true });
    expect(checkGuards(buildUser(), { groupMatch: true }, { groupSlug: "away" })).toMatchObject({
      ok: false,
    });
  });

  it("fails the group-match guard when the route or the user lacks a group slug", () => {
    expect(checkGuards(buildUser(), { groupMatch: true })).toMatchObject({ ok: false });
    expect(
      checkGuards(buildUser({ groupSlug: undefined }), { groupMatch: true }, { groupSlug: "home" }),
    ).toMatchObject({ ok: false });
  });

  it("requires every guard of a combination", () => {
    const guards = { admin: true, groupMatch: true };
    expect(checkGuards(buildUser({ admin: true }), guards, { groupSlug: "home" })).toEqual({ ok: true });
    expect(checkGuards(buildUser({ admin: true }), guards, { groupSlug: "away" })).toEqual({
      ok: false,
      reason: `guard groupMatch failed: the route ${GUARD_RULES.groupMatch.says}`,
    });
    expect(checkGuards(buildUser(), guards, { groupSlug: "home" })).toMatchObject({ ok: false });
  });

  it("reports the first failing guard in the fixed order, whatever order the route lists them", () => {
    const verdict = checkGuards(
      buildUser(),
      { groupMatch: true, canOrganize: true, advanced: true },
      { groupSlug: "away" },
    );
    expect(verdict).toEqual({
      ok: false,
      reason: `guard advanced failed: the route ${GUARD_RULES.advanced.says}`,
    });
  });

  it("passes a user holding everything a busy route asks for", () => {
    const user = buildUser({ advanced: true, canManage: true, canManageHousehold: true, canOrganize: true });
    const guards = {
      advanced: true,
      canManage: true,
      canManageHousehold: true,
      canOrganize: true,
      groupMatch: true,
    };
    expect(checkGuards(user, guards, { groupSlug: "home" })).toEqual({ ok: true });
  });
});

describe("requirePermission", () => {
  it("returns quietly when the user holds the flag", () => {
    for (const flag of PERMISSION_FLAGS)
      expect(() => requirePermission(buildUser({ [flag]: true }), flag)).not.toThrow();
  });

  it("throws a 403 with Mealie's bare Forbidden body when the flag is missing", () => {
    for (const flag of PERMISSION_FLAGS) {
      let caught: unknown;
      try {
        requirePermission(buildUser(), flag);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ForbiddenError);
      const error = caught as ForbiddenError;
      expect(error.status).toBe(403);
      expect(error.body()).toEqual({ detail: "Forbidden" });
    }
  });

  it("does not let admin stand in for another flag", () => {
    expect(() => requirePermission(buildUser({ admin: true }), "canInvite")).toThrow(ForbiddenError);
  });
});
