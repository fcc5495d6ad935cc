/**
 * /api/admin/backups end to end: the contract's shapes (AllBackups, SuccessResponse, FileTokenResponse),
 * the download through a file token, names Larder did not make refused, uploads (a Larder backup kept,
 * a damaged one refused, a Mealie backup handed to the migration), and a restore that brings the old
 * data back in the running server and ends every session.
 */
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { body, makeUser, type Person } from "../support/people.js";
import { makeZip } from "../support/zip-writer.js";
import { unopenableBackup } from "../support/unopenable-backup.js";

let t: TestServer;
let admin: string;
let plain: Person;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  plain = await makeUser(t, {});
});
afterAll(async () => t?.close());

type AllBackups = { imports: Array<{ name: string; date: string; size: string }>; templates: string[] };
const list = async () => body<AllBackups>(await t.api("/api/admin/backups", { token: admin }));
const upload = (data: Buffer, name = "backup.zip") => {
  const f = new FormData();
  f.set("archive", new Blob([new Uint8Array(data)]), name);
  return t.api("/api/admin/backups/upload", { method: "POST", token: admin, body: f });
};

describe("/api/admin/backups", () => {
  it("creates, lists, hands out a download token and deletes, in the contract's shapes", async () => {
    const created = await t.api("/api/admin/backups", { method: "POST", token: admin });
    expect(created.status).toBe(201);
    const res = await body(created);
    if (hasContract) assertContract("SuccessResponse", res);
    const all = await list();
    if (hasContract) assertContract("AllBackups", all);
    expect(all.templates).toEqual([]);
    const [b] = all.imports;
    expect(b.name).toMatch(/^larder_[\d.]+\.zip$/);
    const tok = await body<{ fileToken: string }>(
      await t.api(`/api/admin/backups/${b.name}`, { token: admin }),
    );
    if (hasContract) assertContract("FileTokenResponse", tok);
    const dl = await t.api(`/api/utils/download?token=${encodeURIComponent(tok.fileToken)}`);
    expect(dl.status).toBe(200);
    expect(
      Buffer.from(await dl.arrayBuffer()).equals(
        await readFile(join(t.dataDir, ".larder", "backups", b.name)),
      ),
    ).toBe(true);
    const del = await body(await t.api(`/api/admin/backups/${b.name}`, { method: "DELETE", token: admin }));
    if (hasContract) assertContract("SuccessResponse", del);
    expect((await list()).imports.map((x) => x.name)).not.toContain(b.name);
  });

  it("is for admins only", async () => {
    expect((await t.api("/api/admin/backups", { token: plain.token })).status).toBe(403);
    expect((await t.api("/api/admin/backups", { method: "POST", token: plain.token })).status).toBe(403);
  });

  it("refuses names Larder did not make: 400 for a bad name, 404 for one that is not there", async () => {
    for (const bad of [
      "..%2Flarder.json",
      "%2Fetc%2Fpasswd",
      "larder.json",
      "x%00.zip",
      "..%2F..%2Fusers.json",
    ]) {
      const r1 = await t.api(`/api/admin/backups/${bad}`, { token: admin });
      const r2 = await t.api(`/api/admin/backups/${bad}`, { method: "DELETE", token: admin });
      const r3 = await t.api(`/api/admin/backups/${bad}/restore`, { method: "POST", token: admin });
      for (const r of [r1, r2, r3]) expect([400, 404]).toContain(r.status);
    }
    expect((await t.api("/api/admin/backups/larder_2020.01.01.00.00.00.zip", { token: admin })).status).toBe(
      404,
    );
    expect((await t.api("/api/admin/backups/..%2Flarder.json", { token: admin })).status).toBe(400);
  });

  it("keeps an uploaded Larder backup under a name of its own, refuses a damaged one", async () => {
    await t.api("/api/admin/backups", { method: "POST", token: admin });
    const name = (await list()).imports[0].name;
    const data = await readFile(join(t.dataDir, ".larder", "backups", name));
    const before = (await list()).imports.length;
    const ok = await upload(data, "../../evil.zip");
    expect(ok.status).toBe(200);
    if (hasContract) assertContract("SuccessResponse", await body(ok));
    const names = (await list()).imports.map((x) => x.name);
    expect(names.length).toBe(before + 1);
    expect(names.every((n) => /^larder_[\d._]+\.zip$/.test(n))).toBe(true);
    const truncated = await upload(data.subarray(0, data.length - 200));
    expect(truncated.status).toBe(400);
    expect(JSON.stringify(await truncated.json())).toMatch(/damaged|not a readable zip|Refused/);
    expect((await list()).imports.length).toBe(before + 1);
    // Nothing of the uploads is left in the temp area.
    expect((await readdir(join(t.dataDir, ".larder", "tmp"))).filter((n) => n.startsWith("upload-"))).toEqual(
      [],
    );
  });

  it("hands a Mealie backup (database.json + data/) to the Mealie-backup migration, not to restore", async () => {
    const mealie = makeZip([
      {
        name: "database.json",
        data: JSON.stringify({ alembic_version: [{ version_num: "x" }], recipes: [] }),
      },
      { name: "data/readme.txt", data: "x" },
    ]);
    const res = await upload(mealie, "mealie_2026.01.01.zip");
    // The migration read it (and refused this made-up database, naming the tables it lacks).
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(
      /database\.json has no 'groups' or 'users' table \(schema revision 'x'\): it is not a backup of Mealie v1 or later/,
    );
    expect((await list()).imports.every((b) => b.name.startsWith("larder_"))).toBe(true);
  });

  it("restores a backup in the running server and ends every session", async () => {
    const a = await body<string>(
      await t.api("/api/recipes", { method: "POST", token: admin, json: { name: "Before Backup" } }),
    );
    await t.api("/api/admin/backups", { method: "POST", token: admin });
    const name = (await list()).imports[0].name;
    const b = await body<string>(
      await t.api("/api/recipes", { method: "POST", token: admin, json: { name: "After Backup" } }),
    );
    expect((await t.api(`/api/recipes/${b}`, { token: admin })).status).toBe(200);
    const res = await t.api(`/api/admin/backups/${name}/restore`, { method: "POST", token: admin });
    expect(res.status).toBe(200);
    if (hasContract) assertContract("SuccessResponse", await body(res));
    // Sessions ended: the admin's token no longer works; a new sign-in does.
    expect((await t.api("/api/users/self", { token: admin })).status).toBe(401);
    admin = await t.login();
    expect((await t.api(`/api/recipes/${a}`, { token: admin })).status).toBe(200);
    expect((await t.api(`/api/recipes/${b}`, { token: admin })).status).toBe(404);
    expect(await readdir(join(t.dataDir, "groups", "home", "recipes"))).not.toContain(`${b}.md`);
  });

  it("backs up the data a restore replaces first, under a name that says so, and restoring it undoes the restore", async () => {
    await t.api("/api/admin/backups", { method: "POST", token: admin });
    const name = (await list()).imports[0].name;
    const later = await body<string>(
      await t.api("/api/recipes", { method: "POST", token: admin, json: { name: "Made After The Backup" } }),
    );
    const res = await body<{ message: string; before: string }>(
      await t.api(`/api/admin/backups/${name}/restore`, { method: "POST", token: admin }),
    );
    expect(res.before).toMatch(/^larder_before-restore_\d{4}(\.\d{2}){5}(_\d+)?\.zip$/);
    expect(res.message).toContain(res.before);
    admin = await t.login();
    expect((await list()).imports.map((b) => b.name)).toContain(res.before);
    expect((await t.api(`/api/recipes/${later}`, { token: admin })).status).toBe(404);
    const undo = await t.api(`/api/admin/backups/${res.before}/restore`, { method: "POST", token: admin });
    expect(undo.status).toBe(200);
    admin = await t.login();
    expect((await t.api(`/api/recipes/${later}`, { token: admin })).status).toBe(200);
  });

  it("puts the data from before back when a restored backup passes its checks but will not open, and says why", async () => {
    const { writeFile } = await import("node:fs/promises");
    const bad = "larder_2002.02.02.00.00.00.zip";
    await writeFile(join(t.dataDir, ".larder", "backups", bad), await unopenableBackup(t.dataDir));
    const slug = await body<string>(
      await t.api("/api/recipes", { method: "POST", token: admin, json: { name: "Survives A Bad Restore" } }),
    );
    const before = new Set((await list()).imports.map((b) => b.name));
    const res = await t.api(`/api/admin/backups/${bad}/restore`, { method: "POST", token: admin });
    expect(res.status).toBe(400);
    const detail = ((await res.json()) as { detail: { message: string; error: boolean } }).detail;
    expect(detail.error).toBe(true);
    expect(detail.message).toMatch(
      /cannot be restored: its data could not be opened \(groups\/home\/activity is not a folder of the data folder/,
    );
    expect(detail.message).toMatch(
      /The data from before the restore is back \(also kept as larder_before-restore_/,
    );
    // The site serves the data it had, with its people, after signing in again.
    admin = await t.login();
    expect((await t.api(`/api/recipes/${slug}`, { token: admin })).status).toBe(200);
    expect((await t.api("/api/app/about")).status).toBe(200);
    const added = (await list()).imports.map((b) => b.name).filter((n) => !before.has(n));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^larder_before-restore_/);
  });

  it("unpacks and checks a backup while the site still serves reads; writes wait, as the swap would lose them", async () => {
    await t.api("/api/admin/backups", { method: "POST", token: admin });
    const name = (await list()).imports[0].name;
    const seen: Array<[string, number]> = [];
    const writes: number[] = [];
    t.larder.backups.restoreHook = async (phase) => {
      seen.push([phase, (await t.api("/api/app/about")).status]);
      if (phase === "unpacked")
        writes.push(
          (await t.api("/api/recipes", { method: "POST", token: admin, json: { name: "Lost Soup" } })).status,
        );
    };
    try {
      const res = await t.api(`/api/admin/backups/${name}/restore`, { method: "POST", token: admin });
      expect(res.status).toBe(200);
    } finally {
      t.larder.backups.restoreHook = undefined;
    }
    expect(seen).toEqual([
      ["unpacked", 200],
      ["staged", 503],
      ["moved-out", 503],
      ["moving-in", 503],
      ["done", 503],
    ]);
    expect(writes).toEqual([503]);
    admin = await t.login();
  });

  it("refuses a damaged backup to restore and leaves the live data as it was", async () => {
    const { writeFile } = await import("node:fs/promises");
    const bad = "larder_2001.01.01.00.00.00.zip";
    await writeFile(
      join(t.dataDir, ".larder", "backups", bad),
      makeZip([{ name: "larder-backup.json", data: "{" }]),
    );
    const slug = await body<string>(
      await t.api("/api/recipes", { method: "POST", token: admin, json: { name: "Still Here" } }),
    );
    const res = await t.api(`/api/admin/backups/${bad}/restore`, { method: "POST", token: admin });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/not valid JSON/);
    expect((await t.api(`/api/recipes/${slug}`, { token: admin })).status).toBe(200);
  });

  it("answers 503 with Retry-After while a restore swaps the folder, then serves again", async () => {
    let release!: () => void;
    let swapping!: () => void;
    const inSwap = new Promise<void>((r) => (swapping = r));
    const reloaded = t.larder.reload(async () => {
      swapping();
      await new Promise<void>((r) => (release = r));
    });
    await inSwap;
    const during = await t.api("/api/app/about");
    expect(during.status).toBe(503);
    expect(during.headers.get("retry-after")).toBe("5");
    expect(JSON.stringify(await during.json())).toMatch(/restoring a backup/);
    release();
    await reloaded;
    expect((await t.api("/api/app/about")).status).toBe(200);
  });
});
