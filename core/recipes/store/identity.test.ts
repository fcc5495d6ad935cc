import { describe, expect, it } from "vitest";
import { derivedId, isUuid } from "../../util/ids.js";
import { compareLocation, patchFrontMatter, recipeIdFor, usableId } from "./identity.js";

const ID = "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10";
const OWNER = "7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11";

describe("derived recipe ids", () => {
  it("are the group-and-slug hash, the same on every machine", () => {
    expect(recipeIdFor("home", "soup", () => false)).toBe(derivedId("home", "recipe", "soup"));
    expect(isUuid(recipeIdFor("home", "soup", () => false))).toBe(true);
  });

  it("step aside deterministically when the derived id was copied into another file", () => {
    const first = derivedId("home", "recipe", "soup");
    const next = recipeIdFor("home", "soup", (id) => id === first);
    expect(next).not.toBe(first);
    expect(next).toBe(recipeIdFor("home", "soup", (id) => id === first));
  });

  it("accept only UUIDs from front matter", () => {
    expect(usableId(ID)).toBe(true);
    expect(usableId("42")).toBe(false);
    expect(usableId(null)).toBe(false);
  });
});

describe("duplicate-id order", () => {
  it("sorts by group folder, then file name, by code unit (not locale)", () => {
    const sorted = [
      { groupSlug: "b", slug: "a" },
      { groupSlug: "a", slug: "tikka-mild" },
      { groupSlug: "a", slug: "tikka" },
      { groupSlug: "a", slug: "Z" },
    ].sort(compareLocation);
    expect(sorted.map((l) => `${l.groupSlug}/${l.slug}`)).toEqual(["a/Z", "a/tikka", "a/tikka-mild", "b/a"]);
  });
});

describe("patching identity into front matter", () => {
  it("inserts an id as the first key and touches no other line", () => {
    const text = "---\nname: Soup\ntags: [a]\n---\nHot.\n";
    expect(patchFrontMatter(text, { id: ID })).toBe(`---\nid: ${ID}\nname: Soup\ntags: [a]\n---\nHot.\n`);
  });

  it("replaces a duplicate id in place", () => {
    const text = `---\nid: ${OWNER}\nname: Soup\n---\n`;
    expect(patchFrontMatter(text, { id: ID })).toBe(`---\nid: ${ID}\nname: Soup\n---\n`);
  });

  it("puts a missing owner after the name, in the documented key order", () => {
    const text = `---\nid: ${ID}\nname: Soup\nrecipeServings: 2\n---\n`;
    expect(patchFrontMatter(text, { owner: OWNER })).toBe(
      `---\nid: ${ID}\nname: Soup\nowner: ${OWNER}\nrecipeServings: 2\n---\n`,
    );
  });

  it("quotes an owner that is not a UUID so YAML reads it as a string", () => {
    expect(patchFrontMatter("---\nname: Soup\n---\n", { owner: "123" })).toBe(
      '---\nname: Soup\nowner: "123"\n---\n',
    );
  });

  it("keeps CRLF line endings and a byte-order mark", () => {
    const text = "\uFEFF---\r\nname: Soup\r\n---\r\nHot.\r\n";
    expect(patchFrontMatter(text, { id: ID })).toBe(
      `\uFEFF---\r\nid: ${ID}\r\nname: Soup\r\n---\r\nHot.\r\n`,
    );
  });

  it("adds front matter to a file that has none", () => {
    expect(patchFrontMatter("Just a note.\n", { id: ID })).toBe(`---\nid: ${ID}\n---\nJust a note.\n`);
  });

  it("gives up on an id spread over several lines (the canonical writer takes over)", () => {
    expect(patchFrontMatter("---\nid:\n  nested: 1\nname: Soup\n---\n", { id: ID })).toBeNull();
    expect(patchFrontMatter("---\nname: Soup\n", { id: ID })).toBeNull();
  });
});
