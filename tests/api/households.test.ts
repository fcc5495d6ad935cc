/**
 * /api/households self-service end to end (mealie-api-notes §4.5, §14.1 items 65–66): members,
 * preferences (canManageHousehold), permissions (canManage), statistics, invitations (canInvite),
 * and the household's view of a recipe. Another group's ids are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { body, makeGroup, makeHousehold, makeUser, type Person } from "../support/people.js";
import type { GroupData } from "../../core/groups/registry.js";

let t: TestServer;
let admin: string;
let a: Person;
let b: Person;
let h2: Person;
let stranger: Person;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  a = await makeUser(t);
  b = await makeUser(t);
  const home = t.larder.groups.bySlugOrNull("home") as GroupData;
  h2 = await makeUser(t, {}, { group: home, household: await makeHousehold(t, home, "Next Door") });
  stranger = await makeUser(
    t,
    { canManage: true, canInvite: true, canManageHousehold: true },
    { group: await makeGroup(t, "Outsiders") },
  );
});
afterAll(async () => t?.close());

describe("/households", () => {
  it("answers the caller's household with its users (HouseholdInDB)", async () => {
    const h = await body<{ users: { id: string }[]; slug: string; group: string }>(
      await t.api("/api/households/self", { token: a.token }),
    );
    if (hasContract) assertContract("HouseholdInDB", h);
    expect(h).toMatchObject({ slug: "family", group: "Home" });
    expect(h.users.map((x) => x.id)).toEqual(expect.arrayContaining([a.user.id, b.user.id]));
    expect(h.users.map((x) => x.id)).not.toContain(h2.user.id);
  });

  it("lists the household's members only (§14.1 66)", async () => {
    const page = await body<{ items: { id: string }[] }>(
      await t.api("/api/households/members?perPage=-1", { token: a.token }),
    );
    if (hasContract) assertContract("PaginationBase_UserOut_", page);
    const ids = page.items.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([a.user.id, b.user.id]));
    expect(ids).not.toContain(h2.user.id);
    expect(ids).not.toContain(stranger.user.id);
  });

  it("changes preferences only with canManageHousehold (§14.1 65)", async () => {
    const read = await body(await t.api("/api/households/preferences", { token: a.token }));
    if (hasContract) assertContract("ReadHouseholdPreferences", read);
    const change = { lockRecipeEditsFromOtherHouseholds: false, firstDayOfWeek: 1, recipePublic: false };
    expect(
      (await t.api("/api/households/preferences", { method: "PUT", token: a.token, json: change })).status,
    ).toBe(403);
    const manager = await makeUser(t, { canManageHousehold: true });
    const res = await t.api("/api/households/preferences", {
      method: "PUT",
      token: manager.token,
      json: change,
    });
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject(change);
    expect(await body(await t.api("/api/households/preferences", { token: b.token }))).toMatchObject(change);
    expect((await body(await t.api("/api/households/preferences", { token: h2.token }))).firstDayOfWeek).toBe(
      0,
    );
    const bad = await t.api("/api/households/preferences", {
      method: "PUT",
      token: manager.token,
      json: { firstDayOfWeek: 9 },
    });
    expect(bad.status).toBe(422);
  });

  it("sets permissions with canManage only, within the household, never one's own (§14.1 65)", async () => {
    const manager = await makeUser(t, { canManage: true });
    const set = (token: string, userId: string) =>
      t.api("/api/households/permissions", {
        method: "PUT",
        token,
        json: { userId, canManage: false, canInvite: true, canOrganize: true, canManageHousehold: false },
      });
    expect((await set(a.token, b.user.id)).status).toBe(403);
    expect((await set(manager.token, h2.user.id)).status).toBe(403);
    expect((await set(manager.token, manager.user.id)).status).toBe(403);
    expect((await set(manager.token, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const cross = await set(manager.token, stranger.user.id);
    expect(cross.status).toBe(404);
    expect(await cross.text()).not.toContain(stranger.user.email);
    const res = await set(manager.token, b.user.id);
    expect(res.status).toBe(200);
    const out = await body(res);
    if (hasContract) assertContract("UserOut", out);
    expect(out).toMatchObject({ id: b.user.id, canInvite: true, canOrganize: true, canManage: false });
    expect(t.larder.users.get(b.user.id).canInvite).toBe(true);
  });

  it("counts the household's recipes and users and the group's organizers", async () => {
    await t.api("/api/recipes", { method: "POST", token: a.token, json: { name: "Household Stew" } });
    await t.api("/api/recipes", { method: "POST", token: h2.token, json: { name: "Next Door Pie" } });
    const s = await body<{ totalRecipes: number; totalUsers: number }>(
      await t.api("/api/households/statistics", { token: a.token }),
    );
    if (hasContract) assertContract("HouseholdStatistics", s);
    expect(s.totalUsers).toBe(t.larder.users.inHousehold(a.user.householdId).length);
    expect(s.totalRecipes).toBe(1);
    const theirs = await body<{ totalRecipes: number; totalUsers: number }>(
      await t.api("/api/households/statistics", { token: h2.token }),
    );
    expect(theirs).toMatchObject({ totalRecipes: 1, totalUsers: 1 });
  });

  it("answers the household's view of a group recipe; another group's is 404", async () => {
    const slug = await body<string>(
      await t.api("/api/recipes", { method: "POST", token: h2.token, json: { name: "Shared Soup" } }),
    );
    const res = await t.api(`/api/households/self/recipes/${slug}`, { token: a.token });
    expect(res.status).toBe(200);
    const r = await body(res);
    if (hasContract) assertContract("HouseholdRecipeSummary", r);
    expect(r).toMatchObject({ lastMade: null });
    expect((await t.api(`/api/households/self/recipes/${slug}`, { token: stranger.token })).status).toBe(404);
  });
});

describe("/households/invitations", () => {
  it("needs canInvite to list, create or e-mail (403 without, 201/200 with)", async () => {
    expect((await t.api("/api/households/invitations", { token: a.token })).status).toBe(403);
    expect(
      (await t.api("/api/households/invitations", { method: "POST", token: a.token, json: { uses: 1 } }))
        .status,
    ).toBe(403);
    expect(
      (
        await t.api("/api/households/invitations/email", {
          method: "POST",
          token: a.token,
          json: { email: "x@example.com", token: "t" },
        })
      ).status,
    ).toBe(403);
    const inviter = await makeUser(t, { canInvite: true });
    const res = await t.api("/api/households/invitations", {
      method: "POST",
      token: inviter.token,
      json: { uses: 3 },
    });
    expect(res.status).toBe(201);
    const invite = await body(res);
    if (hasContract) assertContract("ReadInviteToken", invite);
    expect(invite).toMatchObject({
      usesLeft: 3,
      groupId: inviter.user.groupId,
      householdId: inviter.user.householdId,
    });
    const list = await t.api("/api/households/invitations", { token: inviter.token });
    expect(list.status).toBe(200);
    expect((await body<{ token: string }[]>(list)).map((i) => i.token)).toContain(invite.token);
  });

  it("keeps each household's tokens to itself", async () => {
    const mine = await body<{ token: string }>(
      await t.api("/api/households/invitations", {
        method: "POST",
        token: stranger.token,
        json: { uses: 1 },
      }),
    );
    const inviter = await makeUser(t, { canInvite: true });
    const listed = await body<{ token: string }[]>(
      await t.api("/api/households/invitations", { token: inviter.token }),
    );
    expect(listed.map((i) => i.token)).not.toContain(mine.token);
    const mailed = await t.api("/api/households/invitations/email", {
      method: "POST",
      token: inviter.token,
      json: { email: "friend@example.com", token: mine.token },
    });
    expect(await body(mailed)).toEqual({ success: false, error: "Invalid token" });
    // Only an admin may invite into another household.
    const other = await t.api("/api/households/invitations", {
      method: "POST",
      token: inviter.token,
      json: { uses: 1, householdId: h2.user.householdId },
    });
    expect(other.status).toBe(403);
    const byAdmin = await t.api("/api/households/invitations", {
      method: "POST",
      token: admin,
      json: { uses: 1, householdId: h2.user.householdId },
    });
    expect(byAdmin.status).toBe(201);
    expect(await body(byAdmin)).toMatchObject({ householdId: h2.user.householdId, groupId: h2.user.groupId });
  });

  it("validates invitation bodies", async () => {
    const inviter = await makeUser(t, { canInvite: true });
    expect(
      (
        await t.api("/api/households/invitations", {
          method: "POST",
          token: inviter.token,
          json: { uses: 0 },
        })
      ).status,
    ).toBe(422);
    expect(
      (await t.api("/api/households/invitations", { method: "POST", token: inviter.token, json: {} })).status,
    ).toBe(422);
    const injected = await t.api("/api/households/invitations/email", {
      method: "POST",
      token: inviter.token,
      json: { email: "friend@example.com\r\nBcc: everyone@example.com", token: "whatever" },
    });
    expect(injected.status).toBe(422);
  });
});
