/**
 * JSON documents of the data folder that cannot be read when it opens, and documents deleted while it
 * is open (decision 0229): named in the log with the parse error, never written over; the site's
 * users refuse to open rather than run without them; the documents the site stands on are written
 * back from memory when deleted.
 */
import { mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import type { Logger } from "../log/logger.js";
import type { Actor } from "../actor.js";
import { BrokenDocumentError, onDocumentOpened, type JsonDoc } from "./json-doc.js";
import { builtinPlugins } from "../../plugins/builtins.js";

let base: string;
let root: string;
let warnings: string[];
const log: Logger = {
  info() {},
  warn: (m: string) => warnings.push(m),
  error: (m: string) => warnings.push(m),
};

const open = (opts: { watch?: boolean } = {}) =>
  Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir: root, bcryptRounds: 4 }), {
    log,
    plugins: builtinPlugins,
    watch: opts.watch ?? false,
  });

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-broken-docs-"));
  root = join(base, "data");
  warnings = [];
  // Opened twice: the second start opens the household's documents, as every later start does.
  await (await open()).close();
  await (await open()).close();
  warnings = [];
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Every JSON document a person or a crash could leave half-written, but those with their own rules. */
const DOCUMENTS = [
  "larder.json",
  "groups/home/organizers.json",
  "groups/home/foods.json",
  "groups/home/units.json",
  "groups/home/labels.json",
  "groups/home/ratings.json",
  "groups/home/households/family/mealplans.json",
  "groups/home/households/family/mealplan-rules.json",
  "groups/home/households/family/cookbooks.json",
  "groups/home/households/family/webhooks.json",
  "groups/home/households/family/notifiers.json",
  "groups/home/households/family/recipe-actions.json",
  ".larder/credentials.json",
  ".larder/api-tokens.json",
  ".larder/reset-tokens.json",
  ".larder/invitations.json",
  ".larder/ai-provider-keys.json",
  ".larder/notifier-urls.json",
];
/** The warnings that a document was written back after being deleted. */
const writtenBack = (rel: string) =>
  warnings.filter((w) => w.includes(join(root, rel)) && /was deleted; it is written back/.test(w));

const TRUNCATED = '{\n  "items": [\n    { "id": "a", "na';

describe("a JSON document that cannot be read when the folder opens", () => {
  it("is named in the log with its parse error, refuses writes, and is never written", async () => {
    for (const rel of DOCUMENTS) await writeFile(join(root, rel), TRUNCATED);
    const opened = new Map<string, JsonDoc<unknown>>();
    const stop = onDocumentOpened((d) => void opened.set(relative(root, d.path), d));
    const larder = await open();
    stop();
    try {
      for (const rel of DOCUMENTS) {
        const doc = opened.get(rel);
        expect(doc, rel).toBeDefined();
        expect(doc!.broken?.message, rel).toMatch(/invalid JSON/);
        expect(
          warnings.filter(
            (w) => w.includes(join(root, rel)) && /cannot be read \(invalid JSON: .+\)/.test(w),
          ),
          rel,
        ).toHaveLength(1);
        expect(() => doc!.update(() => undefined), rel).toThrow(BrokenDocumentError);
      }
      // A rating, the write people make most, is refused naming the file, rather than saving a
      // document of one rating over the ratings a hand edit broke.
      const admin: Actor = { kind: "user", user: larder.users.all()[0] };
      const slug = await larder.recipes.create(admin, { name: "Rated Soup" });
      await expect(
        larder.ratings.set(admin, larder.users.all()[0].id, slug, { rating: 5 }),
      ).rejects.toMatchObject({ status: 409, message: expect.stringContaining("ratings.json") });
    } finally {
      await larder.close();
    }
    for (const rel of DOCUMENTS) expect(await readFile(join(root, rel), "utf8"), rel).toBe(TRUNCATED);
  });

  it("users.json: the folder does not open, and the message names the file and what is wrong", async () => {
    await writeFile(join(root, "users.json"), TRUNCATED);
    await expect(open()).rejects.toThrow(
      new RegExp(
        `${join(root, "users.json")} cannot be read \\(invalid JSON: .+\\): Larder does not open without its users`,
      ),
    );
    expect(await readFile(join(root, "users.json"), "utf8")).toBe(TRUNCATED);
  });
});

describe("a document the site stands on, deleted while the server runs", () => {
  it("is written back from the last good state, with a warning, and the site keeps working", async () => {
    const larder = await open({ watch: true });
    try {
      const admin = larder.users.all()[0];
      const files = [
        "users.json",
        "larder.json",
        "groups/home/group.json",
        "groups/home/households/family/household.json",
      ];
      const before = new Map<string, string>();
      for (const rel of files) before.set(rel, await readFile(join(root, rel), "utf8"));
      for (const rel of files) await unlink(join(root, rel));
      // The warning follows the file by the write's last steps (the folder's fsync): both are awaited.
      const done = () => files.every((rel) => existsSync(join(root, rel)) && writtenBack(rel).length > 0);
      const deadline = Date.now() + 10_000;
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const rel of files) {
        expect(await readFile(join(root, rel), "utf8"), rel).toBe(before.get(rel));
        expect(writtenBack(rel), rel).toHaveLength(1);
      }
      expect(larder.users.all().map((u) => u.id)).toContain(admin.id);
      expect(larder.groups.bySlugOrNull("home")?.households.get("family")?.doc.data.id).toBeTruthy();
    } finally {
      await larder.close();
    }
  });
});

describe("a document the site stands on, deleted and then written by the server before any watcher looks", () => {
  it("is written back with a warning, as when the watcher finds it gone", async () => {
    // No watcher: the write that finds users.json gone is what puts it back.
    const larder = await open();
    try {
      const admin = larder.users.all()[0];
      await unlink(join(root, "users.json"));
      await larder.users.update(admin.id, { fullName: "Written Back" }).catch(() => undefined);
      const deadline = Date.now() + 10_000;
      while (writtenBack("users.json").length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(writtenBack("users.json")).toHaveLength(1);
      expect(JSON.parse(await readFile(join(root, "users.json"), "utf8"))).toMatchObject({
        users: [expect.objectContaining({ id: admin.id })],
      });
    } finally {
      await larder.close();
    }
  });
});

describe("a document written back when deleted", () => {
  it("is not written into a folder made anew when its whole folder went, and memory keeps it", async () => {
    const { JsonDoc } = await import("./json-doc.js");
    const dir = join(base, "gone");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(dir);
    await writeFile(join(dir, "doc.json"), '{ "name": "kept" }\n');
    const doc = await JsonDoc.open<{ name: string }>(join(dir, "doc.json"), {
      defaults: () => ({ name: "default" }),
      tmpDir: join(root, ".larder", "tmp"),
      writtenBackWhenDeleted: true,
    });
    await rm(dir, { recursive: true });
    expect(await doc.reload()).toBe("kept");
    expect(doc.data.name).toBe("kept");
    expect(existsSync(dir)).toBe(false);
  });
});
