/** Accounts are written after their password (decision 0206): a kill in between leaves no account without one. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder, FIRST_ADMIN } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import type { Actor } from "../actor.js";

let base: string;
let larder: Larder;

const open = () =>
  Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(base, "data"), bcryptRounds: 4 }), {
    log: consoleLogger("silent"),
  });

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-accounts-"));
  larder = await open();
});
afterEach(async () => {
  await larder?.close();
  await rm(base, { recursive: true, force: true });
});

describe("an account and its password", () => {
  it("stores the password before the account is written, and drops it when the account is refused", async () => {
    let storedFirst = false;
    const made = await larder.auth.withPassword("Pass-word-123", async (id) => {
      storedFirst = larder.auth.hasPassword(id);
      return id;
    });
    expect(storedFirst).toBe(true);

    await expect(
      larder.auth.withPassword("Pass-word-123", (id) => {
        expect(larder.auth.hasPassword(id)).toBe(true);
        return Promise.reject(new Error("refused"));
      }),
    ).rejects.toThrow("refused");
    const stored = JSON.parse(await readFile(join(base, "data", ".larder", "credentials.json"), "utf8")) as {
      users: Record<string, unknown>;
    };
    // The first-start admin's and the one kept above; not the refused one's.
    expect(Object.keys(stored.users).sort()).toEqual([larder.users.all()[0].id, made].sort());
  });

  it("creates users through the admin API with their password in place, and refuses a taken name before hashing", async () => {
    const admin: Actor = { kind: "user", user: larder.users.all()[0] };
    const user = await larder.accounts.create(admin, {
      username: "bea",
      fullName: "Bea",
      email: "bea@example.com",
      password: "Bea-Password-1",
    });
    expect(larder.auth.hasPassword(user.id)).toBe(true);
    await expect(
      larder.accounts.create(admin, {
        username: "bea",
        fullName: "Bea Two",
        email: "bea2@example.com",
        password: "Bea-Password-2",
      }),
    ).rejects.toThrow(/taken/);
    expect(larder.users.all().map((u) => u.username)).toEqual([FIRST_ADMIN.username, "bea"]);
  });
});
