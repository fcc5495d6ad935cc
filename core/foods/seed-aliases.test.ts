/**
 * The en-US seed's aliases for foods written a word apart from their name: whole-name matching
 * (decision 0231) no longer takes "saffron strands" for "saffron threads", nor "garden peas" for peas,
 * so a new group's vocabulary names them (decision 0246).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMatcher } from "../parsers/matcher.js";
import type { ParserFood } from "../plugins/kinds.js";

const seed = (file: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../../templates/seed/en-US/${file}`, import.meta.url), "utf8"),
    ) as Array<{
      name: string;
      aliases?: string[];
    }>
  ).map((x, i) => ({ ...x, id: `${file}-${i}`, aliases: (x.aliases ?? []).map((name) => ({ name })) }));
const match = createMatcher({ foods: seed("foods.json") as ParserFood[], units: [] });

describe("the en-US seed vocabulary", () => {
  it.each([
    ["saffron strands", "saffron"],
    ["garden peas", "pea"],
    ["garden pea", "pea"],
    ["french beans", "green bean"],
    ["root ginger", "ginger"],
    ["cilantro leaves", "cilantro"],
    ["parsley leaves", "parsley"],
    ["superfine sugar", "sugar"],
    ["vanilla essence", "vanilla extract"],
    // Named, so that the brute parser does not read "6 filet mignons" as six fillets of "mignons".
    ["filet mignons", "filet mignon"],
    // British and Australian names (decision 0251).
    ["self-raising flour", "self-rising flour"],
    ["self raising flour", "self-rising flour"],
    ["sea salt flakes", "sea salt"],
    ["back bacon", "bacon"],
    ["thickened cream", "heavy cream"],
    ["lebanese cucumbers", "cucumber"],
    ["rapeseed oil", "vegetable oil"],
    ["cooking oil", "vegetable oil"],
  ])("matches %s to the food %s", (text, food) => {
    expect(match.food(text)?.name).toBe(food);
  });

  it("has the British and Australian counting units, so that they are no unit one letter away", () => {
    const units = createMatcher({ foods: [], units: seed("units.json") as never[] });
    expect(units.exactUnit("rashers")?.name).toBe("rasher");
    expect(units.exactUnit("punnet")?.name).toBe("punnet");
    expect(units.exactUnit("sachets")?.name).toBe("sachet");
    expect(units.exactUnit("pkt")?.name).toBe("package");
  });

  it("names no food by a bare 'oil': 'butter or olive oil' would no longer read as two foods", () => {
    expect(match.exactFood("oil")).toBeNull();
  });

  it("names each alias once, and no alias is another food's name", () => {
    const owner = new Map<string, string>();
    for (const f of seed("foods.json"))
      for (const key of [f.name, ...f.aliases.map((a) => a.name)]) {
        expect(owner.get(key.toLowerCase()) ?? f.name, key).toBe(f.name);
        owner.set(key.toLowerCase(), f.name);
      }
  });
});
