import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, writeFile } from "node:fs/promises";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { otherGroup } from "../support/members.js";

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
});

const actorOf = async (tok: string) => (await t.larder.auth.authenticateToken(tok))!;

describe("group reports", () => {
  it("a feature writes a report entry by entry; the API reads it in the contract's shapes", async () => {
    const writer = await t.larder.reports.start(await actorOf(token), {
      name: "Paprika import",
      category: "migration",
    });
    // On disk and listed as in progress before it is finished.
    const early = (await (await t.api("/api/groups/reports", { token })).json()) as Array<{
      id: string;
      status: string;
    }>;
    expect(early.find((r) => r.id === writer.id)?.status).toBe("in-progress");
    writer.add({ success: true, message: "Imported Soup" });
    writer.add({ success: false, message: "Could not import Stew", exception: "no ingredients" });
    const done = await writer.finish();
    expect(done.status).toBe("partial");

    const list = (await (
      await t.api("/api/groups/reports?report_type=migration", { token })
    ).json()) as unknown[];
    for (const r of list) if (hasContract) assertContract("ReportSummary", r);
    expect(list).toContainEqual(
      expect.objectContaining({
        id: writer.id,
        name: "Paprika import",
        category: "migration",
        status: "partial",
      }),
    );
    const res = await t.api(`/api/groups/reports/${writer.id}`, { token });
    expect(res.status).toBe(200);
    const report = (await res.json()) as {
      entries: Array<{ reportId: string; success: boolean; message: string; exception: string }>;
    };
    if (hasContract) assertContract("ReportOut", report);
    expect(report.entries.map((e) => [e.success, e.message, e.exception])).toEqual([
      [true, "Imported Soup", ""],
      [false, "Could not import Stew", "no ingredients"],
    ]);
    expect(report.entries.every((e) => e.reportId === writer.id)).toBe(true);
  });

  it("derives the final status from the entries unless one is given", async () => {
    const actor = await actorOf(token);
    const statuses: string[] = [];
    for (const entries of [[true, true], [false], []] as boolean[][]) {
      const w = await t.larder.reports.start(actor, { name: "bulk", category: "bulk_import" });
      for (const ok of entries) w.add({ success: ok, message: ok ? "ok" : "failed" });
      statuses.push((await w.finish()).status);
    }
    const forced = await t.larder.reports.start(actor, { name: "backup", category: "backup" });
    statuses.push((await forced.finish("failure")).status);
    expect(statuses).toEqual(["success", "failure", "success", "failure"]);
  });

  it("keeps every entry of a long report, written in batches while the feature goes on", async () => {
    const w = await t.larder.reports.start(await actorOf(token), {
      name: "big migration",
      category: "migration",
    });
    for (let i = 0; i < 5000; i++) {
      w.add({ success: i % 10 !== 0, message: `recipe ${i}` });
      if (i % 1000 === 0) await new Promise((r) => setImmediate(r));
    }
    expect((await w.finish()).status).toBe("partial");
    const report = (await (await t.api(`/api/groups/reports/${w.id}`, { token })).json()) as {
      entries: Array<{ message: string }>;
    };
    expect(report.entries).toHaveLength(5000);
    expect(report.entries[4999].message).toBe("recipe 4999");
  });

  it("filters by report_type and refuses an unknown one (422)", async () => {
    const actor = await actorOf(token);
    await (await t.larder.reports.start(actor, { name: "restore", category: "restore" })).finish();
    const restores = (await (
      await t.api("/api/groups/reports?report_type=restore", { token })
    ).json()) as Array<{ category: string }>;
    expect(restores.length).toBeGreaterThan(0);
    expect(restores.every((r) => r.category === "restore")).toBe(true);
    const bad = await t.api("/api/groups/reports?report_type=holiday", { token });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: Array<{ loc: string[] }> }).detail[0].loc).toEqual([
      "query",
      "report_type",
    ]);
  });

  it("deletes a report; a missing id is 404, a malformed one 422 (decision 0062)", async () => {
    const w = await t.larder.reports.start(await actorOf(token), {
      name: "to delete",
      category: "migration",
    });
    await w.finish();
    const del = await t.api(`/api/groups/reports/${w.id}`, { method: "DELETE", token });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ message: "Report deleted.", error: false });
    expect((await t.api(`/api/groups/reports/${w.id}`, { token })).status).toBe(404);
    expect((await t.api(`/api/groups/reports/${w.id}`, { method: "DELETE", token })).status).toBe(404);
    // Not a UUID, so it never reaches the store: refused like every malformed contract id.
    expect((await t.api("/api/groups/reports/..%2F..%2Fusers", { token })).status).toBe(422);
  });

  it("keeps other groups out, and stores one canonical file per report in the group folder", async () => {
    const w = await t.larder.reports.start(await actorOf(token), { name: "ours", category: "migration" });
    w.add({ success: true, message: "one" });
    await w.finish();
    const stranger = await otherGroup(t, "Report Strangers");
    expect((await t.api(`/api/groups/reports/${w.id}`, { token: stranger.token })).status).toBe(404);
    expect(
      (await t.api(`/api/groups/reports/${w.id}`, { method: "DELETE", token: stranger.token })).status,
    ).toBe(404);
    const theirs = (await (
      await t.api("/api/groups/reports", { token: stranger.token })
    ).json()) as unknown[];
    expect(theirs).toEqual([]);
    const file = t.larder.folder.reportFile("home", w.id);
    const text = await readFile(file, "utf8");
    expect(JSON.parse(text)).toMatchObject({ id: w.id, name: "ours", status: "success" });
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("a hand-broken report file is skipped in lists, answers 404 alone and is left untouched", async () => {
    const w = await t.larder.reports.start(await actorOf(token), {
      name: "broken later",
      category: "migration",
    });
    await w.finish();
    const file = t.larder.folder.reportFile("home", w.id);
    await writeFile(file, "{ not json");
    const list = (await (await t.api("/api/groups/reports", { token })).json()) as Array<{ id: string }>;
    expect(list.some((r) => r.id === w.id)).toBe(false);
    expect((await t.api(`/api/groups/reports/${w.id}`, { token })).status).toBe(404);
    expect(await readFile(file, "utf8")).toBe("{ not json");
  });
});
