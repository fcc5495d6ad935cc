import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { readZip } from "../../core/exports/test-support.js";

let t: TestServer;
let token: string;
let slug: string;
let recipeId: string;

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  slug = (await (
    await t.api("/api/recipes", {
      method: "POST",
      token,
      json: { name: "Export Me", orgURL: "https://example.org/x", description: "Zipped." },
    })
  ).json()) as string;
  recipeId = ((await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { id: string }).id;
  const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#2980b9" } })
    .png()
    .toBuffer();
  const f = new FormData();
  f.set("image", new Blob([png]), "x.png");
  f.set("extension", "png");
  expect((await t.api(`/api/recipes/${slug}/image`, { method: "PUT", token, body: f })).status).toBe(200);
});
afterAll(async () => t?.close());

async function outsider(): Promise<string> {
  const other = await t.larder.groups.createGroup("Exports Elsewhere");
  const u = await t.larder.users.create(
    {
      username: "export-outsider",
      email: "export-outsider@example.com",
      fullName: "O",
      admin: false,
      advanced: false,
      canInvite: false,
      canManage: false,
      canManageHousehold: false,
      canOrganize: false,
    },
    { groupId: other.doc.data.id, householdId: [...other.households.values()][0].doc.data.id },
  );
  await t.larder.auth.setPassword(u.id, "Another-Passw0rd!");
  return t.login("export-outsider", "Another-Passw0rd!");
}

describe("recipe exports", () => {
  it("lists the formats (FormatResponse, plus jinja2 and Larder's markdown)", async () => {
    const res = await t.api("/api/recipes/exports", { token });
    const body = await res.json();
    if (hasContract) assertContract("FormatResponse", body);
    expect(body).toEqual({ json: ["raw"], zip: ["zip"], jinja2: ["recipes.md"], markdown: ["markdown"] });
  });

  it("POST gives a token; the zip holds the Markdown file, Mealie's snake_case JSON and the images", async () => {
    const res = await t.api(`/api/recipes/${slug}/exports`, { method: "POST", token });
    expect(res.status).toBe(200);
    const { token: zipToken } = (await res.json()) as { token: string };
    expect(typeof zipToken).toBe("string");
    // The token is the credential: no Authorization header needed.
    const zip = await t.api(`/api/recipes/${slug}/exports/zip?token=${encodeURIComponent(zipToken)}`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(zip.headers.get("content-disposition")).toBe(`attachment; filename="${slug}.zip"`);
    const entries = readZip(Buffer.from(await zip.arrayBuffer()));
    expect(entries.map((e) => e.name).sort()).toEqual([
      `${slug}.json`,
      `${slug}.md`,
      "original.png",
      "original.webp",
    ]);
    const md = entries.find((e) => e.name === `${slug}.md`)?.data.toString("utf8");
    expect(md).toBe(await readFile(join(t.dataDir, "groups", "home", "recipes", `${slug}.md`), "utf8"));
    const json = JSON.parse(
      entries.find((e) => e.name === `${slug}.json`)?.data.toString("utf8") ?? "{}",
    ) as Record<string, unknown>;
    expect(json.id).toBe(recipeId);
    expect(json.org_url).toBe("https://example.org/x");
    expect(json).toHaveProperty("recipe_ingredient");
    expect(json).toHaveProperty("date_added");
    expect(json).not.toHaveProperty("recipeIngredient");
    expect((await sharp(entries.find((e) => e.name === "original.webp")?.data).metadata()).format).toBe(
      "webp",
    );
  });

  it("refuses a token made for another recipe (400 Invalid Slug), a bad token (401) and a session token (401)", async () => {
    const other = (await (
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Other Export" } })
    ).json()) as string;
    const { token: zipToken } = (await (
      await t.api(`/api/recipes/${other}/exports`, { method: "POST", token })
    ).json()) as { token: string };
    const wrong = await t.api(`/api/recipes/${slug}/exports/zip?token=${zipToken}`);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { detail: { message: string } }).detail.message).toBe("Invalid Slug");
    expect((await t.api(`/api/recipes/${slug}/exports/zip?token=garbage`)).status).toBe(401);
    expect((await t.api(`/api/recipes/${slug}/exports/zip?token=${token}`)).status).toBe(401);
    expect((await t.api(`/api/recipes/${slug}/exports/zip`)).status).toBe(422);
  });

  it("GET ?template_name=raw gives {slug}.json (camelCase, indented); markdown gives the .md file", async () => {
    const raw = await t.api(`/api/recipes/${slug}/exports?template_name=raw`, { token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-disposition")).toBe(`attachment; filename="${slug}.json"`);
    const text = await raw.text();
    expect(text).toContain('\n  "');
    const recipe = JSON.parse(text) as Record<string, unknown>;
    if (hasContract) assertContract("Recipe-Output", recipe);
    expect(recipe.orgURL).toBe("https://example.org/x");
    const md = await t.api(`/api/recipes/${slug}/exports?template_name=markdown`, { token });
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(await md.text()).toContain("name: Export Me");
    // Mealie's shipped template name answers the same Markdown file.
    const mealieMd = await t.api(`/api/recipes/${slug}/exports?template_name=recipes.md`, { token });
    expect(mealieMd.status).toBe(200);
    expect(mealieMd.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(await mealieMd.text()).toContain("name: Export Me");
    expect((await t.api(`/api/recipes/${slug}/exports?template_name=nope.html`, { token })).status).toBe(404);
    expect((await t.api(`/api/recipes/${slug}/exports`, { token })).status).toBe(422);
  });

  it("another group's caller gets 404 for every export route, even holding a valid zip token", async () => {
    const out = await outsider();
    const { token: zipToken } = (await (
      await t.api(`/api/recipes/${slug}/exports`, { method: "POST", token })
    ).json()) as { token: string };
    expect((await t.api(`/api/recipes/${slug}/exports`, { method: "POST", token: out })).status).toBe(404);
    expect((await t.api(`/api/recipes/${recipeId}/exports?template_name=raw`, { token: out })).status).toBe(
      404,
    );
    const res = await t.api(`/api/recipes/${slug}/exports/zip?token=${zipToken}`, { token: out });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("Export Me");
  });
});

describe("/api/utils/download", () => {
  it("refuses a missing token (400) and anything but a file token (401)", async () => {
    expect((await t.api("/api/utils/download")).status).toBe(400);
    expect((await t.api("/api/utils/download?token=garbage")).status).toBe(401);
    expect((await t.api(`/api/utils/download?token=${token}`)).status).toBe(401);
    const { token: zipToken } = (await (
      await t.api(`/api/recipes/${slug}/exports`, { method: "POST", token })
    ).json()) as { token: string };
    expect((await t.api(`/api/utils/download?token=${zipToken}`)).status).toBe(401);
  });

  it("will not even sign a token for a file outside the downloadable folders", async () => {
    for (const p of [
      ".larder/secrets.json",
      ".larder/credentials.json",
      "users.json",
      "../etc/passwd",
      "/etc/passwd",
      ".larder/exports/../secrets.json",
    ]) {
      await expect(t.larder.exports.tokens.signFile(p), p).rejects.toMatchObject({ status: 400 });
    }
  });
});
