/**
 * A full disk (a real one: a small tmpfs, which needs root to mount; skipped otherwise). A write the
 * disk refuses (an edit, a rating, a backup) is answered 507 with a message saying nothing was saved,
 * the recipe and the ratings stay as they were, no temp file or partial backup is left, and once there
 * is room again the same writes go through.
 */
import { execa } from "execa";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

const mountPoint = await mkdtemp(join(tmpdir(), "larder-full-"));
const mounted =
  process.platform === "linux" &&
  (await execa("mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", mountPoint], { reject: false }))
    .exitCode === 0;
if (!mounted) {
  console.warn("disk-full tests skipped: mounting a small tmpfs needs root (CAP_SYS_ADMIN)");
  await rmdir(mountPoint).catch(() => undefined);
}

let t: TestServer;
let token: string;
const filler = join(mountPoint, "filler");

/** Fills what is left of the file system, a megabyte at a time, then what fits of a kilobyte. */
async function fillDisk(): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, 1);
  const small = Buffer.alloc(1024, 1);
  let i = 0;
  for (const piece of [chunk, small])
    for (;;) {
      try {
        await writeFile(`${filler}-${i++}`, piece);
      } catch {
        break;
      }
    }
}

describe.skipIf(!mounted)("a full disk", () => {
  beforeAll(async () => {
    t = await startTestServer({}, { dataDir: join(mountPoint, "data") });
    token = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    if (mounted) await execa("umount", [mountPoint], { reject: false });
    await rm(mountPoint, { recursive: true, force: true });
  });

  it("answers 507 and keeps the recipe and the ratings as they were, then saves once there is room", async () => {
    const slug = (await (
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Soup" } })
    ).json()) as string;
    const me = (await (await t.api("/api/users/self", { token })).json()) as { id: string };
    const file = join(t.dataDir, "groups", "home", "recipes", `${slug}.md`);
    const before = await readFile(file, "utf8");

    await fillDisk();
    const edit = await t.api(`/api/recipes/${slug}`, {
      method: "PATCH",
      token,
      json: { description: "x".repeat(90_000) },
    });
    expect(edit.status).toBe(507);
    const body = (await edit.json()) as { detail: { message: string } };
    expect(body.detail.message).toMatch(/disk .* is full.*not saved/);
    expect(await readFile(file, "utf8")).toBe(before);
    const rating = await t.api(`/api/users/${me.id}/ratings/${slug}`, {
      method: "POST",
      token,
      json: { rating: 5, isFavorite: true },
    });
    expect(rating.status).toBe(507);
    // A backup is written on a worker thread: the full disk still reads as one, and no part is left.
    const backup = await t.api("/api/admin/backups", { method: "POST", token });
    expect(backup.status).toBe(507);
    expect(await readdir(join(t.dataDir, ".larder", "backups"))).toEqual([]);
    expect(await readdir(join(t.dataDir, ".larder", "tmp"))).toEqual([]);
    const shown = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { description: string };
    expect(shown.description).toBe("");

    for (const name of await readdir(mountPoint))
      if (name.startsWith("filler")) await rm(join(mountPoint, name));
    const again = await t.api(`/api/recipes/${slug}`, {
      method: "PATCH",
      token,
      json: { description: "Saved once there was room." },
    });
    expect(again.status).toBe(200);
    expect(await readFile(file, "utf8")).toContain("Saved once there was room.");
    const rated = await t.api(`/api/users/${me.id}/ratings/${slug}`, {
      method: "POST",
      token,
      json: { rating: 5, isFavorite: true },
    });
    expect(rated.status).toBe(200);
    expect(existsSync(join(t.dataDir, "groups", "home", "ratings.json"))).toBe(true);
  });
});
