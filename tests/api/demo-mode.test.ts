/**
 * Demo mode through the API (issue 22): what core/policy/demo.ts refuses answers 403 with the
 * sentence, and the same calls work outside demo mode. The data itself stays editable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { DEMO_REFUSALS } from "../../core/policy/demo.js";

const refused = (message: string) => ({ detail: { message, error: true, exception: null } });

describe("demo mode", () => {
  let t: TestServer;
  let token: string;
  let memberId: string;
  let emptyGroupId: string;
  let emptyHouseholdId: string;
  let backup: string;

  beforeAll(async () => {
    t = await startTestServer({ demo: true });
    token = await t.login();
    const member = await t.api("/api/admin/users", {
      method: "POST",
      token,
      json: {
        username: "visitor",
        fullName: "Visitor",
        email: "visitor@example.com",
        password: "Visitor-Password-1",
        admin: false,
      },
    });
    memberId = ((await member.json()) as { id: string }).id;
    const group = await t.api("/api/admin/groups", { method: "POST", token, json: { name: "Empty" } });
    emptyGroupId = ((await group.json()) as { id: string }).id;
    const household = await t.api("/api/admin/households", {
      method: "POST",
      token,
      json: { name: "Spare", groupId: emptyGroupId },
    });
    emptyHouseholdId = ((await household.json()) as { id: string }).id;
    await t.api("/api/admin/backups", { method: "POST", token });
    const list = (await (await t.api("/api/admin/backups", { token })).json()) as {
      imports: { name: string }[];
    };
    backup = list.imports[0].name;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("says so in app info and startup info", async () => {
    expect(((await (await t.api("/api/app/about")).json()) as { demoStatus: boolean }).demoStatus).toBe(true);
    expect(await (await t.api("/api/app/about/startup-info")).json()).toEqual({
      isFirstLogin: true,
      isDemo: true,
    });
  });

  it.each([
    ["DELETE", (): string => `/api/admin/users/${memberId}`, undefined, DEMO_REFUSALS.deleteUser],
    ["DELETE", (): string => `/api/users/${memberId}`, undefined, DEMO_REFUSALS.deleteUser],
    ["DELETE", (): string => `/api/admin/groups/${emptyGroupId}`, undefined, DEMO_REFUSALS.deleteGroup],
    [
      "DELETE",
      (): string => `/api/admin/households/${emptyHouseholdId}`,
      undefined,
      DEMO_REFUSALS.deleteHousehold,
    ],
    ["POST", (): string => `/api/admin/backups/${backup}/restore`, undefined, DEMO_REFUSALS.restoreBackup],
    ["DELETE", (): string => `/api/admin/backups/${backup}`, undefined, DEMO_REFUSALS.deleteBackup],
    [
      "POST",
      (): string => "/api/admin/users/password-reset-token",
      { email: "changeme@example.com" },
      DEMO_REFUSALS.resetLink,
    ],
    [
      "PUT",
      (): string => "/api/users/password",
      { currentPassword: "MyPassword", newPassword: "Something-Else-1" },
      DEMO_REFUSALS.changeAdminLogin,
    ],
  ] as const)("refuses %s %s", async (method, path, json, message) => {
    const res = await t.api(path(), { method, token, json });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(refused(message));
  });

  it("keeps the demo login: the admin's username, e-mail and admin flag stay", async () => {
    const admin = t.larder.users.all().find((u) => u.username === "admin");
    const res = await t.api(`/api/admin/users/${admin?.id}`, {
      method: "PUT",
      token,
      json: { email: "mine@example.com", username: "admin" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(refused(DEMO_REFUSALS.changeAdminLogin));
    // Its full name is fine, and so are other users.
    const ok = await t.api(`/api/admin/users/${admin?.id}`, {
      method: "PUT",
      token,
      json: { email: "changeme@example.com", fullName: "Demo Admin" },
    });
    expect(ok.status).toBe(200);
    const member = await t.api(`/api/admin/users/${memberId}`, {
      method: "PUT",
      token,
      json: { email: "visitor2@example.com" },
    });
    expect(member.status).toBe(200);
    await expect(t.login("admin", "MyPassword")).resolves.toBeTruthy();
  });

  it("left everything it refused in place", async () => {
    expect(t.larder.users.byId(memberId)).not.toBeNull();
    expect(t.larder.groups.byId(emptyGroupId)).not.toBeNull();
    expect(t.larder.groups.householdById(emptyHouseholdId)).not.toBeNull();
  });
});

describe("outside demo mode", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("deletes users as usual", async () => {
    const token = await t.login();
    const created = await t.api("/api/admin/users", {
      method: "POST",
      token,
      json: { username: "gone", fullName: "Gone", email: "gone@example.com", password: "Gone-Password-1" },
    });
    const { id } = (await created.json()) as { id: string };
    expect((await t.api(`/api/admin/users/${id}`, { method: "DELETE", token })).status).toBe(200);
  });
});
