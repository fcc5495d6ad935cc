import { describe, expect, it } from "vitest";
import { canDeleteGroup, canDeleteHousehold } from "./groups.js";

describe("canDeleteGroup", () => {
  const group = { id: "g-home" };

  it("refuses a group that still has users, with Mealie's message", () => {
    expect(canDeleteGroup(group, { userCount: 1, householdCount: 1 })).toEqual({
      ok: false,
      reason: "Cannot delete group with users",
    });
  });

  it("allows a group without users and reports that its households go with it", () => {
    expect(canDeleteGroup(group, { userCount: 0, householdCount: 2 })).toEqual({
      ok: true,
      removesHouseholds: 2,
    });
  });

  it("allows a group with neither users nor households", () => {
    expect(canDeleteGroup(group, { userCount: 0, householdCount: 0 })).toEqual({
      ok: true,
      removesHouseholds: 0,
    });
  });
});

describe("canDeleteHousehold", () => {
  const household = { id: "h-family" };

  it("refuses a household that still has users, with Mealie's message", () => {
    expect(canDeleteHousehold(household, { userCount: 3 })).toEqual({
      ok: false,
      reason: "Cannot delete household with users",
    });
  });

  it("allows an empty household", () => {
    expect(canDeleteHousehold(household, { userCount: 0 })).toEqual({ ok: true });
  });
});
