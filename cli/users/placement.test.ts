import { describe, expect, it } from "vitest";
import { pickPlacement, type PlaceOption } from "./placement.js";

const groups: PlaceOption[] = [
  { slug: "club", name: "Supper Club", households: [{ slug: "table-1", name: "Table 1" }] },
  {
    slug: "home",
    name: "Home",
    households: [
      { slug: "annex", name: "Annex" },
      { slug: "family", name: "Family" },
    ],
  },
];

describe("pickPlacement", () => {
  it("defaults to the site's default group and its Family household", () => {
    expect(pickPlacement(groups)).toEqual({
      group: { slug: "home", name: "Home" },
      household: { slug: "family", name: "Family" },
    });
    expect(pickPlacement(groups, undefined, undefined, "club").household.slug).toBe("table-1");
  });

  it("accepts a slug or a display name, case-insensitively for names", () => {
    expect(pickPlacement(groups, "supper club").group.slug).toBe("club");
    expect(pickPlacement(groups, "home", "Annex").household.slug).toBe("annex");
  });

  it("falls back to the first group when the default one is gone", () => {
    expect(pickPlacement(groups.slice(0, 1)).group.slug).toBe("club");
  });

  it("fails with exit code 4 for an unknown group or household", () => {
    expect(() => pickPlacement(groups, "nope")).toThrow(
      expect.objectContaining({ exitCode: 4, message: "No such group: nope" }),
    );
    expect(() => pickPlacement(groups, "home", "attic")).toThrow(expect.objectContaining({ exitCode: 4 }));
  });
});
