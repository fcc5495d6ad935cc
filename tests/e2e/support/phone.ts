/**
 * What the phone journeys share: the phone (390 × 844, touch, so CSS sees a coarse pointer) and the
 * measures they take of a page.
 */
import type { Page } from "playwright-core";

export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/** How far the page reaches past the right edge of the screen, in CSS pixels (0 when it fits). */
export const pageOverflow = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The rendered boxes of the elements `selector` matches that are visible. */
export const boxes = (p: Page, selector: string) =>
  p.locator(selector).evaluateAll((els) =>
    els
      .map((el) => {
        const r = el.getBoundingClientRect();
        const name = el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName;
        return { name, width: Math.round(r.width), height: Math.round(r.height) };
      })
      .filter((b) => b.width > 0 && b.height > 0),
  );

/**
 * How tall a finger's target each element `selector` matches is: the height of the band, centred on
 * its text, over which a tap at its middle column lands on it (elementFromPoint, so what covers it
 * counts, and what its padding reaches over too). Scrolls each into view first.
 */
export const tapHeights = (p: Page, selector: string) =>
  p.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      el.scrollIntoView({ block: "center" });
      const r = el.getClientRects()[0] ?? el.getBoundingClientRect();
      const x = r.left + Math.min(r.width / 2, 10);
      const y = r.top + r.height / 2;
      const hits = (dy: number) => el.contains(document.elementFromPoint(x, y + dy));
      let up = 0;
      while (up < 40 && hits(-(up + 1))) up++;
      let down = 0;
      while (down < 40 && hits(down + 1)) down++;
      return { name: el.textContent?.trim() ?? "", height: up + down + 1 };
    }),
  );
