import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { deflateSync, crc32 } from "node:zlib";
import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

let t: TestServer;
let token: string;
let png: Buffer;
let jpg: Buffer;
const MAX_UPLOAD = 1_000_000;

beforeAll(async () => {
  t = await startTestServer({ maxUploadBytes: MAX_UPLOAD });
  token = await t.login();
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c0392b" } })
    .png()
    .toBuffer();
  jpg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#27ae60" } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => t?.close());

async function create(name: string, tok = token): Promise<string> {
  const res = await t.api("/api/recipes", { method: "POST", token: tok, json: { name } });
  expect(res.status).toBe(201);
  return (await res.json()) as string;
}

function form(data: Buffer, extension: string, field = "image"): FormData {
  const f = new FormData();
  f.set(field, new Blob([new Uint8Array(data)]), `upload.${extension}`);
  f.set("extension", extension);
  return f;
}

async function upload(slug: string, data: Buffer, extension: string, tok = token): Promise<Response> {
  return t.api(`/api/recipes/${slug}/image`, { method: "PUT", token: tok, body: form(data, extension) });
}

const media = (slug: string) => join(t.dataDir, "groups", "home", "recipes", slug);

async function recipe(slug: string): Promise<{ id: string; image: string | null }> {
  return (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as {
    id: string;
    image: string | null;
  };
}

/** A PNG whose header declares `w`×`h` pixels, with a token IDAT: a decompression bomb as far as any reader is concerned. */
function bombPng(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function userIn(groupId: string, householdId: string, name: string): Promise<string> {
  const u = await t.larder.users.create(
    {
      username: name,
      email: `${name}@example.com`,
      fullName: name,
      admin: false,
      advanced: false,
      canInvite: false,
      canManage: false,
      canManageHousehold: false,
      canOrganize: false,
    },
    { groupId, householdId },
  );
  await t.larder.auth.setPassword(u.id, "Another-Passw0rd!");
  return t.login(name, "Another-Passw0rd!");
}

describe("recipe images", () => {
  it("PUT stores the original once, answers the new image key, and the recipe carries it", async () => {
    const slug = await create("Red Square");
    const res = await upload(slug, png, "png");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { image: string };
    if (hasContract) assertContract("UpdateImageResponse", body);
    expect(body.image).toMatch(/^[a-z][a-z0-9]{7}$/);
    expect((await recipe(slug)).image).toBe(body.image);
    expect(await readdir(media(slug))).toEqual(["original.png"]);

    // A new upload replaces the original (whatever its format) and changes the key.
    const again = (await (await upload(slug, jpg, "jpg")).json()) as { image: string };
    expect(again.image).not.toBe(body.image);
    expect(await readdir(media(slug))).toEqual(["original.jpg"]);
    // The derived sizes are cached under .larder/, never in the recipe folder.
    const { id } = await recipe(slug);
    const res2 = await t.api(`/api/media/recipes/${id}/images/min-original.webp`);
    expect(res2.status).toBe(200);
    expect(res2.headers.get("content-type")).toBe("image/webp");
    expect(res2.headers.get("cache-control")).toMatch(/max-age/);
    const etag = res2.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(
      (
        await t.api(`/api/media/recipes/${id}/images/min-original.webp`, {
          headers: { "If-None-Match": etag ?? "" },
        })
      ).status,
    ).toBe(304);
    expect(await readdir(media(slug))).toEqual(["original.jpg"]);
    const meta = await sharp(
      Buffer.from(await (await t.api(`/api/media/recipes/${id}/images/original.webp`)).arrayBuffer()),
    ).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 64, 48]);
  });

  it("serves the newer photo when a replacement in another format was cut short before the old one went", async () => {
    const slug = await create("Two Originals");
    await upload(slug, jpg, "jpg");
    // What a kill between writing the new original and removing the old one leaves: both, the PNG
    // newer (and last in name order, so the name alone would pick the old photo).
    await writeFile(join(media(slug), "original.png"), png);
    const older = new Date(Date.now() - 60_000);
    await utimes(join(media(slug), "original.jpg"), older, older);
    const { id } = await recipe(slug);
    const served = await t.api(`/api/media/recipes/${id}/images/original.webp`);
    expect(served.status).toBe(200);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([40, 30]);
    // The next upload leaves one original again.
    await upload(slug, jpg, "jpg");
    expect(await readdir(media(slug))).toEqual(["original.jpg"]);
  });

  it("refuses what is not an image with 400 and stores nothing", async () => {
    const slug = await create("Not An Image");
    for (const [data, ext] of [
      [Buffer.from("just some text, not pixels at all"), "png"],
      [
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ),
        "svg",
      ],
      [png.subarray(0, 60), "png"],
    ] as const) {
      expect((await upload(slug, data, ext)).status).toBe(400);
    }
    expect(existsSync(media(slug))).toBe(false);
    expect((await recipe(slug)).image).toBeNull();
  });

  it("refuses a decompression bomb (header declaring 100k x 100k pixels) with 400", async () => {
    const slug = await create("Bomb");
    const res = await upload(slug, bombPng(100_000, 100_000), "png");
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/too large/);
    expect(existsSync(media(slug))).toBe(false);
  });

  it("refuses an upload over the size cap with 413", async () => {
    const slug = await create("Huge Upload");
    const big = Buffer.concat([png, Buffer.alloc(MAX_UPLOAD + 10)]);
    expect((await upload(slug, big, "png")).status).toBe(413);
    expect(existsSync(media(slug))).toBe(false);
  });

  it("POST with a URL to a private address is refused: 400 'Url is not from an allowed domain'", async () => {
    const slug = await create("Private Url");
    for (const url of [
      "http://127.0.0.1:9/x.png",
      "http://localhost/x.png",
      "http://[::1]/x.png",
      "http://169.254.169.254/latest",
    ]) {
      const res = await t.api(`/api/recipes/${slug}/image`, { method: "POST", token, json: { url } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: { message: string } }).detail.message).toBe(
        "Url is not from an allowed domain",
      );
    }
    expect((await recipe(slug)).image).toBeNull();
  });

  it("DELETE removes the original and clears the key", async () => {
    const slug = await create("Short Lived Image");
    await upload(slug, png, "png");
    const { id } = await recipe(slug);
    const res = await t.api(`/api/recipes/${slug}/image`, { method: "DELETE", token });
    expect(res.status).toBe(200);
    expect((await recipe(slug)).image).toBeNull();
    expect((await t.api(`/api/media/recipes/${id}/images/original.webp`)).status).toBe(404);
  });

  it("another group's recipe is a 404 (never touched); another household's too, as in Mealie", async () => {
    const slug = await create("Home Only");
    const other = await t.larder.groups.createGroup("Images Elsewhere");
    const outsider = await userIn(
      other.doc.data.id,
      [...other.households.values()][0].doc.data.id,
      "img-outsider",
    );
    const { id } = await recipe(slug);
    expect((await upload(slug, png, "png", outsider)).status).toBe(404);
    expect((await upload(id, png, "png", outsider)).status).toBe(404);
    expect((await t.api(`/api/recipes/${slug}/image`, { method: "DELETE", token: outsider })).status).toBe(
      404,
    );
    const home = t.larder.groups.bySlugOrNull("home");
    if (!home) throw new Error("no home group");
    const h2 = await t.larder.groups.createHousehold(home, "Images Neighbours");
    const neighbour = await userIn(home.doc.data.id, h2.doc.data.id, "img-neighbour");
    expect((await upload(slug, png, "png", neighbour)).status).toBe(404);
    expect(existsSync(media(slug))).toBe(false);
  });

  it("never serves or writes through a symlink planted in a media folder", async () => {
    const outside = await mkdtemp(join(tmpdir(), "larder-outside-"));
    try {
      await writeFile(join(outside, "secret.png"), png);
      const slug = await create("Planted Link");
      const { id } = await recipe(slug);
      await mkdir(media(slug), { recursive: true });
      await symlink(join(outside, "secret.png"), join(media(slug), "original.png"));
      expect((await t.api(`/api/media/recipes/${id}/images/original.webp`)).status).toBe(404);

      // A damaged original put there by hand is as good as none: 404, not a server error.
      const slug3 = await create("Damaged Original");
      await mkdir(media(slug3), { recursive: true });
      await writeFile(join(media(slug3), "original.jpg"), Buffer.from([0xff, 0xd8, 0xff, 0x00, 1, 2, 3]));
      expect(
        (await t.api(`/api/media/recipes/${(await recipe(slug3)).id}/images/tiny-original.webp`)).status,
      ).toBe(404);

      // The media folder itself a link to elsewhere: uploads must not land there.
      const slug2 = await create("Planted Folder");
      await symlink(outside, media(slug2));
      expect((await upload(slug2, jpg, "jpg")).status).toBe(404);
      expect((await readdir(outside)).sort()).toEqual(["secret.png"]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("serves timeline event images stored with saveTimelineImage", async () => {
    const slug = await create("Timeline Pictures");
    const { id } = await recipe(slug);
    const eventId = "0b6f9b5e-3c1a-4d2e-8f00-1234567890ab";
    await t.larder.images.saveTimelineImage(id, eventId, png, "png");
    expect(await readdir(join(media(slug), "timeline", eventId))).toEqual(["original.png"]);
    const res = await t.api(`/api/media/recipes/${id}/images/timeline/${eventId}/tiny-original.webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect((await t.api(`/api/media/recipes/${id}/images/timeline/not-a-uuid/original.webp`)).status).toBe(
      404,
    );
    expect(
      (await t.api(`/api/media/recipes/${id}/images/timeline/${eventId}/..%2f..%2foriginal.png`)).status,
    ).toBe(404);
    await expect(
      t.larder.images.saveTimelineImage(id, eventId, Buffer.from("nope"), "png"),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("serves /api/media/docker/validate.txt", async () => {
    const res = await t.api("/api/media/docker/validate.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect((await res.text()).length).toBeGreaterThan(10);
  });
});

describe("recipe image from a URL (loopback allowed for this test)", () => {
  let t2: TestServer;
  let tok2: string;
  let origin: Server;
  let base: string;

  beforeAll(async () => {
    t2 = await startTestServer({ fetchAllow: "127.0.0.1" });
    tok2 = await t2.login();
    origin = createServer((req, res) => {
      if (req.url === "/pic.png") {
        res.writeHead(200, { "Content-Type": "image/png" });
        res.end(png);
      } else if (req.url === "/fake.png") {
        res.writeHead(200, { "Content-Type": "image/png" });
        res.end("<html>not really</html>");
      } else {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html></html>");
      }
    });
    await new Promise<void>((r) => origin.listen(0, "127.0.0.1", () => r()));
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => origin?.close(() => r()));
    await t2?.close();
  });

  it("downloads the image through the guarded fetcher and gives the recipe a new key", async () => {
    const slug = (await (
      await t2.api("/api/recipes", { method: "POST", token: tok2, json: { name: "From The Web" } })
    ).json()) as string;
    const res = await t2.api(`/api/recipes/${slug}/image`, {
      method: "POST",
      token: tok2,
      json: { url: `${base}/pic.png`, includeTags: false },
    });
    expect(res.status).toBe(200);
    const r = (await (await t2.api(`/api/recipes/${slug}`, { token: tok2 })).json()) as {
      image: string | null;
    };
    expect(r.image).toBeTruthy();
    expect(await readdir(join(t2.dataDir, "groups", "home", "recipes", slug))).toEqual(["original.png"]);

    const page = await t2.api(`/api/recipes/${slug}/image`, {
      method: "POST",
      token: tok2,
      json: { url: `${base}/page` },
    });
    expect(page.status).toBe(400);
    expect(((await page.json()) as { detail: { message: string } }).detail.message).toBe(
      "Url is not an image",
    );
    expect(
      (
        await t2.api(`/api/recipes/${slug}/image`, {
          method: "POST",
          token: tok2,
          json: { url: `${base}/fake.png` },
        })
      ).status,
    ).toBe(400);
  });
});
