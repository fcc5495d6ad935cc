import { describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { runPlannerIntent } from "./mealplan.server.js";
import type { UserActor } from "./session.server.js";

// The entry dialog's save sends the entry as it opened it, and the planner hands that copy to core,
// which keeps what changed meanwhile in the fields left alone (core/mealplans/entry-update.test.ts).

const actor = { kind: "user", user: { id: "u1", groupId: "g1" } } as unknown as UserActor;

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

function recording() {
  const updates: unknown[] = [];
  const ctx = {
    larder: {
      log: { warn: () => undefined },
      mealplans: {
        update: (_a: unknown, _id: unknown, body: unknown, base: unknown) => {
          updates.push({ body, base });
          return Promise.resolve({ id: 7 });
        },
      },
    },
  } as unknown as AppLoadContext;
  return { ctx, updates };
}

const opened = { date: "2026-12-08", entryType: "dinner", recipeId: "", title: "Soup", text: "" };

describe("saving a plan entry from the dialog", () => {
  it("hands core the fields as sent and the copy the dialog opened", async () => {
    const { ctx, updates } = recording();
    const sent = { ...opened, title: "Tomato soup" };
    const got = await runPlannerIntent(
      ctx,
      actor,
      form({ intent: "update", id: "7", ...sent, base: JSON.stringify(opened) }),
    );
    expect(got).toMatchObject({ ok: true });
    expect(updates).toEqual([
      {
        body: { date: "2026-12-08", entryType: "dinner", title: "Tomato soup", text: "", recipeId: null },
        base: opened,
      },
    ]);
  });

  it("sends the fields as they are without the opened copy, or with one that is not JSON", async () => {
    for (const extra of [{}, { base: "{nope" }] as Record<string, string>[]) {
      const { ctx, updates } = recording();
      await runPlannerIntent(ctx, actor, form({ intent: "update", id: "7", ...opened, ...extra }));
      expect(updates).toEqual([
        {
          body: { date: "2026-12-08", entryType: "dinner", title: "Soup", text: "", recipeId: null },
          base: undefined,
        },
      ]);
    }
  });
});
