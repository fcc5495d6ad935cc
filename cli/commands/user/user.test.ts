import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config.js";
import { consoleLogger } from "../../../core/log/logger.js";
import { json, larder, tempDir } from "../../testing/run-cli.js";
import type { UserView } from "../../users/types.js";

interface ErrorOut {
  error: { message: string; exitCode: number; issues?: Array<{ field?: string; message: string }> };
}

/** Sign in with core directly: proves the password was stored where the server will look. */
async function canLogIn(dataDir: string, login: string, password: string): Promise<boolean> {
  const { Larder } = await import("../../../core/larder.js");
  const l = await Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir, bcryptRounds: 4 }), {
    log: consoleLogger("silent"),
    watch: false,
  });
  try {
    await l.auth.login(login, password);
    return true;
  } catch {
    return false;
  } finally {
    await l.close();
  }
}

describe("larder user (no server running: core directly)", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    const init = await larder(["init", dir]);
    expect(init.exitCode, String(init.stderr)).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  const add = (extra: string[], opts: { input?: string } = {}) =>
    larder(["user", "add", "--data", dir, ...extra], opts);

  it("adds a user who then appears in the list and can log in", async () => {
    const res = await add([
      "--json",
      "--username",
      "alice",
      "--email",
      "alice@example.com",
      "--full-name",
      "Alice Liddell",
      "--password",
      "wonderland1",
    ]);
    expect(res.exitCode, String(res.stdout) + String(res.stderr)).toBe(0);
    expect(json<UserView>(res)).toMatchObject({
      username: "alice",
      email: "alice@example.com",
      fullName: "Alice Liddell",
      admin: false,
      group: "Home",
      household: "Family",
      id: expect.any(String),
    });
    expect(existsSync(join(dir, ".larder", "lock"))).toBe(false);

    const list = await larder(["user", "list", "--data", dir, "--json"]);
    expect(list.exitCode).toBe(0);
    expect(json<UserView[]>(list).map((u) => u.username)).toEqual(["admin", "alice"]);

    const plain = await larder(["user", "list", "--data", dir]);
    expect(plain.stdout).toMatch(/^username\s+full name\s+email\s+admin\s+group\s+household$/m);
    expect(plain.stdout).toMatch(/^alice\s+Alice Liddell\s+alice@example\.com\s+no\s+Home\s+Family$/m);

    expect(await canLogIn(dir, "alice", "wonderland1")).toBe(true);
  });

  it("reads the password from stdin and makes an admin", async () => {
    const res = await add(
      [
        "--username",
        "bob",
        "--email",
        "bob@example.com",
        "--full-name",
        "Bob",
        "--password-stdin",
        "--admin",
        "--group",
        "home",
        "--household",
        "Family",
      ],
      { input: "builder-bob\n" },
    );
    expect(res.exitCode, String(res.stderr)).toBe(0);
    expect(res.stdout).toContain("Created user bob <bob@example.com> in Home / Family as administrator");
    expect(await canLogIn(dir, "bob@example.com", "builder-bob")).toBe(true);
  });

  it("prints the spec's validation messages and exits 2", async () => {
    const res = await add([
      "--username",
      "carol smith",
      "--email",
      "nope",
      "--full-name",
      "Carol",
      "--password",
      "short",
    ]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("password: Must Be At Least 8 Characters");
    expect(res.stderr).toContain("username: No Whitespace Allowed");
    expect(res.stderr).toContain("email: Email Must Be Valid");

    const asJson = await add([
      "--json",
      "--username",
      "carol",
      "--email",
      "carol@example.com",
      "--password",
      "long-enough",
    ]);
    expect(asJson.exitCode).toBe(2);
    expect(json<ErrorOut>(asJson).error).toMatchObject({
      exitCode: 2,
      issues: [{ field: "full-name", message: "This Field is Required" }],
    });
  });

  it("exits 3 when the username or e-mail is taken", async () => {
    const res = await add([
      "--username",
      "ALICE",
      "--email",
      "other@example.com",
      "--full-name",
      "A",
      "--password",
      "password123",
    ]);
    expect(res.exitCode).toBe(3);
    expect(res.stderr).toContain("username is taken");
    const email = await add([
      "--username",
      "alice2",
      "--email",
      "Alice@Example.com",
      "--full-name",
      "A",
      "--password",
      "password123",
    ]);
    expect(email.exitCode).toBe(3);
    expect(email.stderr).toContain("email is taken");
  });

  it("exits 4 for an unknown group or household", async () => {
    const base = [
      "--username",
      "dave",
      "--email",
      "dave@example.com",
      "--full-name",
      "Dave",
      "--password",
      "password123",
    ];
    const group = await add([...base, "--group", "nowhere"]);
    expect(group.exitCode).toBe(4);
    expect(group.stderr).toContain("No such group: nowhere");
    const household = await add([...base, "--household", "attic"]);
    expect(household.exitCode).toBe(4);
  });

  it("exits 2 when no password is given and there is no terminal to ask on", async () => {
    const res = await add(["--username", "erin", "--email", "erin@example.com", "--full-name", "Erin"]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("--password-stdin");
  });

  it("changes a password with passwd", async () => {
    const res = await larder(["user", "passwd", "alice", "--data", dir, "--password-stdin", "--json"], {
      input: "through-the-glass\n",
    });
    expect(res.exitCode, String(res.stderr)).toBe(0);
    expect(json(res)).toMatchObject({ username: "alice", passwordChanged: true });
    expect(await canLogIn(dir, "alice", "through-the-glass")).toBe(true);
    expect(await canLogIn(dir, "alice", "wonderland1")).toBe(false);
  });

  it("passwd: a stream that never ends on stdin is no password (exit 2), and the old one still works", async () => {
    const res = await larder(["user", "passwd", "alice", "--data", dir, "--password-stdin"], {
      inputFile: "/dev/zero",
    });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("stdin holds more than 64 KB: too much for a password");
    expect(await canLogIn(dir, "alice", "through-the-glass")).toBe(true);
  });

  it("passwd: exits 4 for an unknown user and 2 for a short password", async () => {
    const missing = await larder(["user", "passwd", "nobody", "--data", dir, "--password", "password123"]);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain("No such user: nobody");
    const short = await larder(["user", "passwd", "alice", "--data", dir, "--password", "1234"]);
    expect(short.exitCode).toBe(2);
    expect(short.stderr).toContain("Must Be At Least 8 Characters");
    const both = await larder(
      ["user", "passwd", "alice", "--data", dir, "--password", "x", "--password-stdin"],
      { input: "y" },
    );
    expect(both.exitCode).toBe(2);
  });

  it("answers about people without reading the folder's recipes, which a recipe command reads", async () => {
    const recipes = join(dir, "groups", "home", "recipes");
    await writeFile(join(recipes, "plain-dish.md"), "---\nname: Plain Dish\n---\nA dish.\n");
    const env = { LARDER_DEBUG: "1" };
    for (const args of [
      ["user", "list"],
      ["household", "list"],
      ["group", "list"],
    ]) {
      const res = await larder([...args, "--data", dir, "--json"], { env });
      expect(res.exitCode, String(res.stderr)).toBe(0);
      expect(res.stderr).not.toContain("recipe index:");
    }
    const check = await larder(["check", "--data", dir], { env });
    expect(check.stderr).toContain("recipe index: 1 recipes");
  });
});
