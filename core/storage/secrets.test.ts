import { readFile, mkdtemp, readdir, rm, stat, writeFile, chmod } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataFolder } from "./data-folder.js";
import { loadSecrets } from "./secrets.js";

let dir: string;
let folder: DataFolder;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-secrets-"));
  folder = new DataFolder(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("secrets", () => {
  it("creates a random JWT secret of at least 32 bytes on first use, only inside .larder/, mode 0600", async () => {
    const { jwtSecret } = await loadSecrets(folder);
    expect(jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(await readdir(dir)).toEqual([".larder"]);
    if (process.platform !== "win32") expect((await stat(folder.secretsJson)).mode & 0o777).toBe(0o600);
  });

  it("returns the same secret on every later load", async () => {
    const first = await loadSecrets(folder);
    const second = await loadSecrets(folder);
    expect(Buffer.from(second.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
  });

  it("agrees on one secret when several loads race on a fresh folder", async () => {
    const all = await Promise.all([loadSecrets(folder), loadSecrets(folder), loadSecrets(folder)]);
    const keys = new Set(all.map((s) => Buffer.from(s.jwtSecret).toString("hex")));
    expect(keys.size).toBe(1);
  });

  it("tightens a secrets file whose permissions were loosened", async () => {
    await loadSecrets(folder);
    await chmod(folder.secretsJson, 0o644);
    await loadSecrets(folder);
    if (process.platform !== "win32") expect((await stat(folder.secretsJson)).mode & 0o777).toBe(0o600);
  });

  it("refuses a damaged or too short secret instead of silently replacing it", async () => {
    await loadSecrets(folder);
    await writeFile(folder.secretsJson, "{");
    await expect(loadSecrets(folder)).rejects.toThrow(/not valid JSON/);
    await writeFile(folder.secretsJson, JSON.stringify({ jwtSecret: "c2hvcnQ" }));
    await expect(loadSecrets(folder)).rejects.toThrow(/at least 32 bytes/);
    expect(await readFile(folder.secretsJson, "utf8")).toContain("c2hvcnQ");
  });
});
