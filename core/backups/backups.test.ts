import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdtemp, mkdir, readdir, readFile, rm, symlink, writeFile, lstat } from "node:fs/promises";
import { createWriteStream, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { Writable } from "node:stream";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import { BackupStore } from "./backup-store.js";
import { BACKUP_FORMAT_VERSION, collectFiles, MANIFEST_NAME, writeBackup } from "./archive.js";
import { extractBackup, verifyBackup } from "./read-backup.js";
import { recoverRestore, restorePaths } from "./restore.js";
import { rawZip } from "../../tests/support/raw-zip.js";
import { createHash, randomBytes } from "node:crypto";

let base: string;
let root: string;

/** Every file under the folder but `.larder/` and `.git/`, with its bytes. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      if (d === dir && (e.name === ".larder" || e.name === ".git")) continue;
      if (e.isDirectory()) await walk(abs);
      else out[relative(dir, abs).split(sep).join("/")] = (await readFile(abs)).toString("base64");
    }
  };
  await walk(dir);
  return out;
}

async function openFolder(): Promise<void> {
  await (
    await Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir: root, bcryptRounds: 4 }), {
      log: consoleLogger("silent"),
    })
  ).close();
  await mkdir(join(root, "groups", "home", "recipes", "soup"), { recursive: true });
  // Some content of our own, binary included, in nested folders; opened once so the recipe has its id.
  await writeFile(join(root, "groups", "home", "recipes", "soup.md"), "---\nname: Soup\n---\n\nHot.\n");
  await writeFile(
    join(root, "groups", "home", "recipes", "soup", "original.jpg"),
    Buffer.from([0xff, 0xd8, 0, 1, 2, 255]),
  );
  await (
    await Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir: root, bcryptRounds: 4 }), {
      log: consoleLogger("silent"),
    })
  ).close();
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-backups-"));
  root = join(base, "data");
  await openFolder();
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function manifestZip(manifest: object, files: Array<{ name: string; data: Buffer; mode?: number }>): Buffer {
  return rawZip([...files, { name: MANIFEST_NAME, data: Buffer.from(JSON.stringify(manifest)) }]);
}

function manifestFor(files: Array<{ name: string; data: Buffer }>, over: object = {}) {
  return {
    format: "larder-backup",
    formatVersion: BACKUP_FORMAT_VERSION,
    larderVersion: "0.1.0",
    createdAt: new Date().toISOString(),
    includesSecrets: false,
    counts: { files: files.length, recipes: 0, groups: 0 },
    files: Object.fromEntries(
      files.map((f) => [
        f.name,
        { size: f.data.length, sha256: createHash("sha256").update(f.data).digest("hex") },
      ]),
    ),
    ...over,
  };
}

describe("a backup and its restore", () => {
  it("gives back the tracked files byte for byte after the folder is wiped", async () => {
    const store = new BackupStore(root);
    const before = await tree(root);
    const { name, manifest } = await store.create();
    expect(name).toMatch(/^larder_\d{4}\.\d{2}\.\d{2}\.\d{2}\.\d{2}\.\d{2}\.zip$/);
    expect(manifest.counts.recipes).toBe(1);
    expect(Object.keys(manifest.files).sort()).toEqual(Object.keys(before).sort());
    // Wipe every tracked entry, then change what is left.
    for (const n of await readdir(root)) if (n !== ".larder") await rm(join(root, n), { recursive: true });
    await writeFile(join(root, "stray.txt"), "not in the backup");
    await store.restore(name);
    expect(await tree(root)).toEqual(before);
    expect(existsSync(restorePaths(root).dir)).toBe(false);
  });

  it("never carries sessions, caches or temp files, and carries secrets only when asked", async () => {
    await writeFile(join(root, ".larder", "cache", "x.bin"), "cache");
    await writeFile(join(root, ".larder", "tmp", "y.tmp"), "temp");
    const store = new BackupStore(root);
    const plain = await store.create();
    expect(Object.keys(plain.manifest.files).filter((f) => f.startsWith(".larder/"))).toEqual([]);
    const withSecrets = await store.create({ secrets: true });
    const secret = Object.keys(withSecrets.manifest.files).filter((f) => f.startsWith(".larder/"));
    expect(secret).toContain(".larder/secrets.json");
    expect(secret.every((f) => !/sessions|lock|cache|tmp/.test(f))).toBe(true);
  });

  it("ends every session", async () => {
    const store = new BackupStore(root);
    const { name } = await store.create();
    await writeFile(
      join(root, ".larder", "sessions.json"),
      JSON.stringify({ sessions: { a: { userId: "u", createdAt: "x", exp: 9e9 } } }),
    );
    await store.restore(name);
    expect(JSON.parse(await readFile(join(root, ".larder", "sessions.json"), "utf8"))).toEqual({
      sessions: {},
    });
  });
});

describe("a damaged or foreign backup is refused and the live data is untouched", () => {
  async function refused(zip: Buffer, message: RegExp): Promise<void> {
    const store = new BackupStore(root);
    const before = await tree(root);
    const name = "larder_2026.01.01.00.00.00.zip";
    await writeFile(join(store.dir, name), zip);
    await expect(store.restore(name)).rejects.toThrow(message);
    expect(await tree(root)).toEqual(before);
    expect(existsSync(restorePaths(root).dir)).toBe(false);
  }

  it("a truncated zip", async () => {
    const store = new BackupStore(root);
    const { name } = await store.create();
    const data = await readFile(join(store.dir, name));
    await refused(data.subarray(0, Math.floor(data.length / 2)), /not a readable zip|damaged/);
  });

  it("a file whose bytes changed (checksum mismatch)", async () => {
    const files = [{ name: "larder.json", data: Buffer.from("{}\n") }];
    const manifest = manifestFor(files);
    await refused(
      manifestZip(manifest, [{ name: "larder.json", data: Buffer.from('{"x":1}') }]),
      /Checksum mismatch for larder\.json/,
    );
  });

  it("a file the manifest lists that is missing", async () => {
    const files = [{ name: "larder.json", data: Buffer.from("{}\n") }];
    await refused(manifestZip(manifestFor(files), []), /incomplete: larder\.json is missing/);
  });

  it("a newer format version, naming the version it needs", async () => {
    const files = [{ name: "larder.json", data: Buffer.from("{}\n") }];
    await refused(
      manifestZip(
        manifestFor(files, { formatVersion: BACKUP_FORMAT_VERSION + 1, larderVersion: "9.0.0" }),
        files,
      ),
      new RegExp(
        `format version ${BACKUP_FORMAT_VERSION + 1}.*Larder 9\\.0\\.0.*reads format version ${BACKUP_FORMAT_VERSION}`,
      ),
    );
  });

  it("a document that is not JSON, though its checksum matches (nothing is swapped in)", async () => {
    const files = [
      { name: "larder.json", data: Buffer.from("{}\n") },
      { name: "users.json", data: Buffer.from("{ this is not json") },
    ];
    await refused(
      manifestZip(manifestFor(files), files),
      /cannot be restored: users\.json is not valid JSON/,
    );
  });

  it("a backup with no users, or no administrator, which would open the site to its first visitor", async () => {
    const site = { name: "larder.json", data: Buffer.from("{}\n") };
    await refused(manifestZip(manifestFor([site]), [site]), /holds no users\.json/);
    const user = { id: "u1", username: "bob", email: "bob@example.com", groupId: "g", householdId: "h" };
    const users = { name: "users.json", data: Buffer.from(JSON.stringify({ users: [user] })) };
    await refused(manifestZip(manifestFor([site, users]), [site, users]), /holds no administrator/);
  });

  it("a zip-slip entry", async () => {
    const files = [{ name: "../evil.txt", data: Buffer.from("x") }];
    await refused(manifestZip(manifestFor(files), files), /invalid relative path|leaves the archive/);
    expect(existsSync(join(base, "evil.txt"))).toBe(false);
  });

  it("an absolute path", async () => {
    const files = [{ name: "/etc/evil", data: Buffer.from("x") }];
    await refused(manifestZip(manifestFor(files), files), /absolute path/);
  });

  it("a symlink entry", async () => {
    const files = [{ name: "groups/link", data: Buffer.from("/etc/passwd"), mode: 0o120777 }];
    await refused(manifestZip(manifestFor(files), files), /symbolic link/);
  });

  it("a per-machine file or .git inside the backup", async () => {
    const sessions = [{ name: ".larder/sessions.json", data: Buffer.from("{}") }];
    await refused(manifestZip(manifestFor(sessions), sessions), /per-machine file/);
    const git = [{ name: ".git/config", data: Buffer.from("[core]") }];
    await refused(manifestZip(manifestFor(git), git), /inside \.git/);
  });

  it("a file that is in the zip twice", async () => {
    const files = [{ name: "larder.json", data: Buffer.from("{}\n") }];
    await refused(manifestZip(manifestFor(files), [...files, ...files]), /larder\.json twice/);
  });

  it("a file where another file needs a folder", async () => {
    const files = [
      { name: "groups/home", data: Buffer.from("x") },
      { name: "groups/home/group.json", data: Buffer.from("{}") },
    ];
    await refused(manifestZip(manifestFor(files), files), /cannot be laid out as folders/);
  });

  it("a file named after a property every object has, which the manifest does not list", async () => {
    const files = [{ name: "larder.json", data: Buffer.from("{}\n") }];
    await refused(
      manifestZip(manifestFor(files), [...files, { name: "constructor", data: Buffer.from("x") }]),
      /manifest does not list: constructor/,
    );
  });

  it("a backup larger than the disk's free space, before a file is unpacked (507)", async () => {
    const files = [{ name: "larder.json", data: Buffer.from("{}\n") }];
    const manifest = manifestFor(files);
    // The manifest claims a petabyte: the free-space check reads the manifest alone.
    manifest.files["groups/home/huge.bin"] = { size: 2 ** 50, sha256: "0".repeat(64) };
    const store = new BackupStore(root);
    const name = "larder_2026.01.01.00.00.01.zip";
    await writeFile(join(store.dir, name), manifestZip(manifest, files));
    await expect(store.verifyForRestore(name)).rejects.toThrow(/incomplete/);
    await expect(store.restore(name)).rejects.toMatchObject({
      status: 507,
      message: expect.stringMatching(/^Not enough free space to restore/),
    });
    expect(existsSync(restorePaths(root).dir)).toBe(false);
  });

  it("a zip with no manifest", async () => {
    await refused(rawZip([{ name: "larder.json", data: Buffer.from("{}") }]), /Not a Larder backup/);
  });
});

describe("an uploaded backup", () => {
  it("is kept under a fresh name without copying its bytes, and outlives the upload's temp file", async () => {
    const store = new BackupStore(root);
    const { name: made } = await store.create();
    const upload = join(base, "upload.zip");
    await writeFile(upload, await readFile(join(store.dir, made)));
    const adopted = await store.adopt(upload);
    if (adopted.kind !== "larder") throw new Error("not adopted as a Larder backup");
    // One file system here: the same bytes under a second name.
    expect((await lstat(join(store.dir, adopted.name))).ino).toBe((await lstat(upload)).ino);
    await rm(upload);
    await expect(store.verify(adopted.name)).resolves.toMatchObject({ format: "larder-backup" });
  });

  it("is copied, not linked, when the upload is a symbolic link", async () => {
    const store = new BackupStore(root);
    const { name: made } = await store.create();
    const upload = join(base, "upload-link.zip");
    await symlink(join(store.dir, made), upload);
    const adopted = await store.adopt(upload);
    if (adopted.kind !== "larder") throw new Error("not adopted as a Larder backup");
    expect((await lstat(join(store.dir, adopted.name))).isFile()).toBe(true);
  });
});

describe("a backup killed while it was written", () => {
  it("leaves a partial file that the next open to write removes; a read-only open leaves it", async () => {
    const store = new BackupStore(root);
    await mkdir(store.dir, { recursive: true });
    const partials = [
      "larder_2026.01.01.00.00.00.zip.partial",
      "larder_2026.01.01.00.00.00.zip.0a1b2c3d.partial",
    ];
    for (const name of partials) await writeFile(join(store.dir, name), randomBytes(1000));
    // Not ours to remove: a name Larder never makes, and a finished backup.
    await writeFile(join(store.dir, "notes.partial"), "mine");
    await writeFile(join(store.dir, "larder_2026.01.01.00.00.01.zip"), "zip");
    const open = (readOnly: boolean) =>
      Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir: root, bcryptRounds: 4 }), {
        log: consoleLogger("silent"),
        readOnly,
      });
    await (await open(true)).close();
    expect((await readdir(store.dir)).sort()).toEqual(
      ["larder_2026.01.01.00.00.01.zip", "notes.partial", ...partials].sort(),
    );
    await (await open(false)).close();
    expect((await readdir(store.dir)).sort()).toEqual(["larder_2026.01.01.00.00.01.zip", "notes.partial"]);
  });
});

describe("backup names", () => {
  it("only names Larder makes are accepted", async () => {
    const store = new BackupStore(root);
    for (const bad of [
      "../larder.json",
      "/etc/passwd",
      "larder_2026.01.01.00.00.00.zip\0",
      "x.zip",
      "..%2Flarder.json",
      "larder_2026.01.01.00.00.00.zip/../../x",
    ]) {
      await expect(store.restore(bad)).rejects.toMatchObject({ status: 400 });
      await expect(store.remove(bad)).rejects.toMatchObject({ status: 400 });
    }
    await expect(store.remove("larder_2026.01.01.00.00.00.zip")).rejects.toMatchObject({ status: 404 });
  });

  it("two backups in the same second get distinct names", async () => {
    const store = new BackupStore(root);
    const a = await store.create();
    const b = await store.create();
    expect(a.name).not.toBe(b.name);
    expect((await store.list()).map((x) => x.name).sort()).toEqual([a.name, b.name].sort());
  });
});

describe("a full disk during a backup", () => {
  it("removes the partial file and reports the error", async () => {
    const store = new BackupStore(root);
    let written = 0;
    const full = (path: string) =>
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          written += chunk.length;
          // Like a real stream: something reaches the disk, then the space runs out.
          void writeFile(path, chunk, { flag: "a" }).then(() =>
            written > 64
              ? cb(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }))
              : cb(),
          );
        },
      });
    await expect(store.create({ openStream: full })).rejects.toMatchObject({ code: "ENOSPC" });
    expect(await readdir(store.dir)).toEqual([]);
  });
});

describe("a backup of large files", () => {
  it("stops reading while the archive is 32 MB behind, and still writes every file", async () => {
    const media = join(root, "groups", "home", "recipes", "soup");
    // Incompressible: the archive's output is as large as what it takes in.
    const big = randomBytes(12 * 1024 * 1024);
    for (let i = 0; i < 4; i++) await writeFile(join(media, `big-${i}.bin`), big);
    // A disk that takes nothing until released: the archive falls behind the reading.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = (path: string) => {
      const file = createWriteStream(path);
      return new Writable({
        write(chunk: Buffer, _enc, cb) {
          void released.then(() => file.write(chunk, cb));
        },
        final(cb) {
          file.end(cb);
        },
      });
    };
    let done = 0;
    let total = 0;
    let readThree!: () => void;
    const threeRead = new Promise<void>((resolve) => (readThree = resolve));
    const target = join(base, "big.zip");
    // Reading stops after the third large file (36 MB not yet written).
    const stallAt =
      (await collectFiles(root, { secrets: false })).indexOf("groups/home/recipes/soup/big-2.bin") + 1;
    const writing = writeBackup(root, target, {
      secrets: false,
      openStream: held,
      onProgress: (d, t) => {
        done = d;
        total = t;
        if (d === stallAt) readThree();
      },
    });
    await threeRead;
    for (let k = 0; k < 50; k++) await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(stallAt);
    expect(total).toBeGreaterThan(stallAt);
    release();
    await writing;
    expect(done).toBe(total);
    const out = join(base, "unpacked");
    await extractBackup(target, (name) => ({ path: join(out, name), mode: 0o644 }));
    // Compared as buffers: a deep equality of 12 MB element by element takes minutes.
    for (let i = 0; i < 4; i++)
      expect((await readFile(join(out, `groups/home/recipes/soup/big-${i}.bin`))).equals(big)).toBe(true);
  });
});

describe("a crash during a restore", () => {
  for (const step of ["unpacked", "staged", "moved-out"] as const) {
    it(`after "${step}": the next open rolls back to the old data`, async () => {
      const store = new BackupStore(root);
      const { name } = await store.create();
      await writeFile(join(root, "groups", "home", "recipes", "soup.md"), "---\nname: Changed soup\n---\n");
      const before = await tree(root);
      await expect(
        store.restore(name, (p) => {
          if (p === step) throw new Error("crash");
        }),
      ).rejects.toThrow("crash");
      expect(await recoverRestore(root)).toBe("rolled-back");
      expect(await tree(root)).toEqual(before);
      expect(existsSync(restorePaths(root).dir)).toBe(false);
    });
  }

  for (const step of ["moving-in", "done"] as const) {
    it(`after "${step}": the next open completes the restore`, async () => {
      const store = new BackupStore(root);
      const backedUp = await tree(root);
      const { name } = await store.create();
      await writeFile(join(root, "groups", "home", "recipes", "soup.md"), "---\nname: Changed soup\n---\n");
      await expect(
        store.restore(name, (p) => {
          if (p === step) throw new Error("crash");
        }),
      ).rejects.toThrow("crash");
      expect(await recoverRestore(root)).toBe("completed");
      expect(await tree(root)).toEqual(backedUp);
    });
  }

  it("a marker left halfway through moving in is completed when Larder opens the folder", async () => {
    const store = new BackupStore(root);
    const backedUp = await tree(root);
    const { name } = await store.create();
    await rm(join(root, "groups", "home", "recipes", "soup.md"));
    await expect(
      store.restore(name, (p) => {
        if (p === "moving-in") throw new Error("killed");
      }),
    ).rejects.toThrow();
    // Half of the staged entries moved in before the "kill".
    const p = restorePaths(root);
    const staged = await readdir(p.staging);
    await import("node:fs/promises").then(({ rename }) =>
      rename(join(p.staging, staged[0]), join(root, staged[0])),
    );
    const larder = await Larder.open(
      loadConfig({} as NodeJS.ProcessEnv, { dataDir: root, bcryptRounds: 4 }),
      { log: consoleLogger("silent") },
    );
    await larder.close();
    const after = await tree(root);
    const differing = Object.keys({ ...after, ...backedUp }).filter((k) => after[k] !== backedUp[k]);
    expect(differing).toEqual([]);
    expect((await lstat(join(root, "groups", "home", "recipes", "soup.md"))).isFile()).toBe(true);
  });
});

describe("reading a backup", () => {
  it("the manifest checks every file", async () => {
    const store = new BackupStore(root);
    const { name } = await store.create();
    const manifest = await verifyBackup(join(store.dir, name));
    expect(Object.keys(manifest.files)).toHaveLength(manifest.counts.files);
  });
});

describe("the nightly backup", () => {
  it("runs once a day after its time and keeps the newest LARDER_BACKUP_KEEP", async () => {
    // A backup is dated by the clock, and "already done today" compares that date with the day's
    // time: on the real clock the test failed whenever it ran before 02:30. Only Date is faked.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 5, 15, 12, 0, 0));
    const larder = await Larder.open(
      loadConfig(
        { LARDER_BACKUP_SCHEDULE: "02:30", LARDER_BACKUP_KEEP: "2" } as unknown as NodeJS.ProcessEnv,
        { dataDir: root, bcryptRounds: 4 },
      ),
      { log: consoleLogger("silent") },
    );
    try {
      const store = larder.backups.store;
      // Two older backups, dated yesterday.
      const yesterday = new Date(Date.now() - 86_400_000);
      for (let i = 0; i < 2; i++) {
        const { name } = await store.create();
        await import("node:fs/promises").then(({ utimes }) =>
          utimes(join(store.dir, name), yesterday, yesterday),
        );
      }
      const early = new Date();
      early.setHours(2, 0, 0, 0);
      // Before today's time: nothing yet.
      expect(await larder.backups.runScheduled(early)).toBeNull();
      const late = new Date();
      late.setHours(23, 59, 0, 0);
      const made = await larder.backups.runScheduled(late);
      expect(made).toMatch(/^larder_/);
      const names = (await store.list()).map((b) => b.name);
      expect(names).toHaveLength(2);
      expect(names[0]).toBe(made);
      // Already done today.
      expect(await larder.backups.runScheduled(late)).toBeNull();
    } finally {
      await larder.close();
      vi.useRealTimers();
    }
  });

  it("is off without LARDER_BACKUP_SCHEDULE", async () => {
    const larder = await Larder.open(
      loadConfig({} as NodeJS.ProcessEnv, { dataDir: root, bcryptRounds: 4 }),
      { log: consoleLogger("silent") },
    );
    try {
      expect(await larder.backups.runScheduled(new Date())).toBeNull();
      expect(await larder.backups.store.list()).toEqual([]);
    } finally {
      await larder.close();
    }
  });
});
