/**
 * Accessibility in Chromium (issue 22, decision 0108): axe-core, injected into each page, reports no
 * serious or critical violation on every main screen, in light, dark and right-to-left (ar-SA); and the
 * keyboard reaches the shell's actions with a visible focus ring. New screens join by adding a line to
 * SCREENS. Screenshots: test-results/screenshots/a11y-*.png.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import type { AxeResults } from "axe-core";
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

const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface Screen {
  name: string;
  /** The path to open; `app` gives the group slug, the admin's id and the seeded share token. */
  path: (app: App, seeded: Seeded) => string;
  /** Open without signing in (login page, public share link). */
  visitor?: boolean;
  /** Bring the screen into the state to check (open a dialog). */
  open?: (page: Page) => Promise<void>;
  /** What `open` shows is a dialog that Escape closes, leaving the page as it was before. */
  dialog?: boolean;
}

interface Seeded {
  shareToken: string;
}

/** Every main screen. A new screen adds a line here. */
const SCREENS: Screen[] = [
  { name: "login", path: () => "/login", visitor: true },
  { name: "home", path: (a) => `/g/${a.groupSlug}` },
  { name: "search-results", path: (a) => `/g/${a.groupSlug}?search=stew` },
  {
    name: "search-dialog",
    path: (a) => `/g/${a.groupSlug}`,
    open: async (page) => {
      await page.keyboard.press("/");
      await page.getByRole("dialog").waitFor();
      await page.keyboard.type("stew");
      await page.locator("#search-result-0").waitFor();
    },
    dialog: true,
  },
  {
    name: "language-dialog",
    path: (a) => `/g/${a.groupSlug}`,
    open: async (page) => {
      await page.click("[data-testid=language-button]");
      await page.getByRole("dialog").waitFor();
    },
    dialog: true,
  },
  { name: "recipe", path: (a) => `/g/${a.groupSlug}/r/tomato-stew` },
  {
    name: "cook-mode",
    path: (a) => `/g/${a.groupSlug}/r/tomato-stew`,
    open: async (page) => {
      await page.locator("[data-testid=mode-switch] label[for$=-cook]").click();
      await page.getByTestId("cook-mode").waitFor();
    },
  },
  { name: "editor", path: (a) => `/g/${a.groupSlug}/r/tomato-stew?edit=true` },
  { name: "create-new", path: (a) => `/g/${a.groupSlug}/r/create/new` },
  { name: "create-url", path: (a) => `/g/${a.groupSlug}/r/create/url` },
  { name: "profile", path: () => "/user/profile" },
  { name: "favorites", path: (a) => `/user/${a.admin.id}/favorites` },
  { name: "translating-guide", path: () => "/help/translating" },
  { name: "not-found", path: (a) => `/g/${a.groupSlug}/r/no-such-recipe` },
  { name: "shared-recipe", path: (a, s) => `/g/${a.groupSlug}/shared/r/${s.shareToken}`, visitor: true },
  { name: "planner", path: () => "/household/mealplan/planner/view" },
  { name: "planner-rules", path: () => "/household/mealplan/settings" },
  {
    name: "planner-rule-builder",
    path: () => "/household/mealplan/settings",
    open: async (page) => {
      await page.getByTestId("rule-new").click();
      await page.getByTestId("rule-condition-add").click();
      await page.getByTestId("rule-condition").waitFor();
    },
  },
  { name: "shopping-lists", path: () => "/shopping-lists" },
  { name: "timeline", path: (a) => `/g/${a.groupSlug}/recipes/timeline` },
  { name: "cookbooks", path: (a) => `/g/${a.groupSlug}/cookbooks` },
  { name: "tags", path: (a) => `/g/${a.groupSlug}/recipes/tags` },
  { name: "migrations", path: (a) => `/g/${a.groupSlug}/data/migrations` },
  { name: "household-settings", path: () => "/household" },
  { name: "household-members", path: () => "/household/members" },
  { name: "foods", path: () => "/group/data/foods" },
  { name: "admin-settings", path: () => "/admin/site-settings" },
  { name: "admin-users", path: () => "/admin/manage/users" },
  { name: "admin-backups", path: () => "/admin/backups" },
  { name: "register", path: () => "/register", visitor: true },
];

interface Mode {
  name: string;
  cookies: { name: string; value: string }[];
  context?: BrowserContextOptions;
}

const MODES: Mode[] = [
  { name: "light", cookies: [{ name: "mantine-color-scheme", value: "light" }] },
  {
    name: "dark",
    cookies: [{ name: "mantine-color-scheme", value: "dark" }],
    context: { colorScheme: "dark" },
  },
  {
    name: "rtl",
    cookies: [
      { name: "lang", value: "ar-SA" },
      { name: "mantine-color-scheme", value: "light" },
    ],
  },
];

interface Finding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Serves axe-core over loopback HTTP, cacheable: a script the browser fetched before comes with its
 * compiled code, where one injected as text is parsed again on every page (170 ms against 30 ms each).
 */
async function serveAxe(): Promise<{ url: string; close: () => Promise<void> }> {
  const body = readFileSync(AXE_SCRIPT);
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/javascript", "cache-control": "public, max-age=3600" });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/axe.min.js`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

interface AxeApi {
  run: (ctx: Document, o: object) => Promise<AxeResults>;
  /** Internal, hence optional: without it every rule runs, which is slower but finds the same. */
  _audit?: { rules: { id: string; impact?: string }[] };
}

async function axe(page: Page, scriptUrl: string): Promise<AxeResults> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ url: scriptUrl });
  return page.evaluate(() => {
    const api = (window as unknown as { axe: AxeApi }).axe;
    // Each axe rule has one impact; a rule that can only find minor or moderate problems cannot fail
    // this test, so it is not run (a third of axe's time).
    const rules = Object.fromEntries(
      (api._audit?.rules ?? [])
        .filter((r) => r.impact === "minor" || r.impact === "moderate")
        .map((r) => [r.id, { enabled: false }]),
    );
    return api.run(document, { resultTypes: ["violations"], rules });
  });
}

/**
 * Waits for running CSS transitions and animations (a dialog fading in) to end: axe measures contrast
 * from the colours painted now, and a half-opaque dialog reads as low contrast.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // A transition starts on the frame after its element mounts; give it two frames to begin.
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
  });
}

describeBrowser("accessibility (Chromium + axe-core)", () => {
  let app: App;
  let browser: Browser;
  let axeScript: { url: string; close: () => Promise<void> };
  const seeded: Seeded = { shareToken: "" };
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    const a = app.adminActor;
    await app.larder.recipes.create(a, { name: "Vegetable Stock" });
    await app.larder.recipes.create(a, {
      name: "Tomato Stew",
      description: "A thick stew for cold evenings.",
      recipeServings: 4,
      totalTime: "1 hour 30 minutes",
      prepTime: "20 min",
      tags: ["Dinner"],
      recipeCategory: ["Mains"],
      recipeIngredient: [
        { referenceId: "r1", title: "Stew", quantity: 2, unit: "cup", food: "tomato" },
        { referenceId: "r2", quantity: 1.5, food: "onion", note: "diced" },
        { referenceId: "r3", quantity: 0.5, unit: "teaspoon", food: "salt" },
      ],
      recipeInstructions: [
        { title: "Prepare", summary: "Chop", text: "Chop the *onion*.", ingredientReferences: [] },
        { text: "Simmer for 90 minutes.", ingredientReferences: [] },
      ],
      notes: [{ title: "Keeps", text: "Three days in the fridge." }],
      settings: { public: false },
    });
    const stewId = app.larder.recipes.get(a, "tomato-stew").id;
    const share = await app.larder.shares.create(a, { recipeId: stewId });
    seeded.shareToken = share.id;
    browser = await launchBrowser();
    axeScript = await serveAxe();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
    await axeScript?.close();
  });

  async function pageFor(mode: Mode, signedIn: boolean): Promise<Page> {
    // The app's Content-Security-Policy would refuse the injected axe script.
    const page = await newPage(browser, app, { errors, bypassCSP: true, ...mode.context });
    await page.context().addCookies(mode.cookies.map((c) => ({ ...c, url: app.url })));
    if (signedIn) await signIn(page);
    return page;
  }

  it.each(MODES)(
    "reports no serious or critical violation on any screen ($name)",
    async (mode) => {
      const findings: Finding[] = [];
      const member = await pageFor(mode, true);
      const visitor = await pageFor(mode, false);
      let shown = null as { page: Page; path: string; reusable: boolean } | null;
      for (const screen of SCREENS) {
        const page = screen.visitor ? visitor : member;
        const path = screen.path(app, seeded);
        // A screen that is a state of the page before it (a dialog over the home page) opens from that
        // page as it is, not from a second load of it (decision 0240).
        if (!(shown?.page === page && shown.path === path && shown.reusable)) await page.goto(path);
        await hydrated(page);
        if (mode.name === "rtl") expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
        if (screen.open) await screen.open(page);
        await settled(page);
        const result = await axe(page, axeScript.url);
        for (const v of result.violations) {
          if (v.impact !== "serious" && v.impact !== "critical") continue;
          findings.push({
            screen: screen.name,
            rule: v.id,
            impact: v.impact,
            help: v.help,
            targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
          });
        }
        if (screen.open) await page.keyboard.press("Escape");
        if (screen.dialog) await page.getByRole("dialog").waitFor({ state: "detached" });
        shown = { page, path, reusable: !screen.open || screen.dialog === true };
        if (["home", "recipe", "editor"].includes(screen.name))
          await screenshot(page, `a11y-${mode.name}-${screen.name}`);
      }
      await member.context().close();
      await visitor.context().close();
      expect(findings).toEqual([]);
    },
    300_000,
  );

  /** Tabs through a page and returns each stop's name and whether a focus ring shows on it. */
  async function tabStops(page: Page, count: number): Promise<{ id: string; visible: boolean }[]> {
    const seen: { id: string; visible: boolean }[] = [];
    for (let i = 0; i < count; i++) {
      await page.keyboard.press("Tab");
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        // The ring may be drawn by the control's frame (a pills input rings its box, not the inner field).
        let ring = false;
        for (
          let node: HTMLElement | null = el, up = 0;
          node && up < 3 && !ring;
          node = node.parentElement, up++
        ) {
          const style = getComputedStyle(node);
          ring =
            (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) ||
            style.boxShadow !== "none";
        }
        return {
          id: el.getAttribute("data-testid") ?? el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "",
          visible: ring,
        };
      });
      if (stop) seen.push(stop);
    }
    return seen;
  }

  it.each([
    {
      name: "the group home",
      path: (a: App) => `/g/${a.groupSlug}`,
      wanted: ["topbar-search", "language-button", "color-scheme-toggle", "Tomato Stew"],
    },
    {
      name: "the recipe page",
      path: (a: App) => `/g/${a.groupSlug}/r/tomato-stew`,
      wanted: ["recipe-menu", "Fewer servings", "More servings", "favorite", "comment-input"],
    },
  ])(
    "reaches the actions of $name by keyboard, each with a visible focus ring",
    async ({ path, wanted }) => {
      const page = await pageFor(MODES[0], true);
      await page.goto(path(app));
      await hydrated(page);
      const seen = await tabStops(page, 60);
      const ids = seen.map((s) => s.id);
      for (const w of wanted)
        expect(
          ids.some((id) => id.includes(w)),
          `${w} in ${ids.join(" | ")}`,
        ).toBe(true);
      expect(seen.filter((s) => !s.visible).map((s) => s.id)).toEqual([]);
      await page.context().close();
    },
    60_000,
  );

  it("reports no page error or hydration mismatch along the way", () => {
    expect(errors).toEqual([]);
  });
});
