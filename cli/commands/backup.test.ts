/**
 * `larder backup` as a real process: --json output, exit codes, --yes for restore with stdin closed,
 * damaged backups and bad names refused, and the same commands through a running server.
 */
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { execSync } from "node:child_process";
import { execa } from "execa";
import { CLI_SHELL, REPO, freePort, json, larder, larderProcess, tempDir } from "../testing/run-cli.js";
import { unopenableBackup } from "../../tests/support/unopenable-backup.js";

let tmp: Awaited<ReturnType<typeof tempDir>>;
let dir: string;
const recipe = (slug: string) => join(dir, "groups", "home", "recipes", `${slug}.md`);

beforeAll(async () => {
  tmp = await tempDir();
  dir = join(tmp.path, "data");
  expect((await larder(["init", dir])).exitCode).toBe(0);
});
afterAll(async () => tmp?.cleanup());

describe("larder backup (no server)", () => {
  it("creates, lists, verifies and restores, with --json output", { timeout: 120_000 }, async () => {
    await writeFile(recipe("kept"), "---\nname: Kept\n---\n\nStays.\n");
    const created = await larder(["backup", "create", "--data", dir, "--json"]);
    expect(created.exitCode).toBe(0);
    const made = json<{ name: string; files: number; recipes: number; bytes: number }>(created);
    expect(made.name).toMatch(/^larder_[\d.]+\.zip$/);
    expect(made.recipes).toBe(1);

    const listed = json<Array<{ name: string; size: string }>>(
      await larder(["backup", "list", "--data", dir, "--json"]),
    );
    expect(listed.map((b) => b.name)).toContain(made.name);
    const verified = await larder(["backup", "verify", made.name, "--data", dir, "--json"]);
    expect(verified.exitCode).toBe(0);
    expect(json<{ ok: boolean; counts: { files: number } }>(verified)).toMatchObject({
      ok: true,
      counts: { files: made.files },
    });

    const kept = await readFile(recipe("kept"));
    await writeFile(recipe("kept"), "---\nname: Changed\n---\n");
    await writeFile(recipe("later"), "---\nname: Later\n---\n");
    // stdin is closed: no prompt, and no restore without --yes.
    const refused = await larder(["backup", "restore", made.name, "--data", dir, "--json"]);
    expect(refused.exitCode).toBe(2);
    expect(json<{ error: { message: string } }>(refused).error.message).toMatch(/--yes/);
    expect((await readFile(recipe("kept"), "utf8")).includes("Changed")).toBe(true);

    const restored = await larder(["backup", "restore", made.name, "--yes", "--data", dir, "--json"]);
    expect(restored.exitCode).toBe(0);
    expect(json(restored)).toMatchObject({ name: made.name, restored: true, via: "folder" });
    // What the restore replaced is a backup of its own.
    const before = json<{ before: string }>(restored).before;
    expect(before).toMatch(/^larder_before-restore_[\d._]+\.zip$/);
    const listedAfter = json<Array<{ name: string }>>(
      await larder(["backup", "list", "--data", dir, "--json"]),
    );
    expect(listedAfter.map((b) => b.name)).toContain(before);
    expect((await readFile(recipe("kept"))).equals(kept)).toBe(true);
    expect(await readdir(join(dir, "groups", "home", "recipes"))).not.toContain("later.md");
  });

  it(
    "refuses a damaged backup (exit 1) and a bad name (exit 2), an unknown one (exit 4)",
    { timeout: 60_000 },
    async () => {
      const bad = "larder_2001.01.01.00.00.00.zip";
      await writeFile(join(dir, ".larder", "backups", bad), Buffer.from("PK\u0003\u0004 truncated"));
      const damaged = await larder(["backup", "verify", bad, "--data", dir, "--json"]);
      expect(damaged.exitCode).toBe(1);
      expect(json<{ error: { message: string } }>(damaged).error.message).toMatch(
        /not a readable zip|damaged/,
      );
      const restore = await larder(["backup", "restore", bad, "--yes", "--data", dir]);
      expect(restore.exitCode).toBe(1);
      expect(restore.stderr).toMatch(/damaged|not a readable zip/);
      await rm(join(dir, ".larder", "backups", bad));
      expect((await larder(["backup", "verify", "../larder.json", "--data", dir])).exitCode).toBe(2);
      expect(
        (await larder(["backup", "verify", "larder_2002.01.01.00.00.00.zip", "--data", dir])).exitCode,
      ).toBe(4);
    },
  );

  it(
    "puts the folder back as it was when the restored data will not open, saying why (exit 1)",
    { timeout: 60_000 },
    async () => {
      const bad = "larder_2003.03.03.00.00.00.zip";
      await writeFile(join(dir, ".larder", "backups", bad), await unopenableBackup(dir));
      await writeFile(recipe("still-here"), "---\nname: Still Here\n---\n\nKept.\n");
      const restore = await larder(["backup", "restore", bad, "--yes", "--data", dir]);
      expect(restore.exitCode).toBe(1);
      expect(restore.stderr).toMatch(
        /cannot be restored: its data could not be opened \(groups\/home\/activity is not a folder of the data folder/,
      );
      expect(restore.stderr).toMatch(/The data from before the restore is back/);
      expect(await readFile(recipe("still-here"), "utf8")).toContain("Still Here");
      expect((await larder(["check", "--data", dir])).exitCode).toBe(0);
    },
  );
});

function hasScript(): boolean {
  try {
    execSync("command -v script", { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("larder backup restore at a terminal", () => {
  it.skipIf(!hasScript())(
    "Ctrl-C at the confirmation cancels on a line of its own with exit 130, restoring nothing",
    { timeout: 60_000 },
    async () => {
      const made = await larder(["backup", "create", "--data", dir, "--json"]);
      const { name } = json<{ name: string }>(made);
      await writeFile(recipe("after-backup"), "---\nname: After Backup\n---\n\nNew.\n");
      const term = execa(
        "script",
        ["-qec", `stty rows 40 cols 100; ${CLI_SHELL} backup restore ${name} --data ${dir}`, "/dev/null"],
        { cwd: REPO, reject: false, env: { LARDER_BCRYPT_ROUNDS: "4", NO_COLOR: "1" } },
      );
      let seen = "";
      let sent = false;
      term.stdout?.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        // Ctrl-C once the question is on the terminal.
        if (seen.includes("[y/N]") && !sent) {
          sent = true;
          term.stdin?.write("\u0003");
        }
      });
      const res = await term;
      expect(res.exitCode).toBe(130);
      expect(String(res.stdout)).toMatch(/\[y\/N\] \S*\r?\n(\S*)Cancelled: nothing was restored/);
      expect(String(res.stdout)).not.toContain("Aborted with Ctrl+C");
      expect(await readFile(recipe("after-backup"), "utf8")).toContain("After Backup");
    },
  );
});

describe("larder backup (a server holds the folder)", () => {
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const s of stops.splice(0)) await s().catch(() => undefined);
  });

  it("creates and restores through the server", { timeout: 120_000 }, async () => {
    const proc = larderProcess(["serve", "--json", "--port", String(await freePort()), "--data", dir]);
    stops.push(async () => {
      proc.kill("SIGTERM");
      await proc;
    });
    const info = await new Promise<{ url: string }>((resolve, reject) => {
      let text = "";
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${text}`)), 45_000);
      proc.stdout?.on("data", (c: Buffer) => {
        text += c.toString();
        try {
          resolve(JSON.parse(text) as { url: string });
          clearTimeout(timer);
        } catch {
          // not complete yet
        }
      });
    });
    const created = await larder(["backup", "create", "--data", dir, "--json"]);
    expect(created.exitCode).toBe(0);
    const made = json<{ name: string; via: string }>(created);
    expect(made.via).toBe("server");
    const login = async () =>
      (
        await fetch(`${info.url}/api/auth/token`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ username: "admin", password: "MyPassword" }).toString(),
        })
      ).json() as Promise<{ access_token: string }>;
    const { access_token } = await login();
    const slug = (await (
      await fetch(`${info.url}/api/recipes`, {
        method: "POST",
        headers: { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "After The Backup" }),
      })
    ).json()) as string;
    const restored = await larder(["backup", "restore", made.name, "--yes", "--data", dir, "--json"]);
    expect(restored.exitCode).toBe(0);
    expect(json(restored)).toMatchObject({ via: "server" });
    // The server serves the restored data, and the old session is gone.
    expect(
      (await fetch(`${info.url}/api/users/self`, { headers: { Authorization: `Bearer ${access_token}` } }))
        .status,
    ).toBe(401);
    const again = await login();
    expect(
      (
        await fetch(`${info.url}/api/recipes/${slug}`, {
          headers: { Authorization: `Bearer ${again.access_token}` },
        })
      ).status,
    ).toBe(404);
  });
});
