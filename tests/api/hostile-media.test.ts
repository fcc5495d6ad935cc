/**
 * Paths and headers built from what a hand-edited file holds (issue 11 §3). A front-matter `image:`
 * key of `../` segments plus an absolute folder made an unauthenticated image request create a folder
 * and a WebP outside the data folder (the derived-size cache path was built from the key); a CR/LF in
 * the key made the route a 500 (invalid header). Both are replayed here.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let token: string;
let outside: string;

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  outside = await mkdtemp(join(tmpdir(), "larder-outside-"));
});
afterAll(async () => {
  await t?.close();
  await rm(outside, { recursive: true, force: true });
});

async function recipeWithImage(name: string): Promise<{ slug: string; id: string; file: string }> {
  const slug = (await (await t.api("/api/recipes", { method: "POST", token, json: { name } })).json()) as string;
  const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#336699" } }).png().toBuffer();
  const f = new FormData();
  f.set("image", new Blob([new Uint8Array(png)]), "a.png");
  f.set("extension", "png");
  expect((await t.api(`/api/recipes/${slug}/image`, { method: "PUT", token, body: f })).status).toBe(200);
  const id = ((await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { id: string }).id;
  const groupSlug = t.larder.recipes.store.getById(id)!.groupSlug;
  return { slug, id, file: join(t.dataDir, "groups", groupSlug, "recipes", `${slug}.md`) };
}

async function handEditImageKey(r: { slug: string; id: string; file: string }, yamlValue: string): Promise<void> {
  const text = await readFile(r.file, "utf8");
  expect(text).toMatch(/^image: .*$/m);
  await writeFile(r.file, text.replace(/^image: .*$/m, `image: ${yamlValue}`));
  const e = t.larder.recipes.store.getById(r.id)!;
  await t.larder.recipes.store.reload(e.groupSlug, e.slug);
}

describe("an image key written by hand", () => {
  it("made of ../ segments and an absolute folder never names a path outside the data folder", async () => {
    const r = await recipeWithImage("Escape Soup");
    const target = join(outside, "planted");
    await handEditImageKey(r, JSON.stringify(`${"../".repeat(12)}${target}`));
    for (const size of ["original.webp", "min-original.webp", "tiny-original.webp"]) {
      const res = await fetch(`${t.url}/api/media/recipes/${r.id}/images/${size}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
    }
    expect(existsSync(target)).toBe(false);
    expect(await readdir(outside)).toEqual([]);
  });

  it("holding CR/LF still gives a 200 with a header of safe characters only", async () => {
    const r = await recipeWithImage("Header Soup");
    await handEditImageKey(r, JSON.stringify("abc\r\nSet-Cookie: x=1\r\n\"quoted\""));
    const res = await fetch(`${t.url}/api/media/recipes/${r.id}/images/original.webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9._~+=-]+"$/);
  });
});
