/**
 * The end-to-end harness (decision 0013): Debian's Chromium driven by playwright-core against a real
 * Larder server (API + React Router build) over a temp data folder.
 *
 *   describeBrowser("shell", () => {
 *     let app: App; let browser: Browser; let page: Page;
 *     beforeAll(async () => { app = await startApp(); browser = await launchBrowser(); page = await newPage(browser, app); });
 *     afterAll(async () => { await browser?.close(); await app?.close(); });
 *     it("…", async () => { await login(page); …; await screenshot(page, "shell-…"); });
 *   });
 *
 * Without /usr/bin/chromium the suite is skipped with a message, except under CI=true, where that fails
 * (ARCHITECTURE §8). The server build must exist (`npm run build` / `npx react-router build`); set
 * LARDER_BUILD_DIR to test a private build (`LARDER_BUILD_DIR=/tmp/b npx react-router build`).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe } from "vitest";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from "playwright-core";
import { FIRST_ADMIN, Larder } from "../../../core/larder.js";
import { loadConfig } from "../../../core/config.js";
import { consoleLogger } from "../../../core/log/logger.js";
import type { UserRecord } from "../../../core/schemas/records.js";
import { startServer, type RunningServer } from "../../../web/server/server.js";
import { builtinPlugins } from "../../../plugins/builtins.js";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
export const hasChromium = existsSync(CHROMIUM);
export const inCI = process.env.CI === "true";
export const SCREENSHOTS = resolve("test-results", "screenshots");
/** The UI build the server loads: LARDER_BUILD_DIR (as react-router.config.ts reads it) or build/. */
const BUILD_DIR = resolve(process.env.LARDER_BUILD_DIR ?? "build");
const SERVER_BUILD = join(BUILD_DIR, "server", "index.js");

/** The first-start admin (core/users/first-admin.ts). */
export const ADMIN = {
  username: FIRST_ADMIN.username,
  email: FIRST_ADMIN.email,
  password: FIRST_ADMIN.password,
};

/** A vitest `describe` that skips without Chromium (with a message), or fails under CI=true. */
export function describeBrowser(name: string, fn: () => void): void {
  if (!hasChromium && !inCI) {
    console.warn(
      `[${name}] skipped: ${CHROMIUM} not found (install it with \`apt-get install chromium\`; under CI=true this fails)`,
    );
  }
  describe.skipIf(!hasChromium && !inCI)(name, fn);
}

let running: Promise<Browser> | null = null;

/**
 * A browser for one test file. The browser files share one worker (vitest.config.ts), and in it one
 * Chromium: starting and stopping it for each file cost about a second a file. What a file gets is a
 * view of it whose `close()` closes the contexts (cookies, storage, cache) that file opened, not the
 * browser, so no file sees another's state. A Chromium that crashed is started again for the next file;
 * Playwright stops it when the worker exits.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!hasChromium)
    throw new Error(`CI=true but ${CHROMIUM} is missing: install chromium (apt-get install chromium)`);
  let shared = await running;
  if (!shared?.isConnected()) {
    running = chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    running.catch(() => (running = null));
    shared = await running;
  }
  return viewOf(shared);
}

function viewOf(shared: Browser): Browser {
  const opened = new Set<BrowserContext>();
  return new Proxy(shared, {
    get(target, key, receiver) {
      if (key === "newContext")
        return async (options?: BrowserContextOptions) => {
          const context = await target.newContext(options);
          opened.add(context);
          context.on("close", () => opened.delete(context));
          return context;
        };
      if (key === "newPage" || key === "contexts")
        throw new Error(`launchBrowser()'s browser is shared between files: use newContext, not ${key}`);
      if (key === "close")
        return async () => {
          await Promise.all([...opened].map((c) => c.close().catch(() => undefined)));
        };
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export interface App {
  url: string;
  larder: Larder;
  server: RunningServer;
  dataDir: string;
  /** The admin's group (the first-start group "home"). */
  groupSlug: string;
  admin: UserRecord;
  /** The admin as a core actor, for seeding data directly. */
  adminActor: { kind: "user"; user: UserRecord };
  close(): Promise<void>;
}

/**
 * A real server over a fresh temp data folder; `config` overrides loadConfig (e.g. `{ allowSignup: true }`).
 * The first-time setup (decision 0100) is skipped so tests sign in as admin/MyPassword, unless
 * `firstSetup` asks for a fresh server's first visit.
 */
export async function startApp(
  opts: { config?: Record<string, unknown>; firstSetup?: boolean } = {},
): Promise<App> {
  if (!existsSync(SERVER_BUILD))
    throw new Error(`${SERVER_BUILD} is missing: run \`npm run build\` before this test`);
  const tmp = await mkdtemp(join(tmpdir(), "larder-e2e-"));
  const dataDir = join(tmp, "data");
  const config = loadConfig({} as NodeJS.ProcessEnv, {
    dataDir,
    production: false,
    bcryptRounds: 4,
    ...opts.config,
  });
  const larder = await Larder.open(config, {
    log: consoleLogger("silent"),
    watch: false,
    plugins: builtinPlugins,
  });
  if (!opts.firstSetup) larder.setup.skip();
  const server = await startServer({ larder, port: 0, host: "127.0.0.1", buildDir: BUILD_DIR });
  const admin = larder.users.all().find((u) => u.username === ADMIN.username);
  if (!admin) throw new Error("first start did not create the admin user");
  const groupSlug = larder.groups.byId(admin.groupId)?.slug ?? "";
  return {
    url: server.url,
    larder,
    server,
    dataDir,
    groupSlug,
    admin,
    adminActor: { kind: "user", user: admin },
    async close() {
      await server.close();
      await larder.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

export interface PageOptions extends BrowserContextOptions {
  /** Collect uncaught page errors and hydration errors into this array. */
  errors?: string[];
}

/** A page in a fresh context (own cookies) whose relative URLs resolve against the app. */
export async function newPage(
  browser: Browser,
  app: Pick<App, "url">,
  opts: PageOptions = {},
): Promise<Page> {
  const { errors, ...contextOptions } = opts;
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...contextOptions,
    baseURL: app.url,
  });
  // Fail a step with its call log well before vitest's 30 s test timeout hides where it stuck.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  if (errors) {
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => {
      // Hydration mismatches, render errors React Router caught and turned into an error page, and
      // anything the page's Content-Security-Policy blocked (decision 0021).
      if (m.type() === "error" && /hydrat|React Router caught|Content Security Policy/i.test(m.text()))
        errors.push(m.text());
    });
  }
  return page;
}

/** Sign in through the login form and wait until the app has left /login. */
export async function login(
  page: Page,
  user: string = ADMIN.username,
  pass: string = ADMIN.password,
): Promise<void> {
  await page.goto("/login");
  await page.fill("#username", user);
  await page.fill("#password", pass);
  await page.click("button[type=submit]");
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/**
 * Sign in through the API's token endpoint (the same credential check as the form; its Set-Cookie
 * lands in the page's context) and open the user's home, as the form does. For journeys about something
 * else: the form costs a page load more (decision 0240), and `login` still covers it.
 */
export async function signIn(
  page: Page,
  user: string = ADMIN.username,
  pass: string = ADMIN.password,
): Promise<void> {
  const res = await page.request.post("/api/auth/token", { form: { username: user, password: pass } });
  if (!res.ok()) throw new Error(`signing in as ${user} answered ${res.status()}: ${await res.text()}`);
  await page.goto("/");
  await page.waitForURL((u) => u.pathname !== "/" && !u.pathname.startsWith("/login"));
}

/**
 * Wait until React has hydrated the page (<body data-hydrated>) and the layout shown is the current
 * page's with its effects run (<div class="shell" data-ready data-path=…>), so keyboard shortcuts work.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.waitForFunction(() => {
    const shell = document.querySelector(".shell");
    return !shell || shell.getAttribute("data-path") === location.pathname;
  });
}

/**
 * Wait until React owns the element `selector` matches (hydrated it, or rendered it in the browser), so
 * events on it reach React. Needed after `hydrated` for a lazily loaded component such as the recipe
 * editor: its server HTML is in the page, but inert until its code has loaded, and a click or a file
 * chosen on it before then is lost.
 */
export async function interactive(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    return el !== null && Object.keys(el).some((k) => k.startsWith("__reactFiber$"));
  }, selector);
}

/** A full-page screenshot under test-results/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
