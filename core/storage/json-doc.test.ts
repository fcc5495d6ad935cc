import { statSync, writeFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import {
  chmod,
  chown,
  mkdtemp,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ConflictError, ValidationError } from "../errors.js";
import * as atomic from "./atomic-write.js";
import { canonicalJson } from "./canonical-json.js";
import { BrokenDocumentError, JsonDoc, sha256, type JsonDocEvent } from "./json-doc.js";

vi.mock("./atomic-write.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./atomic-write.js")>();
  return { ...actual, writeFileAtomic: vi.fn(actual.writeFileAtomic) };
});
const writes = vi.mocked(atomic.writeFileAtomic);
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return { ...actual, open: vi.fn(actual.open) };
});
const opens = vi.mocked(fsp.open);

const Foods = z.object({
  foods: z.array(z.object({ id: z.string(), name: z.string(), position: z.number().optional() })).default([]),
});
type Foods = z.infer<typeof Foods>;

let dir: string;
let tmpDir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-doc-"));
  tmpDir = path.join(dir, "tmp");
  await mkdir(tmpDir);
  file = path.join(dir, "foods.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = () =>
  JsonDoc.open<Foods>(file, {
    defaults: () => ({ foods: [] }),
    schema: Foods,
    tmpDir,
    arraysSortedBy: ["foods"],
  });

describe("JsonDoc", () => {
  it("starts from the defaults and creates no file until the first update", async () => {
    const doc = await open();
    expect(doc.data).toEqual({ foods: [] });
    expect(doc.contentHash).toBeNull();
    await expect(stat(file)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("writes canonical JSON, sorting the declared arrays", async () => {
    const doc = await open();
    await doc.update((d) => {
      d.foods.push({ id: "b", name: "Basil", position: 1 }, { id: "a", name: "Apple", position: 0 });
    });
    const text = await readFile(file, "utf8");
    expect(text).toBe(
      '{\n  "foods": [\n    {\n      "id": "a",\n      "name": "Apple",\n      "position": 0\n    },\n    {\n      "id": "b",\n      "name": "Basil",\n      "position": 1\n    }\n  ]\n}\n',
    );
    expect(doc.contentHash).toBe(sha256(text));
  });

  it("coalesces a burst of updates in one tick into a single write", async () => {
    const doc = await open();
    writes.mockClear();
    const updates = [1, 2, 3, 4, 5].map((n) =>
      doc.update((d) => void d.foods.push({ id: String(n), name: `food ${n}` })),
    );
    // Every update is visible in memory at once, before the write lands.
    expect(doc.data.foods).toHaveLength(5);
    await Promise.all(updates);
    expect(writes).toHaveBeenCalledTimes(1);
    expect(JSON.parse(await readFile(file, "utf8")).foods).toHaveLength(5);
    // A later, separate update is a separate write.
    await doc.update((d) => void d.foods.pop());
    expect(writes).toHaveBeenCalledTimes(2);
    expect(JSON.parse(await readFile(file, "utf8")).foods).toHaveLength(4);
  });

  it("keeps a hand save that lands just after its own write's rename, for the next write to take in", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    const actual = await vi.importActual<typeof import("./atomic-write.js")>("./atomic-write.js");
    // An editor that read the file before the next write saves (write and rename) right after it.
    const byHand = `${JSON.stringify({
      foods: [
        { id: "a", name: "Apple" },
        { id: "p", name: "Hand pear" },
      ],
    })}\n`;
    writes.mockImplementationOnce(async (...args) => {
      const written = await actual.writeFileAtomic(...args);
      await writeFile(`${file}.editor`, byHand);
      await rename(`${file}.editor`, file);
      return written;
    });
    await doc.update((d) => void d.foods.push({ id: "b", name: "Bean" }));
    // The next write meets the hand save: it takes it in and makes its own update on it.
    await doc.update((d) => void d.foods.push({ id: "c", name: "Cress" }));
    const onDisk = JSON.parse(await readFile(file, "utf8")) as Foods;
    expect(onDisk.foods.map((f) => f.name).sort()).toEqual(["Apple", "Cress", "Hand pear"]);
    expect(doc.data.foods.map((f) => f.name).sort()).toEqual(["Apple", "Cress", "Hand pear"]);
  });

  it("never runs two writes of one document at once; updates made during a write share the next one", async () => {
    const doc = await open();
    const actual = await vi.importActual<typeof import("./atomic-write.js")>("./atomic-write.js");
    let active = 0;
    let maxActive = 0;
    // The first write is held until the later updates have been made.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    writes.mockClear();
    writes.mockImplementation(async (...args) => {
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        await held;
        return await actual.writeFileAtomic(...args);
      } finally {
        active--;
      }
    });
    try {
      const first = doc.update((d) => void d.foods.push({ id: "a", name: "x" }));
      await new Promise((r) => setImmediate(r)); // the first write is now in flight
      const second = doc.update((d) => void d.foods.push({ id: "b", name: "y" }));
      const third = doc.update((d) => void d.foods.push({ id: "c", name: "z" }));
      release();
      await Promise.all([first, second, third]);
      expect(maxActive).toBe(1);
      expect(writes).toHaveBeenCalledTimes(2);
      expect(JSON.parse(await readFile(file, "utf8")).foods.map((f: { id: string }) => f.id)).toEqual([
        "a",
        "b",
        "c",
      ]);
    } finally {
      writes.mockImplementation(actual.writeFileAtomic);
    }
  });

  it("changes no byte when an unchanged value is saved", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    const before = await stat(file);
    writes.mockClear();
    await doc.update(() => undefined);
    await doc.update((d) => ({ foods: [...d.foods] }));
    const after = await stat(file);
    expect(writes).not.toHaveBeenCalled();
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
  });

  it("applies nothing when the updater throws or the result fails the schema", async () => {
    const doc = await open();
    expect(() =>
      doc.update((d) => {
        d.foods.push({ id: "a", name: "Apple" });
        throw new Error("nope");
      }),
    ).toThrow("nope");
    expect(() =>
      doc.update((d) => void d.foods.push({ id: 1, name: "bad" } as unknown as Foods["foods"][number])),
    ).toThrow(ValidationError);
    expect(doc.data.foods).toEqual([]);
  });

  it("replaces the state without copying it: untouched parts stay the same objects, changed ones are validated", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }, { id: "b", name: "Basil" }));
    const before = doc.data;
    const apple = before.foods.find((f) => f.id === "a")!;
    await doc.replace((d) => ({
      ...d,
      foods: d.foods.map((f) => (f.id === "b" ? { ...f, name: "Thai basil" } : f)),
    }));
    expect(doc.data.foods.find((f) => f.id === "a")).toBe(apple);
    expect(doc.data.foods.find((f) => f.id === "b")?.name).toBe("Thai basil");
    expect(before.foods.find((f) => f.id === "b")?.name).toBe("Basil");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      foods: [
        { id: "a", name: "Apple" },
        { id: "b", name: "Thai basil" },
      ],
    });
    const good = doc.data;
    expect(() =>
      doc.replace((d) => ({
        ...d,
        foods: [...d.foods, { id: 2, name: "bad" } as unknown as Foods["foods"][number]],
      })),
    ).toThrow(ValidationError);
    expect(doc.data).toBe(good);
  });

  it("fails an updater given to replace that changes the current state, under the test suite's check", async () => {
    expect(process.env.LARDER_VERIFY_INCREMENTAL).toBe("1");
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    expect(() =>
      doc.replace((d) => {
        (d.foods as Foods["foods"]).push({ id: "b", name: "Basil" });
        return d;
      }),
    ).toThrow(/changed the current state/);
  });

  it("writes a replaced state's unchanged records from the last write, and the file is what a full write gives", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }, { id: "b", name: "Basil" }));
    for (const [id, name] of [
      ["c", "Cress"],
      ["b", "Thai basil"],
      ["d", "Dill"],
    ])
      await doc.replace((d) => ({
        ...d,
        foods: d.foods.some((f) => f.id === id)
          ? d.foods.map((f) => (f.id === id ? { ...f, name } : f))
          : [...d.foods, { id, name, position: 0 }],
      }));
    const text = await readFile(file, "utf8");
    expect(JSON.parse(text)).toEqual({
      foods: [
        { id: "c", name: "Cress", position: 0 },
        { id: "d", name: "Dill", position: 0 },
        { id: "a", name: "Apple" },
        { id: "b", name: "Thai basil" },
      ],
    });
    expect(doc.contentHash).toBe(sha256(text));
    // A record changed in place behind replace()'s back would keep its old text: the suite's check
    // refuses to write it.
    (doc.data.foods[0] as { name: string }).name = "Changed in place";
    await expect(
      doc.replace((d) => ({ ...d, foods: [...d.foods, { id: "e", name: "Endive" }] })),
    ).rejects.toThrow(/old text/);
  });

  it("keeps the last good state of a broken file, refuses to write it, and recovers when it is fixed", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    const events: JsonDocEvent<Foods>[] = [];
    doc.onChange((e) => events.push(e));

    const handEdit = '{ "foods": [ { "id": "a", "name": "Apple" }, ';
    await writeFile(file, handEdit);
    expect(await doc.reload()).toBe("broken");
    expect(doc.broken?.message).toMatch(/invalid JSON/);
    expect(doc.data.foods.map((f) => f.name)).toEqual(["Apple"]);
    expect(() => doc.update((d) => void d.foods.pop())).toThrow(BrokenDocumentError);
    expect(() => doc.update((d) => void d.foods.pop())).toThrow(ConflictError);
    // The user's half-finished edit is still on disk, untouched.
    expect(await readFile(file, "utf8")).toBe(handEdit);

    await writeFile(
      file,
      JSON.stringify({
        foods: [
          { id: "a", name: "Apple" },
          { id: "p", name: "Pear" },
        ],
      }),
    );
    expect(await doc.reload()).toBe("reloaded");
    expect(doc.broken).toBeNull();
    expect(doc.data.foods.map((f) => f.name)).toEqual(["Apple", "Pear"]);
    await doc.update((d) => void d.foods.pop());
    expect(JSON.parse(await readFile(file, "utf8")).foods).toHaveLength(1);
    expect(events.map((e) => (e.type === "change" ? `change:${e.origin}` : e.type))).toEqual([
      "broken",
      "change:reload",
      "change:update",
    ]);
  });

  it("never overwrites a hand edit made before the watcher reported it: the write is made again on it (decision 0293)", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    // An editor saves; no reload yet (the watcher's debounce has not fired).
    await writeFile(file, JSON.stringify({ foods: [{ id: "h", name: "Hand Pear" }] }));
    await doc.update((d) => void d.foods.push({ id: "b", name: "Banana" }));
    const names = (text: string) => JSON.parse(text).foods.map((f: { name: string }) => f.name);
    expect(names(await readFile(file, "utf8"))).toEqual(["Banana", "Hand Pear"]);
    expect(doc.data.foods.map((f) => f.name).sort()).toEqual(["Banana", "Hand Pear"]);
    // The next write builds on that version too.
    await doc.update((d) => void d.foods.push({ id: "c", name: "Cherry" }));
    expect(names(await readFile(file, "utf8"))).toEqual(["Banana", "Cherry", "Hand Pear"]);
  });

  it("fails only the update that no longer fits the hand edit; the others of its write are saved on it", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }, { id: "p", name: "Pear" }));
    await writeFile(file, JSON.stringify({ foods: [{ id: "p", name: "Hand Pear" }] }));
    const rename = doc.update((d) => {
      const apple = d.foods.find((f) => f.id === "a");
      if (!apple) throw new ConflictError("Apple is gone");
      apple.name = "Green Apple";
    });
    const add = doc.update((d) => void d.foods.push({ id: "b", name: "Banana" }));
    await expect(rename).rejects.toThrow(/Apple is gone/);
    await add;
    const saved = JSON.parse(await readFile(file, "utf8")).foods.map((f: { name: string }) => f.name);
    expect(saved).toEqual(["Banana", "Hand Pear"]);
    expect(doc.data.foods.map((f) => f.name).sort()).toEqual(["Banana", "Hand Pear"]);
  });

  it("writes a document kept when deleted back with the change, and answers the write as saved", async () => {
    const doc = await JsonDoc.open<Foods>(file, {
      defaults: () => ({ foods: [] }),
      schema: Foods,
      tmpDir,
      arraysSortedBy: ["foods"],
      writtenBackWhenDeleted: true,
    });
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    await unlink(file);
    await doc.update((d) => void d.foods.push({ id: "b", name: "Banana" }));
    const saved = JSON.parse(await readFile(file, "utf8")).foods.map((f: { name: string }) => f.name);
    expect(saved).toEqual(["Apple", "Banana"]);
  });

  it("does not overwrite a half-written hand edit before the watcher saw it; the document turns broken", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    const half = '{ "foods": [ { "id": "a", ';
    await writeFile(file, half);
    await expect(doc.update((d) => void d.foods.pop())).rejects.toBeInstanceOf(ConflictError);
    await expect.poll(() => doc.broken?.message ?? null).toMatch(/invalid JSON/);
    expect(await readFile(file, "utf8")).toBe(half);
  });

  it("recovers when a broken file is restored to exactly its last good text (git checkout)", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    await doc.idle();
    const good = await readFile(file, "utf8");
    await writeFile(file, "{ broken");
    expect(await doc.reload()).toBe("broken");
    await writeFile(file, good);
    expect(await doc.probe()).toBe("changed");
    expect(await doc.reload()).toBe("reloaded");
    expect(doc.broken).toBeNull();
  });

  it("reports a file that is valid JSON but fails the schema as broken", async () => {
    await writeFile(file, JSON.stringify({ foods: [{ id: 3 }] }));
    const doc = await open();
    expect(doc.broken?.message).toMatch(/invalid content/);
    expect(doc.data).toEqual({ foods: [] });
    expect(() => doc.update(() => undefined)).toThrow(BrokenDocumentError);
  });

  it("fills schema defaults on read", async () => {
    await writeFile(file, "{}");
    const doc = await open();
    expect(doc.data).toEqual({ foods: [] });
  });

  it("keeps the permissions and the owner a person gave the file through a write", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    await chmod(file, 0o640);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await chown(file, 1234, 2345);
    await doc.update((d) => void d.foods.push({ id: "b", name: "Bean" }));
    const after = await stat(file);
    expect(await readFile(file, "utf8")).toContain("Bean");
    expect(after.mode & 0o777).toBe(0o640);
    if (asRoot) expect([after.uid, after.gid]).toEqual([1234, 2345]);
  });

  it("refuses a write through a folder replaced by a symlink, so that nothing lands outside the data folder", async () => {
    const root = path.join(dir, "data");
    const larderTmp = path.join(root, ".larder", "tmp");
    await mkdir(larderTmp, { recursive: true });
    const household = path.join(root, "groups", "home", "households", "family");
    await mkdir(household, { recursive: true });
    const inHousehold = await JsonDoc.open<Foods>(path.join(household, "foods.json"), {
      defaults: () => ({ foods: [] }),
      schema: Foods,
      tmpDir: larderTmp,
    });
    await inHousehold.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    const outside = path.join(dir, "outside");
    await rename(household, outside);
    await symlink(outside, household);
    await expect(inHousehold.update((d) => void d.foods.push({ id: "b", name: "Bean" }))).rejects.toThrow(
      /symlink/,
    );
    expect(await readdir(outside)).toEqual(["foods.json"]);
    expect(await readFile(path.join(outside, "foods.json"), "utf8")).not.toContain("Bean");
  });

  it("reloads an external edit and ignores a re-read of its own write", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    expect(await doc.probe()).toBe("same");
    expect(await doc.reload()).toBe("unchanged");
    await writeFile(file, JSON.stringify({ foods: [{ id: "b", name: "Bean" }] }));
    expect(await doc.probe()).toBe("changed");
    expect(await doc.reload()).toBe("reloaded");
    expect(doc.data.foods[0].name).toBe("Bean");
  });

  it("writes a large document whole, through the buffer it keeps, however much of it is outside ASCII", async () => {
    const doc = await open();
    const names = ["plain", "café crème", "€ and 😀 😀 😀", "漢字".repeat(40)];
    for (const [round, count] of [
      [0, 3000],
      [1, 500],
      [2, 4000],
    ]) {
      await doc.update((d) => {
        d.foods = Array.from({ length: count }, (_, i) => ({
          id: `f${round}-${i}`,
          name: names[(i * (round + 1)) % names.length],
        }));
      });
      const bytes = await readFile(file);
      expect(bytes.equals(Buffer.from(canonicalJson(doc.data, { sortArraysAt: ["foods"] })))).toBe(true);
      expect(doc.contentHash).toBe(sha256(bytes));
      expect(await doc.probe()).toBe("same");
    }
  });

  it("takes a look that spans one of its own writes for no change, not for someone else's edit", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    // The look opens the file as it is, and reads it only once the next write has landed: the handle
    // still reads the file it opened, the version before that write.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    opens.mockImplementationOnce(async (...args: Parameters<typeof fsp.open>) => {
      const fh = await vi.mocked(fsp.open).getMockImplementation()!(...args);
      const readFile = fh.readFile.bind(fh);
      fh.readFile = (async (...a: Parameters<typeof readFile>) => {
        await gate;
        return readFile(...a);
      }) as typeof fh.readFile;
      return fh;
    });
    const look = doc.probe();
    await doc.update((d) => void d.foods.push({ id: "b", name: "Basil" }));
    release();
    expect(await look).toBe("same");
    // Someone else's edit is still one.
    await writeFile(file, JSON.stringify({ foods: [{ id: "c", name: "Cress" }] }));
    expect(await doc.probe()).toBe("changed");
  });

  it("takes a file that is not UTF-8 for broken and never rewrites it; a byte-order mark is no problem", async () => {
    // A Latin-1 é beside a UTF-8 é: read leniently, the first would become U+FFFD and the next write keep it.
    const latin1 = Buffer.concat([
      Buffer.from('{"foods":[{"id":"a","name":"Caf'),
      Buffer.of(0xe9),
      Buffer.from(' é"}]}'),
    ]);
    await writeFile(file, latin1);
    const doc = await open();
    expect(doc.broken?.message).toMatch(/not UTF-8/);
    expect(() => doc.update((d) => void d.foods.push({ id: "b", name: "Crème" }))).toThrow(
      BrokenDocumentError,
    );
    expect(await readFile(file)).toEqual(latin1);
    await writeFile(
      file,
      Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), Buffer.from('{"foods":[{"id":"a","name":"Café"}]}')]),
    );
    expect(await doc.reload()).toBe("reloaded");
    expect(doc.data.foods[0].name).toBe("Café");
  });

  it("goes back to the file when a write fails (no permission, a full disk): the lost change is never saved later", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    writes.mockRejectedValueOnce(Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" }));
    await expect(doc.update((d) => void d.foods.push({ id: "b", name: "Bread" }))).rejects.toThrow(/EACCES/);
    await vi.waitFor(() => expect(doc.data.foods.map((f) => f.name)).toEqual(["Apple"]));
    await doc.update((d) => void d.foods.push({ id: "c", name: "Cheese" }));
    expect(JSON.parse(await readFile(file, "utf8")).foods.map((f: { name: string }) => f.name)).toEqual([
      "Apple",
      "Cheese",
    ]);
  });

  it("takes its own write, in place before the folder's fsync, for no change, and a reload racing it loses no update", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    const names = () => doc.data.foods.map((f) => f.name);
    for (let round = 0; round < 20; round++) {
      let fsynced!: () => void;
      // A write whose file is in place at once and whose folder fsync is slow; while it waits, another
      // update comes in (memory is then ahead of the disk, which is ahead of the text last known).
      writes.mockImplementationOnce(async (target, data) => {
        writeFileSync(target, data);
        const st = statSync(target);
        doc.update((d) => void d.foods.push({ id: `c${round}`, name: `Cress ${round}` }));
        await new Promise<void>((r) => (fsynced = r));
        return `${st.size}:${st.mtimeMs}:${st.ino}`;
      });
      const reload = doc.reload();
      const saved = doc.update((d) => void d.foods.push({ id: `b${round}`, name: `Bean ${round}` }));
      while (!fsynced) await new Promise((r) => setImmediate(r));
      expect(await doc.probe()).toBe("same");
      fsynced();
      await Promise.all([reload, saved, doc.idle()]);
      expect(names()).toContain(`Bean ${round}`);
      expect(names()).toContain(`Cress ${round}`);
      const onDisk = (JSON.parse(await readFile(file, "utf8")) as Foods).foods.map((f) => f.name);
      expect(onDisk.sort()).toEqual(names().sort());
    }
  });

  it("resets to the defaults when the file is deleted", async () => {
    const doc = await open();
    await doc.update((d) => void d.foods.push({ id: "a", name: "Apple" }));
    await unlink(file);
    expect(await doc.probe()).toBe("missing");
    expect(await doc.reload()).toBe("missing");
    expect(doc.data).toEqual({ foods: [] });
  });

  it("writes documents with the requested mode", async () => {
    const doc = await JsonDoc.open<{ n: number }>(file, { defaults: () => ({ n: 0 }), tmpDir, mode: 0o600 });
    await doc.update((d) => void (d.n = 1));
    if (process.platform !== "win32") expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
