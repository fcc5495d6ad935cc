import { describe, expect, it } from "vitest";
import { settingsDrawerLinks, settingsLinks } from "./settings-nav.js";

describe("settings links by permission (spec §6)", () => {
  it("shows nothing to a member without flags, or to a visitor", () => {
    expect(settingsLinks({})).toEqual([]);
    expect(settingsLinks(null)).toEqual([]);
    expect(settingsDrawerLinks({})).toEqual([]);
  });

  it("gives a household manager the household pages but not members or data", () => {
    expect(settingsLinks({ canManageHousehold: true }).map((l) => l.key)).toEqual([
      "household",
      "webhooks",
      "notifiers",
    ]);
  });

  it("gives an organizer data management only, entered at the foods", () => {
    expect(settingsLinks({ canOrganize: true }).map((l) => l.section)).toEqual([
      "data",
      "data",
      "data",
      "data",
    ]);
    expect(settingsDrawerLinks({ canOrganize: true })).toEqual([
      { key: "settings-data", label: "data:nav.title", icon: "settings", to: "/group/data/foods" },
    ]);
  });

  it("enters the household section at members for a group manager who cannot manage the household", () => {
    expect(settingsDrawerLinks({ canManage: true }).map((l) => l.to)).toEqual([
      "/household/members",
      "/group",
    ]);
  });
});
