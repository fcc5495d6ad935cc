/**
 * The planner's and the timeline's actions against a real Larder over a temp folder: what each intent
 * stores, and that a refused photo leaves no event behind.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { Larder } from "../../core/larder.js";
import { loadConfig } from "../../core/config.js";
import { consoleLogger } from "../../core/log/logger.js";
import { runPlannerIntent, runRuleIntent, loadPlanner } from "../../web/app/lib/mealplan.server.js";
import { loadTimeline, runTimelineIntent } from "../../web/app/lib/timeline.server.js";
import type { UserActor } from "../../web/app/lib/session.server.js";

let dir: string;
let larder: Larder;
let actor: UserActor;
let context: AppLoadContext;
let chili: string;

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-planner-actions-"));
  larder = await Larder.open(
    loadConfig({}, { dataDir: join(dir, "data"), production: false, bcryptRounds: 4 }),
    { log: consoleLogger("silent") },
  );
  actor = { kind: "user", user: larder.users.all()[0] };
  context = { larder } as AppLoadContext;
  await larder.recipes.create(actor, { name: "Chili" });
  chili = larder.recipes.get(actor, "chili").id;
});

afterAll(async () => {
  await larder?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("planner actions", () => {
  it("creates a recipe entry and a note, moves one keeping its fields, deletes one", async () => {
    const a = await runPlannerIntent(
      context,
      actor,
      form({ intent: "create", date: "2026-11-23", entryType: "lunch", recipeId: chili }),
    );
    const b = await runPlannerIntent(
      context,
      actor,
      form({ intent: "create", date: "2026-11-24", title: "Leftovers", text: "line one\r\nline two" }),
    );
    expect(a.ok && b.ok).toBe(true);
    const bId = b.ok ? String(b.id) : "";
    const moved = await runPlannerIntent(
      context,
      actor,
      form({ intent: "move", id: bId, date: "2026-11-26" }),
    );
    expect(moved.ok).toBe(true);
    const note = larder.mealplans.get(actor, bId);
    // A note with no type given is a dinner (spec §9); line breaks are stored as typed, LF.
    expect([note.date, note.entryType, note.title, note.text]).toEqual([
      "2026-11-26",
      "dinner",
      "Leftovers",
      "line one\nline two",
    ]);
    const gone = await runPlannerIntent(context, actor, form({ intent: "delete", id: bId }));
    expect(gone.ok).toBe(true);
    const page = loadPlanner(context, actor, new URL("http://x/?start=2026-11-23&days=7"));
    expect(page.days).toHaveLength(7);
    expect(page.entries.map((e) => [e.date, e.entryType, e.recipe?.name])).toEqual([
      ["2026-11-23", "lunch", "Chili"],
    ]);
  });

  it("answers codes, not exceptions, for bad input and for random without a match", async () => {
    const noTitle = await runPlannerIntent(context, actor, form({ intent: "create", date: "2026-11-23" }));
    expect(noTitle).toMatchObject({ ok: false, error: "invalid" });
    const badDate = await runPlannerIntent(
      context,
      actor,
      form({ intent: "create", date: "2026-02-30", title: "x" }),
    );
    expect(badDate).toMatchObject({ ok: false, error: "invalid" });
    const missing = await runPlannerIntent(context, actor, form({ intent: "delete", id: "99999" }));
    expect(missing).toMatchObject({ ok: false, error: "notFound" });

    const rule = await runRuleIntent(
      context,
      actor,
      form({ intent: "create", day: "unset", entryType: "dessert", queryFilterString: 'name = "Nothing"' }),
    );
    expect(rule.ok).toBe(true);
    const random = await runPlannerIntent(
      context,
      actor,
      form({ intent: "random", date: "2026-11-25", entryType: "dessert" }),
    );
    expect(random).toMatchObject({ ok: false, error: "notFound", message: "No recipes match your rules" });
    const badRule = await runRuleIntent(
      context,
      actor,
      form({ intent: "create", queryFilterString: 'badfield = "x"' }),
    );
    expect(badRule).toMatchObject({ ok: false, error: "invalid" });
    expect(badRule.ok ? "" : (badRule.message ?? "")).not.toBe("");
  });
});

describe("timeline actions", () => {
  const multipart = (fields: Record<string, string>, file: { name: string; data: Buffer }) => {
    const f = form(fields);
    f.append("image", new File([new Uint8Array(file.data)], file.name, { type: "image/jpeg" }));
    return new Request("http://x/", { method: "POST", body: f });
  };

  it("takes a file that is not an image away with the event it came with", async () => {
    const before = loadTimeline(context, actor, "chili").events.length;
    const r = await runTimelineIntent(
      multipart(
        { intent: "create", recipeId: chili, subject: "Made it" },
        { name: "evil.jpg", data: Buffer.from("<script>alert(1)</script>") },
      ),
      context,
      actor,
    );
    expect(r).toMatchObject({ ok: false, error: "badImage" });
    expect(loadTimeline(context, actor, "chili").events.length).toBe(before);
  });

  it("creates, edits and deletes an event", async () => {
    const created = await runTimelineIntent(
      new Request("http://x/", {
        method: "POST",
        body: form({ intent: "create", recipeId: chili, subject: "  Made it  ", eventMessage: "a\r\nb" }),
      }),
      context,
      actor,
    );
    expect(created.ok).toBe(true);
    const id = created.ok ? (created.id ?? "") : "";
    const ev = loadTimeline(context, actor, "chili").events.find((e) => e.id === id);
    expect([ev?.subject, ev?.eventMessage, ev?.eventType, ev?.mine]).toEqual([
      "Made it",
      "a\nb",
      "info",
      true,
    ]);
    const edited = await runTimelineIntent(
      new Request("http://x/", {
        method: "POST",
        body: form({ intent: "update", id, subject: "Made it twice" }),
      }),
      context,
      actor,
    );
    expect(edited.ok).toBe(true);
    expect(larder.timeline.get(actor, id).subject).toBe("Made it twice");
    const removed = await runTimelineIntent(
      new Request("http://x/", { method: "POST", body: form({ intent: "delete", id }) }),
      context,
      actor,
    );
    expect(removed.ok).toBe(true);
    expect(loadTimeline(context, actor, null).events.some((e) => e.id === id)).toBe(false);
  });
});
