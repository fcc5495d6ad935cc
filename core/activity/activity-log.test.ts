import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataFolder } from "../storage/data-folder.js";
import { consoleLogger } from "../log/logger.js";
import { ActivityLog } from "./activity-log.js";

let root: string;
let folder: DataFolder;
const recipeId = "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10";

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "larder-activity-"));
  folder = new DataFolder(root);
  await mkdir(folder.activityDir("home"), { recursive: true });
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe("ActivityLog", () => {
  it("folds creates, edits and deletes in order, across month files", async () => {
    let now = new Date("2026-01-31T23:59:59Z");
    const log = new ActivityLog(folder, consoleLogger("silent"), () => now);
    await log.append("home", { kind: "comment.created", id: "c1", recipeId, userId: "u1", text: "one" });
    now = new Date("2026-02-01T00:00:01Z");
    await log.append("home", { kind: "comment.updated", id: "c1", text: "one, edited" });
    await log.append("home", { kind: "comment.created", id: "c2", recipeId, userId: "u1", text: "two" });
    await log.append("home", { kind: "comment.deleted", id: "c2" });
    const again = new ActivityLog(folder, consoleLogger("silent"));
    await again.open(["home"]);
    const c = again.state("home").comments;
    expect([...c.keys()]).toEqual(["c1"]);
    expect(c.get("c1")).toMatchObject({
      text: "one, edited",
      createdAt: "2026-01-31T23:59:59.000Z",
      updatedAt: "2026-02-01T00:00:01.000Z",
    });
    expect((await readFile(folder.activityFile("home", "2026-01"), "utf8")).trim().split("\n")).toHaveLength(
      1,
    );
    expect((await readFile(folder.activityFile("home", "2026-02"), "utf8")).trim().split("\n")).toHaveLength(
      3,
    );
  });

  it("writes a burst of appends together, every line on disk in order, each caller told when its own is", async () => {
    const log = new ActivityLog(folder, consoleLogger("silent"), () => new Date("2026-04-01T10:00:00Z"));
    const appended = Array.from({ length: 50 }, (_, i) =>
      log.append("home", { kind: "comment.created", id: `c${i}`, recipeId, userId: "u1", text: `n${i}` }),
    );
    const ids = (await Promise.all(appended)).map((l) => (l as { id: string }).id);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => `c${i}`));
    const file = (await readFile(folder.activityFile("home", "2026-04"), "utf8")).trim().split("\n");
    expect(file.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(ids);
  });

  it("keeps each recipe's timeline events at hand through creates, deletes and the recipe's deletion", async () => {
    const log = new ActivityLog(folder, consoleLogger("silent"));
    const other = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d";
    const event = (id: string, rid: string) =>
      log.append("home", {
        kind: "timeline.created",
        id,
        recipeId: rid,
        userId: "u1",
        subject: "Made it",
        eventType: "info",
        eventMessage: null,
        image: "does not have image",
        timestamp: "2026-04-01T10:00:00Z",
      });
    await event("e1", recipeId);
    await event("e2", recipeId);
    await event("e3", other);
    const state = log.state("home");
    expect(state.eventsOf(recipeId).map((e) => e.id)).toEqual(["e1", "e2"]);
    await log.append("home", { kind: "timeline.deleted", id: "e1" });
    expect(state.eventsOf(recipeId).map((e) => e.id)).toEqual(["e2"]);
    await log.append("home", { kind: "recipe.deleted", recipeId });
    expect(state.eventsOf(recipeId)).toEqual([]);
    expect([...state.events.keys()]).toEqual(["e3"]);
    // Read back from the file, the same.
    const again = new ActivityLog(folder, consoleLogger("silent"));
    await again.open(["home"]);
    expect(
      again
        .state("home")
        .eventsOf(other)
        .map((e) => e.id),
    ).toEqual(["e3"]);
    expect(again.state("home").eventsOf(recipeId)).toEqual([]);
  });

  it("keeps each recipe's comments at hand through creates, edits, deletes and the recipe's deletion", async () => {
    const log = new ActivityLog(folder, consoleLogger("silent"));
    const other = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d";
    const comment = (id: string, rid: string) =>
      log.append("home", { kind: "comment.created", id, recipeId: rid, userId: "u1", text: id });
    await comment("c1", recipeId);
    await comment("c2", recipeId);
    await comment("c3", other);
    const state = log.state("home");
    const ids = (rid: string) =>
      state
        .commentsOf(rid)
        .map((c) => c.id)
        .sort();
    expect(ids(recipeId)).toEqual(["c1", "c2"]);
    await log.append("home", { kind: "comment.updated", id: "c2", text: "edited" });
    expect(state.commentsOf(recipeId).find((c) => c.id === "c2")?.text).toBe("edited");
    await log.append("home", { kind: "comment.deleted", id: "c1" });
    expect(ids(recipeId)).toEqual(["c2"]);
    await log.append("home", { kind: "recipe.deleted", recipeId });
    expect(ids(recipeId)).toEqual([]);
    expect(ids(other)).toEqual(["c3"]);
    expect([...state.comments.keys()]).toEqual(["c3"]);
    // Read back from the file, the same.
    const again = new ActivityLog(folder, consoleLogger("silent"));
    await again.open(["home"]);
    expect(again.state("home").commentsOf(recipeId)).toEqual([]);
    expect(
      again
        .state("home")
        .commentsOf(other)
        .map((c) => c.id),
    ).toEqual(["c3"]);
  });

  it("skips a torn last line and starts the next append on a fresh line", async () => {
    const file = folder.activityFile("home", "2026-03");
    const good = JSON.stringify({
      kind: "comment.created",
      at: "2026-03-01T10:00:00.000Z",
      id: "c1",
      recipeId,
      userId: "u1",
      text: "kept",
    });
    await writeFile(file, `${good}\n{"kind":"comment.created","at":"2026-03-01T1`);
    const log = new ActivityLog(folder, consoleLogger("silent"), () => new Date("2026-03-02T00:00:00Z"));
    await log.open(["home"]);
    expect([...log.state("home").comments.keys()]).toEqual(["c1"]);
    await log.append("home", {
      kind: "comment.created",
      id: "c2",
      recipeId,
      userId: "u1",
      text: "after the tear",
    });
    const lines = (await readFile(file, "utf8")).split("\n");
    expect(JSON.parse(lines[2]) as { id: string }).toMatchObject({ id: "c2" });
    const again = new ActivityLog(folder, consoleLogger("silent"));
    await again.open(["home"]);
    expect([...again.state("home").comments.keys()].sort()).toEqual(["c1", "c2"]);
  });

  it("ends a recipe's comments and events with one recipe.deleted line", async () => {
    const log = new ActivityLog(folder, consoleLogger("silent"));
    await log.append("home", { kind: "comment.created", id: "c1", recipeId, userId: "u1", text: "x" });
    await log.append("home", {
      kind: "timeline.created",
      id: "e1",
      recipeId,
      userId: "u1",
      subject: "Recipe Created",
      eventType: "system",
      eventMessage: null,
      image: "does not have image",
      timestamp: "2026-01-01T00:00:00.000Z",
    });
    await log.append("home", { kind: "recipe.deleted", recipeId });
    expect(log.state("home").comments.size).toBe(0);
    expect(log.state("home").events.size).toBe(0);
  });

  it("keeps the time order of lines written within one millisecond", async () => {
    const fixed = new Date("2026-04-01T12:00:00.000Z");
    const log = new ActivityLog(folder, consoleLogger("silent"), () => fixed);
    const a = await log.append("home", {
      kind: "comment.created",
      id: "a",
      recipeId,
      userId: "u1",
      text: "a",
    });
    const b = await log.append("home", {
      kind: "comment.created",
      id: "b",
      recipeId,
      userId: "u1",
      text: "b",
    });
    expect(a.at < b.at).toBe(true);
  });
});
