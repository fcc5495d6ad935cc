/**
 * The meal planner in languages with longer words than English (German, French, Dutch): no button on the
 * planner, the plan rules page or their dialogs cuts its label off, on a phone or a desktop screen. Mantine's buttons
 * keep their label on one line and hide what overflows, so a label too long for its place was clipped.
 * Screenshots: test-results/screenshots/planner-<lang>-<screen>.png.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  describeBrowser,
  hydrated,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  startApp,
  type App,
} from "./support/browser.js";

const LANGUAGES = ["de-DE", "fr-FR", "nl-NL"];
const SCREENS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
};

/** Buttons (and their inner label) whose content is wider than the box that shows it. */
function clippedButtons(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, a.mantine-Button-root, [role=button]")]
      .filter((b) => b.offsetParent !== null)
      .flatMap((b) =>
        [b, ...b.querySelectorAll<HTMLElement>("[class*=Button-label], [class*=Button-inner]")]
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map(() => `${b.textContent?.trim() || b.getAttribute("aria-label")}`),
      ),
  );
}

describeBrowser("meal planner in longer languages", () => {
  let app: App;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    const slug = await app.larder.recipes.create(app.adminActor, { name: "Chili con carne" });
    const recipe = app.larder.recipes.get(app.adminActor, slug);
    const today = new Date().toISOString().slice(0, 10);
    await app.larder.mealplans.create(app.adminActor, {
      date: today,
      entryType: "dinner",
      recipeId: recipe.id,
    });
    await app.larder.mealplans.createRule(app.adminActor, {
      day: "monday",
      entryType: "dinner",
      queryFilterString: 'name = "Chili con carne"',
    });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  for (const lang of LANGUAGES)
    for (const [screen, viewport] of Object.entries(SCREENS))
      it(`shows every planner button's whole label in ${lang} on a ${screen}`, async () => {
        const page = await newPage(browser, app, { viewport, errors, locale: lang });
        await page.context().addCookies([{ name: "lang", value: lang, url: app.url }]);
        await signIn(page);
        for (const path of ["/household/mealplan/planner/view", "/household/mealplan/settings"]) {
          await page.goto(path);
          await hydrated(page);
          await page.waitForFunction((l) => document.documentElement.lang === l, lang);
          await page.locator(".page").first().waitFor();
          await screenshot(page, `planner-${lang}-${screen}${path.endsWith("settings") ? "-rules" : ""}`);
          expect(await clippedButtons(page), `${path} in ${lang}`).toEqual([]);
        }
        await page.getByTestId("rule-new").click();
        await page.getByRole("dialog").getByRole("button").last().waitFor();
        expect(await clippedButtons(page), `the rule dialog in ${lang}`).toEqual([]);
        await page.keyboard.press("Escape");
        await page.goto("/household/mealplan/planner/view");
        await hydrated(page);
        await page.getByTestId("plan-day-add").first().click();
        await page.getByTestId("entry-dialog").getByRole("button").last().waitFor();
        expect(await clippedButtons(page), `the entry dialog in ${lang}`).toEqual([]);
        await page.context().close();
        expect(errors).toEqual([]);
      });
});
