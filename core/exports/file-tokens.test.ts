import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { FileTokens } from "./file-tokens.js";
import { openFileInside } from "../media/safe-path.js";

const key = new Uint8Array(32).fill(7);
let base: string;
let root: string;
let tokens: FileTokens;

/** A token signed with the right key but carrying whatever path an attacker would like. */
function forged(file: unknown, opts: { aud?: string; exp?: number } = {}): Promise<string> {
  return new SignJWT({ file })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer("larder")
    .setAudience(opts.aud ?? "larder:file")
    .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 60)
    .sign(key);
}

async function open(token: string): Promise<string> {
  const f = await tokens.resolveFile(token);
  const { handle } = await openFileInside(root, f.dir, f.name);
  try {
    return (await handle.readFile()).toString("utf8");
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-tokens-"));
  root = join(base, "data");
  await mkdir(join(root, ".larder", "exports", "home"), { recursive: true });
  await writeFile(join(root, ".larder", "exports", "home", "a.zip"), "zip bytes");
  await writeFile(join(root, ".larder", "secrets.json"), '{"jwtSecret":"x"}');
  await writeFile(join(base, "outside.txt"), "outside the data folder");
  await symlink(join(base, "outside.txt"), join(root, ".larder", "exports", "home", "link.zip"));
  await symlink(base, join(root, ".larder", "exports", "linked-dir"));
  tokens = new FileTokens(root, key);
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe("file tokens", () => {
  it("round-trip a path inside the downloadable folders", async () => {
    expect(await open(await tokens.signFile(".larder/exports/home/a.zip"))).toBe("zip bytes");
  });

  it("refuse to sign paths outside the downloadable folders", async () => {
    for (const p of [
      ".larder/secrets.json",
      "../outside.txt",
      "/etc/passwd",
      ".larder/exports/../secrets.json",
      ".larder\\exports\\home\\a.zip",
      "users.json",
      ".larder/exports",
    ]) {
      await expect(tokens.signFile(p), p).rejects.toMatchObject({ status: 400 });
    }
  });

  it("refuse forged tokens naming traversal, absolute paths, backslashes or NUL (Mealie PR #2867)", async () => {
    const bad = [
      "../outside.txt",
      ".larder/exports/../../../outside.txt",
      ".larder/exports/home/../../secrets.json",
      "/etc/passwd",
      join(base, "outside.txt"),
      ".larder\\exports\\..\\secrets.json",
      ".larder/exports/home/a.zip\0.txt",
      ".larder/secrets.json",
      "",
    ];
    for (const p of bad) await expect(open(await forged(p)), p).rejects.toMatchObject({ status: 400 });
  });

  it("refuse symlinks inside the downloadable folders (404, nothing read)", async () => {
    await expect(open(await forged(".larder/exports/home/link.zip"))).rejects.toMatchObject({ status: 404 });
    await expect(open(await forged(".larder/exports/linked-dir/outside.txt"))).rejects.toMatchObject({
      status: 404,
    });
  });

  it("refuse expired tokens, other audiences, other keys and non-string paths with 401", async () => {
    await expect(
      tokens.resolveFile(
        await forged(".larder/exports/home/a.zip", { exp: Math.floor(Date.now() / 1000) - 10 }),
      ),
    ).rejects.toMatchObject({ status: 401 });
    await expect(
      tokens.resolveFile(await forged(".larder/exports/home/a.zip", { aud: "larder:recipe-zip" })),
    ).rejects.toMatchObject({ status: 401 });
    await expect(tokens.resolveFile(await forged(["a", "b"]))).rejects.toMatchObject({ status: 401 });
    const other = new FileTokens(root, new Uint8Array(32).fill(9));
    await expect(
      tokens.resolveFile(await other.signFile(".larder/exports/home/a.zip")),
    ).rejects.toMatchObject({ status: 401 });
    await expect(tokens.resolveFile("not-a-jwt")).rejects.toMatchObject({ status: 401 });
  });

  it("keep recipe-zip tokens and file tokens apart", async () => {
    const zipToken = await tokens.signRecipe({ slug: "soup", group: "home" });
    expect(await tokens.verifyRecipe(zipToken)).toEqual({ slug: "soup", group: "home" });
    await expect(tokens.resolveFile(zipToken)).rejects.toMatchObject({ status: 401 });
    await expect(
      tokens.verifyRecipe(await tokens.signFile(".larder/exports/home/a.zip")),
    ).rejects.toMatchObject({ status: 401 });
  });
});
