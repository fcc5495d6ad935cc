/**
 * The recipe context menu and the rest of the page's writes in Chromium: the household's recipe actions
 * (a link opens the resolved address in a new tab; a post reports 'message sent' or 'something went
 * wrong'), download, duplicate, delete, comments, and creating a recipe by name.
 * Screenshots: test-results/screenshots/recipe-menu-*.png.
 */
import { createServer, type Server } from "node:http";
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

/** Playwright-style waiting for vitest assertions (expect.poll defaults to 1 s, short for a browser). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("recipe menu", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let hook: Server;
  const received: unknown[] = [];
  const errors: string[] = [];
  const path = () => `/g/${app.groupSlug}/r/chili`;
  const toast = (type: string) => page.locator(`[data-toast=${type}]`).last();
  const menu = async (item: string) => {
    await page.getByTestId("recipe-menu").click();
    await page.getByRole("menuitem", { name: item }).click();
  };

  beforeAll(async () => {
    // A webhook receiver on loopback, which the test server is told to allow.
    hook = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push(JSON.parse(body));
        res.end("ok");
      });
    });
    await new Promise<void>((ok) => hook.listen(0, "127.0.0.1", ok));
    const port = (hook.address() as { port: number }).port;
    app = await startApp({ config: { fetchAllow: "127.0.0.1" } });
    await app.larder.recipes.create(app.adminActor, {
      name: "Chili",
      recipeServings: 4,
      recipeIngredient: [{ quantity: 1, food: "onion" }],
    });
    const actions = app.larder.recipeActions;
    await actions.create(app.adminActor, {
      actionType: "link",
      title: "Open in planner",
      url: "https://planner.example/add?slug=${slug}&id=${id}&from=${url}",
    });
    await actions.create(app.adminActor, {
      actionType: "post",
      title: "Send to hook",
      url: `http://127.0.0.1:${port}/hook`,
    });
    await actions.create(app.adminActor, {
      actionType: "post",
      title: "Send to nowhere",
      url: "http://127.0.0.1:9/closed",
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
    await new Promise((ok) => hook?.close(ok));
  });

  it("lists the household's recipe actions and opens a link action with its placeholders filled", async () => {
    await page.goto(path());
    await hydrated(page);
    await page.getByTestId("recipe-menu").click();
    // Mantine 9 mounts the dropdown's items a frame after the click: read them once they are there.
    await page.getByRole("menuitem", { name: "Send to nowhere" }).waitFor();
    expect(await page.getByRole("menuitem").allTextContents()).toEqual([
      "Edit",
      "Delete",
      "Download",
      "Duplicate",
      "Add to meal plan",
      "Add to shopping list",
      "Share",
      "Print",
      "Print preferences",
      "Open in planner",
      "Send to hook",
      "Send to nowhere",
    ]);
    await screenshot(page, "recipe-menu-open");
    const recipe = app.larder.recipes.get(app.adminActor, "chili");
    // The new tab's address is fixed before it loads; its network is cut so nothing leaves the machine.
    await page.context().route("https://planner.example/**", (route) => route.fulfill({ body: "planner" }));
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("menuitem", { name: "Open in planner" }).click(),
    ]);
    const opened = new URL(popup.url());
    expect(opened.origin + opened.pathname).toBe("https://planner.example/add");
    expect(opened.searchParams.get("slug")).toBe("chili");
    expect(opened.searchParams.get("id")).toBe(recipe.id);
    expect(opened.searchParams.get("from")).toBe(`${app.url}${path()}`);
    await popup.close();
  });

  it("triggers post actions: 'message sent', or 'something went wrong'", async () => {
    await menu("Send to hook");
    await eventually(() => toast("success").textContent()).toBe("message sent");
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      action: { title: "Send to hook", action_type: "post" },
      content: { slug: "chili" },
      recipe_scale: 1,
    });
    await menu("Send to nowhere");
    await eventually(() => toast("error").textContent()).toBe("something went wrong");
  });

  it("downloads the recipe as a zip", async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), menu("Download")]);
    expect(download.suggestedFilename()).toBe("chili.zip");
  });

  it("adds, edits and deletes a comment", async () => {
    await page.getByTestId("comment-input").fill("Needs more cumin.");
    await page.getByTestId("comment-post").click();
    const comment = page.getByTestId("comment");
    await eventually(() => comment.locator(".comment__text").textContent()).toBe("Needs more cumin.");
    await comment.getByRole("button", { name: "Edit comment" }).click();
    await comment.getByRole("textbox").fill("Needs more <b>cumin</b>.");
    await comment.getByRole("button", { name: "Save" }).click();
    // Shown as text, never as HTML.
    await eventually(() => comment.locator(".comment__text").textContent()).toBe("Needs more <b>cumin</b>.");
    expect(await comment.locator(".comment__text b").count()).toBe(0);
    await screenshot(page, "recipe-menu-comment");
    await comment.getByRole("button", { name: "Delete comment" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await eventually(() => page.getByTestId("comment").count()).toBe(0);
  });

  it("duplicates the recipe and opens the copy", async () => {
    await menu("Duplicate");
    await page.getByRole("dialog").getByRole("button", { name: "Duplicate" }).click();
    await eventually(() => toast("success").textContent()).toBe("Recipe duplicated");
    await page.waitForURL(/\/r\/chili-1$/);
    await eventually(() => page.locator("h1.recipe__title").textContent()).toBe("Chili (1)");
  });

  it("deletes the copy after confirming, back on the group home", async () => {
    await menu("Delete");
    const dialog = page.getByTestId("delete-dialog");
    await expect(
      dialog.getByText("Delete “Chili (1)”? This cannot be undone.").textContent(),
    ).resolves.toContain("Chili (1)");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await eventually(() => toast("success").textContent()).toBe("Recipe deleted");
    await page.waitForURL((u) => u.pathname === `/g/${app.groupSlug}`);
    expect(() => app.larder.recipes.get(app.adminActor, "chili-1")).toThrow();
    expect(app.larder.recipes.get(app.adminActor, "chili").name).toBe("Chili");
  });

  it("creates a recipe by name: required, unique, then opens it in edit mode", async () => {
    await page.goto(`/g/${app.groupSlug}/r/create/new`);
    await hydrated(page);
    const name = page.getByTestId("create-name");
    await page.getByTestId("create-submit").click();
    await page.getByText("This Field is Required").waitFor();
    await name.fill("chili");
    await page.getByText("recipe name is taken").waitFor();
    await screenshot(page, "recipe-menu-create-taken");
    await name.fill("Green Curry");
    await eventually(() => page.getByText("recipe name is taken").count()).toBe(0);
    await page.getByTestId("create-submit").click();
    await page.waitForURL(
      (u) => u.pathname === `/g/${app.groupSlug}/r/green-curry` && u.search === "?edit=true",
    );
    await page.getByTestId("form-editor").waitFor();
    expect(app.larder.recipes.get(app.adminActor, "green-curry").name).toBe("Green Curry");
    await screenshot(page, "recipe-menu-created");
  });

  it("had no uncaught page errors or hydration errors", () => {
    expect(errors).toEqual([]);
  });
});
