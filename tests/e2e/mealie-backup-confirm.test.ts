/**
 * Uploading a Mealie backup on /admin/backups: the server migrates one into the admin's group as soon as
 * it has it, so the page reads the chosen zip's names first and asks, saying what will be added, before
 * anything is sent. Cancelling sends nothing; a Larder backup is sent without asking, as before.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  describeBrowser,
  hydrated,
  launchBrowser,
  newPage,
  signIn,
  startApp,
  type App,
} from "./support/browser.js";
import { makeZip } from "../support/zip-writer.js";

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("a Mealie backup upload asks first", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let dir: string;
  const uploads: string[] = [];
  const errors: string[] = [];

  const zip = async (name: string, files: Record<string, string>) => {
    const path = join(dir, name);
    await writeFile(path, makeZip(Object.entries(files).map(([n, data]) => ({ name: n, data }))));
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "larder-mealie-upload-"));
    app = await startApp();
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/admin/backups/upload")) uploads.push(r.url());
    });
    await signIn(page);
    await page.goto("/admin/backups");
    await hydrated(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });

  it("says what a Mealie backup will add and sends nothing when cancelled", async () => {
    const mealie = await zip("mealie_2024.zip", {
      "database.json": "{}",
      "data/recipes/1/images/original.webp": "x",
    });
    await page.locator("input[type=file]").setInputFiles(mealie);
    const dialog = page.getByTestId("backup-mealie-dialog");
    await expect(dialog.textContent()).resolves.toContain(
      "“mealie_2024.zip” is a Mealie backup, not a backup of this site. Its recipes and people will be added to your group",
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(uploads).toEqual([]);

    await page.locator("input[type=file]").setInputFiles(mealie);
    await dialog.getByRole("button", { name: "Import" }).click();
    await eventually(() => uploads.length).toBe(1);
    await dialog.waitFor({ state: "hidden" });
  });

  it("sends a Larder backup without asking", async () => {
    const larder = await zip("larder_copy.zip", { "larder-backup.json": "{}" });
    await page.locator("input[type=file]").setInputFiles(larder);
    await eventually(() => uploads.length).toBe(2);
    await expect(page.getByTestId("backup-mealie-dialog").isVisible()).resolves.toBe(false);
    expect(errors).toEqual([]);
  });
});
