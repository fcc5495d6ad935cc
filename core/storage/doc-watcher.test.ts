import { mkdtemp, mkdir, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { DocWatcher, type DocWatchEvent } from "./doc-watcher.js";
import { JsonDoc } from "./json-doc.js";

const Labels = z.object({ labels: z.array(z.string()).default([]) });
type Labels = z.infer<typeof Labels>;

let dir: string;
let file: string;
let doc: JsonDoc<Labels>;
let watcher: DocWatcher;
let events: DocWatchEvent[];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-watch-"));
  await mkdir(path.join(dir, "tmp"));
  file = path.join(dir, "labels.json");
  doc = await openLabels(file);
  await doc.update((d) => void d.labels.push("start"));
  watcher = new DocWatcher({ debounceMs: 30, rereadDelayMs: 150 });
  watcher.add(doc);
  events = [];
  watcher.onEvent((e) => events.push(e));
  await watcher.start();
});
afterEach(async () => {
  await watcher.close();
  await rm(dir, { recursive: true, force: true });
});

/** Wait until the watcher reports an event of `type` (the platform delivers file events asynchronously). */
function nextEvent(type: DocWatchEvent["type"], timeoutMs = 5000): Promise<DocWatchEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(
        new Error(`no ${type} event within ${timeoutMs} ms; saw ${events.map((e) => e.type).join(",")}`),
      );
    }, timeoutMs);
    const off = watcher.onEvent((e) => {
      if (e.type === type) {
        clearTimeout(timer);
        off();
        resolve(e);
      }
    });
  });
}

/** A second document, in a directory of its own made for it (not watched before). */
async function docIn(sub: string): Promise<JsonDoc<Labels>> {
  await mkdir(sub);
  return openLabels(path.join(sub, "labels.json"));
}

/** A labels document at `file`, its temp files in the test folder's `tmp/`. */
function openLabels(file: string): Promise<JsonDoc<Labels>> {
  return JsonDoc.open<Labels>(file, {
    defaults: () => ({ labels: [] }),
    schema: Labels,
    tmpDir: path.join(dir, "tmp"),
  });
}

describe("DocWatcher", () => {
  it("ignores the store's own writes", async () => {
    const ignored = nextEvent("ignored");
    await doc.update((d) => void d.labels.push("own"));
    expect(await ignored).toEqual({ type: "ignored", path: file });
    await watcher.idle();
    expect(events.filter((e) => e.type === "reloaded")).toEqual([]);
    expect(doc.data.labels).toEqual(["start", "own"]);
  });

  it("reloads a hand edit made outside the store", async () => {
    const reloaded = nextEvent("reloaded");
    await writeFile(file, JSON.stringify({ labels: ["edited", "by", "hand"] }));
    await reloaded;
    expect(doc.data.labels).toEqual(["edited", "by", "hand"]);
  });

  it("re-reads a file that looks broken before declaring it so (an editor saving in steps)", async () => {
    watcher.onEvent(async (e) => {
      // The editor finishes its save while the watcher waits to re-read.
      if (e.type === "suspect") await writeFile(file, JSON.stringify({ labels: ["complete"] }));
    });
    const reloaded = nextEvent("reloaded");
    await writeFile(file, '{"labels": ["compl');
    await reloaded;
    expect(events.some((e) => e.type === "broken")).toBe(false);
    expect(doc.broken).toBeNull();
    expect(doc.data.labels).toEqual(["complete"]);
  });

  it("declares a file broken when it is still invalid after the re-read, keeping the last good state", async () => {
    await writeFile(file, "{ not json");
    await watcher.checkNow();
    expect(events.map((e) => e.type)).toContain("suspect");
    expect(events.map((e) => e.type)).toContain("broken");
    expect(doc.broken).not.toBeNull();
    expect(doc.data.labels).toEqual(["start"]);
  });

  it("holds changes while paused and applies them on resume", async () => {
    watcher.pause();
    const queued = nextEvent("queued");
    await writeFile(file, JSON.stringify({ labels: ["pulled"] }));
    await queued;
    expect(doc.data.labels).toEqual(["start"]);
    await watcher.resume();
    expect(doc.data.labels).toEqual(["pulled"]);
    expect(events.at(-1)).toEqual({ type: "reloaded", path: file });
  });

  it("does not react to other files in the watched directory", async () => {
    await writeFile(path.join(dir, "notes.txt"), "hello");
    await writeFile(path.join(dir, "tmp", "x.tmp"), "hello");
    const reloaded = nextEvent("reloaded");
    await writeFile(file, JSON.stringify({ labels: ["after"] }));
    await reloaded;
    expect(events.map((e) => e.type)).toEqual(["reloaded"]);
  });

  it("watches a document added after the start, in a directory it did not watch yet", async () => {
    const other = await docIn(path.join(dir, "household"));
    watcher.add(other);
    const reloaded = nextEvent("reloaded");
    await writeFile(other.path, JSON.stringify({ labels: ["joined"] }));
    expect(await reloaded).toEqual({ type: "reloaded", path: other.path });
    expect(other.data.labels).toEqual(["joined"]);
  });

  it("stops reacting to a document once it is removed", async () => {
    watcher.remove(doc);
    await writeFile(file, JSON.stringify({ labels: ["unseen"] }));
    // A second document's change, made after, is reported: the first one's would have come before it.
    const other = await docIn(path.join(dir, "other"));
    watcher.add(other);
    const reloaded = nextEvent("reloaded");
    await writeFile(other.path, JSON.stringify({ labels: ["seen"] }));
    await reloaded;
    await watcher.idle();
    expect(events.map((e) => e.path)).toEqual([other.path]);
    expect(doc.data.labels).toEqual(["start"]);
  });

  it("reports a document missing when its directory is removed, and watches it again once it is back", async () => {
    const sub = path.join(dir, "household");
    const other = await docIn(sub);
    await other.update((d) => void d.labels.push("kept"));
    watcher.add(other);
    const missing = nextEvent("missing");
    await rm(sub, { recursive: true });
    expect(await missing).toEqual({ type: "missing", path: other.path });
    // A `git checkout` of a branch that has the folder again.
    await mkdir(sub);
    const reloaded = nextEvent("reloaded");
    await writeFile(other.path, JSON.stringify({ labels: ["back"] }));
    expect(await reloaded).toEqual({ type: "reloaded", path: other.path });
    expect(other.data.labels).toEqual(["back"]);
  });

  it("watches a document whose directory is made after it was opened", async () => {
    const sub = path.join(dir, "later", "lists");
    const other = await openLabels(path.join(sub, "labels.json"));
    watcher.add(other);
    await mkdir(sub, { recursive: true });
    const reloaded = nextEvent("reloaded");
    await writeFile(other.path, JSON.stringify({ labels: ["made"] }));
    expect(await reloaded).toEqual({ type: "reloaded", path: other.path });
    expect(other.data.labels).toEqual(["made"]);
  });

  it("follows a document whose folder was moved away and replaced by a copy, which sends the old watch nothing", async () => {
    await watcher.close();
    watcher = new DocWatcher({ debounceMs: 30, rereadDelayMs: 150, identityCheckMs: 50 });
    const sub = path.join(dir, "data", "group");
    await mkdir(sub, { recursive: true });
    const other = await openLabels(path.join(sub, "labels.json"));
    await other.update((d) => void d.labels.push("before"));
    watcher.add(other);
    watcher.onEvent((e) => events.push(e));
    await watcher.start();
    await rename(path.join(dir, "data"), path.join(dir, "data.old"));
    await mkdir(sub, { recursive: true });
    await writeFile(other.path, JSON.stringify({ labels: ["copied"] }));
    await vi.waitFor(() => expect(other.data.labels).toEqual(["copied"]), { timeout: 5000 });
    // Watched in the new folder from then on.
    await writeFile(other.path, JSON.stringify({ labels: ["edited"] }));
    await vi.waitFor(() => expect(other.data.labels).toEqual(["edited"]), { timeout: 5000 });
  });
});
