/**
 * Recipe pages answered before React Router runs (web/app/lib/early-pages.server.ts, decision 0160): a
 * repeat view is the stored page, the same bytes and headers as the full answer; every input of the page
 * edited between two views shows on the next one; another viewer, language or colour scheme never gets
 * the first one's page; a session ended is not answered from it. Needs the UI build (`npm run build`).
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultBuildDir } from "../../web/server/server.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { withoutUiBuild } from "../support/ui-build.js";

const serverEntry = join(defaultBuildDir(), "server", "index.js");
const skipUi = withoutUiBuild("early pages");

describe.skipIf(skipUi)("recipe pages answered before the loaders run", () => {
  let t: TestServer;
  let admin: string;
  let slug: string;
  let adminId: string;
  let early: { hits: number };

  beforeAll(async () => {
    t = await startTestServer();
    admin = await t.login();
    const created = await t.api("/api/recipes", {
      method: "POST",
      token: admin,
      json: { name: "Early soup" },
    });
    slug = (await created.json()) as string;
    adminId = ((await (await t.api("/api/users/self", { token: admin })).json()) as { id: string }).id;
    // The same module instance the server imported (one per URL).
    const build = (await import(pathToFileURL(serverEntry).href)) as {
      entry: { module: { earlyIndex: { hits: number } } };
    };
    early = build.entry.module.earlyIndex;
  });
  afterAll(async () => t?.close());

  const get = (token: string | null, headers: Record<string, string> = {}) =>
    fetch(`${t.url}/g/home/r/${slug}`, {
      redirect: "manual",
      headers: {
        ...(token ? { cookie: `mealie.access_token=${token}` } : {}),
        accept: "text/html",
        "accept-encoding": "br, gzip",
        ...headers,
      },
    });

  /** A view, and whether it was answered early. */
  const view = async (token: string, headers: Record<string, string> = {}) => {
    const before = early.hits;
    const res = await get(token, headers);
    expect(res.status).toBe(200);
    return { html: await res.text(), headers: res.headers, early: early.hits > before };
  };

  /** Views the page until it is answered early, so the next view after a change would be too. */
  const warm = async (token: string, headers: Record<string, string> = {}) => {
    await view(token, headers);
    const again = await view(token, headers);
    expect(again.early).toBe(true);
    return again;
  };

  it("answers a repeat view early with the same bytes and headers as the full answer", async () => {
    // The very first page opens the household's documents (recipe actions, cookbooks): a change.
    await view(admin);
    const first = await view(admin);
    const second = await view(admin);
    expect(second.early).toBe(true);
    expect(second.html).toBe(first.html);
    for (const name of [
      "content-type",
      "content-encoding",
      "content-length",
      "content-security-policy",
      "etag",
      "vary",
      "cache-control",
      "x-content-type-options",
      "referrer-policy",
      "x-frame-options",
    ])
      expect([name, second.headers.get(name)]).toEqual([name, first.headers.get(name)]);
  });

  it("answers an early page's validator with a 304", async () => {
    const page = await warm(admin);
    const before = early.hits;
    const res = await get(admin, { "if-none-match": page.headers.get("etag") ?? "" });
    expect(res.status).toBe(304);
    expect(early.hits).toBe(before + 1);
    expect(res.headers.get("content-security-policy")).toBe(page.headers.get("content-security-policy"));
  });

  it("shows an edited recipe on the next view", async () => {
    await warm(admin);
    const res = await t.api(`/api/recipes/${slug}`, {
      method: "PATCH",
      token: admin,
      json: { description: "Now with early garlic" },
    });
    expect(res.status).toBe(200);
    const next = await view(admin);
    expect(next.early).toBe(false);
    expect(next.html).toContain("Now with early garlic");
  });

  it("shows a favourite and a rating on the next view", async () => {
    await warm(admin);
    const fav = await t.api(`/api/users/${adminId}/favorites/${slug}`, { method: "POST", token: admin });
    expect(fav.status).toBeLessThan(300);
    expect((await view(admin)).html).toContain('aria-pressed="true" data-testid="favorite"');
    await warm(admin);
    const rated = await t.api(`/api/users/${adminId}/ratings/${slug}`, {
      method: "POST",
      token: admin,
      json: { rating: 3, isFavorite: true },
    });
    expect(rated.status).toBeLessThan(300);
    const next = await view(admin);
    expect(next.early).toBe(false);
    expect(next.html).toMatch(/\\?"rating\\?",3\b|"rating":3\b/);
  });

  it("shows a new comment on the next view", async () => {
    await warm(admin);
    const recipe = (await (await t.api(`/api/recipes/${slug}`, { token: admin })).json()) as { id: string };
    const res = await t.api("/api/comments", {
      method: "POST",
      token: admin,
      json: { recipeId: recipe.id, text: "An early comment" },
    });
    expect(res.status).toBeLessThan(300);
    const next = await view(admin);
    expect(next.early).toBe(false);
    expect(next.html).toContain("An early comment");
  });

  it("shows the user's new name, a new cookbook and a new recipe action on the next view", async () => {
    await warm(admin);
    const self = (await (await t.api("/api/users/self", { token: admin })).json()) as Record<string, unknown>;
    const renamed = await t.api(`/api/users/${adminId}`, {
      method: "PUT",
      token: admin,
      json: { ...self, fullName: "Early Riser" },
    });
    expect(renamed.status).toBeLessThan(300);
    expect((await view(admin)).html).toContain("Early Riser");

    await warm(admin);
    const book = await t.api("/api/households/cookbooks", {
      method: "POST",
      token: admin,
      json: { name: "Early breakfasts" },
    });
    expect(book.status).toBeLessThan(300);
    expect((await view(admin)).html).toContain("Early breakfasts");

    await warm(admin);
    const action = await t.api("/api/households/recipe-actions", {
      method: "POST",
      token: admin,
      json: { title: "Send early", url: "https://example.com/{recipe_name}", actionType: "link" },
    });
    expect(action.status).toBeLessThan(300);
    expect((await view(admin)).html).toContain("Send early");
  });

  it("shows a profile picture put on disk by hand on the next view", async () => {
    const before = await warm(admin);
    await mkdir(join(t.dataDir, "users", adminId), { recursive: true });
    await writeFile(join(t.dataDir, "users", adminId, "profile.webp"), "not really a picture");
    const next = await view(admin);
    expect(next.early).toBe(false);
    expect(next.html).not.toBe(before.html);
    await rm(join(t.dataDir, "users", adminId, "profile.webp"));
    const gone = await view(admin);
    expect(gone.early).toBe(false);
    expect(gone.html).toBe(before.html);
  });

  it("keys the page by language, colour scheme and viewer", async () => {
    await warm(admin);
    const german = await view(admin, { "accept-language": "de-DE" });
    expect(german.early).toBe(false);
    expect(german.html).toContain('lang="de-DE"');
    const dark = await view(admin, { cookie: `mealie.access_token=${admin}; mantine-color-scheme=dark` });
    expect(dark.early).toBe(false);
    const visitor = await get(null);
    expect(visitor.status).not.toBe(200);
  });

  it("does not answer a session that has ended from its pages", async () => {
    const token = await t.login();
    await warm(token);
    const out = await fetch(`${t.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: `mealie.access_token=${token}`,
        origin: t.url,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    expect(out.status).toBeLessThan(400);
    const before = early.hits;
    const after = await get(token);
    expect(early.hits).toBe(before);
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/login/);
  });
});

describe.skipIf(skipUi)("early pages and hand edits", () => {
  let t: TestServer;
  let token: string;

  beforeAll(async () => {
    t = await startTestServer({}, { watch: true });
    token = await t.login();
  });
  afterAll(async () => t?.close());

  it("shows a recipe file edited by hand on the next view", async () => {
    const created = await t.api("/api/recipes", { method: "POST", token, json: { name: "Hand soup" } });
    const slug = (await created.json()) as string;
    const file = join(t.dataDir, "groups", "home", "recipes", `${slug}.md`);
    const view = async () => {
      const res = await fetch(`${t.url}/g/home/r/${slug}`, {
        headers: { cookie: `mealie.access_token=${token}`, accept: "text/html", "accept-encoding": "br" },
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    const build = (await import(pathToFileURL(serverEntry).href)) as {
      entry: { module: { earlyIndex: { hits: number } } };
    };
    for (let i = 0; i < 2; i++) await view();
    const hits = build.entry.module.earlyIndex.hits;
    await view();
    expect(build.entry.module.earlyIndex.hits).toBe(hits + 1);
    const text = await readFile(file, "utf8");
    expect(text).toContain("name: Hand soup");
    await writeFile(file, text.replace("name: Hand soup", "name: Stirred by hand in an editor."));
    const end = Date.now() + 15_000;
    let html = await view();
    while (!html.includes("Stirred by hand in an editor.") && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      html = await view();
    }
    expect(html).toContain("Stirred by hand in an editor.");
  });
});
