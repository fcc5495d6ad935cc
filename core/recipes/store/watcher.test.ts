import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecipeWatcher, type WatchedFile } from "./watcher.js";

/** Poll until `check` holds, bounded (no fixed sleeps). */
async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

let root: string;
let watcher: RecipeWatcher | null = null;
let batches: WatchedFile[][];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "larder-watch-"));
  await mkdir(join(root, "home", "recipes"), { recursive: true });
  batches = [];
});

afterEach(async () => {
  await watcher?.close();
  watcher = null;
  await rm(root, { recursive: true, force: true });
});

async function start(debounceMs = 40): Promise<RecipeWatcher> {
  watcher = new RecipeWatcher({
    groupsDir: root,
    debounceMs,
    onBatch: async (files) => void batches.push(files),
    onError: (e) => {
      throw e;
    },
  });
  await watcher.start();
  return watcher;
}

/** Files reported so far, each once (every event is followed by one trailing re-check of its file). */
const seen = (): string[] => [...new Set(batches.flat().map((f) => `${f.groupSlug}/${f.slug}`))];

describe("recipe watcher", () => {
  it("reports changed recipe files, a burst as one batch", async () => {
    await start();
    await writeFile(join(root, "home", "recipes", "a.md"), "a");
    await writeFile(join(root, "home", "recipes", "b.md"), "b");
    await waitFor(() => seen().includes("home/a") && seen().includes("home/b"));
    expect(batches.length).toBeLessThanOrEqual(2);
  });

  it("ignores media folders, other files and editor temp files", async () => {
    await start();
    await mkdir(join(root, "home", "recipes", "soup", "assets"), { recursive: true });
    await writeFile(join(root, "home", "recipes", "soup", "assets", "x.md"), "x");
    await writeFile(join(root, "home", "recipes", "soup", "original.webp"), "x");
    await writeFile(join(root, "home", "recipes", ".soup.md.swp"), "x");
    await writeFile(join(root, "home", "recipes", "soup.md~"), "x");
    await writeFile(join(root, "home", "organizers.json"), "{}");
    await writeFile(join(root, "home", "recipes", "marker.md"), "m");
    await waitFor(() => seen().includes("home/marker"));
    expect(seen()).toEqual(["home/marker"]);
  });

  it("picks up a group folder that appears later, as after a git pull", async () => {
    await start();
    await mkdir(join(root, "club", "recipes"), { recursive: true });
    await writeFile(join(root, "club", "recipes", "stew.md"), "s");
    await waitFor(() => seen().includes("club/stew"));
  });

  it("reports deletions", async () => {
    await writeFile(join(root, "home", "recipes", "gone.md"), "g");
    await start();
    await unlink(join(root, "home", "recipes", "gone.md"));
    await waitFor(() => seen().includes("home/gone"));
  });

  it("holds changes while paused and delivers them on resume", async () => {
    const w = await start();
    w.pause();
    await writeFile(join(root, "home", "recipes", "held.md"), "h");
    // Give the OS event time to arrive: nothing may be delivered while paused.
    await new Promise((r) => setTimeout(r, 300));
    expect(batches).toEqual([]);
    await w.resume();
    expect(seen()).toEqual(["home/held"]);
  });

  it("looks at a file once more after its last event (chokidar drops quick follow-up changes)", async () => {
    const w = await start();
    await writeFile(join(root, "home", "recipes", "a.md"), "a");
    await waitFor(() => seen().includes("home/a"));
    await w.idle();
    expect(batches.flat().filter((f) => f.slug === "a").length).toBeGreaterThanOrEqual(2);
  });

  it("reports a group folder moved away as a whole, and its files when it comes back", async () => {
    await writeFile(join(root, "home", "recipes", "a.md"), "a");
    const gone: string[] = [];
    watcher = new RecipeWatcher({
      groupsDir: root,
      debounceMs: 40,
      onBatch: async (files) => void batches.push(files),
      onFolderGone: (g) => void gone.push(g),
      onError: (e) => {
        throw e;
      },
    });
    await watcher.start();
    // A move sends no event for the files inside: the store is told to rescan the group.
    await rename(join(root, "home"), join(root, ".home-away"));
    await waitFor(() => gone.includes("home"));
    await rename(join(root, ".home-away"), join(root, "home"));
    await waitFor(() => seen().includes("home/a"));
  });

  it("follows the groups folder when it is removed and made again, as a re-clone of the data folder", async () => {
    const groups = join(root, "data", "groups");
    await mkdir(join(groups, "home", "recipes"), { recursive: true });
    await writeFile(join(groups, "home", "recipes", "a.md"), "a");
    const gone: string[] = [];
    watcher = new RecipeWatcher({
      groupsDir: groups,
      debounceMs: 40,
      onBatch: async (files) => void batches.push(files),
      onFolderGone: (g) => void gone.push(g),
      onError: (e) => {
        throw e;
      },
    });
    await watcher.start();
    await rm(join(root, "data"), { recursive: true });
    await waitFor(() => gone.includes("home"));
    await mkdir(join(groups, "home", "recipes"), { recursive: true });
    await writeFile(join(groups, "home", "recipes", "b.md"), "b");
    await waitFor(() => seen().includes("home/b"));
    // Watched again: a later edit is reported too.
    await writeFile(join(groups, "home", "recipes", "c.md"), "c");
    await waitFor(() => seen().includes("home/c"));
  });

  it("notices a groups folder moved away and replaced, which sends no event to the old watch", async () => {
    const groups = join(root, "data", "groups");
    await mkdir(join(groups, "home", "recipes"), { recursive: true });
    const gone: string[] = [];
    watcher = new RecipeWatcher({
      groupsDir: groups,
      debounceMs: 40,
      identityCheckMs: 50,
      onBatch: async (files) => void batches.push(files),
      onFolderGone: (g) => void gone.push(g),
      onError: (e) => {
        throw e;
      },
    });
    await watcher.start();
    await rename(join(root, "data"), join(root, "data.old"));
    await mkdir(join(groups, "home", "recipes"), { recursive: true });
    await writeFile(join(groups, "home", "recipes", "fresh.md"), "f");
    await waitFor(() => seen().includes("home/fresh"));
    expect(gone).toContain("home");
    // The old folder is not watched any more.
    await writeFile(join(root, "data.old", "groups", "home", "recipes", "stale.md"), "s");
    await writeFile(join(groups, "home", "recipes", "marker.md"), "m");
    await waitFor(() => seen().includes("home/marker"));
    expect(seen()).not.toContain("home/stale");
  });

  it("re-queues a file after a delay", async () => {
    const w = await start();
    w.enqueue({ groupSlug: "home", slug: "later" }, 30);
    await w.idle();
    expect(seen()).toEqual(["home/later"]);
  });
});
