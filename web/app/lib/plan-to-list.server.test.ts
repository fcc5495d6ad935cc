import { describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { runPlannerIntent } from "./mealplan.server.js";
import type { UserActor } from "./session.server.js";

// The planner's "toList" intent: what it sends to core, and what it refuses before asking.

const actor = { kind: "user", user: { id: "u1", groupId: "g1" } } as unknown as UserActor;

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

function recording() {
  const calls: unknown[][] = [];
  const ctx = {
    larder: {
      log: { warn: () => undefined },
      shopping: {
        addRecipesBulk: (...args: unknown[]) => {
          calls.push(args);
          return Promise.resolve({});
        },
      },
    },
  } as unknown as AppLoadContext;
  return { ctx, calls };
}

describe("the planner's toList intent", () => {
  it("adds each recipe as often as it is planned, leaving out foods on hand", async () => {
    const { ctx, calls } = recording();
    const recipes = JSON.stringify([
      { recipeId: "r1", count: 2 },
      { recipeId: "r2", count: 1 },
    ]);
    const got = await runPlannerIntent(ctx, actor, form({ intent: "toList", listId: "l1", recipes }));
    expect(got).toEqual({ intent: "toList", ok: true });
    expect(calls).toEqual([
      [
        actor,
        "l1",
        [
          { recipeId: "r1", recipeIncrementQuantity: 2 },
          { recipeId: "r2", recipeIncrementQuantity: 1 },
        ],
        { skipOnHand: true },
      ],
    ]);
  });

  it("refuses what is not a list of recipes without asking core", async () => {
    const { ctx, calls } = recording();
    for (const recipes of ["{not json", "[]", '{"recipeId":"r1"}', ""]) {
      const got = await runPlannerIntent(ctx, actor, form({ intent: "toList", listId: "l1", recipes }));
      expect(got).toMatchObject({ intent: "toList", ok: false, error: "invalid" });
    }
    expect(calls).toEqual([]);
  });
});
