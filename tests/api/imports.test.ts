/**
 * Recipe import through the API (issue 15): pages by URL from a loopback "site", pasted HTML or JSON,
 * the scrape test, the streaming and bulk variants, zips — and every way they can go wrong, each
 * leaving nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { rawZip } from "../support/raw-zip.js";

let t: TestServer;
let token: string;
let site: Server;
let siteUrl: string;
let png: Buffer;
let pieAgent = "";
let inFlight = 0;
let maxInFlight = 0;
let hugeBytesSent = 0;
let hugeClosed: Promise<void> = Promise.resolve();
const hanging: ServerResponse[] = [];

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/recipe-pages/${name}`, import.meta.url), "utf8");
const recipesDir = () => join(t.dataDir, "groups", "home", "recipes");
const listing = async () => (await readdir(recipesDir()).catch(() => [] as string[])).sort();

function recipePage(name: string, extra: Record<string, unknown> = {}): string {
  const ld = {
    "@context": "https://schema.org",
    "@type": "Recipe",
    name,
    recipeIngredient: ["1 cup flour", "2 eggs"],
    recipeInstructions: [{ "@type": "HowToStep", text: "Mix." }],
    keywords: "baking, quick",
    recipeCategory: "Dessert",
    ...extra,
  };
  return `<!doctype html><html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`;
}

beforeAll(async () => {
  png = await sharp({ create: { width: 60, height: 40, channels: 3, background: "#e67e22" } })
    .png()
    .toBuffer();
  site = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const p = url.pathname;
    if (p === "/pie") pieAgent = String(req.headers["user-agent"] ?? "");
    if (p === "/pie")
      return void res
        .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
        .end(recipePage("Loopback Pie", { image: `${siteUrl}/pie.png` }));
    if (p === "/pie.png") return void res.writeHead(200, { "Content-Type": "image/png" }).end(png);
    if (p.startsWith("/page/"))
      return void res.writeHead(200, { "Content-Type": "text/html" }).end(fixture(p.slice(6)));
    if (p.startsWith("/bulk/")) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // Answer on a later turn so that parallel requests overlap.
      setImmediate(() => {
        inFlight--;
        if (p === "/bulk/bad")
          res.writeHead(200, { "Content-Type": "text/html" }).end(fixture("no-recipe.html"));
        else res.writeHead(200, { "Content-Type": "text/html" }).end(recipePage(`Bulk ${p.slice(6)}`));
      });
      return;
    }
    if (p === "/hang") {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.write("<html><head>");
      hanging.push(res);
      return;
    }
    if (p === "/huge") {
      res.writeHead(200, { "Content-Type": "text/html" });
      hugeClosed = new Promise<void>((resolve) => res.on("close", () => resolve()));
      const chunk = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (hugeBytesSent < 50 * 1024 * 1024 && !res.destroyed) {
          hugeBytesSent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
      return;
    }
    if (p === "/to-private") return void res.writeHead(302, { Location: "http://10.0.0.7/admin" }).end();
    if (p === "/to-metadata")
      return void res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (p === "/private-image")
      return void res
        .writeHead(200, { "Content-Type": "text/html" })
        .end(recipePage("Private Picture", { image: "http://10.0.0.7/secret.png" }));
    if (p === "/image-not-page") return void res.writeHead(200, { "Content-Type": "image/png" }).end(png);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // Short, for the 408 test, but not so short that a loaded 2-core CI machine misses it on a page and
  // its image served from this very process (1.5 s did, once).
  t = await startTestServer({ fetchAllow: "127.0.0.1", importTimeoutMs: 3000 });
  token = await t.login();
});

afterAll(async () => {
  for (const r of hanging) r.destroy();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  await t?.close();
});

const post = (path: string, json: unknown) => t.api(path, { method: "POST", token, json });
const getRecipe = async (slug: string) =>
  (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as Record<string, unknown>;

async function expectNothingWritten(attempt: () => Promise<Response>, status: number): Promise<Response> {
  const before = await listing();
  const res = await attempt();
  expect(res.status).toBe(status);
  expect(await listing()).toEqual(before);
  return res;
}

describe("POST /api/recipes/create/url", () => {
  it("imports a page: 201 with the slug, the image stored, the source URL kept, tags only when asked", async () => {
    const res = await post("/api/recipes/create/url", { url: `${siteUrl}/pie`, includeTags: true });
    expect(res.status).toBe(201);
    const slug = (await res.json()) as string;
    expect(slug).toBe("loopback-pie");
    // Many sites refuse unknown agents: the page is asked for as a browser would.
    expect(pieAgent).toMatch(/^Mozilla\/5\.0 .*(Firefox|Chrome)\//);
    const recipe = await getRecipe(slug);
    if (hasContract) assertContract("Recipe-Output", recipe);
    expect(recipe.orgURL).toBe(`${siteUrl}/pie`);
    expect((recipe.tags as { name: string }[]).map((x) => x.name)).toEqual(["Baking", "Quick"]);
    expect(recipe.recipeCategory).toEqual([]);
    expect(recipe.image).toBeTruthy();
    expect((await readdir(join(recipesDir(), slug))).some((n) => n.startsWith("original."))).toBe(true);
    const img = await t.api(`/api/media/recipes/${recipe.id as string}/images/original.webp`);
    expect(img.status).toBe(200);
    const events = (await (
      await t.api(`/api/recipes/timeline/events?queryFilter=recipe_id="${recipe.id as string}"`, { token })
    ).json()) as { items: { subject: string }[] };
    expect(events.items.map((e) => e.subject)).toContain("Recipe Created");
  });

  it("accepts include_tags and includeCategories; without them no tags", async () => {
    const a = (await (
      await post("/api/recipes/create/url", {
        url: `${siteUrl}/pie`,
        include_tags: true,
        includeCategories: true,
      })
    ).json()) as string;
    expect(((await getRecipe(a)).tags as unknown[]).length).toBe(2);
    expect(((await getRecipe(a)).recipeCategory as { name: string }[]).map((c) => c.name)).toEqual([
      "Dessert",
    ]);
    const b = (await (await post("/api/recipes/create/url", { url: `${siteUrl}/pie` })).json()) as string;
    expect((await getRecipe(b)).tags).toEqual([]);
  });

  it("finds the URL in pasted text, as Mealie does", async () => {
    const res = await post("/api/recipes/create/url", {
      url: `look at this: ${siteUrl}/page/microdata.html yum`,
    });
    expect(res.status).toBe(201);
    expect((await getRecipe((await res.json()) as string)).name).toBe("Cheese Scones");
  });

  it("answers a page with no recipe with 400 BAD_RECIPE_DATA and writes nothing", async () => {
    const res = await expectNothingWritten(
      () => post("/api/recipes/create/url", { url: `${siteUrl}/page/no-recipe.html` }),
      400,
    );
    expect(await res.json()).toEqual({ detail: { details: "BAD_RECIPE_DATA" } });
  });

  it("refuses broken JSON-LD the same way", async () => {
    const res = await expectNothingWritten(
      () => post("/api/recipes/create/url", { url: `${siteUrl}/page/malformed-jsonld.html` }),
      400,
    );
    expect(await res.json()).toEqual({ detail: { details: "BAD_RECIPE_DATA" } });
  });

  it("gives up on a page that never finishes with 408", async () => {
    const res = await expectNothingWritten(
      () => post("/api/recipes/create/url", { url: `${siteUrl}/hang` }),
      408,
    );
    expect(((await res.json()) as { detail: { message: string } }).detail.message).toBe(
      "Recipe Scraping Timed Out",
    );
  });

  it("refuses a 50 MB page while it streams, not after", async () => {
    hugeBytesSent = 0;
    await expectNothingWritten(() => post("/api/recipes/create/url", { url: `${siteUrl}/huge` }), 413);
    await hugeClosed;
    expect(hugeBytesSent).toBeLessThan(20 * 1024 * 1024);
  });

  it("refuses redirects to private and metadata addresses", async () => {
    for (const path of ["/to-private", "/to-metadata"]) {
      const res = await expectNothingWritten(
        () => post("/api/recipes/create/url", { url: `${siteUrl}${path}` }),
        400,
      );
      expect(((await res.json()) as { detail: { message: string } }).detail.message).toBe(
        "Url is not from an allowed domain",
      );
    }
  });

  it("never fetches an image from a private address, and keeps the recipe without it", async () => {
    const res = await post("/api/recipes/create/url", { url: `${siteUrl}/private-image` });
    expect(res.status).toBe(201);
    const slug = (await res.json()) as string;
    expect((await getRecipe(slug)).image).toBeFalsy();
    expect(await listing()).not.toContain(slug);
  });

  it("refuses content that is not a page", async () => {
    await expectNothingWritten(
      () => post("/api/recipes/create/url", { url: `${siteUrl}/image-not-page` }),
      415,
    );
  });

  it("answers a missing url with the contract's 422", async () => {
    const res = await post("/api/recipes/create/url", {});
    expect(res.status).toBe(422);
    if (hasContract) assertContract("HTTPValidationError", await res.json());
  });

  it("answers every missing field with the contract's 422", async () => {
    const empty = new FormData();
    empty.set("nothing", "here");
    for (const res of [
      await post("/api/recipes/create/html-or-json", {}),
      await post("/api/recipes/create/url/bulk", {}),
      await post("/api/recipes/test-scrape-url", {}),
      await t.api("/api/recipes/create/zip", { method: "POST", token, body: empty }),
      await t.api("/api/recipes/create/image", { method: "POST", token, body: empty }),
    ]) {
      expect(res.status).toBe(422);
      if (hasContract) assertContract("HTTPValidationError", await res.json());
    }
  });

  it("streams progress, then the slug", async () => {
    const res = await post("/api/recipes/create/url/stream", { url: `${siteUrl}/pie` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await res.text();
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]) as unknown,
    }));
    expect(events[0].event).toBe("progress");
    expect(events.at(-1)).toEqual({ event: "done", data: expect.stringMatching(/^loopback-pie/) });
  });

  it("streams an error event for a page with no recipe", async () => {
    const res = await post("/api/recipes/create/url/stream", { url: `${siteUrl}/page/no-recipe.html` });
    const text = await res.text();
    expect(text).toContain("event: error");
    expect(text).toContain('"details":"BAD_RECIPE_DATA"');
  });
});

describe("POST /api/recipes/create/url/bulk", () => {
  it("answers 202 with a report id, fetches at most three at once, and reports each URL", async () => {
    maxInFlight = 0;
    const urls = ["a", "b", "c", "d", "bad", "e", "f"].map((n) => ({ url: `${siteUrl}/bulk/${n}` }));
    urls[0] = { ...urls[0], tags: [{ name: "Weekend" }] } as (typeof urls)[0];
    const res = await post("/api/recipes/create/url/bulk", { imports: urls });
    expect(res.status).toBe(202);
    const { reportId } = (await res.json()) as { reportId: string };
    await t.larder.imports.idle();
    expect(maxInFlight).toBeGreaterThan(0);
    expect(maxInFlight).toBeLessThanOrEqual(3);
    const report = (await (await t.api(`/api/groups/reports/${reportId}`, { token })).json()) as {
      name: string;
      category: string;
      status: string;
      entries: { success: boolean; message: string; exception: string }[];
    };
    expect(report).toMatchObject({ name: "Bulk Import", category: "bulk_import", status: "partial" });
    expect(report.entries).toHaveLength(7);
    expect(report.entries.filter((e) => e.success)).toHaveLength(6);
    const failed = report.entries.find((e) => !e.success)!;
    expect(failed.message).toBe(`failed to scrape url ${siteUrl}/bulk/bad`);
    expect(((await getRecipe("bulk-a")).tags as { name: string }[]).map((x) => x.name)).toEqual(["Weekend"]);
    expect((await getRecipe("bulk-b")).tags).toEqual([]);
  });
});

describe("POST /api/recipes/create/html-or-json", () => {
  it("imports pasted HTML with no source URL", async () => {
    const res = await post("/api/recipes/create/html-or-json", { data: fixture("jsonld-mainentity.html") });
    expect(res.status).toBe(201);
    const recipe = await getRecipe((await res.json()) as string);
    expect(recipe.name).toBe("Crêpes Suzette");
    expect(recipe.orgURL ?? "").toBe("");
  });

  it("imports schema.org JSON", async () => {
    const res = await post("/api/recipes/create/html-or-json", {
      data: JSON.stringify({
        "@type": "Recipe",
        name: "Pasted JSON",
        recipeIngredient: ["1 pear"],
        keywords: ["fruit"],
      }),
      includeTags: true,
    });
    expect(res.status).toBe(201);
    const recipe = await getRecipe((await res.json()) as string);
    expect(recipe.name).toBe("Pasted JSON");
    expect((recipe.tags as { name: string }[]).map((x) => x.name)).toEqual(["Fruit"]);
  });

  it("refuses HTML with no recipe and JSON that does not parse", async () => {
    await expectNothingWritten(
      () => post("/api/recipes/create/html-or-json", { data: fixture("no-recipe.html") }),
      400,
    );
    await expectNothingWritten(() => post("/api/recipes/create/html-or-json", { data: "{ nope" }), 400);
  });

  it("streams too", async () => {
    const res = await post("/api/recipes/create/html-or-json/stream", { data: recipePage("Streamed Paste") });
    expect(await res.text()).toMatch(/event: done\ndata: "streamed-paste"/);
  });
});

describe("POST /api/recipes/test-scrape-url", () => {
  it("shows what the page holds and writes nothing", async () => {
    const before = await listing();
    const res = await post("/api/recipes/test-scrape-url", { url: `${siteUrl}/page/jsonld-graph.html` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.name).toBe("Red Lentil Soup & Lemon");
    expect(body.recipeIngredient).toHaveLength(3);
    expect(await listing()).toEqual(before);
  });

  it("answers Mealie's sentence for a page with no recipe", async () => {
    const res = await post("/api/recipes/test-scrape-url", { url: `${siteUrl}/page/no-recipe.html` });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe("recipe_scrapers was unable to scrape this URL");
  });
});

describe("POST /api/recipes/create/zip", () => {
  const zipForm = (data: Buffer) => {
    const f = new FormData();
    f.set("archive", new Blob([new Uint8Array(data)]), "recipe.zip");
    return f;
  };
  const upload = (data: Buffer) =>
    t.api("/api/recipes/create/zip", { method: "POST", token, body: zipForm(data) });

  it("imports Larder's own download, image included", async () => {
    const slug = (await (
      await post("/api/recipes/create/url", { url: `${siteUrl}/pie`, includeTags: true })
    ).json()) as string;
    const { token: zipToken } = (await (
      await t.api(`/api/recipes/${slug}/exports`, { method: "POST", token })
    ).json()) as { token: string };
    const zip = Buffer.from(
      await (
        await t.api(`/api/recipes/${slug}/exports/zip?token=${encodeURIComponent(zipToken)}`)
      ).arrayBuffer(),
    );
    const res = await upload(zip);
    expect(res.status).toBe(201);
    const copy = await getRecipe((await res.json()) as string);
    const original = await getRecipe(slug);
    expect(copy.id).not.toBe(original.id);
    expect(copy.name).toBe(`${original.name as string} (1)`);
    expect((copy.recipeIngredient as { note: string }[]).map((i) => i.note)).toEqual(
      (original.recipeIngredient as { note: string }[]).map((i) => i.note),
    );
    expect(copy.tags).toEqual(original.tags);
    expect(copy.orgURL).toBe(original.orgURL);
    expect(copy.image).toBeTruthy();
  });

  it("imports Mealie's single-recipe export (snake_case JSON and a WebP)", async () => {
    const webp = await sharp(png).webp().toBuffer();
    const json = {
      name: "Mealie Stew",
      recipe_ingredient: [{ note: "1 onion", original_text: "1 onion" }],
      recipe_instructions: [{ text: "Stew it." }],
      org_url: "https://mealie.example/stew",
      recipe_yield: "4 servings",
      tags: [{ name: "Stew", slug: "stew" }],
    };
    const res = await upload(
      rawZip([
        { name: "mealie-stew.json", data: Buffer.from(JSON.stringify(json)) },
        { name: "original.webp", data: webp },
      ]),
    );
    expect(res.status).toBe(201);
    const recipe = await getRecipe((await res.json()) as string);
    expect(recipe.name).toBe("Mealie Stew");
    expect(recipe.orgURL).toBe("https://mealie.example/stew");
    expect((recipe.recipeInstructions as { text: string }[])[0].text).toBe("Stew it.");
    expect(recipe.image).toBeTruthy();
  });

  const recipeJson = { name: "x", data: Buffer.from(JSON.stringify({ name: "Zip Attack" })) };
  const attacks: Array<[string, () => Buffer]> = [
    [
      "a zip-slip entry (../../x)",
      () =>
        rawZip([
          { name: "zip-attack.json", data: recipeJson.data },
          { name: "../../x.webp", data: Buffer.from("x") },
        ]),
    ],
    ["an absolute path", () => rawZip([{ name: "/etc/zip-attack.json", data: recipeJson.data }])],
    [
      "a symlink entry",
      () =>
        rawZip([
          { name: "zip-attack.json", data: recipeJson.data },
          { name: "original.webp", data: Buffer.from("/etc/passwd"), mode: 0o120777 },
        ]),
    ],
    [
      "too many entries",
      () =>
        rawZip([
          { name: "zip-attack.json", data: recipeJson.data },
          ...Array.from({ length: 2100 }, (_, i) => ({
            name: `f${i}.txt`,
            data: Buffer.from("x"),
            deflate: false,
          })),
        ]),
    ],
    [
      "a zip bomb (expansion ratio)",
      () => rawZip([{ name: "zip-attack.json", data: Buffer.alloc(20 * 1024 * 1024, 0x20) }]),
    ],
    ["something that is not a zip", () => Buffer.from("PK but not really a zip file at all")],
  ];
  for (const [what, make] of attacks) {
    it(`refuses ${what} and writes nothing`, async () => {
      const res = await expectNothingWritten(() => upload(make()), 400);
      expect(((await res.json()) as { detail: { message: string } }).detail.message).toMatch(
        /^Refused archive/,
      );
      expect(await readdir(join(t.dataDir, ".larder", "tmp")).catch(() => [])).toEqual([]);
    });
  }

  it("refuses an archive without recipe JSON", async () => {
    await expectNothingWritten(() => upload(rawZip([{ name: "notes.txt", data: Buffer.from("hi") }])), 400);
  });
});
