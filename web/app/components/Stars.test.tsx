import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StarInput, Stars, toHalfStars } from "./Stars.js";

describe("Stars", () => {
  it("shows a value to the nearest half star, within 0–5", () => {
    expect([null, 0, 3.2, 3.25, 3.7, 3.75, 4.9, 7, -1].map(toHalfStars)).toEqual([
      0, 0, 3, 3.5, 3.5, 4, 5, 5, 0,
    ]);
  });

  it("is one labelled image filled to the value", () => {
    const html = renderToString(<Stars value={3.7} label="Rating: 3.7 of 5" size="xs" />);
    expect(html).toBe(
      '<span role="img" aria-label="Rating: 3.7 of 5" class="stars stars--xs" style="--stars-fill:70%"></span>',
    );
  });
});

describe("StarInput", () => {
  it("is a radio group of five named stars with the value checked", () => {
    const html = renderToString(
      <StarInput value={4} onChange={() => {}} starLabel={(n) => `${n} of 5`} aria-labelledby="l" />,
    );
    expect(html).toContain('role="radiogroup" class="star-input" aria-labelledby="l"');
    const radios = [...html.matchAll(/<input type="radio"[^>]*>/g)].map((m) => m[0]);
    expect(radios).toHaveLength(5);
    expect(radios.map((r) => /aria-label="([^"]*)"/.exec(r)?.[1])).toEqual([
      "1 of 5",
      "2 of 5",
      "3 of 5",
      "4 of 5",
      "5 of 5",
    ]);
    expect(radios.map((r) => r.includes("checked"))).toEqual([false, false, false, true, false]);
    // Stars up to the value are drawn filled; each label points at its radio.
    expect(html.match(/data-filled="true"/g)).toHaveLength(4);
    for (const r of radios) expect(html).toContain(`for="${/id="([^"]*)"/.exec(r)?.[1]}"`);
  });
});
