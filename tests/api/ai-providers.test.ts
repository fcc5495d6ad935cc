/**
 * AI providers (Mealie v3.19's /groups/ai-providers and the admin variants) on a real server: the
 * contract's shapes, keys kept under `.larder/` and never answered, who may change them, and the AI
 * parser, photo import and the debug route talking to the group's provider — checked on a stand-in
 * chat completions server on loopback that records what it was sent. Also the one local-network rule
 * for AI endpoints (decision 0081).
 */
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChatStandIn, type ChatStandIn } from "../../core/ai/test-support.js";
import { assertContract, hasContract } from "../support/contract.js";
import { body, home, makeGroup, makeUser } from "../support/people.js";
import { startTestServer, type TestServer } from "../support/server.js";

const SECRET = "sk-group-secret-8c1f";
let t: TestServer;
let token: string;
let config: ChatStandIn;
let group: ChatStandIn;

beforeAll(async () => {
  config = await startChatStandIn();
  group = await startChatStandIn(() => ({
    content: JSON.stringify({
      name: "Provider Pie",
      recipeIngredient: ["1 apple"],
      recipeInstructions: ["Bake."],
    }),
  }));
  // The group provider on loopback is reachable only because the admin listed the host.
  t = await startTestServer({
    fetchAllow: "127.0.0.1",
    openai: { BASE_URL: config.baseUrl, API_KEY: "sk-config", MODEL: "config-model" },
  });
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
  await config?.close();
  await group?.close();
});

const api = (path: string, method = "GET", json?: unknown, tok: string | null = token) =>
  t.api(path, { method, token: tok, json });
const providerBody = (over: Record<string, unknown> = {}) => ({
  name: "Local model",
  baseUrl: group.baseUrl,
  apiKey: SECRET,
  model: "group-model",
  timeout: 30,
  requestHeaders: { "x-tenant": "home" },
  requestParams: { seed: "7" },
  ...over,
});

async function allFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("/api/groups/ai-providers", () => {
  let id = "";

  it("creates, reads, updates and lists a provider in the contract's shapes, never answering the key", async () => {
    const before = await body(await api("/api/groups/ai-providers/settings"));
    if (hasContract) assertContract("AIProviderSettingsOut", before);
    expect(before).toMatchObject({ providers: [], aiEnabled: false, defaultProviderId: null });

    const created = await api("/api/groups/ai-providers/providers", "POST", providerBody());
    expect(created.status).toBe(200);
    const out = await body(created);
    if (hasContract) assertContract("AIProviderOut", out);
    expect(out).toMatchObject({
      name: "Local model",
      model: "group-model",
      timeout: 30,
      requestHeaders: { "x-tenant": "home" },
    });
    expect(JSON.stringify(out)).not.toContain(SECRET);
    id = String(out.id);

    const got = await body(await api(`/api/groups/ai-providers/providers/${id}`));
    expect(got).toEqual(out);
    // An update without a key keeps the stored one (clients never see it to send it back).
    const updated = await body(
      await api(
        `/api/groups/ai-providers/providers/${id}`,
        "PUT",
        providerBody({ apiKey: "", name: "Renamed" }),
      ),
    );
    expect(updated).toMatchObject({ id, name: "Renamed" });

    const settings = await body(await api("/api/groups/ai-providers/settings"));
    if (hasContract) assertContract("AIProviderSettingsOut", settings);
    // The first provider serves chat until another is chosen.
    expect(settings).toMatchObject({
      defaultProviderId: id,
      aiEnabled: true,
      imageProviderEnabled: false,
      providers: [{ id, name: "Renamed" }],
    });
  });

  it("keeps the key only under .larder/, and the provider beside the group's other state", async () => {
    const files = await allFiles(t.dataDir);
    const holding = [];
    for (const f of files)
      if ((await readFile(f, "utf8").catch(() => "")).includes(SECRET))
        holding.push(f.slice(t.dataDir.length + 1));
    expect(holding).toEqual([join(".larder", "ai-provider-keys.json")]);
    expect(files.some((f) => f.endsWith(join("home", "ai-providers.json")))).toBe(true);
  });

  it("parses ingredients with the group's provider: its URL, key, model, headers and params", async () => {
    group.requests.length = 0;
    config.requests.length = 0;
    group.replies.push({
      content: JSON.stringify({
        ingredients: [
          { input: "2 cups flour", confidence: 90, quantity: 2, unit: "cup", food: "flour", note: "" },
        ],
      }),
    });
    const res = await api("/api/parser/ingredient", "POST", { parser: "openai", ingredient: "2 cups flour" });
    expect(res.status).toBe(200);
    expect(config.requests).toEqual([]);
    expect(group.requests).toHaveLength(1);
    const sent = group.requests[0];
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(sent.headers["x-tenant"]).toBe("home");
    expect(sent.body).toMatchObject({ model: "group-model", seed: "7" });
  });

  it("imports a photo with the image provider once one is selected, and the debug route names a provider", async () => {
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#e67e22" } })
      .png()
      .toBuffer();
    const upload = () => {
      const form = new FormData();
      form.append("images", new Blob([new Uint8Array(photo)], { type: "image/png" }), "card.png");
      return t.api("/api/recipes/create/image", { method: "POST", token, body: form });
    };
    const settings = await api("/api/groups/ai-providers/settings", "PUT", {
      defaultProviderId: id,
      audioProviderId: null,
      imageProviderId: id,
    });
    expect(await body(settings)).toMatchObject({ imageProviderId: id, imageProviderEnabled: true });
    group.requests.length = 0;
    const res = await upload();
    expect(res.status).toBe(201);
    expect(group.requests).toHaveLength(1);
    expect(JSON.stringify(group.requests[0].body.messages)).toContain("data:image/png;base64,");

    group.requests.length = 0;
    const debug = await t.api(`/api/admin/debug/openai/${id}`, { method: "POST", token });
    expect(await body(debug)).toMatchObject({ success: true });
    expect(group.requests).toHaveLength(1);
    expect(
      (await t.api(`/api/admin/debug/openai/${crypto.randomUUID()}`, { method: "POST", token })).status,
    ).toBe(404);
    expect((await t.api("/api/admin/debug/openai/not-a-uuid", { method: "POST", token })).status).toBe(422);
  });

  it("refuses settings naming an unknown provider, and ids that are not UUIDs", async () => {
    expect(
      (
        await api("/api/groups/ai-providers/settings", "PUT", {
          defaultProviderId: crypto.randomUUID(),
          audioProviderId: null,
          imageProviderId: null,
        })
      ).status,
    ).toBe(404);
    expect((await api("/api/groups/ai-providers/providers/nope")).status).toBe(422);
    const missing = await api("/api/groups/ai-providers/providers", "POST", { name: "No model" });
    expect(missing.status).toBe(422);
    expect(
      (await body<{ detail: Array<{ loc: unknown[]; type: string }> }>(missing)).detail[0],
    ).toMatchObject({ loc: ["body", "model"], type: "missing" });
  });

  it("lets members read but only managers and admins change providers; another group sees none of them", async () => {
    const member = await makeUser(t);
    expect((await api("/api/groups/ai-providers/settings", "GET", undefined, member.token)).status).toBe(200);
    expect(
      (await api("/api/groups/ai-providers/providers", "POST", providerBody(), member.token)).status,
    ).toBe(403);
    expect(
      (await api(`/api/groups/ai-providers/providers/${id}`, "DELETE", undefined, member.token)).status,
    ).toBe(403);
    const manager = await makeUser(t, { canManage: true });
    expect(
      (await api("/api/groups/ai-providers/providers", "PUT", providerBody(), manager.token)).status,
    ).toBe(405);
    const other = await makeUser(t, { canManage: true }, { group: await makeGroup(t, "Elsewhere") });
    expect(
      (await api(`/api/groups/ai-providers/providers/${id}`, "GET", undefined, other.token)).status,
    ).toBe(404);
    expect(
      await body(await api("/api/groups/ai-providers/settings", "GET", undefined, other.token)),
    ).toMatchObject({ providers: [] });
  });

  it("lets an admin manage any group's providers under /admin/groups/{group_id}", async () => {
    const elsewhere = t.larder.groups.bySlugOrNull("elsewhere");
    const gid = String(elsewhere?.doc.data.id);
    const created = await body(
      await api(`/api/admin/groups/${gid}/ai-providers/providers`, "POST", providerBody({ name: "Theirs" })),
    );
    if (hasContract) assertContract("AIProviderOut", created);
    const pid = String(created.id);
    expect(await body(await api(`/api/admin/groups/${gid}/ai-providers/providers/${pid}`))).toMatchObject({
      name: "Theirs",
    });
    expect(
      await body(
        await api(
          `/api/admin/groups/${gid}/ai-providers/providers/${pid}`,
          "PUT",
          providerBody({ name: "Still theirs" }),
        ),
      ),
    ).toMatchObject({ name: "Still theirs" });
    // Not visible in the admin's own group.
    expect((await api(`/api/groups/ai-providers/providers/${pid}`)).status).toBe(404);
    expect(
      await body(await api(`/api/admin/groups/${gid}/ai-providers/providers/${pid}`, "DELETE")),
    ).toMatchObject({ id: pid });
    expect((await api(`/api/admin/groups/${gid}/ai-providers/providers/${pid}`)).status).toBe(404);
    const member = await makeUser(t, { canManage: true });
    expect(
      (await api(`/api/admin/groups/${gid}/ai-providers/providers`, "POST", providerBody(), member.token))
        .status,
    ).toBe(403);
    expect(
      (await api(`/api/admin/groups/${crypto.randomUUID()}/ai-providers/providers`, "POST", providerBody()))
        .status,
    ).toBe(404);
  });

  it("falls back to OPENAI_* once the group's provider is deleted, and forgets its key", async () => {
    const { group: homeGroup } = home(t);
    expect(homeGroup.slug).toBe("home");
    expect(await body(await api(`/api/groups/ai-providers/providers/${id}`, "DELETE"))).toMatchObject({ id });
    expect(await body(await api("/api/groups/ai-providers/settings"))).toMatchObject({
      defaultProviderId: null,
      imageProviderId: null,
      aiEnabled: false,
    });
    const keys = await readFile(join(t.dataDir, ".larder", "ai-provider-keys.json"), "utf8");
    expect(keys).not.toContain(SECRET);
    config.requests.length = 0;
    config.replies.push({
      content: JSON.stringify({
        ingredients: [{ input: "1 egg", confidence: 90, quantity: 1, unit: "", food: "egg", note: "" }],
      }),
    });
    expect(
      (await api("/api/parser/ingredient", "POST", { parser: "openai", ingredient: "1 egg" })).status,
    ).toBe(200);
    expect(config.requests).toHaveLength(1);
    expect(config.requests[0].headers.authorization).toBe("Bearer sk-config");
  });
});

describe("AI endpoints on the local network (decision 0081)", () => {
  let strict: TestServer;
  let strictToken: string;
  beforeAll(async () => {
    // No LARDER_FETCH_ALLOW: OPENAI_BASE_URL (the administrator's) may be on loopback, a group's provider may not.
    strict = await startTestServer({
      openai: { BASE_URL: config.baseUrl, API_KEY: "sk-config", MODEL: "config-model" },
    });
    strictToken = await strict.login();
  });
  afterAll(async () => {
    await strict?.close();
  });
  const parse = () =>
    strict.api("/api/parser/ingredient", {
      method: "POST",
      token: strictToken,
      json: { parser: "openai", ingredient: "3 eggs" },
    });

  it("lets the parser reach OPENAI_BASE_URL on loopback, as photo import does", async () => {
    config.requests.length = 0;
    config.replies.push({
      content: JSON.stringify({
        ingredients: [{ input: "3 eggs", confidence: 90, quantity: 3, unit: "", food: "eggs", note: "" }],
      }),
    });
    expect((await parse()).status).toBe(200);
    expect(config.requests).toHaveLength(1);
  });

  it("refuses a group provider on loopback that LARDER_FETCH_ALLOW does not list, for the parser and photo import", async () => {
    const made = await body(
      await strict.api("/api/groups/ai-providers/providers", {
        method: "POST",
        token: strictToken,
        json: providerBody(),
      }),
    );
    await strict.api("/api/groups/ai-providers/settings", {
      method: "PUT",
      token: strictToken,
      json: { defaultProviderId: made.id, audioProviderId: null, imageProviderId: made.id },
    });
    group.requests.length = 0;
    const res = await parse();
    expect(res.status).toBeGreaterThanOrEqual(400);
    const photo = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#16a085" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("images", new Blob([new Uint8Array(photo)], { type: "image/png" }), "card.png");
    const img = await strict.api("/api/recipes/create/image", {
      method: "POST",
      token: strictToken,
      body: form,
    });
    expect(img.status).toBeGreaterThanOrEqual(400);
    expect(group.requests).toEqual([]);
  });
});
