import { describe, expect, it } from "vitest";
import { resolveActionUrl } from "./recipe-actions.js";

const v = { pageUrl: "https://food.example/g/home/r/soup", id: "1234", slug: "soup" };

describe("recipe action links", () => {
  it("fills the page address, recipe id and slug placeholders", () => {
    expect(resolveActionUrl("https://hook.example/?r=${slug}&id=${id}&from=${url}", v)).toBe(
      "https://hook.example/?r=soup&id=1234&from=https://food.example/g/home/r/soup",
    );
    expect(resolveActionUrl("https://x.example/${slug}/${slug}", v)).toBe("https://x.example/soup/soup");
  });

  it("opens only http(s) addresses", () => {
    expect(resolveActionUrl("javascript:alert(1)", v)).toBeNull();
    expect(resolveActionUrl("data:text/html,hi", v)).toBeNull();
    expect(resolveActionUrl("not a url", v)).toBeNull();
  });
});
