import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataFolder } from "../storage/data-folder.js";
import { CredentialStore } from "./credentials.js";
import { observeBcrypt, stopPasswordWorkers, type BcryptObservation } from "./passwords.js";

let dir: string;
let folder: DataFolder;
let clock: Date;
let store: CredentialStore;
const hoursLater = (h: number) => new Date(clock.getTime() + h * 3600 * 1000);

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-cred-"));
  folder = new DataFolder(dir);
  clock = new Date("2024-03-01T12:00:00.000Z");
  store = await CredentialStore.open(folder, {
    policy: { maxLoginAttempts: 3, lockoutHours: 1 },
    bcryptRounds: 4,
    now: () => clock,
  });
  await store.setPassword("u1", "right password");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await stopPasswordWorkers();
});

describe("CredentialStore", () => {
  it("keeps only a bcrypt hash in .larder/credentials.json, mode 0600", async () => {
    const text = await readFile(folder.credentialsJson, "utf8");
    expect(text).not.toContain("right password");
    expect(JSON.parse(text).users.u1.passwordHash).toMatch(/^\$2b\$04\$/);
    if (process.platform !== "win32") expect((await stat(folder.credentialsJson)).mode & 0o777).toBe(0o600);
  });

  it("accepts the right password and refuses a wrong one", async () => {
    expect(await store.authenticate("u1", "right password")).toBe("ok");
    expect(await store.authenticate("u1", "wrong")).toBe("unauthorized");
  });

  it("locks after the maximum of failures: 401, 401, 401, then 423 even with the right password", async () => {
    const outcomes = [];
    for (const pw of ["a", "b", "c", "right password"]) outcomes.push(await store.authenticate("u1", pw));
    expect(outcomes).toEqual(["unauthorized", "unauthorized", "unauthorized", "locked"]);
    expect(store.isLocked("u1")).toBe(true);
    const onDisk = JSON.parse(await readFile(folder.credentialsJson, "utf8")).users.u1;
    expect(onDisk).toMatchObject({ loginAttempts: 3, lockedAt: clock.toISOString() });
  });

  it("counts concurrent failures, none lost", async () => {
    await Promise.all([store.authenticate("u1", "x"), store.authenticate("u1", "y")]);
    expect(store.get("u1")?.loginAttempts).toBe(2);
  });

  it("unlocks expired locks in the job, and every lock with unlockAll", async () => {
    await store.setPassword("u2", "other");
    for (const pw of ["a", "b", "c"]) await store.authenticate("u1", pw);
    clock = hoursLater(0.5);
    for (const pw of ["a", "b", "c"]) await store.authenticate("u2", pw);
    expect(await store.unlockExpired(hoursLater(0.75))).toBe(1);
    expect(store.isLocked("u1")).toBe(false);
    expect(store.isLocked("u2")).toBe(true);
    expect(await store.unlockAll()).toBe(1);
    expect(await store.authenticate("u2", "other")).toBe("ok");
  });

  it("ends the lock by itself once it has expired", async () => {
    for (const pw of ["a", "b", "c"]) await store.authenticate("u1", pw);
    clock = hoursLater(1);
    expect(await store.authenticate("u1", "right password")).toBe("ok");
    expect(store.get("u1")).toMatchObject({ loginAttempts: 0, lockedAt: null });
  });

  it("still runs a bcrypt compare for an unknown user or one without a password", async () => {
    const seen: BcryptObservation[] = [];
    const off = observeBcrypt((o) => seen.push(o));
    expect(await store.authenticate(null, "guess")).toBe("unauthorized");
    expect(await store.authenticate("no-such-user", "guess")).toBe("unauthorized");
    off();
    expect(seen).toEqual([
      { op: "verify", dummy: true },
      { op: "verify", dummy: true },
    ]);
    expect(store.get("no-such-user")).toBeNull();
  });

  it("stores a migrated Mealie hash as is and remembers a default password", async () => {
    const mealieHash = "$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";
    await store.setPasswordHash("m1", mealieHash, { isDefault: true });
    expect(store.get("m1")).toMatchObject({ passwordHash: mealieHash, passwordIsDefault: true });
    expect(await store.authenticate("m1", "U*U")).toBe("ok");
    await store.setPassword("m1", "new one");
    expect(store.get("m1")?.passwordIsDefault).toBeUndefined();
  });
});
