/** Existing writes publish Mealie's events on larder.events (mealie-api-notes §9). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import type { LarderEvent } from "../../core/events/bus.js";

let t: TestServer;
let token: string;
const events: LarderEvent[] = [];
beforeAll(async () => {
  t = await startTestServer({ allowSignup: true });
  token = await t.login();
  t.larder.events.subscribe((e) => void events.push(e));
});
afterAll(async () => t?.close());

const since = async (n: number) => {
  await t.larder.events.idle();
  return events.slice(n).map((e) => ({ type: e.eventType, data: e.documentData, household: e.householdId }));
};

describe("events of existing writes", () => {
  it("recipe create, update, last-made and delete publish recipe_* with the slug, for the owner's household", async () => {
    const n = events.length;
    const slug = (await (
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Evented Stew" } })
    ).json()) as string;
    await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { description: "warm" } });
    await t.api(`/api/recipes/${slug}/last-made`, {
      method: "PATCH",
      token,
      json: { timestamp: new Date().toISOString() },
    });
    await t.api(`/api/recipes/${slug}`, { method: "DELETE", token });
    const got = await since(n);
    const me = (await (await t.api("/api/users/self", { token })).json()) as { householdId: string };
    expect(got).toEqual([
      {
        type: "recipe_created",
        data: { documentType: "recipe", operation: "create", recipeSlug: slug },
        household: me.householdId,
      },
      {
        type: "recipe_updated",
        data: { documentType: "recipe", operation: "update", recipeSlug: slug },
        household: me.householdId,
      },
      {
        type: "recipe_updated",
        data: { documentType: "recipe", operation: "update", recipeSlug: slug },
        household: me.householdId,
      },
      {
        type: "recipe_deleted",
        data: { documentType: "recipe", operation: "delete", recipeSlug: slug },
        household: me.householdId,
      },
    ]);
  });

  it("timeline event create, update and delete publish recipe_updated with a recipe_timeline_event document", async () => {
    const slug = (await (
      await t.api("/api/recipes", { method: "POST", token, json: { name: "Timeline Tart" } })
    ).json()) as string;
    const recipe = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { id: string };
    const n = events.length;
    const ev = (await (
      await t.api("/api/recipes/timeline/events", {
        method: "POST",
        token,
        json: { recipeId: recipe.id, subject: "Baked it", eventType: "info" },
      })
    ).json()) as { id: string };
    await t.api(`/api/recipes/timeline/events/${ev.id}`, {
      method: "PUT",
      token,
      json: { subject: "Baked it twice" },
    });
    await t.api(`/api/recipes/timeline/events/${ev.id}`, { method: "DELETE", token });
    const got = (await since(n)).filter((e) => e.data.documentType === "recipe_timeline_event");
    expect(got.map((e) => [e.type, e.data.operation])).toEqual([
      ["recipe_updated", "create"],
      ["recipe_updated", "update"],
      ["recipe_updated", "delete"],
    ]);
    expect(got[0].data).toEqual({
      documentType: "recipe_timeline_event",
      operation: "create",
      recipeSlug: slug,
      recipeTimelineEventId: ev.id,
    });
  });

  it("cookbook writes publish cookbook_* with the id; tags and categories publish group-wide; tools publish nothing", async () => {
    const n = events.length;
    const cb = (await (
      await t.api("/api/households/cookbooks", { method: "POST", token, json: { name: "Evented Book" } })
    ).json()) as { id: string };
    await t.api(`/api/households/cookbooks/${cb.id}`, {
      method: "PUT",
      token,
      json: { name: "Evented Book 2" },
    });
    await t.api(`/api/households/cookbooks/${cb.id}`, { method: "DELETE", token });
    const tag = (await (
      await t.api("/api/organizers/tags", { method: "POST", token, json: { name: "evented tag" } })
    ).json()) as { id: string };
    await t.api(`/api/organizers/tags/${tag.id}`, { method: "PUT", token, json: { name: "evented tag 2" } });
    await t.api(`/api/organizers/tags/${tag.id}`, { method: "DELETE", token });
    const cat = (await (
      await t.api("/api/organizers/categories", { method: "POST", token, json: { name: "evented cat" } })
    ).json()) as { id: string };
    await t.api("/api/organizers/tools", { method: "POST", token, json: { name: "evented tool" } });
    const got = await since(n);
    expect(got.map((e) => e.type)).toEqual([
      "cookbook_created",
      "cookbook_updated",
      "cookbook_deleted",
      "tag_created",
      "tag_updated",
      "tag_deleted",
      "category_created",
    ]);
    expect(got[0].data).toEqual({ documentType: "cookbook", operation: "create", cookbookId: cb.id });
    expect(got[3]).toMatchObject({
      data: { documentType: "tag", operation: "create", tagId: tag.id },
      household: null,
    });
    expect(got[6]).toMatchObject({
      data: { documentType: "category", operation: "create", categoryId: cat.id },
      household: null,
    });
  });

  it("sign-up publishes user_signup with the username and email, integration 'registration'", async () => {
    const n = events.length;
    const res = await t.api("/api/users/register", {
      method: "POST",
      json: {
        group: "Evented Group",
        username: "evented",
        email: "evented@example.com",
        fullName: "Ev Ented",
        password: "Str0ng-Passphrase!",
        passwordConfirm: "Str0ng-Passphrase!",
      },
    });
    expect(res.status).toBe(201);
    await t.larder.events.idle();
    const e = events.slice(n).find((x) => x.eventType === "user_signup");
    expect(e?.documentData).toEqual({
      documentType: "user",
      operation: "create",
      username: "evented",
      email: "evented@example.com",
    });
    expect(e?.integrationId).toBe("registration");
  });
});
