import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError } from "../errors.js";
import { DataFolder } from "../storage/data-folder.js";
import { ApiTokenStore, looksLikeApiToken } from "./api-tokens.js";

let dir: string;
let folder: DataFolder;
let store: ApiTokenStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-tok-"));
  folder = new DataFolder(dir);
  store = await ApiTokenStore.open(folder, { now: () => new Date("2024-03-01T12:00:00.000Z") });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("ApiTokenStore", () => {
  it("mints an opaque lt_ token and verifies it to its user", async () => {
    const created = await store.create("u1", "Home Assistant", "ha");
    expect(created).toMatchObject({
      id: 1,
      name: "Home Assistant",
      integrationId: "ha",
      createdAt: "2024-03-01T12:00:00.000Z",
    });
    expect(created.token).toMatch(/^lt_[A-Za-z0-9_-]{43}$/);
    expect(looksLikeApiToken(created.token)).toBe(true);
    expect(store.verify(created.token)).toEqual({
      userId: "u1",
      id: 1,
      integrationId: "ha",
      name: "Home Assistant",
    });
  });

  it("stores only a hash: the token string never appears in the file", async () => {
    const { token } = await store.create("u1", "script");
    const text = await readFile(folder.apiTokensJson, "utf8");
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(3));
    if (process.platform !== "win32") expect((await stat(folder.apiTokensJson)).mode & 0o777).toBe(0o600);
  });

  it("refuses unknown, altered and malformed tokens", async () => {
    const { token } = await store.create("u1", "script");
    const altered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const bad of [altered, "", "lt_", "Bearer " + token, token + "x", "eyJhbGciOiJIUzI1NiJ9.e30.x"])
      expect(store.verify(bad)).toBeNull();
  });

  it("hands out incrementing integer ids that are never reused", async () => {
    const a = await store.create("u1", "a");
    const b = await store.create("u1", "b");
    await store.delete("u1", b.id);
    const c = await store.create("u1", "c");
    expect([a.id, b.id, c.id]).toEqual([1, 2, 3]);
  });

  it("lists a user's tokens without their secrets", async () => {
    await store.create("u1", "a");
    await store.create("u2", "other");
    await store.create("u1", "b", "ha");
    const list = store.list("u1");
    expect(list).toEqual([
      { id: 1, name: "a", integrationId: "generic", createdAt: "2024-03-01T12:00:00.000Z" },
      { id: 3, name: "b", integrationId: "ha", createdAt: "2024-03-01T12:00:00.000Z" },
    ]);
  });

  it("deletes a user's own token (then it no longer verifies), 403 for someone else's, 404 for an unknown id", async () => {
    const mine = await store.create("u1", "mine");
    const theirs = await store.create("u2", "theirs");
    await expect(store.delete("u1", theirs.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(store.delete("u1", 99)).rejects.toBeInstanceOf(NotFoundError);
    expect(await store.delete("u1", mine.id)).toEqual({ name: "mine" });
    expect(store.verify(mine.token)).toBeNull();
    expect(store.verify(theirs.token)).not.toBeNull();
  });

  it("sees a token removed by a hand edit once the file is reloaded", async () => {
    const { token } = await store.create("u1", "a");
    await writeFile(folder.apiTokensJson, JSON.stringify({ nextId: 2, tokens: [] }));
    await store.doc.reload();
    expect(store.verify(token)).toBeNull();
  });

  it("deletes all of a user's tokens when the user goes", async () => {
    await store.create("u1", "a");
    await store.create("u1", "b");
    await store.create("u2", "c");
    expect(await store.deleteAllForUser("u1")).toBe(2);
    expect(store.list("u1")).toEqual([]);
    expect(store.list("u2")).toHaveLength(1);
  });
});
