import { describe, expect, it } from "vitest";
import { searchByText } from "./text-search.js";

type Food = { name: string; pluralName?: string | null; aliases?: string[] };
const foods: Food[] = [
  { name: "Green Onion", aliases: ["scallion", "spring onion"] },
  { name: "Onion", pluralName: "Onions" },
  { name: "Jalapeño" },
  { name: "Onion powder" },
  { name: "Garlic" },
];
const fields = [(f: Food) => f.name, (f: Food) => f.pluralName, (f: Food) => f.aliases];
const q = (s: string) => searchByText(foods, s, fields).map((f) => f.name);

describe("searchByText", () => {
  it("matches substrings of any field after folding", () => {
    expect(q("jalapeno")).toEqual(["Jalapeño"]);
    expect(q("scall")).toEqual(["Green Onion"]);
    expect(q("GARL")).toEqual(["Garlic"]);
  });

  it("ranks the exact name, then names starting with the query, then names containing it", () => {
    expect(q("onion")).toEqual(["Onion", "Onion powder", "Green Onion"]);
  });

  it("ORs words and ranks items matching more of them, then name matches, first", () => {
    expect(q("garlic scallion")).toEqual(["Garlic", "Green Onion"]);
    expect(q("powder onion")).toEqual(["Onion powder", "Green Onion", "Onion"]);
  });

  it("treats a quoted phrase as one token", () => {
    expect(q('"onion powder"')).toEqual(["Onion powder"]);
    expect(q('"powder onion"')).toEqual([]);
  });

  it("returns everything for a blank query and nothing for a non-matching one", () => {
    expect(q("  ")).toHaveLength(5);
    expect(q("zzz")).toEqual([]);
  });
});
