/**
 * /api/users end to end: sign-up, admin CRUD, profile updates, passwords and reset tokens, profile
 * images (mealie-api-notes §4.3, §6, §14.1 items 4–12; spec §5 messages).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { PASSWORD, body, home, loginForm, makeGroup, makeUser } from "../support/people.js";

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer({ allowSignup: true });
  admin = await t.login();
});
afterAll(async () => t?.close());

const registration = (over: Record<string, unknown> = {}) => ({
  group: `Group ${Math.random().toString(36).slice(2, 8)}`,
  email: `new${Math.random().toString(36).slice(2, 8)}@example.com`,
  username: `new${Math.random().toString(36).slice(2, 8)}`,
  fullName: "New Person",
  password: "longenough1",
  passwordConfirm: "longenough1",
  ...over,
});

const messages = async (res: Response) =>
  (await body<{ detail: { loc: string[]; msg: string }[] }>(res)).detail.map(
    (d) => `${d.loc.at(-1)}: ${d.msg}`,
  );

describe("registration", () => {
  it("creates a new group whose first user holds every permission (201 UserOut)", async () => {
    const res = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ username: "  MixedCase ", email: " Mixed@Example.COM " }),
    });
    expect(res.status).toBe(201);
    const u = await body(res);
    if (hasContract) assertContract("UserOut", u);
    expect(u).toMatchObject({
      username: "mixedcase",
      email: "mixed@example.com",
      canInvite: true,
      canManage: true,
      canManageHousehold: true,
      canOrganize: true,
      admin: false,
      household: "Family",
      authMethod: "Mealie",
    });
    expect((await t.api("/api/auth/token", loginForm("mixedcase", "longenough1"))).status).toBe(200);
  });

  it("answers 409 for a taken username or e-mail", async () => {
    const first = registration();
    expect((await t.api("/api/users/register", { method: "POST", json: first })).status).toBe(201);
    const sameName = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ username: first.username.toUpperCase() }),
    });
    expect(sameName.status).toBe(409);
    expect(await sameName.json()).toEqual({
      detail: { message: "This username is already taken", error: true, exception: null },
    });
    const sameEmail = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ email: first.email }),
    });
    expect(sameEmail.status).toBe(409);
  });

  it("validates with the spec's messages", async () => {
    const res = await t.api("/api/users/register", {
      method: "POST",
      json: {
        group: "x",
        email: "not-an-email",
        username: "has space",
        fullName: "",
        password: "short",
        passwordConfirm: "other",
      },
    });
    expect(res.status).toBe(422);
    expect(await messages(res)).toEqual(
      expect.arrayContaining([
        "email: Email Must Be Valid",
        "username: No Whitespace Allowed",
        "fullName: This Field is Required",
        "password: Must Be At Least 8 Characters",
      ]),
    );
    const mismatch = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ passwordConfirm: "different1" }),
    });
    expect(await messages(mismatch)).toEqual(["passwordConfirm: passwords must match"]);
    const noGroup = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ group: null }),
    });
    expect(await messages(noGroup)).toEqual(["group: This Field is Required"]);
  });

  it("makes a private or public group as asked, with seed data when asked", async () => {
    const res = await t.api("/api/users/register", {
      method: "POST",
      json: registration({
        group: "Open Kitchen",
        household: "Cooks",
        private: false,
        seedData: true,
        locale: "en-US",
      }),
    });
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({ group: "Open Kitchen", household: "Cooks" });
    const g = t.larder.groups.byName("Open Kitchen");
    expect(g?.doc.data.preferences.privateGroup).toBe(false);
    expect(g?.households.get("cooks")?.doc.data.preferences).toMatchObject({
      privateHousehold: false,
      recipePublic: true,
    });
    expect(g?.foods.data.foods.length).toBeGreaterThan(100);
    const taken = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ group: "open kitchen" }),
    });
    expect(taken.status).toBe(409);
    const badLocale = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ locale: "xx-XX" }),
    });
    expect(badLocale.status).toBe(422);
  });

  it("never takes authMethod or admin from a sign-up", async () => {
    const res = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ authMethod: "LDAP", admin: true }),
    });
    expect(await body(res)).toMatchObject({ authMethod: "Mealie", admin: false });
  });

  it("joins the inviter's household with an invitation: two uses, then 400", async () => {
    const created = await t.api("/api/households/invitations", {
      method: "POST",
      token: admin,
      json: { uses: 2 },
    });
    expect(created.status).toBe(201);
    const invite = await body<{ token: string; groupId: string; householdId: string }>(created);
    const listed = await body<{ token: string }[]>(
      await t.api("/api/households/invitations", { token: admin }),
    );
    expect(listed.map((i) => i.token)).toContain(invite.token);
    const { group, household } = home(t);
    for (let i = 0; i < 2; i++) {
      const res = await t.api("/api/users/register", {
        method: "POST",
        json: registration({ group: "", household: "", groupToken: invite.token }),
      });
      expect(res.status).toBe(201);
      const u = await body(res);
      expect(u).toMatchObject({
        groupId: group.doc.data.id,
        householdId: household.doc.data.id,
        canInvite: false,
        canManage: false,
        canManageHousehold: false,
        canOrganize: false,
      });
    }
    const third = await t.api("/api/users/register", {
      method: "POST",
      json: registration({ groupToken: invite.token }),
    });
    expect(third.status).toBe(400);
    expect(await third.json()).toEqual({
      detail: { message: "Invalid group token", error: true, exception: null },
    });
  });

  it("refuses an unknown token with 400 and an empty one with 403", async () => {
    expect(
      (await t.api("/api/users/register", { method: "POST", json: registration({ groupToken: "nope" }) }))
        .status,
    ).toBe(400);
    expect(
      (await t.api("/api/users/register", { method: "POST", json: registration({ groupToken: "" }) })).status,
    ).toBe(403);
  });

  it("lets an invitation expire", async () => {
    const invite = await body<{ token: string }>(
      await t.api("/api/households/invitations", { method: "POST", token: admin, json: { uses: 1 } }),
    );
    const later = new Date(Date.now() + 5 * 24 * 3600 * 1000);
    t.larder.auth.useClock(() => later);
    try {
      expect(
        (
          await t.api("/api/users/register", {
            method: "POST",
            json: registration({ groupToken: invite.token }),
          })
        ).status,
      ).toBe(400);
    } finally {
      t.larder.auth.useClock(() => new Date());
    }
  });

  describe("with ALLOW_SIGNUP off", () => {
    let closed: TestServer;
    beforeAll(async () => {
      closed = await startTestServer({ allowSignup: false });
    });
    afterAll(async () => closed?.close());

    it("refuses a sign-up without a token (403) and an unknown token (400); an invitation still works", async () => {
      const denied = await closed.api("/api/users/register", { method: "POST", json: registration() });
      expect(denied.status).toBe(403);
      expect(await denied.json()).toEqual({
        detail: { message: "User Registration is Disabled", error: true, exception: null },
      });
      expect(
        (
          await closed.api("/api/users/register", {
            method: "POST",
            json: registration({ groupToken: "unknown" }),
          })
        ).status,
      ).toBe(400);
      const token = await closed.login();
      const invite = await body<{ token: string }>(
        await closed.api("/api/households/invitations", { method: "POST", token, json: { uses: 1 } }),
      );
      expect(
        (
          await closed.api("/api/users/register", {
            method: "POST",
            json: registration({ groupToken: invite.token }),
          })
        ).status,
      ).toBe(201);
    });
  });
});

describe("admin user management", () => {
  it("lists users of every group for admins only, also with an API token (§14.1 4, 8)", async () => {
    const g = await makeGroup(t, "Far Away");
    const far = await makeUser(t, {}, { group: g });
    const res = await t.api("/api/admin/users?perPage=-1", { token: admin });
    expect(res.status).toBe(200);
    const page = await body<{ items: { id: string }[] }>(res);
    if (hasContract) assertContract("UserPagination", page);
    expect(page.items.map((u) => u.id)).toContain(far.user.id);
    expect((await t.api("/api/admin/users", { token: far.token })).status).toBe(403);
    expect((await t.api("/api/users", { token: far.token })).status).toBe(403);
    const apiToken = await body<{ token: string }>(
      await t.api("/api/users/api-tokens", { method: "POST", token: admin, json: { name: "lister" } }),
    );
    expect((await t.api("/api/users", { token: apiToken.token })).status).toBe(200);
  });

  it("shows the first admin (§14.1 9) and creates users who sign in by e-mail (§14.1 10)", async () => {
    const me = await body<{ id: string }>(await t.api("/api/users/self", { token: admin }));
    expect(await body(await t.api(`/api/admin/users/${me.id}`, { token: admin }))).toMatchObject({
      fullName: "Change Me",
      email: "changeme@example.com",
    });
    const res = await t.api("/api/admin/users", {
      method: "POST",
      token: admin,
      json: {
        username: "created",
        fullName: "Created Person",
        email: "created@example.com",
        password: "password12",
        group: "Home",
        admin: false,
        authMethod: "OIDC",
      },
    });
    expect(res.status).toBe(201);
    const token = await t.login("created@example.com", "password12");
    expect(await body(await t.api("/api/users/self", { token }))).toMatchObject({
      fullName: "Created Person",
      email: "created@example.com",
      group: "Home",
      authMethod: "Mealie",
    });
  });

  it("refuses an admin demoting themselves and non-admins on admin routes (§14.1 11)", async () => {
    const me = await body<Record<string, unknown>>(await t.api("/api/users/self", { token: admin }));
    const demote = await t.api(`/api/admin/users/${me.id}`, {
      method: "PUT",
      token: admin,
      json: { ...me, admin: false },
    });
    expect(demote.status).toBe(403);
    const plain = await makeUser(t);
    expect(
      (await t.api(`/api/admin/users/${me.id}`, { method: "PUT", token: plain.token, json: me })).status,
    ).toBe(403);
  });

  it("deletes a user, ending their sessions; never the super user, never oneself", async () => {
    const victim = await makeUser(t);
    const other = await makeUser(t, { admin: true });
    const me = await body<{ id: string }>(await t.api("/api/users/self", { token: admin }));
    expect((await t.api(`/api/admin/users/${me.id}`, { method: "DELETE", token: other.token })).status).toBe(
      403,
    );
    expect((await t.api(`/api/admin/users/${me.id}`, { method: "DELETE", token: admin })).status).toBe(403);
    const res = await t.api(`/api/admin/users/${victim.user.id}`, { method: "DELETE", token: admin });
    expect(res.status).toBe(200);
    expect((await t.api("/api/users/self", { token: victim.token })).status).toBe(401);
    expect((await t.api(`/api/admin/users/${victim.user.id}`, { token: admin })).status).toBe(404);
  });
});

describe("profile updates", () => {
  it("updates one's own profile but never the password or authMethod", async () => {
    const p = await makeUser(t);
    const res = await t.api(`/api/users/${p.user.id}`, {
      method: "PUT",
      token: p.token,
      json: {
        email: p.user.email,
        fullName: "Renamed",
        password: "hijacked-password",
        authMethod: "LDAP",
        group: "Home",
        household: "Family",
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "User updated", error: false });
    expect(await body(await t.api("/api/users/self", { token: p.token }))).toMatchObject({
      fullName: "Renamed",
      authMethod: "Mealie",
    });
    expect((await t.api("/api/auth/token", loginForm(p.user.username, PASSWORD))).status).toBe(200);
    expect((await t.api("/api/auth/token", loginForm(p.user.username, "hijacked-password"))).status).toBe(
      401,
    );
  });

  it("refuses raising one's own flags, changing others, and moving groups; another group's user is a 404", async () => {
    const p = await makeUser(t);
    const q = await makeUser(t);
    const far = await makeUser(t, {}, { group: await makeGroup(t, "Elsewhere") });
    expect(
      (
        await t.api(`/api/users/${p.user.id}`, {
          method: "PUT",
          token: p.token,
          json: { email: p.user.email, admin: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.api(`/api/users/${p.user.id}`, {
          method: "PUT",
          token: p.token,
          json: { email: p.user.email, canManage: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.api(`/api/users/${p.user.id}`, {
          method: "PUT",
          token: p.token,
          json: { email: p.user.email, group: "Elsewhere" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.api(`/api/users/${q.user.id}`, {
          method: "PUT",
          token: p.token,
          json: { email: q.user.email, fullName: "Nope" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.api(`/api/users/${far.user.id}`, {
          method: "PUT",
          token: p.token,
          json: { email: far.user.email },
        })
      ).status,
    ).toBe(404);
  });

  it("answers 409 for a username or e-mail taken by someone else, and 422 with the spec's messages", async () => {
    const p = await makeUser(t);
    const q = await makeUser(t);
    expect(
      (
        await t.api(`/api/users/${p.user.id}`, {
          method: "PUT",
          token: p.token,
          json: { email: q.user.email },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await t.api(`/api/users/${p.user.id}`, {
          method: "PUT",
          token: p.token,
          json: { email: p.user.email, username: q.user.username },
        })
      ).status,
    ).toBe(409);
    const bad = await t.api(`/api/users/${p.user.id}`, {
      method: "PUT",
      token: p.token,
      json: { email: "nope", username: "a b" },
    });
    expect(bad.status).toBe(422);
    expect(await messages(bad)).toEqual(["email: Email Must Be Valid", "username: No Whitespace Allowed"]);
  });

  it("lets an admin move a user to another group; their recipes stay in their group and one of its households", async () => {
    const p = await makeUser(t);
    const made = await t.api("/api/recipes", {
      method: "POST",
      token: p.token,
      json: { name: "Mover Stew" },
    });
    const slug = (await made.json()) as string;
    const before = (await body(await t.api(`/api/recipes/${slug}`, { token: admin }))) as {
      groupId: string;
      householdId: string;
    };
    await makeGroup(t, "Destination");
    const res = await t.api(`/api/admin/users/${p.user.id}`, {
      method: "PUT",
      token: admin,
      json: { email: p.user.email, group: "Destination" },
    });
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ group: "Destination", household: "Family" });
    const after = (await body(await t.api(`/api/recipes/${slug}`, { token: admin }))) as {
      groupId: string;
      householdId: string;
    };
    expect(after.groupId).toBe(before.groupId);
    const households = t.larder.groups.byId(after.groupId)!.households;
    expect([...households.values()].map((h) => h.doc.data.id)).toContain(after.householdId);
  });
});

describe("passwords", () => {
  it("changes the password with the current one, ending every other session", async () => {
    const p = await makeUser(t);
    const second = await t.login(p.user.username, PASSWORD);
    const wrong = await t.api("/api/users/password", {
      method: "PUT",
      token: p.token,
      json: { currentPassword: "not-it", newPassword: "brand-new-pass" },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      detail: { message: "Invalid current password", error: true, exception: null },
    });
    const short = await t.api("/api/users/password", {
      method: "PUT",
      token: p.token,
      json: { currentPassword: PASSWORD, newPassword: "short" },
    });
    expect(await messages(short)).toEqual(["newPassword: Must Be At Least 8 Characters"]);
    const ok = await t.api("/api/users/password", {
      method: "PUT",
      token: p.token,
      json: { currentPassword: PASSWORD, newPassword: "brand-new-pass" },
    });
    expect(ok.status).toBe(200);
    expect((await t.api("/api/users/self", { token: p.token })).status).toBe(200);
    expect((await t.api("/api/users/self", { token: second })).status).toBe(401);
    expect((await t.api("/api/auth/token", loginForm(p.user.username, "brand-new-pass"))).status).toBe(200);
  });

  it("resets with an admin's token in any e-mail casing, once; sessions end (§14.1 12)", async () => {
    const p = await makeUser(t);
    const res = await t.api("/api/admin/users/password-reset-token", {
      method: "POST",
      token: admin,
      json: { email: p.user.email.toUpperCase() },
    });
    expect(res.status).toBe(201);
    const { token } = await body<{ token: string }>(res);
    const reset = { token, email: p.user.email, password: "after-reset-1", passwordConfirm: "after-reset-1" };
    expect((await t.api("/api/users/reset-password", { method: "POST", json: reset })).status).toBe(200);
    expect((await t.api("/api/users/self", { token: p.token })).status).toBe(401);
    expect((await t.api("/api/auth/token", loginForm(p.user.username, "after-reset-1"))).status).toBe(200);
    const again = await t.api("/api/users/reset-password", {
      method: "POST",
      json: { ...reset, password: "second-try-1", passwordConfirm: "second-try-1" },
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      detail: { message: "Invalid token", error: true, exception: null },
    });
  });

  it("lets a reset token expire after an hour, and refuses forged ones", async () => {
    const p = await makeUser(t);
    const { token } = await body<{ token: string }>(
      await t.api("/api/admin/users/password-reset-token", {
        method: "POST",
        token: admin,
        json: { email: p.user.email },
      }),
    );
    const later = new Date(Date.now() + 61 * 60 * 1000);
    t.larder.auth.useClock(() => later);
    try {
      expect(
        (
          await t.api("/api/users/reset-password", {
            method: "POST",
            json: { token, email: "", password: "after-reset-1" },
          })
        ).status,
      ).toBe(400);
    } finally {
      t.larder.auth.useClock(() => new Date());
    }
    expect(
      (
        await t.api("/api/users/reset-password", {
          method: "POST",
          json: { token: "forged", email: "", password: "after-reset-1" },
        })
      ).status,
    ).toBe(400);
    const mismatch = await t.api("/api/users/reset-password", {
      method: "POST",
      json: { token: "x", email: "", password: "after-reset-1", passwordConfirm: "other-one-1" },
    });
    expect(await messages(mismatch)).toEqual(["passwordConfirm: passwords must match"]);
  });
});

describe("profile images", () => {
  const png = () =>
    sharp({ create: { width: 40, height: 30, channels: 3, background: "#e58325" } })
      .png()
      .toBuffer();
  const upload = async (id: string, token: string, data: Buffer, type = "image/png") => {
    const form = new FormData();
    form.append("profile", new Blob([new Uint8Array(data)], { type }), "me.png");
    return t.api(`/api/users/${id}/image`, { method: "POST", token, body: form });
  };

  it("stores an upload as webp at users/<id>/profile.webp and serves it; the cacheKey changes", async () => {
    const p = await makeUser(t);
    const before = p.user.cacheKey;
    expect((await upload(p.user.id, p.token, await png())).status).toBe(200);
    const media = await t.api(`/api/media/users/${p.user.id}/profile.webp`);
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await media.arrayBuffer())).metadata()).format).toBe("webp");
    expect((await t.api(`/api/users/${p.user.id}/image`, { token: p.token })).status).toBe(200);
    const { existsSync } = await import("node:fs");
    const { join } = await import("node:path");
    expect(existsSync(join(t.dataDir, "users", p.user.id, "profile.webp"))).toBe(true);
    expect(
      (await body<{ cacheKey: string }>(await t.api("/api/users/self", { token: p.token }))).cacheKey,
    ).not.toBe(before);
  });

  it("refuses what is not an image, someone else's picture, and shows nothing across groups", async () => {
    const p = await makeUser(t);
    const q = await makeUser(t);
    const far = await makeUser(t, {}, { group: await makeGroup(t, "Picture Strangers") });
    expect((await upload(p.user.id, p.token, Buffer.from("not an image at all"))).status).toBe(400);
    expect((await upload(q.user.id, p.token, await png())).status).toBe(403);
    expect((await upload(far.user.id, p.token, await png())).status).toBe(404);
    expect((await upload(q.user.id, admin, await png())).status).toBe(200);
    expect((await t.api(`/api/users/${q.user.id}/image`, { token: far.token })).status).toBe(404);
    // p's refused upload left p with the default picture, never q's.
    const fallback = await t.api(`/api/media/users/${p.user.id}/profile.webp`);
    const qs = await t.api(`/api/media/users/${q.user.id}/profile.webp`);
    expect(Buffer.from(await fallback.arrayBuffer()).equals(Buffer.from(await qs.arrayBuffer()))).toBe(false);
    expect((await t.api(`/api/media/users/${q.user.id}/../../users.json`)).status).toBe(404);
  });

  it("gives a new user the default picture at /media/users/{id}/profile.webp, and unknown ids a 404", async () => {
    const p = await makeUser(t);
    const media = await t.api(`/api/media/users/${p.user.id}/profile.webp`);
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await media.arrayBuffer())).metadata()).width).toBe(512);
    expect((await t.api(`/api/users/${p.user.id}/image`, { token: p.token })).status).toBe(200);
    expect((await t.api(`/api/media/users/00000000-0000-4000-8000-000000000000/profile.webp`)).status).toBe(
      404,
    );
    expect((await t.api(`/api/media/users/${p.user.id}/other.webp`)).status).toBe(404);
  });
});
