import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { otherGroup, secondHousehold, type Member } from "../support/members.js";
import { startRecorder, type Recorder } from "../support/recorder.js";
import { definePlugin } from "../../core/plugins/define.js";
import type { PublishInput } from "../../core/events/index.js";

let t: TestServer;
let token: string;
let rec: Recorder;

beforeAll(async () => {
  rec = await startRecorder();
  // Loopback is private: only the allow-list entry lets notifiers reach the local stand-in.
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
  await rec?.close();
});

type Notifier = {
  id: string;
  name: string;
  enabled: boolean;
  groupId: string;
  householdId: string;
  options: Record<string, boolean | string>;
};
const BASE = "/api/households/events/notifications";
const create = (json: unknown, tok = token) => t.api(BASE, { method: "POST", token: tok, json });
async function notifier(
  name: string,
  appriseUrl: string | null,
  options: Record<string, boolean> = {},
  tok = token,
): Promise<Notifier> {
  const res = await create({ name, appriseUrl }, tok);
  if (res.status !== 201) throw new Error(`create notifier: ${res.status} ${await res.text()}`);
  const n = (await res.json()) as Notifier;
  if (Object.keys(options).length === 0) return n;
  const put = await t.api(`${BASE}/${n.id}`, {
    method: "PUT",
    token: tok,
    json: { ...n, options: { ...n.options, ...options } },
  });
  return (await put.json()) as Notifier;
}
const hookUrl = (path: string) => `json://127.0.0.1:${rec.port}${path}`;

async function filesOutsidePrivate(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === ".larder") continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOutsidePrivate(p)));
    else out.push(p);
  }
  return out;
}

describe("notifiers API", () => {
  it("does CRUD in the contract's shapes and never returns the Apprise URL", async () => {
    const secret = "tk_never_shown_123";
    const res = await create({ name: "Phone", appriseUrl: `ntfy://${secret}@127.0.0.1:${rec.port}/family` });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(secret);
    const n = JSON.parse(text) as Notifier;
    if (hasContract) assertContract("GroupEventNotifierOut", n);
    expect(n).toMatchObject({ name: "Phone", enabled: true });
    expect(
      Object.entries(n.options)
        .filter(([k]) => k !== "id")
        .every(([, v]) => v === false),
    ).toBe(true);

    const page = await t.api(`${BASE}?orderBy=name&orderDirection=asc`, { token });
    const pageText = await page.text();
    expect(pageText).not.toContain(secret);
    if (hasContract) assertContract("GroupEventPagination", JSON.parse(pageText));

    // A PUT without appriseUrl (clients never see it) keeps it; options not sent keep their value; snake_case is read too.
    const put = await t.api(`${BASE}/${n.id}`, {
      method: "PUT",
      token,
      json: { ...n, name: "Phones", appriseUrl: null, options: { recipeCreated: true, tag_deleted: true } },
    });
    expect(put.status).toBe(200);
    const updated = (await put.json()) as Notifier;
    if (hasContract) assertContract("GroupEventNotifierOut", updated);
    expect(updated).toMatchObject({
      name: "Phones",
      options: { recipeCreated: true, tagDeleted: true, recipeDeleted: false, id: n.options.id },
    });
    const got = await t.api(`${BASE}/${n.id}`, { token });
    expect(got.headers.get("cache-control")).toBe("no-cache, no-store, must-revalidate");
    if (hasContract) assertContract("GroupEventNotifierOut", await got.json());
    const before = rec.requests.length;
    expect((await t.api(`${BASE}/${n.id}/test`, { method: "POST", token })).status).toBe(204);
    expect(rec.requests[before].headers.authorization).toBe(`Bearer ${secret}`);

    // The secret lives in .larder/ (mode 0600), in no file git would track.
    const secrets = join(t.dataDir, ".larder", "notifier-urls.json");
    expect(await readFile(secrets, "utf8")).toContain(secret);
    expect((await stat(secrets)).mode & 0o777).toBe(0o600);
    for (const f of await filesOutsidePrivate(t.dataDir))
      expect(await readFile(f, "utf8"), f).not.toContain(secret);
    const household = await readFile(
      join(t.dataDir, "groups", "home", "households", "family", "notifiers.json"),
      "utf8",
    );
    expect(household).toContain("Phones");

    const del = await t.api(`${BASE}/${n.id}`, { method: "DELETE", token });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
    expect((await t.api(`${BASE}/${n.id}`, { token })).status).toBe(404);
    expect(await readFile(secrets, "utf8")).not.toContain(secret);
  });

  it("refuses unknown schemes and unusable URLs (422, naming appriseUrl)", async () => {
    for (const appriseUrl of [
      "pushover://user@token",
      "https://example.org/hook",
      "tgram://nonsense/1",
      "gotify://example.org",
      "ntfy://example.org/topic?priority=loud",
    ]) {
      const res = await create({ name: "Bad", appriseUrl });
      expect(res.status, appriseUrl).toBe(422);
      const detail = ((await res.json()) as { detail: Array<{ loc: string[]; msg: string }> }).detail[0];
      expect(detail.loc).toEqual(["body", "appriseUrl"]);
    }
    // Header injection through Apprise's +Header option is refused on save; the json plugin stays enabled.
    const injected = await create({
      name: "Bad",
      appriseUrl: `${hookUrl("/x")}?+X-Note=a%0D%0AX-Injected:%20yes`,
    });
    expect(injected.status).toBe(422);
    expect(((await injected.json()) as { detail: Array<{ msg: string }> }).detail[0].msg).toMatch(
      /line break/,
    );
    const ntfyToken = await create({
      name: "Bad",
      appriseUrl: `ntfy://127.0.0.1:${rec.port}/t?token=tk_a%0D%0AX:%20y`,
    });
    expect(ntfyToken.status).toBe(422);
    expect(t.larder.plugins.list().find((p) => p.name === "json")?.state).toBe("loaded");
    const unknown = await create({ name: "Bad", appriseUrl: "pushover://user@token" });
    expect(((await unknown.json()) as { detail: Array<{ msg: string }> }).detail[0].msg).toMatch(
      /Unknown notifier scheme 'pushover'.*ntfy:\/\//,
    );
    expect((await create({ appriseUrl: hookUrl("/x") })).status).toBe(422);
  });

  it("a notifier without a URL can be saved; its test says it has none", async () => {
    const n = await notifier("Later", null);
    const res = await t.api(`${BASE}/${n.id}/test`, { method: "POST", token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: { message: string } }).detail.message).toMatch(/no Apprise URL/);
  });

  it("test sends Mealie's Test Message, and reports a service answering 500 as a 400", async () => {
    const n = await notifier("Tester", hookUrl("/test-message"));
    const before = rec.requests.length;
    expect((await t.api(`${BASE}/${n.id}/test`, { method: "POST", token })).status).toBe(204);
    const body = JSON.parse(rec.requests[before].body) as Record<string, string>;
    expect(body).toMatchObject({
      title: "Test Message",
      message: "This is a test event.",
      event_type: "test_message",
    });
    rec.answersFor["/test-down"] = [{ status: 500 }];
    const down = await notifier("Down", hookUrl("/test-down"));
    const res = await t.api(`${BASE}/${down.id}/test`, { method: "POST", token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: { message: string } }).detail.message).toMatch(
      /notifier test failed.*500/i,
    );
  });

  it("keeps other households and groups out (404)", async () => {
    const n = await notifier("Ours", hookUrl("/ours"));
    for (const m of [
      await secondHousehold(t, "Notifier Neighbours"),
      await otherGroup(t, "Notifier Strangers"),
    ]) {
      expect((await t.api(`${BASE}/${n.id}`, { token: m.token })).status).toBe(404);
      expect(
        (await t.api(`${BASE}/${n.id}`, { method: "PUT", token: m.token, json: { name: "x" } })).status,
      ).toBe(404);
      expect((await t.api(`${BASE}/${n.id}/test`, { method: "POST", token: m.token })).status).toBe(404);
      expect((await t.api(`${BASE}/${n.id}`, { method: "DELETE", token: m.token })).status).toBe(404);
      const list = (await (await t.api(BASE, { token: m.token })).json()) as { items: Notifier[] };
      expect(list.items.some((x) => x.id === n.id)).toBe(false);
    }
  });
});

describe("events to notifiers", () => {
  let neighbour: Member;
  let stranger: Member;
  let ours: Notifier;

  beforeAll(async () => {
    neighbour = await secondHousehold(t, "Event Neighbours");
    stranger = await otherGroup(t, "Event Strangers");
    ours = await notifier("Recipes", hookUrl("/ev/ours"), { recipeCreated: true, tagCreated: true });
    await notifier("Quiet", hookUrl("/ev/quiet"), { recipeDeleted: true });
    const off = await notifier("Off", hookUrl("/ev/off"), { recipeCreated: true });
    await t.api(`${BASE}/${off.id}`, { method: "PUT", token, json: { ...off, enabled: false } });
    await notifier(
      "Neighbour",
      hookUrl("/ev/neighbour"),
      { recipeCreated: true, tagCreated: true },
      neighbour.token,
    );
    await notifier(
      "Stranger",
      hookUrl("/ev/stranger"),
      { recipeCreated: true, tagCreated: true },
      stranger.token,
    );
  });

  async function deliveries(input: PublishInput): Promise<string[]> {
    const before = rec.requests.length;
    t.larder.events.publish(input);
    await t.larder.notifiers.idle();
    return rec.requests
      .slice(before)
      .map((r) => r.path)
      .sort();
  }

  it("sends a household's event to its enabled notifiers whose option is on, with Mealie's fields", async () => {
    const before = rec.requests.length;
    const paths = await deliveries({
      eventType: "recipe_created",
      groupId: ours.groupId,
      householdId: ours.householdId,
      documentData: { documentType: "recipe", operation: "create", recipeSlug: "soup" },
    });
    expect(paths).toEqual(["/ev/ours"]);
    const body = JSON.parse(rec.requests[before].body) as Record<string, string>;
    expect(body).toMatchObject({
      title: "Recipe Created",
      message: "generic",
      event_type: "recipe_created",
      integration_id: "generic",
    });
    expect(JSON.parse(body.document_data)).toEqual({
      documentType: "recipe",
      operation: "create",
      recipeSlug: "soup",
    });
    expect(body.event_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends a group-wide event (household null) to every household of the group, and no other group", async () => {
    const paths = await deliveries({
      eventType: "tag_created",
      groupId: ours.groupId,
      householdId: null,
      documentData: {
        documentType: "tag",
        operation: "create",
        tagId: "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10",
      },
    });
    expect(paths).toEqual(["/ev/neighbour", "/ev/ours"]);
  });

  it("a service that fails is logged; the event still reaches the others and the server stays up", async () => {
    rec.answersFor["/ev/ours"] = ["hang"];
    const fast = await notifier("Fast", hookUrl("/ev/fast"), { cookbookCreated: true });
    const slow = await notifier("Slow", `json://127.0.0.1:${rec.port}/ev/ours`, { cookbookCreated: true });
    const before = rec.requests.length;
    t.larder.events.publish({
      eventType: "cookbook_created",
      groupId: ours.groupId,
      householdId: ours.householdId,
      documentData: { documentType: "cookbook", operation: "create", cookbookId: fast.id },
    });
    await rec.next(before + 1);
    expect((await t.api(BASE, { token })).status).toBe(200);
    expect(
      rec.requests
        .slice(before)
        .map((r) => r.path)
        .sort(),
    ).toEqual(["/ev/fast", "/ev/ours"]);
    await t.api(`${BASE}/${slow.id}`, { method: "DELETE", token });
  });
});

describe("a notifier plugin that throws", () => {
  it("is disabled and reported; the server stays up and names the scheme as disabled", async () => {
    t.larder.plugins.register(
      definePlugin({
        kind: "notifier",
        name: "broken-bell",
        schemes: ["bell"],
        check: () => [],
        send: async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'ring')");
        },
      }),
      "test",
    );
    const n = await notifier("Bell", "bell://kitchen");
    const res = await t.api(`${BASE}/${n.id}/test`, { method: "POST", token });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { detail: { message: string } }).detail.message).toMatch(
      /'broken-bell' failed and has been disabled/,
    );
    expect(t.larder.plugins.list().find((p) => p.name === "broken-bell")).toMatchObject({
      state: "disabled",
      error: expect.stringContaining("ring"),
    });
    const again = await create({ name: "Bell 2", appriseUrl: "bell://hall" });
    expect(again.status).toBe(422);
    expect(((await again.json()) as { detail: Array<{ msg: string }> }).detail[0].msg).toMatch(
      /bell:\/\/ is disabled/,
    );
    expect((await t.api(BASE, { token })).status).toBe(200);
  });
});

describe("a hand-broken notifier file", () => {
  it("refuses changes (409) before writing either file, and leaves the broken file as it is", async () => {
    const first = await startTestServer({ fetchAllow: "127.0.0.1" });
    const dataDir = first.dataDir;
    const tok = await first.login();
    await first.api(BASE, {
      method: "POST",
      token: tok,
      json: { name: "Kept", appriseUrl: hookUrl("/kept") },
    });
    await first.server.close();
    await first.larder.close();
    const secrets = join(dataDir, ".larder", "notifier-urls.json");
    const household = join(dataDir, "groups", "home", "households", "family", "notifiers.json");
    await writeFile(secrets, '{"urls": {');
    const before = await readFile(household, "utf8");
    const again = await startTestServer({ fetchAllow: "127.0.0.1" }, { dataDir });
    try {
      const res = await again.api(BASE, {
        method: "POST",
        token: await again.login(),
        json: { name: "New", appriseUrl: hookUrl("/new") },
      });
      expect(res.status).toBe(409);
      expect(await readFile(secrets, "utf8")).toBe('{"urls": {');
      expect(await readFile(household, "utf8")).toBe(before);
    } finally {
      await again.close();
      await rm(join(dataDir, ".."), { recursive: true, force: true });
    }
  });
});

describe("notifiers without an allow-list", () => {
  it("refuses private and loopback targets on save (422)", async () => {
    const strict = await startTestServer();
    try {
      const tok = await strict.login();
      for (const appriseUrl of [
        hookUrl("/leak"),
        "ntfy://localhost/topic",
        "gotify://10.1.2.3/AbCdEf.123456",
        "form://[::1]:8080/x",
        "json://0x7f000001/x",
        "mailtos://me:pw@example.org?smtp=192.168.1.10",
      ]) {
        const res = await strict.api(BASE, {
          method: "POST",
          token: tok,
          json: { name: "Private", appriseUrl },
        });
        expect(res.status, appriseUrl).toBe(422);
        expect(
          ((await res.json()) as { detail: Array<{ msg: string }> }).detail[0].msg,
          appriseUrl,
        ).toContain("LARDER_FETCH_ALLOW");
      }
      const pub = await strict.api(BASE, {
        method: "POST",
        token: tok,
        json: { name: "Public", appriseUrl: "discord://123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz_-0123" },
      });
      expect(pub.status).toBe(201);
    } finally {
      await strict.close();
    }
  });
});
