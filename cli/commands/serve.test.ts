import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, json, larder, larderProcess, tempDir } from "../testing/run-cli.js";
import type { UserView } from "../users/types.js";

interface Started {
  url: string;
  dataDir: string;
  pid: number;
  demo: boolean;
  login: { username: string; email: string; password: string } | null;
}

type Proc = ReturnType<typeof larderProcess>;

/** Wait for serve's --json document (pretty-printed over several lines) on stdout. */
async function started(proc: Proc): Promise<Started> {
  let text = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${text}`)), 45_000);
    proc.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      try {
        const doc = JSON.parse(text) as Started;
        clearTimeout(timer);
        resolve(doc);
      } catch {
        // not complete yet
      }
    });
    void proc.then((r) => reject(new Error(`serve exited ${r.exitCode}:\n${r.stdout}\n${r.stderr}`)));
  });
}

async function logIn(url: string, username: string, password: string): Promise<number> {
  const res = await fetch(`${url}/api/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString(),
  });
  return res.status;
}

describe("larder serve", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  });

  async function serve(args: string[], cwd?: string): Promise<{ proc: Proc; info: Started }> {
    const proc = larderProcess(["serve", "--json", "--port", String(await freePort()), ...args], { cwd });
    cleanups.push(async () => {
      proc.kill("SIGKILL");
      await proc;
    });
    return { proc, info: await started(proc) };
  }

  /** `serve` without --json, and what it printed for people up to "Press Ctrl-C to stop." */
  async function serveForPeople(dir: string): Promise<{ proc: Proc; out: string }> {
    const proc = larderProcess(["serve", "--data", dir, "--port", String(await freePort())]);
    cleanups.push(async () => {
      proc.kill("SIGKILL");
      await proc;
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      proc.stdout?.on("data", (c: Buffer) => {
        out += c.toString();
        if (out.includes("Press Ctrl-C")) resolve();
      });
      void proc.then(() => reject(new Error(`serve ended:\n${out}`)));
    });
    return { proc, out };
  }

  /** A temp folder removed after the test; `data` is where a data folder goes in it. */
  async function scratch(): Promise<{ path: string; data: string }> {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    return { path: tmp.path, data: join(tmp.path, "data") };
  }

  it(
    "serves a new folder, routes user commands through its API, and releases the lock on SIGTERM",
    { timeout: 120_000 },
    async () => {
      const dir = (await scratch()).data;
      const { proc, info } = await serve(["--data", dir]);
      expect(info).toMatchObject({
        dataDir: dir,
        demo: false,
        login: { username: "admin", password: "MyPassword" },
      });
      const lock = JSON.parse(await readFile(join(dir, ".larder", "lock"), "utf8")) as {
        pid: number;
        port: number;
      };
      expect(lock.pid).toBe(info.pid);
      expect(info.url).toBe(`http://127.0.0.1:${lock.port}`);

      const add = await larder([
        "user",
        "add",
        "--data",
        dir,
        "--json",
        "--username",
        "amy",
        "--email",
        "amy@example.com",
        "--full-name",
        "Amy",
        "--password",
        "password123",
      ]);
      expect(add.exitCode, String(add.stderr)).toBe(0);
      expect(json<UserView>(add)).toMatchObject({ username: "amy", group: "Home", household: "Family" });
      // The server knows her at once: it made the change itself.
      expect(await logIn(info.url, "amy", "password123")).toBe(200);

      const passwd = await larder(["user", "passwd", "amy", "--data", dir, "--password", "password456"]);
      expect(passwd.exitCode, String(passwd.stderr)).toBe(0);
      expect(await logIn(info.url, "amy", "password456")).toBe(200);

      const list = await larder(["user", "list", "--data", dir, "--json"]);
      expect(json<UserView[]>(list).map((u) => u.username)).toEqual(["admin", "amy"]);

      const second = await larder(["serve", "--data", dir, "--port", String(await freePort())]);
      expect(second.exitCode).toBe(1);
      expect(second.stderr).toContain("in use");

      process.kill(info.pid, "SIGTERM");
      const result = await proc;
      expect(result.exitCode).toBe(0);
      expect(existsSync(join(dir, ".larder", "lock"))).toBe(false);
    },
  );

  it(
    "still answers, and stops on SIGTERM, once whoever read its output has gone (its log lines fail with EPIPE)",
    { timeout: 60_000 },
    async () => {
      const dir = (await scratch()).data;
      const { proc, info } = await serve(["--data", dir]);
      // As when `larder serve 2>&1 | head` has printed its lines: both pipes lose their reader.
      proc.stdout?.destroy();
      proc.stderr?.destroy();
      expect((await fetch(`${info.url}/api/app/about`)).status).toBe(200);
      // SIGTERM is logged: before the fix that line's EPIPE was uncaught, the crash guard's line about it
      // failed in turn, and so on; the server spun at full CPU and never finished shutting down.
      process.kill(info.pid, "SIGTERM");
      const ended = await Promise.race([
        proc.then((r) => r.exitCode),
        new Promise<string>((r) => setTimeout(() => r("still running 20 s after SIGTERM"), 20_000)),
      ]);
      expect(ended).toBe(0);
      expect(existsSync(join(dir, ".larder", "lock"))).toBe(false);
    },
  );

  it(
    "--demo copies the shipped data/ to ./.demo and gives the demo admin MyPassword",
    { timeout: 120_000 },
    async () => {
      const tmp = await scratch();
      const { proc, info } = await serve(["--demo"], tmp.path);
      expect(info.dataDir).toBe(join(tmp.path, ".demo"));
      expect(info.login).toMatchObject({ password: "MyPassword" });
      expect(existsSync(join(tmp.path, ".demo", "larder.json"))).toBe(true);
      expect(await logIn(info.url, info.login!.username, "MyPassword")).toBe(200);
      // A first run plans the week around today, fills a shopping list from it and makes cookbooks.
      const counts = async (url: string) => {
        const auth = (await (
          await fetch(`${url}/api/auth/token`, {
            method: "POST",
            body: new URLSearchParams({ username: info.login!.username, password: "MyPassword" }),
          })
        ).json()) as { access_token: string };
        const get = async <T>(path: string) =>
          (await (
            await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${auth.access_token}` } })
          ).json()) as T;
        const today = await get<{ recipe: { slug: string } | null }[]>("/api/households/mealplans/today");
        const plans = await get<{ total: number }>("/api/households/mealplans?perPage=-1");
        const lists = await get<{ items: { id: string; name: string }[] }>("/api/households/shopping/lists");
        const list = await get<{ listItems: unknown[] }>(
          `/api/households/shopping/lists/${lists.items[0]?.id}`,
        );
        const books = await get<{ items: { name: string }[] }>("/api/households/cookbooks");
        return {
          today: today.map((e) => e.recipe?.slug),
          plans: plans.total,
          lists: lists.items.map((l) => l.name),
          listItems: list.listItems?.length ?? 0,
          cookbooks: books.items.map((b) => b.name).sort(),
        };
      };
      const first = await counts(info.url);
      expect(first.today).toContain("black-bean-tacos");
      expect(first.plans).toBeGreaterThanOrEqual(8);
      expect(first.lists).toEqual(["This week"]);
      expect(first.listItems).toBeGreaterThan(10);
      expect(first.cookbooks).toEqual(["Something sweet", "Weeknight dinners"]);
      process.kill(info.pid, "SIGTERM");
      expect((await proc).exitCode).toBe(0);

      // A second start of the same demo adds nothing.
      const again = await serve(["--demo"], tmp.path);
      expect(await counts(again.info.url)).toEqual(first);
      process.kill(again.info.pid, "SIGTERM");
      expect((await again.proc).exitCode).toBe(0);

      const check = await larder(["check", "--data", join(tmp.path, ".demo"), "--json"]);
      expect(check.exitCode, String(check.stdout)).toBe(0);
      expect(json<{ recipes: number }>(check).recipes).toBeGreaterThan(0);
    },
  );

  it(
    "opens a folder a restore was killed in while it moved the folder aside (no larder.json), undoing the restore",
    { timeout: 120_000 },
    async () => {
      const dir = (await scratch()).data;
      expect((await larder(["init", dir])).exitCode).toBe(0);
      // What `kill -9` during a restore's "moving-out" phase leaves (decision 0071): part of the live
      // tree already in .larder/restore/old, larder.json among it.
      const restore = join(dir, ".larder", "restore");
      await mkdir(join(restore, "old"), { recursive: true });
      await rename(join(dir, "larder.json"), join(restore, "old", "larder.json"));
      await writeFile(join(restore, "state.json"), '{"phase":"moving-out","backup":"b.zip","at":"x"}\n');

      const check = await larder(["check", "--data", dir, "--json"]);
      expect(check.exitCode, String(check.stderr)).toBe(0);
      expect(existsSync(join(dir, "larder.json"))).toBe(true);
      expect(existsSync(restore)).toBe(false);

      await mkdir(join(restore, "old"), { recursive: true });
      await rename(join(dir, "larder.json"), join(restore, "old", "larder.json"));
      await writeFile(join(restore, "state.json"), '{"phase":"moving-out","backup":"b.zip","at":"x"}\n');
      const { info } = await serve(["--data", dir]);
      expect(await logIn(info.url, "admin", "MyPassword")).toBe(200);
      expect(existsSync(join(dir, "larder.json"))).toBe(true);
    },
  );

  it(
    "says how to set a password when the folder came from git without any (its .larder/ is not tracked)",
    { timeout: 120_000 },
    async () => {
      const dir = join((await scratch()).path, "my recipes");
      expect((await larder(["init", dir])).exitCode).toBe(0);
      // What a clone of the committed folder has: the users, none of the per-machine state.
      await rm(join(dir, ".larder"), { recursive: true, force: true });
      const { proc, out } = await serveForPeople(dir);
      expect(out).toContain(`set one with larder user passwd admin --data '${dir}'`);
      expect(out).not.toContain("Log in as");

      // Once it has one, serving the folder says nothing more about it.
      proc.kill("SIGTERM");
      await proc;
      const passwd = await larder(["user", "passwd", "admin", "--data", dir, "--password", "password456"]);
      expect(passwd.exitCode, String(passwd.stderr)).toBe(0);
      expect((await serveForPeople(dir)).out).not.toContain("user passwd");
    },
  );

  it(
    "says the credentials file cannot be read, naming it, rather than that no admin has a password, and never writes it",
    { timeout: 120_000 },
    async () => {
      const dir = (await scratch()).data;
      expect((await larder(["init", dir])).exitCode).toBe(0);
      const file = join(dir, ".larder", "credentials.json");
      const truncated = (await readFile(file, "utf8")).slice(0, 40);
      await writeFile(file, truncated);
      const { proc, out } = await serveForPeople(dir);
      expect(out).toContain(`${file} cannot be read (invalid JSON:`);
      expect(out).not.toContain("user passwd");
      expect(out).not.toContain("No admin has a password");
      proc.kill("SIGTERM");
      await proc;
      // Setting a password is refused, naming the file, rather than writing one password over the others.
      const passwd = await larder(["user", "passwd", "admin", "--data", dir, "--password", "password456"]);
      expect(passwd.exitCode).not.toBe(0);
      expect(String(passwd.stderr)).toContain("credentials.json cannot be parsed");
      expect(await readFile(file, "utf8")).toBe(truncated);
    },
  );

  it("refuses --demo together with --data", async () => {
    const res = await larder(["serve", "--demo", "--data", "/tmp/x"]);
    expect(res.exitCode).toBe(2);
  });

  it(
    "a port another program holds ends serve with one line naming the port and --port, and frees the folder",
    { timeout: 60_000 },
    async () => {
      const dir = (await scratch()).data;
      const other = createServer();
      await new Promise<void>((ok) => other.listen(0, "127.0.0.1", ok));
      cleanups.push(() => new Promise((ok) => other.close(ok)));
      const address = other.address();
      const port = typeof address === "object" && address ? address.port : 0;

      const res = await larder(["serve", "--data", dir, "--port", String(port)]);
      expect(res.exitCode).toBe(1);
      const lines = String(res.stderr).trim().split("\n");
      expect(lines.at(-1)).toBe(
        `Port ${port} is already in use on 127.0.0.1 (another Larder or another program); choose another with --port or LARDER_PORT`,
      );
      expect(existsSync(join(dir, ".larder", "lock"))).toBe(false);

      const scripted = await larder(["serve", "--data", dir, "--port", String(port), "--json"]);
      expect(json<{ error: { message: string } }>(scripted).error.message).toContain(
        `Port ${port} is already in use`,
      );
    },
  );
});
