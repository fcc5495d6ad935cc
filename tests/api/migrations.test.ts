/**
 * POST /api/groups/migrations over HTTP: the multipart form Mealie's UI sends, the ReportSummary of the
 * contract, the recipes it made, and the uploads refused: the wrong type, an unknown type, a body past
 * the cap (refused while it streams, its partial file removed); a zip-slip entry skipped and reported.
 */
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { request } from "node:http";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { makeZip } from "../support/zip-writer.js";
import { addMember } from "../support/members.js";
import { BACKUPS_DIR, fixturesPresent, MIGRATIONS_DIR } from "../../plugins/migrations/test-support.js";

let t: TestServer;
let token: string;
const CAP = 2 * 1024 * 1024;

beforeAll(async () => {
  t = await startTestServer({ maxMigrationBytes: CAP });
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
});

function form(type: string | null, archive: Buffer | null, name = "archive.zip", tag = false): FormData {
  const f = new FormData();
  if (type !== null) f.set("migration_type", type);
  f.set("add_migration_tag", String(tag));
  if (archive) f.set("archive", new Blob([new Uint8Array(archive)]), name);
  return f;
}
const post = (body: FormData) => t.api("/api/groups/migrations", { method: "POST", token, body });
const tmpFiles = async () =>
  (await readdir(join(t.dataDir, ".larder", "tmp")).catch(() => [])).filter((n) => n.startsWith("upload-"));

describe("POST /api/groups/migrations", () => {
  it.skipIf(!fixturesPresent)(
    "answers the report summary; every entry a success; the recipes answer by slug",
    async () => {
      const res = await post(
        form("nextcloud", await readFile(`${MIGRATIONS_DIR}nextcloud.zip`), "nextcloud.zip", true),
      );
      expect(res.status).toBe(200);
      const summary = (await res.json()) as { id: string; name: string; category: string; status: string };
      if (hasContract) assertContract("ReportSummary", summary);
      expect(summary).toMatchObject({
        name: "Nextcloud Migration",
        category: "migration",
        status: "success",
      });
      const report = (await (await t.api(`/api/groups/reports/${summary.id}`, { token })).json()) as {
        entries: Array<{ success: boolean; message: string }>;
      };
      if (hasContract) assertContract("ReportOut", report);
      expect(report.entries.map((e) => e.message).sort()).toEqual([
        "Imported Air Fryer Shrimp successfully",
        "Imported Chicken Parmigiana successfully",
        "Imported Skillet Shepherd's Pie successfully",
      ]);
      const recipe = (await (await t.api("/api/recipes/skillet-shepherd-s-pie", { token })).json()) as {
        tags: Array<{ name: string }>;
        nutrition: Record<string, string>;
        totalTime: string;
      };
      expect(recipe.tags.map((x) => x.name)).toContain("nextcloud");
      expect(recipe.nutrition.sodiumContent).toBe("1165");
      expect(recipe.totalTime).toBe("1 hour 25 minutes");
      expect(await tmpFiles()).toEqual([]);

      // Again: nothing new, and the report says why.
      const again = (await (
        await post(form("nextcloud", await readFile(`${MIGRATIONS_DIR}nextcloud.zip`)))
      ).json()) as { id: string; status: string };
      expect(again.status).toBe("success");
      const second = (await (await t.api(`/api/groups/reports/${again.id}`, { token })).json()) as {
        entries: Array<{ message: string }>;
      };
      expect(second.entries.every((e) => e.message.startsWith("Skipped "))).toBe(true);
    },
  );

  it.skipIf(!fixturesPresent)("My Recipe Box takes the bare CSV", async () => {
    const res = await post(
      form("myrecipebox", await readFile(`${MIGRATIONS_DIR}myrecipebox.csv`), "myrecipebox.csv"),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("success");
    expect((await t.api("/api/recipes/beef-cheese-piroshki", { token })).status).toBe(200);
  });

  it.skipIf(!fixturesPresent)(
    "a Mealie backup brings one group into the admin's group, and says who must reset a password",
    async () => {
      const res = await post(
        form(
          "mealie_backup",
          await readFile(`${BACKUPS_DIR}backup-version-44e8d670719d-3.zip`),
          "mealie.zip",
        ),
      );
      expect(res.status).toBe(200);
      const summary = (await res.json()) as { id: string; name: string; status: string };
      expect(summary).toMatchObject({ name: "Mealie_Backup Migration", status: "success" });
      const report = (await (await t.api(`/api/groups/reports/${summary.id}`, { token })).json()) as {
        entries: Array<{ message: string }>;
      };
      const messages = report.entries.map((e) => e.message);
      expect(messages.filter((m) => m.startsWith("Imported "))).toHaveLength(69);
      expect(messages.join("\n")).toMatch(
        /Passwords cannot carry over from Mealie: 3 user\(s\) must set a new one/,
      );
      expect(await tmpFiles()).toEqual([]);
    },
  );

  it("a member who is not an admin may migrate recipes but not a Mealie backup (it creates users)", async () => {
    const member = await addMember(t);
    const body = form("mealie_backup", makeZip([{ name: "database.json", data: "{}" }]));
    const res = await t.api("/api/groups/migrations", { method: "POST", token: member.token, body });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: { message: string } }).detail.message).toBe(
      "Only an admin may bring in a Mealie backup: it creates users and group-wide data",
    );
    expect(await tmpFiles()).toEqual([]);
  });

  it("the wrong migration type for an archive: 400 naming what was expected; no report, no temp file", async () => {
    const before = ((await (await t.api("/api/groups/reports", { token })).json()) as unknown[]).length;
    const res = await post(form("paprika", makeZip([{ name: "Soup/recipe.json", data: "{}" }])));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      detail: {
        message:
          "This archive is not a Paprika export: no .paprikarecipe file was found. Check the migration type.",
        error: true,
        exception: null,
      },
    });
    expect(((await (await t.api("/api/groups/reports", { token })).json()) as unknown[]).length).toBe(before);
    expect(await tmpFiles()).toEqual([]);
  });

  it("an unknown migration type and a missing archive are 422s in FastAPI's shape", async () => {
    const res = await post(form("cookbookapp", makeZip([{ name: "a.txt", data: "x" }])));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: Array<{ loc: string[]; type: string }> };
    expect(body.detail[0]).toMatchObject({ loc: ["body", "migration_type"], type: "enum" });
    const missing = await post(form("nextcloud", null));
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: Array<{ loc: string[] }> }).detail[0].loc).toEqual([
      "body",
      "archive",
    ]);
  });

  it("a zip-slip entry is skipped and reported, the rest imports, and nothing is written outside the data folder", async () => {
    const slip = "../../../../tmp/evil/recipe.json";
    const res = await post(
      form(
        "nextcloud",
        makeZip([
          { name: "Fine/recipe.json", data: '{"name":"Fine","recipeIngredient":["1 egg"]}' },
          { name: slip, data: '{"name":"Evil"}' },
        ]),
      ),
    );
    expect(res.status).toBe(200);
    const summary = (await res.json()) as { id: string; status: string };
    expect(summary.status).toBe("success");
    const report = (await (await t.api(`/api/groups/reports/${summary.id}`, { token })).json()) as {
      entries: Array<{ success: boolean; message: string; exception: string }>;
    };
    if (hasContract) assertContract("ReportOut", report);
    expect(
      report.entries.map(({ success, message, exception }) => ({ success, message, exception })),
    ).toEqual([
      { success: true, message: "Imported Fine successfully", exception: "" },
      {
        success: true,
        message: `Skipped entry '${slip}' of the archive`,
        exception: "it has a '..' path segment: it was not read, and nothing was written from it",
      },
    ]);
    expect(existsSync(resolve(t.dataDir, slip))).toBe(false);
    expect((await t.api("/api/recipes/evil", { token })).status).toBe(404);
    expect(await tmpFiles()).toEqual([]);
  });

  it("a 2 GB upload is refused by its declared length before anything is read", async () => {
    const { status } = await rawUpload({ declaredLength: 2 * 1024 * 1024 * 1024, send: 64 * 1024 });
    expect(status).toBe(413);
    expect(await tmpFiles()).toEqual([]);
  });

  it("an upload that grows past the cap while streaming (chunked, no length) is cut off with 413 and its partial file removed", async () => {
    const { status, sent } = await rawUpload({ declaredLength: null, send: 64 * 1024 * 1024 });
    expect(status).toBe(413);
    // Cut off near the cap, far before all of it was sent.
    expect(sent).toBeLessThan(32 * 1024 * 1024);
    expect(await tmpFiles()).toEqual([]);
  });
});

/** A multipart upload written by hand, so the test controls the length header and stops when answered. */
function rawUpload(opts: {
  declaredLength: number | null;
  send: number;
}): Promise<{ status: number; sent: number }> {
  const boundary = "----larder-test-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="migration_type"\r\n\r\nnextcloud\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="archive"; filename="big.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const url = new URL(`${t.url}/api/groups/migrations`);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const headers: Record<string, string | number> = {
      Authorization: `Bearer ${token}`,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    };
    if (opts.declaredLength !== null) headers["Content-Length"] = opts.declaredLength;
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers },
      (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, sent });
        req.destroy();
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    const chunk = Buffer.alloc(256 * 1024, 0x41);
    const pump = () => {
      if (answered) return;
      if (sent === 0) req.write(head);
      while (!answered && sent < opts.send) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}
