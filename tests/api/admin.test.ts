/**
 * /api/admin end to end (mealie-api-notes §4.13, §14.1 items 67): about, groups and households with
 * their deletion rules, unlocking, e-mail status, maintenance and analytics; 403 for everyone else.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { body, home, loginForm, makeUser, type Person } from "../support/people.js";

let t: TestServer;
let admin: string;
let plain: Person;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  plain = await makeUser(t, {
    canManage: true,
    canManageHousehold: true,
    canInvite: true,
    canOrganize: true,
  });
});
afterAll(async () => t?.close());

const ADMIN_READS = [
  "/api/admin/about",
  "/api/admin/about/statistics",
  "/api/admin/about/check",
  "/api/admin/analytics",
  "/api/admin/users",
  "/api/admin/groups",
  "/api/admin/households",
  "/api/admin/email",
  "/api/admin/maintenance",
  "/api/admin/maintenance/storage",
  "/api/admin/maintenance/logs?lines=5",
];
const ADMIN_WRITES: [string, string][] = [
  ["POST", "/api/admin/groups"],
  ["POST", "/api/admin/households"],
  ["POST", "/api/admin/users"],
  ["POST", "/api/admin/users/unlock?force=true"],
  ["POST", "/api/admin/users/password-reset-token"],
  ["POST", "/api/admin/email"],
  ["POST", "/api/admin/maintenance/clean/temp"],
  ["POST", "/api/admin/maintenance/clean/logs"],
  ["POST", "/api/admin/maintenance/clean/images"],
  ["POST", "/api/admin/maintenance/clean/recipe-folders"],
];

describe("the admin guard", () => {
  it("refuses every admin route to a non-admin, whatever flags they hold (403), and to visitors (401)", async () => {
    for (const path of ADMIN_READS) {
      const res = await t.api(path, { token: plain.token });
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual({ detail: "Forbidden" });
      expect((await t.api(path)).status, path).toBe(401);
      expect((await t.api(path, { token: admin })).status, path).toBe(200);
    }
    for (const [method, path] of ADMIN_WRITES)
      expect((await t.api(path, { method, token: plain.token, json: {} })).status, path).toBe(403);
    const { group, household } = home(t);
    for (const path of [
      `/api/admin/groups/${group.doc.data.id}`,
      `/api/admin/households/${household.doc.data.id}`,
      `/api/admin/users/${plain.user.id}`,
    ]) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const res = await t.api(path, {
          method,
          token: plain.token,
          json: method === "PUT" ? {} : undefined,
        });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
    }
  });
});

describe("about", () => {
  it("answers about, statistics and check in the contract's shapes", async () => {
    const about = await body(await t.api("/api/admin/about", { token: admin }));
    if (hasContract) assertContract("AdminAboutInfo", about);
    expect(about).toMatchObject({
      version: "v3.19.2",
      defaultGroup: "Home",
      defaultHousehold: "Family",
      dbType: "files",
    });
    await t.api("/api/recipes", { method: "POST", token: admin, json: { name: "Counted Cake" } });
    const stats = await body(await t.api("/api/admin/about/statistics", { token: admin }));
    if (hasContract) assertContract("AppStatistics", stats);
    expect(stats).toMatchObject({
      totalGroups: t.larder.groups.all().length,
      totalUsers: t.larder.users.all().length,
    });
    expect(stats.totalRecipes).toBeGreaterThanOrEqual(1);
    const check = await body(await t.api("/api/admin/about/check", { token: admin }));
    if (hasContract) assertContract("CheckAppConfig", check);
    expect(check).toMatchObject({ emailReady: false, ldapReady: false, oidcReady: false, baseUrlSet: false });
    expect(await body(await t.api("/api/admin/analytics", { token: admin }))).toMatchObject({
      users: stats.totalUsers,
      recipes: stats.totalRecipes,
    });
  });
});

describe("groups and households", () => {
  it("refuses to delete a group or household that has users (§14.1 67)", async () => {
    const { group, household } = home(t);
    const g = await t.api(`/api/admin/groups/${group.doc.data.id}`, { method: "DELETE", token: admin });
    expect(g.status).toBe(400);
    expect(await g.json()).toEqual({
      detail: { message: "Cannot delete group with users", error: true, exception: null },
    });
    const h = await t.api(`/api/admin/households/${household.doc.data.id}`, {
      method: "DELETE",
      token: admin,
    });
    expect(h.status).toBe(400);
    expect(await h.json()).toEqual({
      detail: { message: "Cannot delete household with users", error: true, exception: null },
    });
  });

  it("creates every group and household of one name sent four times at once, each its own folder and name", async () => {
    // Found by tests/security: the copies took one folder, the last group.json replaced the others,
    // and groups answered 201 were gone; all kept the same name.
    const post = (path: string, json: unknown) =>
      Promise.all(
        Array.from({ length: 4 }, async () => {
          const res = await t.api(path, { method: "POST", token: admin, json });
          expect(res.status).toBe(201);
          return body<{ id: string; name: string; slug: string }>(res);
        }),
      );
    const groups = await post("/api/admin/groups", { name: "Twice Club" });
    const houses = await post("/api/admin/households", { name: "Twice House", groupId: groups[0].id });
    for (const [made, path] of [
      [groups, "/api/admin/groups"],
      [houses, "/api/admin/households"],
    ] as const) {
      expect(new Set(made.map((x) => x.slug)).size).toBe(4);
      expect(new Set(made.map((x) => x.name)).size).toBe(4);
      for (const x of made) expect((await t.api(`${path}/${x.id}`, { token: admin })).status).toBe(200);
    }
    expect(groups.map((g) => g.name).sort()).toEqual([
      "Twice Club",
      "Twice Club (1)",
      "Twice Club (2)",
      "Twice Club (3)",
    ]);
  });

  it("creates a group with exactly one household Family, renames it, and deletes it with its households", async () => {
    const res = await t.api("/api/admin/groups", { method: "POST", token: admin, json: { name: "Club" } });
    expect(res.status).toBe(201);
    const g = await body<{ id: string; slug: string; households: { id: string; name: string }[] }>(res);
    if (hasContract) assertContract("GroupInDB", g);
    expect(g.households.map((h) => h.name)).toEqual(["Family"]);
    expect(
      (await t.api("/api/admin/groups", { method: "POST", token: admin, json: { name: "" } })).status,
    ).toBe(422);
    const extra = await t.api("/api/admin/households", {
      method: "POST",
      token: admin,
      json: { name: "Annex", groupId: g.id },
    });
    expect(extra.status).toBe(201);
    const annex = await body(extra);
    if (hasContract) assertContract("HouseholdInDB", annex);
    expect(annex).toMatchObject({ group: "Club", preferences: { privateHousehold: true } });
    const renamed = await t.api(`/api/admin/groups/${g.id}`, {
      method: "PUT",
      token: admin,
      json: { id: g.id, name: "Supper Club", preferences: { privateGroup: false } },
    });
    expect(await body(renamed)).toMatchObject({
      name: "Supper Club",
      slug: "club",
      preferences: { privateGroup: false },
    });
    const gone = await t.api(`/api/admin/groups/${g.id}`, { method: "DELETE", token: admin });
    expect(gone.status).toBe(200);
    expect((await t.api(`/api/admin/groups/${g.id}`, { token: admin })).status).toBe(404);
    expect((await t.api(`/api/admin/households/${annex.id}`, { token: admin })).status).toBe(404);
    // The folder is set aside in .larder/trash, not erased.
    expect(existsSync(join(t.dataDir, "groups", "club"))).toBe(false);
    expect(
      (await readdir(join(t.dataDir, ".larder", "trash"))).some((n) => n.startsWith("group-club-")),
    ).toBe(true);
    // The name is free again; the folder name is not reused while caches may still know the old one.
    const again = await body<{ name: string; slug: string }>(
      await t.api("/api/admin/groups", { method: "POST", token: admin, json: { name: "Club" } }),
    );
    expect(again).toMatchObject({ name: "Club", slug: "club-1" });
  });

  it('numbers a taken group or household name, as Mealie does: "Picnic" again becomes "Picnic (1)"', async () => {
    const first = await body<{ id: string }>(
      await t.api("/api/admin/groups", { method: "POST", token: admin, json: { name: "Picnic" } }),
    );
    const twin = await t.api("/api/admin/groups", { method: "POST", token: admin, json: { name: "picnic" } });
    expect(twin.status).toBe(201);
    const twinGroup = await body<{ id: string; name: string }>(twin);
    expect(twinGroup.name).toBe("picnic (1)");
    const household = await body<{ name: string }>(
      await t.api("/api/admin/households", {
        method: "POST",
        token: admin,
        json: { name: "family", groupId: first.id },
      }),
    );
    expect(household.name).toBe("family (1)");
  });

  it("updates and deletes an empty household, but never a group's last one", async () => {
    const { group } = home(t);
    const created = await body<{ id: string }>(
      await t.api("/api/admin/households", { method: "POST", token: admin, json: { name: "Cabin" } }),
    );
    const put = await t.api(`/api/admin/households/${created.id}`, {
      method: "PUT",
      token: admin,
      json: { id: created.id, groupId: group.doc.data.id, name: "Lodge", preferences: { firstDayOfWeek: 1 } },
    });
    expect(await body(put)).toMatchObject({
      name: "Lodge",
      slug: "cabin",
      preferences: { firstDayOfWeek: 1 },
    });
    const list = await body<{ items: { id: string }[] }>(
      await t.api("/api/admin/households?perPage=-1", { token: admin }),
    );
    if (hasContract) assertContract("HouseholdPagination", list);
    expect(list.items.map((h) => h.id)).toContain(created.id);
    expect(
      (await t.api(`/api/admin/households/${created.id}`, { method: "DELETE", token: admin })).status,
    ).toBe(200);
    const solo = await body<{ id: string; households: { id: string }[] }>(
      await t.api("/api/admin/groups", { method: "POST", token: admin, json: { name: "Solo" } }),
    );
    const last = await t.api(`/api/admin/households/${solo.households[0].id}`, {
      method: "DELETE",
      token: admin,
    });
    expect(last.status).toBe(400);
  });
});

describe("users", () => {
  it("unlocks expired locks only, or every lock with force", async () => {
    const p = await makeUser(t);
    for (let i = 0; i < 5; i++) await t.api("/api/auth/token", loginForm(p.user.username, "wrong-password"));
    expect((await t.api("/api/auth/token", loginForm(p.user.username, "Correct-Horse-7"))).status).toBe(423);
    const soft = await t.api("/api/admin/users/unlock?force=false", { method: "POST", token: admin });
    expect(await body(soft)).toEqual({ unlocked: 0 });
    const hard = await t.api("/api/admin/users/unlock?force=true", { method: "POST", token: admin });
    const result = await body(hard);
    if (hasContract) assertContract("UnlockResults", result);
    expect(result).toEqual({ unlocked: 1 });
    expect((await t.api("/api/auth/token", loginForm(p.user.username, "Correct-Horse-7"))).status).toBe(200);
  });

  it("unlocks one user (Larder's per-user route)", async () => {
    const p = await makeUser(t);
    for (let i = 0; i < 5; i++) await t.api("/api/auth/token", loginForm(p.user.username, "wrong-password"));
    expect(
      await body(await t.api(`/api/admin/users/${p.user.id}/unlock`, { method: "POST", token: admin })),
    ).toEqual({ unlocked: 1 });
    expect((await t.api("/api/auth/token", loginForm(p.user.username, "Correct-Horse-7"))).status).toBe(200);
  });
});

describe("e-mail", () => {
  it("says e-mail is not ready and answers a test with success false", async () => {
    const ready = await body(await t.api("/api/admin/email", { token: admin }));
    if (hasContract) assertContract("EmailReady", ready);
    expect(ready).toEqual({ ready: false });
    const sent = await body(
      await t.api("/api/admin/email", { method: "POST", token: admin, json: { email: "admin@example.com" } }),
    );
    if (hasContract) assertContract("EmailSuccess", sent);
    expect(sent.success).toBe(false);
  });
});

describe("maintenance", () => {
  const png = () =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: "#007a99" } })
      .png()
      .toBuffer();

  it("reports sizes in the contract's shapes", async () => {
    const summary = await body(await t.api("/api/admin/maintenance", { token: admin }));
    if (hasContract) assertContract("MaintenanceSummary", summary);
    expect(summary.dataDirSize).toMatch(/^\d+(\.\d)? (bytes|kB|MB|GB)$/);
    const storage = await body(await t.api("/api/admin/maintenance/storage", { token: admin }));
    if (hasContract) assertContract("MaintenanceStorageDetails", storage);
  });

  it("tails the log files and cleans the rotated ones, keeping the current log", async () => {
    const logs = join(t.dataDir, ".larder", "logs");
    await writeFile(join(logs, "larder.log.1"), "old one\nold two\n");
    await writeFile(join(logs, "larder.log"), "line one\nline two\nline three\n");
    await utimes(join(logs, "larder.log.1"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(await body(await t.api("/api/admin/maintenance/logs?lines=2", { token: admin }))).toEqual({
      logs: ["line two", "line three"],
    });
    expect(await body(await t.api("/api/admin/maintenance/logs?lines=4", { token: admin }))).toEqual({
      logs: ["old two", "line one", "line two", "line three"],
    });
    expect((await t.api("/api/admin/maintenance/clean/logs", { method: "POST", token: admin })).status).toBe(
      200,
    );
    expect(await body(await t.api("/api/admin/maintenance/logs?lines=10", { token: admin }))).toEqual({
      logs: ["line one", "line two", "line three"],
    });
  });

  it("cleans old temp files but not one a write may still be using", async () => {
    const tmp = join(t.dataDir, ".larder", "tmp");
    await writeFile(join(tmp, "stale.tmp"), "x");
    await utimes(join(tmp, "stale.tmp"), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await writeFile(join(tmp, "fresh.tmp"), "y");
    const res = await body(
      await t.api("/api/admin/maintenance/clean/temp", { method: "POST", token: admin }),
    );
    if (hasContract) assertContract("SuccessResponse", res);
    expect(existsSync(join(tmp, "stale.tmp"))).toBe(false);
    expect(existsSync(join(tmp, "fresh.tmp"))).toBe(true);
  });

  it("cleans derived image sizes without a source and media folders without a recipe, never an original or a live folder", async () => {
    const slug = await body<string>(
      await t.api("/api/recipes", { method: "POST", token: admin, json: { name: "Pictured Pie" } }),
    );
    const { id } = await body<{ id: string }>(await t.api(`/api/recipes/${slug}`, { token: admin }));
    const media = join(t.dataDir, "groups", "home", "recipes", slug);
    await mkdir(media, { recursive: true });
    await writeFile(join(media, "original.png"), await png());
    expect((await t.api(`/api/media/recipes/${id}/images/min-original.webp`)).status).toBe(200);
    const cache = join(t.dataDir, ".larder", "cache", "images");
    const current = await readdir(join(cache, id));
    // A version of a replaced original, and the sizes of a recipe that no longer exists.
    await mkdir(join(cache, id, "old-version"), { recursive: true });
    await writeFile(join(cache, id, "old-version", "original.webp"), "x");
    await utimes(
      join(cache, id, "old-version"),
      new Date(Date.now() - 86_400_000),
      new Date(Date.now() - 86_400_000),
    );
    const ghost = "6f1c8a52-3f0e-4c1b-9a53-0d2f1e7b9c44";
    await mkdir(join(cache, ghost, "v1"), { recursive: true });
    await writeFile(join(cache, ghost, "v1", "tiny-original.webp"), "x");
    // A media folder whose recipe file is gone, and one a person made by hand under another name.
    const orphan = join(t.dataDir, "groups", "home", "recipes", "deleted-recipe");
    await mkdir(orphan, { recursive: true });
    await writeFile(join(orphan, "original.jpg"), "x");
    const handMade = join(t.dataDir, "groups", "home", "recipes", "My Photos");
    await mkdir(handMade, { recursive: true });

    expect(await body(await t.api("/api/admin/maintenance", { token: admin }))).toMatchObject({
      cleanableImages: 2,
      cleanableDirs: 1,
    });
    expect(
      await body(await t.api("/api/admin/maintenance/clean/images", { method: "POST", token: admin })),
    ).toEqual({ message: "2 Images cleaned", error: false });
    expect(existsSync(join(cache, ghost))).toBe(false);
    expect(existsSync(join(cache, id, "old-version"))).toBe(false);
    expect(await readdir(join(cache, id))).toEqual(current);
    expect(existsSync(join(media, "original.png"))).toBe(true);
    expect(
      await body(
        await t.api("/api/admin/maintenance/clean/recipe-folders", { method: "POST", token: admin }),
      ),
    ).toEqual({ message: "1 Recipe folders removed", error: false });
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(handMade)).toBe(true);
    expect(existsSync(join(media, "original.png"))).toBe(true);
    expect((await t.api(`/api/media/recipes/${id}/images/min-original.webp`)).status).toBe(200);
  });
});
