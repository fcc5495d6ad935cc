import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { otherGroup, secondHousehold } from "../support/members.js";
import { startRecorder, type Recorder } from "../support/recorder.js";

let t: TestServer;
let token: string;
let rec: Recorder;
const planned: unknown[] = [];

beforeAll(async () => {
  rec = await startRecorder();
  // Loopback is private: only the allow-list entry lets webhooks reach the local receiver.
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  token = await t.login();
  t.larder.webhooks.useMealPlans({ entriesBetween: async () => planned });
});
afterAll(async () => {
  await t?.close();
  await rec?.close();
});

type Hook = {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
  scheduledTime: string;
  groupId: string;
  householdId: string;
  webhookType: string;
};
const create = (json: unknown, tok = token) =>
  t.api("/api/households/webhooks", { method: "POST", token: tok, json });

describe("webhooks API", () => {
  it("does CRUD in the contract's shapes", async () => {
    const res = await create({ name: "Display", url: `${rec.url}/display`, scheduledTime: "07:30" });
    expect(res.status).toBe(201);
    const hook = (await res.json()) as Hook;
    if (hasContract) assertContract("ReadWebhook", hook);
    expect(hook).toMatchObject({
      name: "Display",
      enabled: true,
      webhookType: "mealplan",
      scheduledTime: "07:30:00",
    });
    const page = await (
      await t.api("/api/households/webhooks?orderBy=name&orderDirection=asc", { token })
    ).json();
    if (hasContract) assertContract("WebhookPagination", page);
    expect((page as { items: Hook[] }).items.map((h) => h.id)).toContain(hook.id);
    const put = await t.api(`/api/households/webhooks/${hook.id}`, {
      method: "PUT",
      token,
      json: { ...hook, enabled: false, scheduledTime: "19:00:00" },
    });
    expect(put.status).toBe(200);
    const updated = (await put.json()) as Hook;
    if (hasContract) assertContract("ReadWebhook", updated);
    expect(updated).toMatchObject({ enabled: false, scheduledTime: "19:00:00" });
    const got = (await (await t.api(`/api/households/webhooks/${hook.id}`, { token })).json()) as Hook;
    expect(got).toEqual(updated);
    const self = (await (await t.api("/api/households/self", { token })).json()) as { webhooks: Hook[] };
    if (hasContract) assertContract("HouseholdInDB", self);
    expect(self.webhooks).toContainEqual(updated);
    const del = await t.api(`/api/households/webhooks/${hook.id}`, { method: "DELETE", token });
    expect(del.status).toBe(200);
    if (hasContract) assertContract("ReadWebhook", await del.json());
    expect((await t.api(`/api/households/webhooks/${hook.id}`, { token })).status).toBe(404);
  });

  it("accepts Mealie's blank new webhook, and refuses bad times and non-http URLs (422)", async () => {
    const blank = await create({ scheduledTime: "00:00" });
    expect(blank.status).toBe(201);
    expect(await blank.json()).toMatchObject({ name: "", url: "", enabled: true });
    for (const body of [
      { url: "http://example.org" },
      { scheduledTime: "24:30" },
      { scheduledTime: "08:00", url: "ftp://example.org/x" },
      { scheduledTime: "08:00", url: "not a url" },
      { scheduledTime: "08:00", webhookType: "shopping" },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(((await res.json()) as { detail: unknown[] }).detail.length).toBeGreaterThan(0);
    }
  });

  it("test really sends today's digest and waits for the answer", async () => {
    planned.length = 0;
    planned.push({
      id: 7,
      date: new Date().toISOString().slice(0, 10),
      entryType: "lunch",
      title: "Soup",
      text: "",
    });
    const hook = (await (
      await create({ name: "Test me", url: `${rec.url}/test-me`, scheduledTime: "03:00" })
    ).json()) as Hook;
    const before = rec.requests.length;
    const res = await t.api(`/api/households/webhooks/${hook.id}/test`, { method: "POST", token });
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
    const got = rec.requests[before];
    expect(got.path).toBe("/test-me");
    const body = JSON.parse(got.body) as { eventType: number; documentData: { webhookBody: unknown[] } };
    expect(body.eventType).toBe(2);
    expect(body.documentData.webhookBody).toEqual(planned);
  });

  it("test reports a receiver that answers 500 as a 400 with the reason", async () => {
    const hook = (await (
      await create({ name: "Broken", url: `${rec.url}/broken`, scheduledTime: "03:00" })
    ).json()) as Hook;
    rec.answersFor["/broken"] = [{ status: 500, body: "boom" }];
    const res = await t.api(`/api/households/webhooks/${hook.id}/test`, { method: "POST", token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: { message: string } }).detail.message).toMatch(
      /webhook test failed.*500/i,
    );
    // The server is still there.
    expect((await t.api("/api/households/webhooks", { token })).status).toBe(200);
  });

  it("rerun sends today's webhooks whose time has passed, and only those", async () => {
    planned.length = 0;
    planned.push({
      id: 8,
      date: new Date().toISOString().slice(0, 10),
      entryType: "dinner",
      title: "Stew",
      text: "",
    });
    const nowSec = new Date().getUTCHours() * 3600 + new Date().getUTCMinutes() * 60;
    // Midnight is always in [midnight, now]; a time an hour or so ahead is not (unless it is late in the day).
    const past = (await (
      await create({ name: "Morning", url: `${rec.url}/rerun-past`, scheduledTime: "00:00:01" })
    ).json()) as Hook;
    const aheadSec = Math.min(nowSec + 3600, 86399);
    const ahead = new Date(aheadSec * 1000).toISOString().slice(11, 19);
    await create({ name: "Later", url: `${rec.url}/rerun-later`, scheduledTime: ahead });
    const before = rec.requests.length;
    const res = await t.api("/api/households/webhooks/rerun", { method: "POST", token });
    expect(res.status).toBe(200);
    const paths = rec.requests.slice(before).map((r) => r.path);
    expect(paths).toContain("/rerun-past");
    if (aheadSec > nowSec + 60) expect(paths).not.toContain("/rerun-later");
    expect(past.scheduledTime).toBe("00:00:01");
  });

  it("keeps other households and groups out (404)", async () => {
    const hook = (await (
      await create({ name: "Ours", url: `${rec.url}/ours`, scheduledTime: "05:00" })
    ).json()) as Hook;
    for (const m of [await secondHousehold(t, "Hook Neighbours"), await otherGroup(t, "Hook Strangers")]) {
      expect((await t.api(`/api/households/webhooks/${hook.id}`, { token: m.token })).status).toBe(404);
      expect(
        (
          await t.api(`/api/households/webhooks/${hook.id}`, {
            method: "PUT",
            token: m.token,
            json: { scheduledTime: "01:00" },
          })
        ).status,
      ).toBe(404);
      expect(
        (await t.api(`/api/households/webhooks/${hook.id}/test`, { method: "POST", token: m.token })).status,
      ).toBe(404);
      expect(
        (await t.api(`/api/households/webhooks/${hook.id}`, { method: "DELETE", token: m.token })).status,
      ).toBe(404);
      const list = (await (await t.api("/api/households/webhooks", { token: m.token })).json()) as {
        items: Hook[];
      };
      expect(list.items.some((h) => h.id === hook.id)).toBe(false);
    }
  });
});

describe("webhooks without an allow-list", () => {
  it("refuses private and loopback URLs on save (422) and never reaches them", async () => {
    const strict = await startTestServer();
    try {
      const tok = await strict.login();
      const before = rec.requests.length;
      for (const url of [
        `${rec.url}/leak`,
        "http://localhost:8123/api/webhook/x",
        "http://10.0.0.7/hook",
        "http://[::1]:9/x",
        "http://169.254.169.254/latest/meta-data",
        "http://192.168.1.2/",
      ]) {
        const res = await strict.api("/api/households/webhooks", {
          method: "POST",
          token: tok,
          json: { url, scheduledTime: "08:00" },
        });
        expect(res.status, url).toBe(422);
        const detail = ((await res.json()) as { detail: Array<{ loc: string[]; msg: string }> }).detail[0];
        expect(detail.loc).toEqual(["body", "url"]);
        expect(detail.msg).toContain("LARDER_FETCH_ALLOW");
      }
      // A public name is accepted on save; what it resolves to is checked on every send.
      const ok = await strict.api("/api/households/webhooks", {
        method: "POST",
        token: tok,
        json: { url: "https://hooks.example.org/x", scheduledTime: "08:00" },
      });
      expect(ok.status).toBe(201);
      expect(rec.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});
