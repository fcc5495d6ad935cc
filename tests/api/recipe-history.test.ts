/**
 * Larder's recipe history API over a data folder that is a git repository with autocommit on: the
 * commits of one recipe, a version's text and diff, and restoring one; an empty history elsewhere.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { body } from "../support/people.js";
import { Larder } from "../../core/larder.js";
import { loadConfig } from "../../core/config.js";
import { consoleLogger } from "../../core/log/logger.js";
import { git } from "../../core/git/autocommit.js";

let base: string;
let t: TestServer;
let token: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-history-"));
  const dataDir = join(base, "data");
  await (
    await Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir, bcryptRounds: 4 }), {
      log: consoleLogger("silent"),
    })
  ).close();
  await git(dataDir, ["init", "--quiet"]);
  await git(dataDir, ["add", "-A"]);
  await git(dataDir, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "start"]);
  t = await startTestServer({ gitAutoCommit: true }, { dataDir, watch: true });
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
  await rm(base, { recursive: true, force: true });
});

type Item = { rev: string; date: string; author: string; message: string };

describe("/api/larder/recipes/{slug}/history", () => {
  it("lists each change, shows a version with its diff, and restores it", async () => {
    const slug = await body<string>(
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Lentil Stew" } }),
    );
    await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { description: "First words." } });
    await t.larder.events.idle();
    await t.larder.gitAutoCommit!.idle();
    await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { description: "Second words." } });
    await t.larder.events.idle();
    await t.larder.gitAutoCommit!.idle();
    const { items } = await body<{ items: Item[] }>(
      await t.api(`/api/larder/recipes/${slug}/history`, { token }),
    );
    expect(items.map((i) => i.message)).toEqual([
      "Update recipe lentil-stew (by Change Me)",
      "Update recipe lentil-stew (by Change Me)",
      "Add recipe lentil-stew (by Change Me)",
    ]);
    const older = await body<Item & { content: string; diff: string }>(
      await t.api(`/api/larder/recipes/${slug}/history/${items[1].rev}`, { token }),
    );
    expect(older.content).toContain("First words.");
    expect(older.diff).toMatch(/^diff --git/);
    expect(older.diff.split("\n").some((l) => l.startsWith("+") && l.includes("First words."))).toBe(true);
    const restored = await t.api(`/api/larder/recipes/${slug}/history/${items[1].rev.slice(0, 12)}/restore`, {
      method: "POST",
      token,
    });
    expect(restored.status).toBe(200);
    expect(
      (await body<{ description: string }>(await t.api(`/api/recipes/${slug}`, { token }))).description,
    ).toBe("First words.");
  });

  it("answers 404 for a revision that is not this recipe's, and for a bad one", async () => {
    const slug = await body<string>(
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Bean Dip" } }),
    );
    expect((await t.api(`/api/larder/recipes/${slug}/history/0000000`, { token })).status).toBe(404);
    expect((await t.api(`/api/larder/recipes/${slug}/history/HEAD~1`, { token })).status).toBe(404);
  });
});
