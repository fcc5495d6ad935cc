/**
 * The smaller holes of issue 11 §9, each replayed: a recipe created from an empty body, a food
 * pointing at another group's label, a recipe action with a `javascript:` or `file:` URL, an SVG
 * avatar, and a temp file left by a killed writer surviving restarts.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { makeGroup, makeUser } from "../support/people.js";

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

describe("POST /api/recipes without a name", () => {
  for (const [label, body] of [
    ["an empty body", undefined],
    ["null", "null"],
    ["{}", "{}"],
  ] as const) {
    it(`answers Mealie's 422 for ${label} and creates nothing`, async () => {
      const before = t.larder.recipes.store.all().length;
      const res = await t.api("/api/recipes", {
        method: "POST",
        token,
        headers: { "Content-Type": "application/json" },
        body,
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        detail: [expect.objectContaining({ loc: ["body", "name"], msg: "Field required", type: "missing" })],
      });
      expect(t.larder.recipes.store.all().length).toBe(before);
    });
  }
});

describe("PUT and PATCH /api/recipes (the bulk update)", () => {
  it("answers a list with a null, an array or a number in it with 400, and saves none of the list", async () => {
    // Found by the request-edge fuzzer: `[null, …]` was a TypeError and a 500.
    const created = await t.api("/api/recipes", { method: "POST", token, json: { name: "Bulk Soup" } });
    const slug = (await created.json()) as string;
    for (const method of ["PATCH", "PUT"]) {
      for (const bad of [null, [null, "l"], 7, { id: 5 }]) {
        const res = await t.api("/api/recipes", {
          method,
          token,
          json: [{ slug, description: `changed by ${method}` }, bad],
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({
          detail: { message: "Each recipe needs an id or slug", error: true, exception: null },
        });
      }
    }
    // The good first item was not saved ahead of the bad second one.
    const after = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { description: string };
    expect(after.description).toBe("");
  });

  const make = async (name: string) =>
    (await (await t.api("/api/recipes", { method: "POST", token, json: { name } })).json()) as string;
  const bulkRename = (...items: [slug: string, name: string][]) =>
    t.api("/api/recipes", { method: "PATCH", token, json: items.map(([slug, name]) => ({ slug, name })) });

  it("saves none of the list when a well-formed item fails on its own", async () => {
    const first = await make("Bulk Bread");
    const second = await make("Bulk Butter");
    const cases: [unknown, number][] = [
      [{ slug: "no-such-recipe", description: "x" }, 404],
      [{ slug: second, recipeServings: "many" }, 422],
      [{ slug: second, name: "Bulk Bread" }, 400],
      [{ slug: second, name: "   " }, 422],
    ];
    for (const method of ["PATCH", "PUT"]) {
      for (const [bad, status] of cases) {
        const res = await t.api("/api/recipes", {
          method,
          token,
          json: [{ slug: first, description: `changed by ${method}` }, bad],
        });
        expect(res.status, `${method} ${JSON.stringify(bad)}`).toBe(status);
      }
    }
    // Two items taking one new name: the second would fail once the first is saved.
    const clash = await bulkRename([first, "Bulk Toast"], [second, "Bulk Toast"]);
    expect(clash.status).toBe(400);
    const read = async (slug: string) =>
      (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as {
        name: string;
        description: string;
      };
    expect(await read(first)).toMatchObject({ name: "Bulk Bread", description: "" });
    expect(await read(second)).toMatchObject({ name: "Bulk Butter" });
  });

  it("takes a name the same list frees first, as saving the items in order does", async () => {
    const old = await make("Bulk Stew");
    const next = await make("Bulk Stew Two");
    const res = await bulkRename([old, "Bulk Stew Old"], [next, "Bulk Stew"]);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { slug: string }[]).map((r) => r.slug)).toEqual([
      "bulk-stew-old",
      "bulk-stew",
    ]);
  });
});

describe("a food's labelId", () => {
  it("must be a label of the food's own group (422 for another group's or a made-up one)", async () => {
    const own = (await (
      await t.api("/api/groups/labels", { method: "POST", token, json: { name: "Pantry" } })
    ).json()) as { id: string };
    const other = await makeGroup(t, "Elsewhere");
    const admin = await makeUser(t, { admin: true }, { group: other });
    const theirs = (await (
      await t.api("/api/groups/labels", { method: "POST", token: admin.token, json: { name: "Theirs" } })
    ).json()) as { id: string };
    for (const labelId of [theirs.id, "8a0e4f5c-2b1d-4c3e-9f7a-6b5c4d3e2f1a"]) {
      const res = await t.api("/api/foods", {
        method: "POST",
        token,
        json: { name: `food ${labelId.slice(0, 4)}`, labelId },
      });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0].loc).toEqual([
        "body",
        "labelId",
      ]);
    }
    const ok = await t.api("/api/foods", { method: "POST", token, json: { name: "rice", labelId: own.id } });
    expect(ok.status).toBe(201);
    const food = (await ok.json()) as { id: string };
    const moved = await t.api(`/api/foods/${food.id}`, {
      method: "PUT",
      token,
      json: { name: "rice", labelId: theirs.id },
    });
    expect(moved.status).toBe(422);
  });
});

describe("a recipe action's URL", () => {
  it("is refused at creation and on update unless it is http(s)", async () => {
    for (const url of [
      "javascript:alert(document.cookie)",
      "JavaScript:alert(1)",
      "file:///etc/passwd",
      "data:text/html,x",
      "//evil.example/x",
      "ftp://x.example/",
    ]) {
      const res = await t.api("/api/households/recipe-actions", {
        method: "POST",
        token,
        json: { actionType: "link", title: "x", url },
      });
      expect(res.status, url).toBe(422);
    }
    const ok = await t.api("/api/households/recipe-actions", {
      method: "POST",
      token,
      json: { actionType: "link", title: "Open", url: "https://example.org/r" },
    });
    expect(ok.status).toBe(201);
    const a = (await ok.json()) as { id: string };
    const put = await t.api(`/api/households/recipe-actions/${a.id}`, {
      method: "PUT",
      token,
      json: { actionType: "link", title: "Open", url: "javascript:alert(1)" },
    });
    expect(put.status).toBe(422);
  });
});

describe("an avatar", () => {
  it("refuses SVG, as recipe images do", async () => {
    const me = (await (await t.api("/api/users/self", { token })).json()) as { id: string };
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>';
    const f = new FormData();
    f.set("profile", new Blob([svg], { type: "image/svg+xml" }), "me.svg");
    const res = await t.api(`/api/users/${me.id}/image`, { method: "POST", token, body: f });
    expect(res.status).toBe(400);
    // Nothing of the SVG was stored: the picture served is still the default one, a WebP.
    const media = await t.api(`/api/media/users/${me.id}/profile.webp`);
    expect(media.headers.get("etag")).toBe('"default-avatar-1"');
    expect(
      Buffer.from(await media.arrayBuffer())
        .subarray(8, 12)
        .toString("latin1"),
    ).toBe("WEBP");
    const { existsSync } = await import("node:fs");
    expect(existsSync(`${t.dataDir}/users/${me.id}/profile.webp`)).toBe(false);
  });
});

describe("temp files left by a killed writer", () => {
  it("are removed at the next start; a live writer's are kept", async () => {
    const s = await startTestServer();
    const dataDir = s.dataDir;
    const tmpDir = s.larder.folder.tmpDir;
    await s.server.close();
    await s.larder.close();
    // pid 2^22 + 7 is above Linux's pid_max default: no process has it.
    await writeFile(join(tmpDir, "soup.md.4194311.0123456789ab.tmp"), "half a recipe");
    await writeFile(join(tmpDir, `soup.md.${process.pid}.0123456789ab.tmp`), "being written");
    // The warm-start cache is written beside itself, and a kill during that write leaves its temp too.
    const cacheDir = s.larder.folder.cacheDir;
    await writeFile(join(cacheDir, "recipe-index.bin.4194311.0123456789ab.tmp"), "half a cache");
    const again = await startTestServer({}, { dataDir });
    try {
      expect((await readdir(tmpDir)).filter((n) => n.endsWith(".tmp"))).toEqual([
        `soup.md.${process.pid}.0123456789ab.tmp`,
      ]);
      expect((await readdir(cacheDir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    } finally {
      await again.close();
      await s.close().catch(() => undefined);
    }
  });
});

describe("the admin's problem list", () => {
  it("lists a copied file's duplicate id and an unreadable file; other users may not see it", async () => {
    const slug = (await (
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Copied Soup" } })
    ).json()) as string;
    const e = t.larder.recipes.store.get("home", slug)!;
    const dir = t.larder.folder.recipesDir(e.groupSlug);
    await writeFile(join(dir, "copied-soup-variant.md"), await readFile(join(dir, `${slug}.md`)));
    await writeFile(
      join(dir, "wide.md"),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("---\nname: Wide\n---\n", "utf16le")]),
    );
    await t.larder.recipes.store.rescan(e.groupSlug);
    const res = await t.api("/api/admin/maintenance/problems", { token });
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: Array<{ path: string; kind: string }> };
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: `groups/${e.groupSlug}/recipes/copied-soup-variant.md`,
          kind: "duplicate-id",
        }),
        expect.objectContaining({ path: `groups/${e.groupSlug}/recipes/wide.md`, kind: "broken" }),
      ]),
    );
    expect(t.larder.recipes.store.get("home", slug)?.id).toBe(e.id);
    const member = await makeUser(t);
    expect((await t.api("/api/admin/maintenance/problems", { token: member.token })).status).toBe(403);
  });
});
