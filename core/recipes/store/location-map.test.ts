import { describe, expect, it } from "vitest";
import { LocationMap } from "./location-map.js";

describe("values by group and slug", () => {
  it("hold one value per location, count them, and forget a group left empty", () => {
    const m = new LocationMap<{ groupSlug: string; slug: string; n: number }>();
    m.set({ groupSlug: "home", slug: "soup", n: 1 });
    m.set({ groupSlug: "home", slug: "soup", n: 2 });
    m.set({ groupSlug: "club", slug: "soup", n: 3 });
    expect(m.size).toBe(2);
    expect(m.get("home", "soup")?.n).toBe(2);
    expect([...m.values()].map((v) => v.n)).toEqual([2, 3]);
    expect(m.delete("home", "stew")).toBeUndefined();
    expect(m.delete("home", "soup")?.n).toBe(2);
    expect(m.delete("home", "soup")).toBeUndefined();
    expect(m.size).toBe(1);
    expect(m.group("home")).toBeUndefined();
    expect([...m.groups()].map(([g, values]) => [g, values.size])).toEqual([["club", 1]]);
  });
});
