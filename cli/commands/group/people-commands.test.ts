/**
 * `larder user unlock|promote`, `larder group list|add`, `larder household list|add`: the real CLI,
 * against a folder held by nobody (core directly) and against a real server holding the folder (its
 * admin API with the lock token).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config.js";
import { consoleLogger } from "../../../core/log/logger.js";
import { acquireLock, type HeldLock } from "../../../core/storage/lock.js";
import { json, larder, tempDir } from "../../testing/run-cli.js";
import { startTestServer, type TestServer } from "../../../tests/support/server.js";
import type { GroupView, HouseholdView, UserView } from "../../users/types.js";

interface ErrorOut {
  error: { message: string; exitCode: number };
}

/** Lock a user out through core, as five wrong passwords would. */
async function lockOut(dataDir: string, login: string): Promise<void> {
  const { Larder } = await import("../../../core/larder.js");
  const l = await Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir, bcryptRounds: 4 }), {
    log: consoleLogger("silent"),
  });
  try {
    // The account itself locks (and stays locked across processes) once several addresses are locked out.
    for (const client of ["192.0.2.1", "192.0.2.2", "192.0.2.3"])
      for (let i = 0; i < 5; i++)
        await l.auth.login(login, "wrong-password", { client }).catch(() => undefined);
    expect(l.auth.isLocked(l.users.byLogin(login)?.id ?? "")).toBe(true);
  } finally {
    await l.close();
  }
}

describe("people commands on a folder no server holds", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    expect((await larder(["init", dir])).exitCode).toBe(0);
    const add = await larder([
      "user",
      "add",
      "--data",
      dir,
      "--username",
      "alice",
      "--email",
      "alice@example.com",
      "--full-name",
      "Alice",
      "--password",
      "wonderland1",
    ]);
    expect(add.exitCode, String(add.stderr)).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it("unlocks one user, and says when there was nothing to unlock", async () => {
    const none = await larder(["user", "unlock", "alice", "--data", dir]);
    expect(none.exitCode, String(none.stderr)).toBe(0);
    expect(none.stdout).toContain("Nothing to unlock: alice was not locked");
    const nobody = await larder(["user", "unlock", "--all", "--data", dir]);
    expect(nobody.stdout).toContain("Nothing to unlock: no user is locked");
    await lockOut(dir, "alice");
    const res = await larder(["user", "unlock", "alice", "--data", dir, "--json"]);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    expect(json(res)).toEqual({ unlocked: 1 });
    await lockOut(dir, "alice");
    expect(json(await larder(["user", "unlock", "--all", "--data", dir, "--json"]))).toEqual({ unlocked: 1 });
    expect((await larder(["user", "unlock", "--data", dir])).exitCode).toBe(2);
    expect((await larder(["user", "unlock", "ghost", "--data", dir])).exitCode).toBe(4);
  });

  it("promotes and demotes, but never demotes the super user", async () => {
    const up = await larder(["user", "promote", "alice", "--data", dir, "--json"]);
    expect(up.exitCode, String(up.stderr)).toBe(0);
    expect(json<UserView>(up)).toMatchObject({ username: "alice", admin: true });
    const down = await larder(["user", "promote", "alice", "--demote", "--data", dir]);
    expect(down.exitCode).toBe(0);
    expect(down.stdout).toContain("alice is no longer an administrator");
    const self = await larder(["user", "promote", "admin", "--demote", "--data", dir, "--json"]);
    expect(self.exitCode).toBe(1);
    expect(json<ErrorOut>(self).error.message).toBe("you cannot demote yourself");
  });

  it("adds and lists groups", async () => {
    const g = await larder(["group", "add", "Supper Club", "--data", dir, "--json"]);
    expect(g.exitCode, String(g.stderr)).toBe(0);
    expect(json<GroupView>(g)).toMatchObject({
      name: "Supper Club",
      slug: "supper-club",
      households: ["Family"],
      users: 0,
    });
    // A taken name is numbered, as Mealie does (issue 19).
    const twin = json<GroupView>(await larder(["group", "add", "supper club", "--data", dir, "--json"]));
    expect(twin.name).toBe("supper club (1)");
    const plain = await larder(["group", "list", "--data", dir]);
    expect(plain.stdout).toMatch(/^slug\s+name\s+households\s+users$/m);
    expect(plain.stdout).toMatch(/^supper-club\s+Supper Club\s+Family\s+0$/m);
    expect(plain.stdout).toMatch(/^home\s+Home\s+Family\s+2$/m);
  });

  it("refuses an empty group or household name field by field, with exit 2", async () => {
    for (const args of [
      ["group", "add", ""],
      ["household", "add", " ", "--group", "home"],
    ]) {
      const res = await larder([...args, "--data", dir, "--json"]);
      expect(res.exitCode, String(res.stdout)).toBe(2);
      expect(json<ErrorOut & { error: { issues: unknown[] } }>(res).error).toMatchObject({
        message: "Invalid input",
        issues: [{ field: "name", message: expect.stringMatching(/required/i) }],
      });
      const plain = await larder([...args, "--data", dir]);
      expect(plain.exitCode).toBe(2);
      expect(String(plain.stderr)).toMatch(/^Invalid input\n {2}name: .*required/i);
    }
    const groups = json<GroupView[]>(await larder(["group", "list", "--data", dir, "--json"]));
    expect(groups.every((g) => g.name.trim() !== "")).toBe(true);
  });

  it("adds and lists households", async () => {
    const h = await larder([
      "household",
      "add",
      "Table Two",
      "--group",
      "supper-club",
      "--data",
      dir,
      "--json",
    ]);
    expect(h.exitCode, String(h.stderr)).toBe(0);
    expect(json<HouseholdView>(h)).toMatchObject({
      name: "Table Two",
      slug: "table-two",
      group: "Supper Club",
      groupSlug: "supper-club",
    });
    const only = json<HouseholdView[]>(
      await larder(["household", "list", "--group", "Supper Club", "--data", dir, "--json"]),
    );
    expect(only.map((x) => x.slug)).toEqual(["family", "table-two"]);
    expect((await larder(["household", "add", "Attic", "--group", "nowhere", "--data", dir])).exitCode).toBe(
      4,
    );
  });
});

describe("people commands while a server holds the folder", () => {
  let t: TestServer;
  let lock: HeldLock;
  let dir: string;
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    t = await startTestServer({}, { dataDir: dir });
    const port = Number(new URL(t.url).port);
    lock = await acquireLock(dir, { port, host: "127.0.0.1" });
    t.larder.auth.setLocalAdminToken(lock.info.token);
  });
  afterAll(async () => {
    await lock?.release();
    await t?.close();
    await tmp?.cleanup();
  });

  it("goes through the admin API: unlock, promote, group and household add and list", async () => {
    const u = await t.larder.users.create(
      {
        username: "bob",
        email: "bob@example.com",
        fullName: "Bob",
        admin: false,
        advanced: false,
        canInvite: false,
        canManage: false,
        canManageHousehold: false,
        canOrganize: false,
      },
      { groupId: t.larder.users.all()[0].groupId, householdId: t.larder.users.all()[0].householdId },
    );
    await t.larder.auth.setPassword(u.id, "builder-bob");
    for (let i = 0; i < 5; i++) await t.larder.auth.login("bob", "nope-nope").catch(() => undefined);
    const unlocked = await larder(["user", "unlock", "bob", "--data", dir, "--json"]);
    expect(unlocked.exitCode, String(unlocked.stderr)).toBe(0);
    expect(json(unlocked)).toEqual({ unlocked: 1 });
    expect(t.larder.auth.isLocked(u.id)).toBe(false);

    const promoted = await larder(["user", "promote", "bob@example.com", "--data", dir, "--json"]);
    expect(promoted.exitCode, String(promoted.stderr)).toBe(0);
    expect(t.larder.users.get(u.id)).toMatchObject({ admin: true, canManage: true, canInvite: true });

    const g = await larder(["group", "add", "Book Club", "--data", dir, "--json"]);
    expect(g.exitCode, String(g.stderr)).toBe(0);
    expect(t.larder.groups.bySlugOrNull("book-club")?.doc.data.name).toBe("Book Club");
    const h = await larder([
      "household",
      "add",
      "Reading Room",
      "--group",
      "book-club",
      "--data",
      dir,
      "--json",
    ]);
    expect(h.exitCode, String(h.stderr)).toBe(0);
    expect(json<HouseholdView>(h)).toMatchObject({ groupSlug: "book-club", slug: "reading-room" });
    const groups = json<GroupView[]>(await larder(["group", "list", "--data", dir, "--json"]));
    expect(groups.find((x) => x.slug === "book-club")?.households.sort()).toEqual(["Family", "Reading Room"]);
    const households = json<HouseholdView[]>(
      await larder(["household", "list", "--group", "book-club", "--data", dir, "--json"]),
    );
    expect(households.map((x) => x.slug)).toEqual(["family", "reading-room"]);
  });
});
