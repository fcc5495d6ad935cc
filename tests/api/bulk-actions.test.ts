import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { readZip } from "../../core/exports/test-support.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

async function create(name: string): Promise<string> {
  return (await (await t.api("/api/recipes", { method: "POST", token, json: { name } })).json()) as string;
}
interface R {
  tags: { name: string }[];
  recipeCategory: { name: string }[];
  settings: Record<string, boolean>;
}
async function get(slug: string): Promise<R> {
  return (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as R;
}
const bulk = (action: string, json: unknown, tok = token) =>
  t.api(`/api/recipes/bulk-actions/${action}`, { method: "POST", token: tok, json });

describe("bulk actions", () => {
  it("tag and categorize append organizers to every recipe, once", async () => {
    const slugs = [await create("Bulk One"), await create("Bulk Two")];
    const tag = (await (
      await t.api("/api/organizers/tags", { method: "POST", token, json: { name: "Weeknight" } })
    ).json()) as { id: string; name: string; slug: string };
    expect((await bulk("tag", { recipes: slugs, tags: [tag, { name: "Brand New" }] })).status).toBe(200);
    expect((await bulk("tag", { recipes: slugs, tags: [tag] })).status).toBe(200);
    expect((await bulk("categorize", { recipes: slugs, categories: [{ name: "Dinner" }] })).status).toBe(200);
    for (const slug of slugs) {
      const r = await get(slug);
      expect(r.tags.map((x) => x.name)).toEqual(["Weeknight", "Brand New"]);
      expect(r.recipeCategory.map((x) => x.name)).toEqual(["Dinner"]);
    }
    expect((await bulk("tag", { recipes: slugs })).status).toBe(422);
  });

  it("settings replaces the settings but keeps locked", async () => {
    const slug = await create("Bulk Locked");
    await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { settings: { locked: true } } });
    expect(
      (
        await bulk("settings", {
          recipes: [slug],
          settings: { public: true, showNutrition: true, locked: false },
        })
      ).status,
    ).toBe(200);
    const s = (await get(slug)).settings;
    expect(s.public).toBe(true);
    expect(s.showNutrition).toBe(true);
    expect(s.locked).toBe(true);
  });

  it("delete removes the recipes and swallows unknown slugs", async () => {
    const slugs = [await create("Bulk Doomed A"), await create("Bulk Doomed B")];
    expect((await bulk("delete", { recipes: [...slugs, "no-such-recipe"] })).status).toBe(200);
    for (const slug of slugs) expect((await t.api(`/api/recipes/${slug}`, { token })).status).toBe(404);
  });

  it("export → 202, listed, download token by path or id, downloadable zip, purge", async () => {
    const slugs = [await create("Exported A"), await create("Exported B")];
    expect((await bulk("export", { recipes: slugs, exportType: "json" })).status).toBe(202);
    const list = (await (await t.api("/api/recipes/bulk-actions/export", { token })).json()) as {
      id: string;
      path: string;
      filename: string;
      name: string;
    }[];
    expect(list).toHaveLength(1);
    if (hasContract) assertContract("GroupDataExport", list[0]);
    expect(list[0].name).toBe("Data Export");
    expect(list[0].filename).toBe(`${list[0].id}.zip`);

    const byPath = await t.api(
      `/api/recipes/bulk-actions/export/download?path=${encodeURIComponent(list[0].path)}`,
      { token },
    );
    expect(byPath.status).toBe(200);
    const { fileToken } = (await byPath.json()) as { fileToken: string };
    if (hasContract) assertContract("FileTokenResponse", { fileToken });
    const byId = (await (
      await t.api(`/api/recipes/bulk-actions/export/${list[0].id}/download`, { token })
    ).json()) as { fileToken: string };
    expect(typeof byId.fileToken).toBe("string");

    const file = await t.api(`/api/utils/download?token=${encodeURIComponent(fileToken)}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/octet-stream");
    const names = readZip(Buffer.from(await file.arrayBuffer()))
      .map((e) => e.name)
      .sort();
    expect(names).toEqual(slugs.flatMap((s) => [`recipes/${s}/${s}.json`, `recipes/${s}/${s}.md`]).sort());

    const purge = await t.api("/api/recipes/bulk-actions/export/purge", { method: "DELETE", token });
    const msg = await purge.json();
    if (hasContract) assertContract("SuccessResponse", msg);
    expect(msg).toEqual({ message: "1 exports deleted", error: false });
    expect(await (await t.api("/api/recipes/bulk-actions/export", { token })).json()).toEqual([]);
    expect((await t.api(`/api/utils/download?token=${encodeURIComponent(fileToken)}`)).status).toBe(404);
  });

  it("the download path must name one of the group's exports: traversal is 400, anything else 404", async () => {
    await bulk("export", { recipes: [await create("Exported C")] });
    for (const path of [
      "../../../etc/passwd",
      "/etc/passwd",
      "..%2f..%2fetc%2fpasswd",
      ".larder/exports/../secrets.json",
      "..\\..\\secrets.json",
    ]) {
      expect(
        (await t.api(`/api/recipes/bulk-actions/export/download?path=${encodeURIComponent(path)}`, { token }))
          .status,
        path,
      ).toBe(400);
    }
    for (const path of [".larder/secrets.json", "users.json", "groups/home/group.json"]) {
      expect(
        (await t.api(`/api/recipes/bulk-actions/export/download?path=${encodeURIComponent(path)}`, { token }))
          .status,
        path,
      ).toBe(404);
    }
    expect(
      (
        await t.api(`/api/recipes/bulk-actions/export/00000000-0000-4000-8000-000000000000/download`, {
          token,
        })
      ).status,
    ).toBe(404);
  });

  it("never touches another group's recipes or exports", async () => {
    const slug = await create("Bulk Guarded");
    const other = await t.larder.groups.createGroup("Bulk Elsewhere");
    const u = await t.larder.users.create(
      {
        username: "bulk-outsider",
        email: "bulk-outsider@example.com",
        fullName: "O",
        admin: false,
        advanced: false,
        canInvite: false,
        canManage: false,
        canManageHousehold: false,
        canOrganize: false,
      },
      { groupId: other.doc.data.id, householdId: [...other.households.values()][0].doc.data.id },
    );
    await t.larder.auth.setPassword(u.id, "Another-Passw0rd!");
    const out = await t.login("bulk-outsider", "Another-Passw0rd!");
    expect((await bulk("tag", { recipes: [slug], tags: [{ name: "Vandalised" }] }, out)).status).toBe(200);
    expect((await bulk("delete", { recipes: [slug] }, out)).status).toBe(200);
    expect((await get(slug)).tags).toEqual([]);
    expect(await (await t.api("/api/recipes/bulk-actions/export", { token: out })).json()).toEqual([]);
    const mine = (await (await t.api("/api/recipes/bulk-actions/export", { token })).json()) as {
      id: string;
      path: string;
    }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(
      (await t.api(`/api/recipes/bulk-actions/export/${mine[0].id}/download`, { token: out })).status,
    ).toBe(404);
    expect(
      (
        await t.api(`/api/recipes/bulk-actions/export/download?path=${encodeURIComponent(mine[0].path)}`, {
          token: out,
        })
      ).status,
    ).toBe(404);
    // An export by the outsider naming our slug holds nothing of ours.
    await bulk("export", { recipes: [slug] }, out);
    const theirs = (await (await t.api("/api/recipes/bulk-actions/export", { token: out })).json()) as {
      id: string;
    }[];
    const { fileToken } = (await (
      await t.api(`/api/recipes/bulk-actions/export/${theirs[0].id}/download`, { token: out })
    ).json()) as { fileToken: string };
    const zip = Buffer.from(
      await (await t.api(`/api/utils/download?token=${encodeURIComponent(fileToken)}`)).arrayBuffer(),
    );
    expect(readZip(zip)).toEqual([]);
  });
});
