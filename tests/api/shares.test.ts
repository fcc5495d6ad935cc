import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
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

async function create(name: string): Promise<{ slug: string; id: string }> {
  const slug = (await (
    await t.api("/api/recipes", { method: "POST", token, json: { name } })
  ).json()) as string;
  const { id } = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { id: string };
  return { slug, id };
}

interface Share {
  id: string;
  recipeId: string;
  groupId: string;
  expiresAt: string;
  createdAt: string;
  recipe: { id: string; name: string };
}

async function share(recipeId: string, extra: Record<string, unknown> = {}, tok = token): Promise<Response> {
  return t.api("/api/shared/recipes", { method: "POST", token: tok, json: { recipeId, ...extra } });
}

describe("share links", () => {
  it("create answers 201 RecipeShareToken with the recipe and a 30-day default expiry, stored in shares.json", async () => {
    const r = await create("Shared Soup");
    const res = await share(r.id);
    expect(res.status).toBe(201);
    const s = (await res.json()) as Share;
    if (hasContract) assertContract("RecipeShareToken", s);
    expect(s.recipe.id).toBe(r.id);
    const days = (Date.parse(s.expiresAt) - Date.parse(s.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(30, 3);
    const stored = JSON.parse(await readFile(join(t.dataDir, "groups", "home", "shares.json"), "utf8")) as {
      shares: { id: string }[];
    };
    expect(stored.shares.map((x) => x.id)).toContain(s.id);
  });

  it("lists the group's tokens, filters by recipe_id, gets one, deletes one", async () => {
    const a = await create("Share List A");
    const b = await create("Share List B");
    const ids: string[] = [];
    for (const r of [a, a, a, b, b]) ids.push(((await (await share(r.id)).json()) as Share).id);
    const all = (await (await t.api("/api/shared/recipes", { token })).json()) as Share[];
    if (hasContract) for (const s of all) assertContract("RecipeShareTokenSummary", s);
    expect(ids.every((id) => all.some((s) => s.id === id))).toBe(true);
    const onlyA = (await (await t.api(`/api/shared/recipes?recipe_id=${a.id}`, { token })).json()) as Share[];
    expect(onlyA).toHaveLength(3);
    const one = await t.api(`/api/shared/recipes/${ids[3]}`, { token });
    const body = (await one.json()) as Share;
    if (hasContract) assertContract("RecipeShareToken", body);
    expect(body.recipe.id).toBe(b.id);
    expect((await t.api(`/api/shared/recipes/${ids[3]}`, { method: "DELETE", token })).status).toBe(200);
    expect((await t.api(`/api/shared/recipes/${ids[3]}`, { token })).status).toBe(404);
    expect((await t.api(`/api/recipes/shared/${ids[3]}`)).status).toBe(404);
  });

  it("the public read gives the Recipe and its zip without signing in", async () => {
    const r = await create("Public Through Token");
    const s = (await (await share(r.id)).json()) as Share;
    const res = await t.api(`/api/recipes/shared/${s.id}`);
    expect(res.status).toBe(200);
    const recipe = (await res.json()) as { id: string; name: string };
    if (hasContract) assertContract("Recipe-Output", recipe);
    expect(recipe.name).toBe("Public Through Token");
    const zip = await t.api(`/api/recipes/shared/${s.id}/zip`);
    expect(zip.status).toBe(200);
    expect(
      readZip(Buffer.from(await zip.arrayBuffer()))
        .map((e) => e.name)
        .sort(),
    ).toEqual([`${r.slug}.json`, `${r.slug}.md`]);
  });

  it("an expired token answers 404 like an unknown one (Larder checks expiry, unlike Mealie)", async () => {
    const r = await create("Expired Share");
    const res = await share(r.id, { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(res.status).toBe(201);
    const s = (await res.json()) as Share;
    for (const path of [`/api/recipes/shared/${s.id}`, `/api/recipes/shared/${s.id}/zip`]) {
      const got = await t.api(path);
      expect(got.status).toBe(404);
      expect(await got.json()).toEqual({
        detail: { message: "Token Not Found", error: true, exception: null },
      });
    }
    expect((await t.api("/api/recipes/shared/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await t.api("/api/recipes/shared/not-a-token")).status).toBe(404);
  });

  it("an explicit expiry is kept; a bad one or a bad recipe id is a 422", async () => {
    const r = await create("Dated Share");
    const s = (await (await share(r.id, { expiresAt: "2099-01-02T03:04:05" })).json()) as Share;
    expect(s.expiresAt).toBe("2099-01-02T03:04:05.000Z");
    expect((await share(r.id, { expiresAt: "next tuesday" })).status).toBe(422);
    expect((await share("nope")).status).toBe(422);
    expect((await share("00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("refuses an expiry that is no date-time (30 February, the year -1) with 422, and makes no link", async () => {
    // Found by tests/security: `new Date` took both, and the link was then served with an expiresAt
    // ("-000001-01-01T00:00:00.000Z") that the contract's date-time refuses.
    const r = await create("Leap Share");
    for (const expiresAt of ["2027-02-30", "-000001-01-01", "2027-02-30T25:61:61", "+275760-09-13"]) {
      const res = await share(r.id, { expiresAt });
      expect(res.status, expiresAt).toBe(422);
      expect(await res.json()).toMatchObject({ detail: [{ loc: ["body", "expiresAt"] }] });
    }
    const all = (await (await t.api(`/api/shared/recipes?recipe_id=${r.id}`, { token })).json()) as Share[];
    expect(all).toEqual([]);
  });

  it("deleting the recipe through the API ends its share links", async () => {
    const r = await create("Doomed Share");
    const s = (await (await share(r.id)).json()) as Share;
    expect((await t.api(`/api/recipes/${r.slug}`, { method: "DELETE", token })).status).toBe(200);
    expect((await t.api(`/api/shared/recipes/${s.id}`, { token })).status).toBe(404);
    expect((await t.api(`/api/recipes/shared/${s.id}`)).status).toBe(404);
  });

  it("another group sees none of it: 404 for its ids, no sharing of a recipe it does not have", async () => {
    const r = await create("Group Private");
    const s = (await (await share(r.id)).json()) as Share;
    const other = await t.larder.groups.createGroup("Shares Elsewhere");
    const u = await t.larder.users.create(
      {
        username: "share-outsider",
        email: "share-outsider@example.com",
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
    const out = await t.login("share-outsider", "Another-Passw0rd!");
    expect((await t.api(`/api/shared/recipes/${s.id}`, { token: out })).status).toBe(404);
    expect((await t.api(`/api/shared/recipes/${s.id}`, { method: "DELETE", token: out })).status).toBe(404);
    expect((await (await t.api("/api/shared/recipes", { token: out })).json()) as unknown[]).toEqual([]);
    expect((await share(r.id, {}, out)).status).toBe(404);
    // The owner's link still works: the outsider's attempts changed nothing.
    expect((await t.api(`/api/recipes/shared/${s.id}`)).status).toBe(200);
  });
});
