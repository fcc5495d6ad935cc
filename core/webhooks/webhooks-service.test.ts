import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import type { Logger } from "../log/logger.js";
import type { Actor } from "../actor.js";
import { JOBS, startScheduler } from "../scheduler.js";
import { inWindow, WebhooksService, type MealPlanSource } from "./webhooks-service.js";
import { startRecorder, type Recorder } from "../../tests/support/recorder.js";

let dir: string;
let rec: Recorder;
const warnings: string[] = [];
const log: Logger = { info() {}, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };

/** A meal plan with one dinner on 2026-11-25, recording what was asked. */
/** A dinner planned on `day`; with `day` null, one on the first day of whatever window is asked. */
function fakePlans(day: string | null = "2026-11-25"): MealPlanSource & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async entriesBetween(groupId, householdId, start, end) {
      calls.push([groupId, householdId, start, end]);
      return day === null || (start <= day && end >= day)
        ? [
            {
              id: 1,
              date: day ?? start,
              entryType: "dinner",
              title: "",
              text: "",
              recipeId: null,
              groupId,
              householdId,
              userId: "u",
              recipe: null,
            },
          ]
        : [];
    },
  };
}

async function open(at: string): Promise<{ larder: Larder; actor: Actor }> {
  vi.setSystemTime(new Date(at));
  const config = loadConfig({} as NodeJS.ProcessEnv, {
    dataDir: join(dir, `data-${Math.random().toString(36).slice(2)}`),
    production: false,
    bcryptRounds: 4,
    fetchAllow: "127.0.0.1",
  });
  const larder = await Larder.open(config, { log });
  return { larder, actor: { kind: "user", user: larder.users.all()[0] } };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-webhooks-"));
  rec = await startRecorder();
});
afterAll(async () => {
  await rec.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

// Only the clock and the scheduler's interval are fake: sockets, the event bus and file writes run for real.
const fakeClock = () => vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });

describe("webhook scheduler", () => {
  it("posts Mealie's webhook_task payload once, in the 5-minute run whose window holds the scheduled time", async () => {
    fakeClock();
    const { larder, actor } = await open("2026-11-25T07:58:00Z");
    try {
      const plans = fakePlans();
      larder.webhooks.useMealPlans(plans);
      const hook = await larder.webhooks.create(actor, {
        name: "Kitchen display",
        url: `${rec.url}/digest`,
        scheduledTime: "08:00",
      });
      await larder.webhooks.create(actor, {
        name: "Off",
        url: `${rec.url}/off`,
        scheduledTime: "08:00",
        enabled: false,
      });
      await larder.webhooks.create(actor, {
        name: "Evening",
        url: `${rec.url}/evening`,
        scheduledTime: "18:00",
      });
      const before = rec.requests.length;
      const published: string[] = [];
      larder.events.subscribe((e) => void published.push(`${e.eventType} ${e.householdId}`), {
        types: ["webhook_task"],
      });
      const stop = startScheduler(
        larder,
        JOBS.filter((j) => j.name === "meal-plan webhooks"),
      );
      try {
        const arrived = rec.next(before);
        await vi.advanceTimersByTimeAsync(5 * 60_000);
        const got = await arrived;
        expect(got.method).toBe("POST");
        expect(got.path).toBe("/digest");
        expect(got.headers["content-type"]).toBe("application/json");
        const body = JSON.parse(got.body) as Record<string, unknown>;
        expect(body).toMatchObject({
          message: { title: "Webhook Task", body: "generic" },
          eventType: 2,
          integrationId: "mealie_generic_user",
          documentData: {
            documentType: "mealplan",
            operation: "info",
            webhookStartDt: "2026-11-25T07:58:00.000Z",
            webhookEndDt: "2026-11-25T08:03:00.000Z",
            webhookBody: [
              expect.objectContaining({ id: 1, entryType: "dinner", householdId: hook.householdId }),
            ],
          },
        });
        expect(typeof body.eventId).toBe("string");
        expect(plans.calls).toEqual([[hook.groupId, hook.householdId, "2026-11-25", "2026-11-25"]]);
        // The next runs (08:03–08:13) hold no scheduled time: nothing more is sent.
        await vi.advanceTimersByTimeAsync(10 * 60_000);
        await larder.events.idle();
        expect(rec.requests.slice(before).map((r) => r.path)).toEqual(["/digest"]);
        // Notifiers following "webhook task" hear once that the household's digest went out.
        expect(published).toEqual([`webhook_task ${hook.householdId}`]);
      } finally {
        stop();
      }
    } finally {
      await larder.close();
    }
  });

  it("sends nothing when no meal is planned in the window (Mealie's rule)", async () => {
    fakeClock();
    const { larder, actor } = await open("2026-11-26T07:58:00Z");
    try {
      const plans = fakePlans();
      larder.webhooks.useMealPlans(plans);
      await larder.webhooks.create(actor, {
        name: "Empty day",
        url: `${rec.url}/empty`,
        scheduledTime: "08:00:00",
      });
      const before = rec.requests.length;
      await larder.webhooks.runScheduled(new Date("2026-11-26T08:03:00Z"));
      expect(plans.calls).toHaveLength(1);
      expect(rec.requests.length).toBe(before);
    } finally {
      await larder.close();
    }
  });

  it("logs a webhook that answers 500 and delivers it on a later run", async () => {
    fakeClock();
    const { larder, actor } = await open("2026-11-25T11:58:00Z");
    try {
      larder.webhooks.useMealPlans(fakePlans());
      await larder.webhooks.create(actor, { name: "Flaky", url: `${rec.url}/flaky`, scheduledTime: "12:00" });
      rec.answers.push({ status: 500, body: "down" });
      const before = rec.requests.length;
      await larder.webhooks.runScheduled(new Date("2026-11-25T12:03:00Z"));
      expect(rec.requests.length).toBe(before + 1);
      expect(larder.webhooks.pendingRetries).toBe(1);
      expect(warnings.some((w) => w.includes('webhook "Flaky"') && w.includes("500"))).toBe(true);
      await larder.webhooks.runScheduled(new Date("2026-11-25T12:08:00Z"));
      expect(rec.requests.length).toBe(before + 2);
      expect(rec.requests[before + 1].body).toBe(rec.requests[before].body);
      expect(larder.webhooks.pendingRetries).toBe(0);
    } finally {
      await larder.close();
    }
  });

  it("a webhook that hangs times out without holding up the others, and gives up after three attempts", async () => {
    const { larder, actor } = await open("2026-11-25T15:58:00Z");
    try {
      vi.useRealTimers();
      // Its own service with a short timeout, so the test does not wait Mealie's 15 s; long enough that
      // a loaded CI machine still connects to the answering receiver within it.
      const webhooks = await WebhooksService.open(larder, { timeoutMs: 1_000 });
      // Real time runs here (the timeout must fire), so the planned meal follows the window, not a date.
      webhooks.useMealPlans(fakePlans(null));
      const stuck = await webhooks.create(actor, {
        name: "Stuck",
        url: `${rec.url}/hang`,
        scheduledTime: "16:00",
      });
      await webhooks.create(actor, { name: "Fine", url: `${rec.url}/fine`, scheduledTime: "16:00" });
      rec.answersFor["/hang"] = ["hang", "hang", "hang"];
      const before = rec.requests.length;
      const t0 = Date.now();
      // The first run's window ends at the next 16:01 UTC (two minutes ahead at least), so it holds
      // one 16:00; the retries' runs follow five minutes apart and hold none, at whatever time of
      // day the test runs (hours-long windows held the next day's 16:00 when run after 15:00).
      const first = new Date(t0 + 2 * 60_000);
      first.setUTCHours(16, 1, 0, 0);
      if (first.getTime() < t0 + 2 * 60_000) first.setUTCDate(first.getUTCDate() + 1);
      await webhooks.runScheduled(first);
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(
        rec.requests
          .slice(before)
          .map((r) => r.path)
          .sort(),
      ).toEqual(["/fine", "/hang"]);
      expect(webhooks.pendingRetries).toBe(1);
      for (let i = 1; i <= 2; i++) await webhooks.runScheduled(new Date(first.getTime() + i * 5 * 60_000));
      expect(webhooks.pendingRetries).toBe(0);
      expect(rec.requests.slice(before).filter((r) => r.path === "/hang")).toHaveLength(3);
      expect(warnings.some((w) => w.includes(stuck.id) && w.includes("timeout"))).toBe(true);
    } finally {
      await larder.close();
    }
  });
});

describe("a hand-edited webhooks.json", () => {
  it("that no longer parses is reported and never overwritten; writes answer 409 until it is fixed", async () => {
    const first = await open("2026-11-25T10:00:00Z");
    const dataDir = first.larder.folder.root;
    const file = first.larder.folder.webhooksJson("home", "family");
    await first.larder.webhooks.create(first.actor, {
      name: "Kept",
      url: `${rec.url}/kept`,
      scheduledTime: "09:00",
    });
    await first.larder.close();
    await writeFile(file, '{ "webhooks": [ {"id": ');
    const config = loadConfig({} as NodeJS.ProcessEnv, {
      dataDir,
      production: false,
      bcryptRounds: 4,
      fetchAllow: "127.0.0.1",
    });
    const larder = await Larder.open(config, { log });
    try {
      const actor: Actor = { kind: "user", user: larder.users.all()[0] };
      await expect(larder.webhooks.create(actor, { url: "", scheduledTime: "08:00" })).rejects.toMatchObject({
        status: 409,
      });
      expect(await readFile(file, "utf8")).toBe('{ "webhooks": [ {"id": ');
      // `larder check` lists it.
      expect(larder.webhooks.broken().map((b) => b.path)).toEqual([file]);
      // The scheduler passes over it without failing.
      await larder.webhooks.runScheduled(new Date(Date.now() + 3600_000));
    } finally {
      await larder.close();
    }
  });
});

describe("webhook windows and times", () => {
  const d = (s: string) => new Date(s);
  it("takes (start, end], across midnight too, and everything in a window of a day or more", () => {
    expect(inWindow("08:00:00", d("2026-11-25T07:58:00Z"), d("2026-11-25T08:03:00Z"))).toBe(true);
    expect(inWindow("07:58:00", d("2026-11-25T07:58:00Z"), d("2026-11-25T08:03:00Z"))).toBe(false);
    expect(inWindow("08:03:00", d("2026-11-25T07:58:00Z"), d("2026-11-25T08:03:00Z"))).toBe(true);
    expect(inWindow("00:01:00", d("2026-11-25T23:58:00Z"), d("2026-11-26T00:03:00Z"))).toBe(true);
    expect(inWindow("23:59:00", d("2026-11-25T23:58:00Z"), d("2026-11-26T00:03:00Z"))).toBe(true);
    expect(inWindow("12:00:00", d("2026-11-25T23:58:00Z"), d("2026-11-26T00:03:00Z"))).toBe(false);
    expect(inWindow("12:00:00", d("2026-11-24T00:00:00Z"), d("2026-11-25T00:00:00Z"))).toBe(true);
  });

  it("reads scheduledTime as Mealie does: HH:MM[:SS] in UTC, offsets and datetimes converted to UTC", async () => {
    const { larder, actor } = await open("2026-11-25T10:00:00Z");
    try {
      const times: string[] = [];
      for (const scheduledTime of [
        "08:00",
        "8:05:30",
        "08:00:00.123456",
        "08:00+02:00",
        "2026-11-25T09:30:00+01:00",
        "2026-11-25T23:15:00",
      ]) {
        times.push((await larder.webhooks.create(actor, { url: "", scheduledTime })).scheduledTime);
      }
      expect(times).toEqual(["08:00:00", "08:05:30", "08:00:00", "06:00:00", "08:30:00", "23:15:00"]);
      for (const scheduledTime of ["25:00", "noon", "", undefined]) {
        await expect(larder.webhooks.create(actor, { url: "", scheduledTime })).rejects.toThrow();
      }
    } finally {
      await larder.close();
    }
  });
});
