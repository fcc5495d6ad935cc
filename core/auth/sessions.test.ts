import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataFolder } from "../storage/data-folder.js";
import { SessionStore } from "./sessions.js";

let dir: string;
let folder: DataFolder;
let clock: Date;
let store: SessionStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-sess-"));
  folder = new DataFolder(dir);
  clock = new Date("2024-03-01T12:00:00.000Z");
  store = await SessionStore.open(folder, { now: () => clock });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("SessionStore", () => {
  it("creates a session that is active until it expires", async () => {
    const { sid, exp } = await store.create("u1", 3600);
    expect(exp).toBe(clock.getTime() / 1000 + 3600);
    expect(store.isActive(sid)).toBe(true);
    expect(store.isActive(sid, "u1")).toBe(true);
    expect(store.isActive(sid, "u2")).toBe(false);
    clock = new Date(clock.getTime() + 3600 * 1000);
    expect(store.isActive(sid)).toBe(false);
  });

  it("persists sessions in .larder/sessions.json across a restart", async () => {
    const { sid } = await store.create("u1", 60);
    const reopened = await SessionStore.open(folder, { now: () => clock });
    expect(reopened.isActive(sid)).toBe(true);
    expect(JSON.parse(await readFile(folder.sessionsJson, "utf8")).sessions[sid].userId).toBe("u1");
  });

  it("puts an unreadable sessions file aside and starts afresh, so people can sign in again", async () => {
    await store.create("u1", 60);
    await writeFile(folder.sessionsJson, '{ "sessions": { "abc": ');
    const warnings: string[] = [];
    const reopened = await SessionStore.open(folder, {
      now: () => clock,
      log: { warn: (m) => warnings.push(m) },
    });
    expect(warnings[0]).toMatch(
      /could not be read.*moved to .*sessions\.json\.broken-\d+; everyone signs in again/,
    );
    const aside = (await readdir(path.dirname(folder.sessionsJson))).filter((n) =>
      n.startsWith("sessions.json.broken-"),
    );
    expect(aside).toHaveLength(1);
    const { sid } = await reopened.create("u2", 60);
    expect(reopened.isActive(sid)).toBe(true);
  });

  it("ends a session on revoke (logout)", async () => {
    const { sid } = await store.create("u1", 60);
    expect(await store.revoke(sid)).toBe(true);
    expect(store.isActive(sid)).toBe(false);
    expect(await store.revoke(sid)).toBe(false);
  });

  it("ends all of a user's sessions, optionally keeping the current one", async () => {
    const a = await store.create("u1", 60);
    const b = await store.create("u1", 60);
    const c = await store.create("u1", 60);
    const other = await store.create("u2", 60);
    expect(await store.revokeAllForUser("u1", { except: c.sid })).toBe(2);
    expect([a, b, c, other].map((s) => store.isActive(s.sid))).toEqual([false, false, true, true]);
  });

  it("prunes expired sessions, also when a new one is created", async () => {
    const old = await store.create("u1", 10);
    clock = new Date(clock.getTime() + 20_000);
    await store.create("u2", 10);
    expect(Object.keys(store.doc.data.sessions)).not.toContain(old.sid);
    clock = new Date(clock.getTime() + 20_000);
    expect(await store.prune()).toBe(1);
    expect(store.doc.data.sessions).toEqual({});
  });

  it("does not mistake inherited property names for session ids", () => {
    expect(store.isActive("__proto__")).toBe(false);
    expect(store.isActive("constructor")).toBe(false);
  });
});
