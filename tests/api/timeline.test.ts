import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { addMember, newRecipe, otherGroup, type Member } from "../support/members.js";

let t: TestServer;
let token: string;
let adminId: string;
let b: Member;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  adminId = ((await (await t.api("/api/users/self", { token })).json()) as { id: string }).id;
  b = await addMember(t);
});
afterAll(async () => t?.close());

type Ev = {
  id: string;
  recipeId: string;
  subject: string;
  eventType: string;
  eventMessage: string | null;
  image: string;
  timestamp: string;
  userId: string;
};
const events = async (query: string, tok = token) =>
  (await (
    await t.api(`/api/recipes/timeline/events?perPage=-1&queryFilter=${encodeURIComponent(query)}`, {
      token: tok,
    })
  ).json()) as { items: Ev[] };

describe("timeline events", () => {
  it("gives every recipe created through the API a 'Recipe Created' system event", async () => {
    const { id } = await newRecipe(t, token, "Eventful Bread");
    const page = await events(`recipe_id="${id}"`);
    if (hasContract) assertContract("RecipeTimelineEventPagination", page);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ subject: "Recipe Created", eventType: "system", userId: adminId });
    // A duplicate is a new recipe too.
    const dup = (await (
      await t.api(`/api/recipes/eventful-bread/duplicate`, {
        method: "POST",
        token,
        json: { name: "Eventful Bread Copy" },
      })
    ).json()) as { id: string };
    expect((await events(`recipeId="${dup.id}"`)).items.map((e) => e.subject)).toEqual(["Recipe Created"]);
  });

  it("adds none for a recipe file made by hand (only Larder's own creates count)", async () => {
    const dir = join(t.dataDir, "groups", "home", "recipes");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "hand-made-jam.md"), "---\nname: Hand Made Jam\n---\nSweet.\n");
    await t.larder.recipes.store.reload("home", "hand-made-jam");
    const r = (await (await t.api("/api/recipes/hand-made-jam", { token })).json()) as { id: string };
    expect(r.id).toBeTruthy();
    expect((await events(`recipeId="${r.id}"`)).items).toEqual([]);
  });

  it("creates (201), reads, edits partially, deletes (200 with the event), then 404", async () => {
    const { id } = await newRecipe(t, token, "Timeline Soup");
    expect(
      (
        await t.api("/api/recipes/timeline/events", {
          method: "POST",
          token,
          json: { recipeId: "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10", subject: "x", eventType: "info" },
        })
      ).status,
    ).toBe(404);
    const res = await t.api("/api/recipes/timeline/events", {
      method: "POST",
      token,
      json: {
        recipe_id: id,
        subject: "Made it",
        event_type: "info",
        event_message: "With <script>alert(1)</script> extra chili",
        timestamp: "2024-05-01T18:30:00",
      },
    });
    expect(res.status).toBe(201);
    const ev = (await res.json()) as Ev;
    if (hasContract) assertContract("RecipeTimelineEventOut", ev);
    expect(ev).toMatchObject({
      recipeId: id,
      userId: adminId,
      eventMessage: "With <script>alert(1)</script> extra chili",
      image: "does not have image",
      timestamp: "2024-05-01T18:30:00.000Z",
    });
    const one = await t.api(`/api/recipes/timeline/events/${ev.id}`, { token });
    expect(one.status).toBe(200);
    expect(one.headers.get("cache-control")).toContain("no-store");
    const put = (await (
      await t.api(`/api/recipes/timeline/events/${ev.id}`, {
        method: "PUT",
        token,
        json: { subject: "Made it twice" },
      })
    ).json()) as Ev;
    expect(put.subject).toBe("Made it twice");
    expect(put.eventMessage).toBe(ev.eventMessage);
    expect(put.timestamp).toBe(ev.timestamp);
    const del = await t.api(`/api/recipes/timeline/events/${ev.id}`, { method: "DELETE", token });
    expect(del.status).toBe(200);
    expect(((await del.json()) as Ev).id).toBe(ev.id);
    expect((await t.api(`/api/recipes/timeline/events/${ev.id}`, { token })).status).toBe(404);
  });

  it("refuses a timestamp that is no date-time (30 February, the year -1) with 422, and stores nothing", async () => {
    // Found by tests/security: Date.parse took both, and the event was then served with a timestamp
    // ("-000001-01-01T00:00:00.000Z") that the contract's date-time refuses.
    const { id } = await newRecipe(t, token, "Leap Soup");
    for (const timestamp of ["2026-02-30", "-000001-01-01", "2026-02-30T25:61:61", "+275760-09-13"]) {
      const res = await t.api("/api/recipes/timeline/events", {
        method: "POST",
        token,
        json: { recipeId: id, subject: "made it", eventType: "info", timestamp },
      });
      expect(res.status, timestamp).toBe(422);
      expect(await res.json()).toMatchObject({
        detail: [{ loc: ["body", "timestamp"], msg: expect.stringContaining("valid datetime") }],
      });
    }
    expect((await events(`recipeId = "${id}" AND subject = "made it"`)).items).toEqual([]);
    const fine = await t.api("/api/recipes/timeline/events", {
      method: "POST",
      token,
      json: { recipeId: id, subject: "made it", eventType: "info", timestamp: "2028-02-29 07:15" },
    });
    expect(fine.status).toBe(201);
    expect(((await fine.json()) as Ev).timestamp).toBe("2028-02-29T07:15:00.000Z");
  });

  it("takes an image: {image: 'has image'}, the event says so, nothing else changes", async () => {
    const { id } = await newRecipe(t, token, "Pictured Pie");
    const ev = (await (
      await t.api("/api/recipes/timeline/events", {
        method: "POST",
        token,
        json: { recipeId: id, subject: "Photo", eventType: "info", eventMessage: "look" },
      })
    ).json()) as Ev;
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c33" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("image", new Blob([png], { type: "image/png" }), "pie.png");
    form.append("extension", "png");
    const res = await t.api(`/api/recipes/timeline/events/${ev.id}/image`, {
      method: "PUT",
      token,
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ image: "has image" });
    const after = (await (await t.api(`/api/recipes/timeline/events/${ev.id}`, { token })).json()) as Ev;
    expect(after).toMatchObject({
      image: "has image",
      subject: "Photo",
      eventMessage: "look",
      timestamp: ev.timestamp,
    });
    const served = await t.api(`/api/media/recipes/${id}/images/timeline/${ev.id}/original.webp`);
    expect(served.status).toBe(200);
  });

  it("filters by recipe.user.id: only events on that user's recipes", async () => {
    const mine = await newRecipe(t, b.token, "Bees Knees");
    await newRecipe(t, token, "Admins Alone");
    const page = await events(`recipe.user.id="${b.user.id}"`);
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((e) => e.recipeId === mine.id)).toBe(true);
  });

  it("lets only the author or an admin change or delete an event; posting as someone else is an admin's call", async () => {
    const { id } = await newRecipe(t, token, "Author Rules");
    const ev = (await (
      await t.api("/api/recipes/timeline/events", {
        method: "POST",
        token,
        json: { recipeId: id, subject: "Admin note", eventType: "comment" },
      })
    ).json()) as Ev;
    expect(
      (
        await t.api(`/api/recipes/timeline/events/${ev.id}`, {
          method: "PUT",
          token: b.token,
          json: { subject: "mine now" },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.api(`/api/recipes/timeline/events/${ev.id}`, { method: "DELETE", token: b.token })).status,
    ).toBe(403);
    const forged = await t.api("/api/recipes/timeline/events", {
      method: "POST",
      token: b.token,
      json: { recipeId: id, userId: adminId, subject: "x", eventType: "info" },
    });
    expect(forged.status).toBe(403);
    const onBehalf = await t.api("/api/recipes/timeline/events", {
      method: "POST",
      token,
      json: { recipeId: id, userId: b.user.id, subject: "for b", eventType: "info" },
    });
    expect(((await onBehalf.json()) as Ev).userId).toBe(b.user.id);
  });

  it("keeps another group's events out of reach (404) and out of lists", async () => {
    const { id } = await newRecipe(t, token, "Home Events");
    const ev = (await (
      await t.api("/api/recipes/timeline/events", {
        method: "POST",
        token,
        json: { recipeId: id, subject: "home only", eventType: "info" },
      })
    ).json()) as Ev;
    const other = await otherGroup(t, "Timeline Strangers");
    expect((await t.api(`/api/recipes/timeline/events/${ev.id}`, { token: other.token })).status).toBe(404);
    expect(
      (
        await t.api(`/api/recipes/timeline/events/${ev.id}`, {
          method: "PUT",
          token: other.token,
          json: { subject: "x" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.api(`/api/recipes/timeline/events/${ev.id}`, { method: "DELETE", token: other.token })).status,
    ).toBe(404);
    expect(
      (
        await t.api(`/api/recipes/timeline/events/${ev.id}/image`, {
          method: "PUT",
          token: other.token,
          body: new FormData(),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.api("/api/recipes/timeline/events", {
          method: "POST",
          token: other.token,
          json: { recipeId: id, subject: "x", eventType: "info" },
        })
      ).status,
    ).toBe(404);
    const theirs = (await (
      await t.api("/api/recipes/timeline/events?perPage=-1", { token: other.token })
    ).json()) as { items: Ev[] };
    expect(theirs.items.some((e) => e.recipeId === id)).toBe(false);
  });

  it("ends a recipe's events and comments when it is deleted through the API, and survives a restart", async () => {
    const gone = await newRecipe(t, token, "Doomed Dish");
    const kept = await newRecipe(t, token, "Kept Dish");
    await t.api("/api/comments", { method: "POST", token, json: { recipeId: kept.id, text: "still here" } });
    await t.api("/api/comments", { method: "POST", token, json: { recipeId: gone.id, text: "soon gone" } });
    expect((await t.api(`/api/recipes/${gone.slug}`, { method: "DELETE", token })).status).toBe(200);
    expect((await events(`recipeId="${gone.id}"`)).items).toEqual([]);
    await t.larder.activity.idle();
    // A second server over the same folder folds the same log.
    const again = await startTestServer({}, { dataDir: t.dataDir });
    try {
      const tok = await again.login();
      const keptEvents = (await (
        await again.api(
          `/api/recipes/timeline/events?queryFilter=${encodeURIComponent(`recipeId="${kept.id}"`)}`,
          { token: tok },
        )
      ).json()) as { items: Ev[] };
      expect(keptEvents.items.map((e) => e.subject)).toEqual(["Recipe Created"]);
      const comments = (await (
        await again.api(`/api/recipes/${kept.slug}/comments`, { token: tok })
      ).json()) as { text: string }[];
      expect(comments.map((c) => c.text)).toEqual(["still here"]);
      await again.larder.activity.idle();
      const all = (await (await again.api("/api/comments?perPage=-1", { token: tok })).json()) as {
        items: { recipeId: string }[];
      };
      expect(all.items.some((c) => c.recipeId === gone.id)).toBe(false);
    } finally {
      await again.server.close();
      await again.larder.close();
    }
  });
});
