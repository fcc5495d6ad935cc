/**
 * /api/groups end to end (mealie-api-notes §4.4, §14.1 items 66): the caller's group only; another
 * group's ids answer 404 and never show data; PUT /groups/preferences needs canManage.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { body, makeGroup, makeHousehold, makeUser, type Person } from "../support/people.js";
import type { GroupData } from "../../core/groups/registry.js";

let t: TestServer;
let u: Person;
let h2: Person;
let stranger: Person;
let otherGroup: GroupData;
beforeAll(async () => {
  t = await startTestServer();
  u = await makeUser(t);
  const home = t.larder.groups.bySlugOrNull("home") as GroupData;
  h2 = await makeUser(t, {}, { group: home, household: await makeHousehold(t, home, "Second") });
  otherGroup = await makeGroup(t, "Strangers");
  stranger = await makeUser(t, { canManage: true }, { group: otherGroup });
});
afterAll(async () => t?.close());

describe("/groups", () => {
  it("answers the caller's own group (GroupSummary)", async () => {
    const g = await body(await t.api("/api/groups/self", { token: u.token }));
    if (hasContract) assertContract("GroupSummary", g);
    expect(g).toMatchObject({ name: "Home", slug: "home" });
    expect(await body(await t.api("/api/groups/self", { token: stranger.token }))).toMatchObject({
      name: "Strangers",
      slug: "strangers",
    });
  });

  it("lists the group's members across households, never another group's (§14.1 66)", async () => {
    const page = await body<{ items: { id: string }[] }>(
      await t.api("/api/groups/members?perPage=-1", { token: u.token }),
    );
    if (hasContract) assertContract("PaginationBase_UserSummary_", page);
    const ids = page.items.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([u.user.id, h2.user.id]));
    expect(ids).not.toContain(stranger.user.id);
  });

  it("finds one member by username or id; unknown and other groups' users are 404", async () => {
    for (const key of [h2.user.username, h2.user.id]) {
      const res = await t.api(`/api/groups/members/${key}`, { token: u.token });
      expect(res.status).toBe(200);
      const m = await body(res);
      if (hasContract) assertContract("UserSummary", m);
      expect(m.id).toBe(h2.user.id);
    }
    expect((await t.api("/api/groups/members/nobody-here", { token: u.token })).status).toBe(404);
    for (const key of [stranger.user.username, stranger.user.id]) {
      const res = await t.api(`/api/groups/members/${key}`, { token: u.token });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(stranger.user.id);
    }
  });

  it("changes group preferences only with canManage (403 without, 200 with)", async () => {
    const read = await body(await t.api("/api/groups/preferences", { token: u.token }));
    if (hasContract) assertContract("ReadGroupPreferences", read);
    expect(
      (
        await t.api("/api/groups/preferences", {
          method: "PUT",
          token: u.token,
          json: { privateGroup: false },
        })
      ).status,
    ).toBe(403);
    const manager = await makeUser(t, { canManage: true });
    const res = await t.api("/api/groups/preferences", {
      method: "PUT",
      token: manager.token,
      json: { privateGroup: false },
    });
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ privateGroup: false, groupId: read.groupId });
    expect(t.larder.groups.bySlugOrNull("home")?.doc.data.preferences.privateGroup).toBe(false);
    // The other group's manager changed their own group, not Home.
    await t.api("/api/groups/preferences", {
      method: "PUT",
      token: stranger.token,
      json: { privateGroup: true, showAnnouncements: false },
    });
    expect(t.larder.groups.bySlugOrNull("home")?.doc.data.preferences.showAnnouncements).toBe(true);
  });

  it("reports the group's storage", async () => {
    const s = await body<{ usedStorageBytes: number; totalStorageBytes: number }>(
      await t.api("/api/groups/storage", { token: u.token }),
    );
    if (hasContract) assertContract("GroupStorage", s);
    expect(s.usedStorageBytes).toBeGreaterThan(0);
    expect(s.totalStorageBytes).toBe(500_000_000);
  });

  it("lists and finds the group's households; another group's are 404", async () => {
    const page = await body<{ items: { slug: string }[] }>(
      await t.api("/api/groups/households?perPage=-1&orderBy=name&orderDirection=asc", { token: u.token }),
    );
    if (hasContract) assertContract("PaginationBase_HouseholdSummary_", page);
    expect(page.items.map((h) => h.slug)).toEqual(["family", "second"]);
    const one = await t.api("/api/groups/households/second", { token: u.token });
    expect(one.status).toBe(200);
    if (hasContract) assertContract("HouseholdSummary", await body(one));
    expect((await t.api("/api/groups/households/nope", { token: u.token })).status).toBe(404);
    const theirs = [...otherGroup.households.values()][0].doc.data;
    expect((await t.api(`/api/groups/households/${theirs.id}`, { token: u.token })).status).toBe(404);
    // Same slug "family" in both groups: each sees their own.
    expect((await body(await t.api("/api/groups/households/family", { token: stranger.token }))).id).toBe(
      theirs.id,
    );
  });

  it("refuses visitors", async () => {
    for (const path of [
      "/api/groups/self",
      "/api/groups/members",
      "/api/groups/preferences",
      "/api/groups/storage",
      "/api/groups/households",
    ]) {
      expect((await t.api(path)).status).toBe(401);
    }
  });
});
