import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Larder } from "../larder.js";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";
import { JOBS, startScheduler } from "../scheduler.js";
import type { Actor } from "../actor.js";

let scratch: ScratchLarder;
let larder: Larder;
let actor: Actor;
beforeAll(async () => {
  scratch = await openScratchLarder("daily", { production: false });
  ({ larder, admin: actor } = scratch);
});
afterAll(async () => {
  vi.useRealTimers();
  await scratch?.close();
});

describe("the household week's daily job", () => {
  it("at DAILY_SCHEDULE_TIME marks today's planned recipes made (lastMade, one timeline event) and keeps 100 checked items per list; once a day", async () => {
    // The job runs at 23:50 local time; plan dates are UTC dates (as in Mealie), so plan on that moment's.
    const at = new Date(2031, 4, 14, 23, 50, 0);
    const planDay = at.toISOString().slice(0, 10);
    const slug = await larder.recipes.create(actor, { name: "Daily Dal" });
    const recipe = larder.recipes.get(actor, slug);
    await larder.mealplans.create(actor, { date: planDay, entryType: "dinner", recipeId: recipe.id });
    await larder.mealplans.create(actor, { date: planDay, entryType: "lunch", title: "No recipe" });
    const list = await larder.shopping.createList(actor, { name: "Trim me" });
    await larder.shopping.createItems(actor, [
      ...Array.from({ length: 105 }, (_, i) => ({
        shoppingListId: list.id,
        note: `done ${i}`,
        checked: true,
      })),
      ...Array.from({ length: 3 }, (_, i) => ({ shoppingListId: list.id, note: `todo ${i}` })),
    ]);

    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(new Date(2031, 4, 14, 23, 0, 0));
    const job = JOBS.find((j) => j.name.startsWith("household week"))!;
    const runs: Promise<unknown>[] = [];
    const stop = startScheduler(larder, [
      {
        ...job,
        run: (l) => {
          const p = job.run(l);
          runs.push(p);
          return p;
        },
      },
    ]);
    // Before the schedule time: the job looks and does nothing.
    await vi.advanceTimersByTimeAsync(job.everyMs);
    expect(await runs[0]).toBeNull();
    vi.setSystemTime(at);
    await vi.advanceTimersByTimeAsync(job.everyMs);
    expect(await runs[1]).toEqual({ marked: 1, trimmed: 5 });
    await vi.advanceTimersByTimeAsync(job.everyMs);
    expect(await runs[2]).toBeNull();
    stop();
    vi.useRealTimers();

    const after = larder.recipes.get(actor, slug);
    expect(after.lastMade?.slice(0, 10)).toBe(planDay);
    const timeline = larder.timeline.list(actor, {
      queryFilter: `recipeId="${recipe.id}"`,
      perPage: -1,
    }).items;
    expect(timeline.filter((e) => e.subject === "Change Me made this for dinner")).toHaveLength(1);
    const items = (await larder.shopping.getList(actor, list.id)).listItems;
    expect(items.filter((i) => i.checked)).toHaveLength(100);
    expect(items.filter((i) => !i.checked)).toHaveLength(3);
  });
});
