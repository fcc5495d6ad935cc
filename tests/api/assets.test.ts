import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

async function create(name: string): Promise<{ slug: string; id: string }> {
  const slug = (await (
    await t.api("/api/recipes", { method: "POST", token, json: { name } })
  ).json()) as string;
  const { id } = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { id: string };
  return { slug, id };
}

function assetForm(
  fields: { name: string; icon?: string; extension: string },
  data: Buffer | string = "asset bytes",
): FormData {
  const f = new FormData();
  f.set("name", fields.name);
  f.set("icon", fields.icon ?? "mdi-file");
  f.set("extension", fields.extension);
  f.set("file", new Blob([typeof data === "string" ? data : new Uint8Array(data)]), "whatever.bin");
  return f;
}

const post = (slug: string, body: FormData, tok = token) =>
  t.api(`/api/recipes/${slug}/assets`, { method: "POST", token: tok, body });
const mediaDir = (slug: string) => join(t.dataDir, "groups", "home", "recipes", slug);

/** Every file under the data folder, relative: proves nothing was written where it should not be. */
async function allFiles(dir = t.dataDir, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await allFiles(join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out;
}

describe("recipe assets", () => {
  it("POST stores slugify(name).ext in the recipe's assets/ and lists it on the recipe", async () => {
    const { slug, id } = await create("Asset Holder");
    const res = await post(
      slug,
      assetForm({ name: "My Scanned Card", icon: "mdi-image", extension: "JPG" }, "jpeg-ish bytes"),
    );
    expect(res.status).toBe(200);
    const asset = (await res.json()) as { name: string; icon: string; fileName: string };
    if (hasContract) assertContract("RecipeAsset", asset);
    expect(asset).toEqual({ name: "My Scanned Card", icon: "mdi-image", fileName: "my-scanned-card.jpg" });
    expect(await readFile(join(mediaDir(slug), "assets", "my-scanned-card.jpg"), "utf8")).toBe(
      "jpeg-ish bytes",
    );
    const r = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as {
      assets: { name: string; fileName: string }[];
    };
    expect(r.assets).toEqual([
      { name: "My Scanned Card", icon: "mdi-image", fileName: "my-scanned-card.jpg" },
    ]);
    const served = await t.api(`/api/media/recipes/${id}/assets/my-scanned-card.jpg`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(await served.text()).toBe("jpeg-ish bytes");

    // Only the last part of a dotted extension counts ("tar.gz" → "gz"), as Mealie.
    const gz = (await (await post(slug, assetForm({ name: "Archive", extension: "tar.gz" }))).json()) as {
      fileName: string;
    };
    expect(gz.fileName).toBe("archive.gz");
  });

  it("uploading the same name again replaces the file and its listing", async () => {
    const { slug } = await create("Asset Twice");
    await post(slug, assetForm({ name: "Card", extension: "txt" }, "one"));
    await post(slug, assetForm({ name: "Card", extension: "txt" }, "two"));
    const r = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { assets: unknown[] };
    expect(r.assets).toHaveLength(1);
    expect(await readFile(join(mediaDir(slug), "assets", "card.txt"), "utf8")).toBe("two");
  });

  it("refuses path traversal in the name or the extension with 400, writing nothing", async () => {
    const { slug } = await create("Traversal Target");
    const before = await allFiles();
    const attempts = [
      { name: "../../../../etc/passwd", extension: "txt" },
      { name: "..\\..\\secrets", extension: "txt" },
      { name: "/etc/passwd", extension: "txt" },
      { name: "nul\0byte", extension: "txt" },
      { name: "ok", extension: "../../larder.json" },
      { name: "ok", extension: "jpg/../../../x" },
      { name: "ok", extension: "..\\..\\x" },
      { name: "ok", extension: "%2e%2e%2fx" },
      { name: "ok", extension: "/etc/passwd" },
      { name: "ok", extension: "" },
      { name: "!!!", extension: "txt" },
    ];
    for (const a of attempts) {
      const res = await post(slug, assetForm(a));
      expect(res.status, JSON.stringify(a)).toBe(400);
    }
    expect(await allFiles()).toEqual(before);
  });

  it("GET refuses traversal, encoded traversal, backslashes, absolute paths and NUL with 404", async () => {
    const { slug, id } = await create("Read Target");
    await post(slug, assetForm({ name: "Fine", extension: "txt" }));
    for (const file of [
      "..%2f..%2f..%2f..%2flarder.json",
      "%2e%2e%2f%2e%2e%2flarder.json",
      "..%5c..%5clarder.json",
      "%2fetc%2fpasswd",
      "fine.txt%00.jpg",
      "..",
      ".",
      "%2e%2e",
    ]) {
      const res = await t.api(`/api/media/recipes/${id}/assets/${file}`);
      expect(res.status, file).toBe(404);
      expect(await res.text()).not.toContain("larder");
    }
    expect((await t.api(`/api/media/recipes/not-a-uuid/assets/fine.txt`)).status).toBe(404);
    expect((await t.api(`/api/media/recipes/${id}/assets/fine.txt`)).status).toBe(200);
  });

  it("never follows a symlink planted in the assets folder, or an assets folder that is a symlink", async () => {
    const outside = await mkdtemp(join(tmpdir(), "larder-outside-"));
    try {
      await writeFile(join(outside, "secret.txt"), "top secret");
      const a = await create("Link In Assets");
      await mkdir(join(mediaDir(a.slug), "assets"), { recursive: true });
      await symlink(join(outside, "secret.txt"), join(mediaDir(a.slug), "assets", "evil.txt"));
      expect((await t.api(`/api/media/recipes/${a.id}/assets/evil.txt`)).status).toBe(404);

      const b = await create("Assets Folder Link");
      await mkdir(mediaDir(b.slug), { recursive: true });
      await symlink(outside, join(mediaDir(b.slug), "assets"));
      expect((await t.api(`/api/media/recipes/${b.id}/assets/secret.txt`)).status).toBe(404);
      expect((await post(b.slug, assetForm({ name: "Drop", extension: "txt" }))).status).toBe(404);
      expect(await readdir(outside)).toEqual(["secret.txt"]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("serves active content (html, svg) as a download, never inline", async () => {
    const { slug, id } = await create("Active Content");
    await post(slug, assetForm({ name: "Page", extension: "html" }, "<script>alert(1)</script>"));
    const res = await t.api(`/api/media/recipes/${id}/assets/page.html`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("another group's recipe answers 404 and gets no file", async () => {
    const { slug } = await create("Guarded Assets");
    const other = await t.larder.groups.createGroup("Assets Elsewhere");
    const u = await t.larder.users.create(
      {
        username: "asset-outsider",
        email: "asset-outsider@example.com",
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
    const outsider = await t.login("asset-outsider", "Another-Passw0rd!");
    expect((await post(slug, assetForm({ name: "Intruder", extension: "txt" }), outsider)).status).toBe(404);
    expect(existsSync(join(mediaDir(slug), "assets"))).toBe(false);
  });
});
