/**
 * The week and its messengers together: meal plans written through the API reach webhooks (the digest
 * reads larder.mealplans), and the writes' events reach notifiers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { newRecipe } from "../support/members.js";
import { startRecorder, type Recorder } from "../support/recorder.js";

let t: TestServer;
let token: string;
let rec: Recorder;

beforeAll(async () => {
  rec = await startRecorder();
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
  await rec?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

describe("meal plans to webhooks, writes to notifiers", () => {
  it("the webhook digest carries the household's planned entries in ReadPlanEntry's shape", async () => {
    const { id: recipeId } = await newRecipe(t, token, "Digest Dal");
    const plan = await t.api("/api/households/mealplans", {
      method: "POST",
      token,
      json: { date: today(), entryType: "dinner", recipeId },
    });
    expect(plan.status).toBe(201);
    const entry = (await plan.json()) as { id: number };
    const hook = (await (
      await t.api("/api/households/webhooks", {
        method: "POST",
        token,
        json: { name: "Digest", url: `${rec.url}/digest`, scheduledTime: "00:00:01" },
      })
    ).json()) as { id: string };
    const before = rec.requests.length;
    expect((await t.api(`/api/households/webhooks/${hook.id}/test`, { method: "POST", token })).status).toBe(
      200,
    );
    const body = JSON.parse(rec.requests[before].body) as {
      eventType: number;
      documentData: { webhookBody: Array<Record<string, unknown>> };
    };
    expect(body.eventType).toBe(2);
    const sent = body.documentData.webhookBody.find((e) => e.id === entry.id);
    expect(sent).toMatchObject({ date: today(), entryType: "dinner", recipeId });
    if (hasContract) assertContract("ReadPlanEntry", sent);
    // Rerun: midnight..now holds 00:00:01, and today has a planned meal.
    const beforeRerun = rec.requests.length;
    expect((await t.api("/api/households/webhooks/rerun", { method: "POST", token })).status).toBe(200);
    expect(rec.requests.slice(beforeRerun).map((r) => r.path)).toContain("/digest");
  });

  it("a notifier hears of recipe and meal-plan writes made through the API", async () => {
    const created = (await (
      await t.api("/api/households/events/notifications", {
        method: "POST",
        token,
        json: { name: "All", appriseUrl: `json://127.0.0.1:${rec.port}/events` },
      })
    ).json()) as { id: string; options: Record<string, unknown> };
    await t.api(`/api/households/events/notifications/${created.id}`, {
      method: "PUT",
      token,
      json: { ...created, options: { recipeCreated: true, mealplanEntryCreated: true } },
    });
    const before = rec.requests.length;
    const { id: recipeId } = await newRecipe(t, token, "Notified Noodles");
    await t.api("/api/households/mealplans", {
      method: "POST",
      token,
      json: { date: today(), entryType: "lunch", recipeId },
    });
    await t.larder.notifiers.idle();
    const types = rec.requests
      .slice(before)
      .filter((r) => r.path === "/events")
      .map((r) => (JSON.parse(r.body) as { event_type: string }).event_type);
    expect(types).toContain("recipe_created");
    expect(types).toContain("mealplan_entry_created");
  });
});
