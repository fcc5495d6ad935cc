/**
 * With a live server holding the folder, user commands must go through its API with the lock token and
 * leave the files alone. A stand-in server plays Mealie's side here; the real one is tested end to end
 * in tests/.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { json, larder, tempDir } from "../../testing/run-cli.js";
import type { UserView } from "../../users/types.js";

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  body: unknown;
}

const TOKEN = "t".repeat(43);
const ADMIN = {
  id: "u-admin",
  username: "admin",
  fullName: "Change Me",
  email: "changeme@example.com",
  admin: true,
  group: "Home",
  household: "Family",
};

describe("larder user (a live server holds the folder)", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  let server: Server;
  let seen: Seen[] = [];
  let answer: ((req: Seen) => { status: number; body: unknown } | null) | null = null;

  const body = async (req: IncomingMessage): Promise<unknown> => {
    let text = "";
    for await (const chunk of req) text += String(chunk);
    return text ? JSON.parse(text) : null;
  };

  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    expect((await larder(["init", dir])).exitCode).toBe(0);
    server = createServer(async (req, res) => {
      const s: Seen = {
        method: req.method ?? "",
        url: req.url ?? "",
        auth: req.headers.authorization,
        body: await body(req),
      };
      seen.push(s);
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(value));
      };
      const custom = answer?.(s);
      if (custom) return reply(custom.status, custom.body);
      if (s.auth !== `Bearer ${TOKEN}`) return reply(401, { detail: "Not authenticated" });
      if (s.method === "GET" && s.url === "/api/admin/users?perPage=-1")
        return reply(200, { items: [ADMIN], total: 1 });
      if (s.method === "POST" && s.url === "/api/admin/users") {
        const b = s.body as Record<string, unknown>;
        return reply(201, {
          id: "u-new",
          username: b.username,
          fullName: b.fullName,
          email: b.email,
          admin: b.admin,
          group: b.group,
          household: b.household,
        });
      }
      if (s.method === "POST" && s.url === "/api/admin/users/password-reset-token")
        return reply(201, { token: "reset-1" });
      if (s.method === "POST" && s.url === "/api/users/reset-password") return reply(200, null);
      reply(404, { detail: "Not Found" });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const { port } = server.address() as AddressInfo;
    // This test process plays the server: a live pid, started after boot, with a port.
    const lock = {
      pid: process.pid,
      port,
      host: "127.0.0.1",
      token: TOKEN,
      startedAt: new Date().toISOString(),
      machine: "test",
    };
    await writeFile(join(dir, ".larder", "lock"), JSON.stringify(lock));
  });
  afterAll(async () => {
    await new Promise((ok) => server.close(ok));
    await tmp.cleanup();
  });
  beforeEach(() => {
    seen = [];
    answer = null;
  });

  it("lists users through GET /api/admin/users with the lock token", async () => {
    const res = await larder(["user", "list", "--data", dir, "--json"]);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    expect(json<UserView[]>(res)).toEqual([ADMIN]);
    expect(seen).toEqual([
      { method: "GET", url: "/api/admin/users?perPage=-1", auth: `Bearer ${TOKEN}`, body: null },
    ]);
  });

  it("adds a user with POST /api/admin/users, group and household by name, without touching users.json", async () => {
    const before = await readFile(join(dir, "users.json"), "utf8");
    const res = await larder(
      [
        "user",
        "add",
        "--data",
        dir,
        "--json",
        "--username",
        "zoe",
        "--email",
        "zoe@example.com",
        "--full-name",
        "Zoe",
        "--password-stdin",
        "--group",
        "home",
      ],
      { input: "zoe-secret-1\n" },
    );
    expect(res.exitCode, String(res.stderr)).toBe(0);
    expect(json<UserView>(res)).toMatchObject({
      id: "u-new",
      username: "zoe",
      group: "Home",
      household: "Family",
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: "/api/admin/users",
      body: {
        username: "zoe",
        fullName: "Zoe",
        email: "zoe@example.com",
        password: "zoe-secret-1",
        admin: false,
        group: "Home",
        household: "Family",
      },
    });
    expect(await readFile(join(dir, "users.json"), "utf8")).toBe(before);
  });

  it("sets a password with a reset token", async () => {
    const res = await larder(["user", "passwd", "ADMIN", "--data", dir, "--password", "brand-new-pw"]);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET /api/admin/users?perPage=-1",
      "POST /api/admin/users/password-reset-token",
      "POST /api/users/reset-password",
    ]);
    expect(seen[1].body).toEqual({ email: "changeme@example.com" });
    expect(seen[2].body).toEqual({
      token: "reset-1",
      email: "changeme@example.com",
      password: "brand-new-pw",
      passwordConfirm: "brand-new-pw",
    });
  });

  it("passwd: exits 4 for a user the server does not know, before asking for a token", async () => {
    const res = await larder(["user", "passwd", "ghost", "--data", dir, "--password", "password123"]);
    expect(res.exitCode).toBe(4);
    expect(seen).toHaveLength(1);
  });

  it("maps the server's 409 and 422 to exit codes 3 and 2", async () => {
    const args = [
      "user",
      "add",
      "--data",
      dir,
      "--username",
      "zoe",
      "--email",
      "zoe@example.com",
      "--full-name",
      "Zoe",
      "--password",
      "password123",
    ];
    answer = () => ({
      status: 409,
      body: { detail: { message: "This username is already taken", error: true, exception: null } },
    });
    const conflict = await larder(args);
    expect(conflict.exitCode).toBe(3);
    expect(conflict.stderr).toContain("This username is already taken");

    answer = () => ({
      status: 422,
      body: { detail: [{ loc: ["body", "email"], msg: "Email Must Be Valid", type: "value_error" }] },
    });
    const invalid = await larder([...args, "--json"]);
    expect(invalid.exitCode).toBe(2);
    expect(json<{ error: { issues: unknown[] } }>(invalid).error.issues).toEqual([
      { field: "email", message: "Email Must Be Valid" },
    ]);
  });

  it("says so when the server holding the folder does not answer", async () => {
    const lockFile = join(dir, ".larder", "lock");
    const lock = await readFile(lockFile, "utf8");
    const dead = createServer();
    await new Promise<void>((ok) => dead.listen(0, "127.0.0.1", ok));
    const { port } = dead.address() as AddressInfo;
    await new Promise((ok) => dead.close(ok));
    await writeFile(lockFile, JSON.stringify({ ...JSON.parse(lock), port }));
    try {
      const res = await larder(["user", "list", "--data", dir]);
      expect(res.exitCode).toBe(1);
      expect(res.stderr).toContain("does not answer");
    } finally {
      await writeFile(lockFile, lock);
    }
  });
});
