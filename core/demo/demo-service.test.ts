import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import type { Actor } from "../actor.js";

let base: string;
let larder: Larder;

async function open(config: Record<string, unknown>, watch = false): Promise<Larder> {
  return Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(base, "data"), bcryptRounds: 4, ...config }),
    {
      log: consoleLogger("silent"),
      watch,
    },
  );
}

function adminActor(l: Larder): Actor {
  const user = l.users.all().find((u) => u.admin);
  if (!user) throw new Error("no admin");
  return { kind: "user", user };
}

const householdNames = (l: Larder) => l.groupAdmin.households(adminActor(l)).map((h) => h.name);

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-demo-"));
});
afterEach(async () => {
  await larder?.close();
  await rm(base, { recursive: true, force: true });
});

describe("demo reset", () => {
  it("takes the baseline when a demo server starts, once", async () => {
    larder = await open({ demo: true }, true);
    expect(existsSync(larder.demo.baselinePath)).toBe(true);
    expect(await larder.demo.ensureBaseline()).toBe(false);
    // Not among the admin's backups, so neither the nightly pruning nor the backups screen touch it.
    expect((await larder.backups.list(adminActor(larder))).imports).toEqual([]);
  });

  it("takes no baseline outside demo mode", async () => {
    larder = await open({}, true);
    expect(existsSync(larder.demo.baselinePath)).toBe(false);
    expect(await larder.demo.runScheduled()).toBe(false);
  });

  it("restores the baseline once the interval has passed, and ends every session", async () => {
    larder = await open({ demo: true, demoResetMinutes: 30 });
    await larder.demo.ensureBaseline();
    const t0 = Date.parse("2026-01-01T10:00:00Z");
    expect(await larder.demo.runScheduled(t0)).toBe(false);
    await larder.groupAdmin.createHousehold(adminActor(larder), { name: "Visitor's Mess" });
    const session = await larder.auth.login("admin", "MyPassword");
    expect(householdNames(larder)).toContain("Visitor's Mess");

    expect(await larder.demo.runScheduled(t0 + 29 * 60_000)).toBe(false);
    expect(householdNames(larder)).toContain("Visitor's Mess");

    expect(await larder.demo.runScheduled(t0 + 30 * 60_000)).toBe(true);
    expect(householdNames(larder)).not.toContain("Visitor's Mess");
    expect(await larder.auth.authenticateToken(session.token)).toBeNull();
    // The baseline is kept for the next time, and the restore left no backup behind.
    expect(existsSync(larder.demo.baselinePath)).toBe(true);
    expect((await larder.backups.list(adminActor(larder))).imports).toEqual([]);

    // The next reset counts from this one.
    expect(await larder.demo.runScheduled(t0 + 59 * 60_000)).toBe(false);
    expect(await larder.demo.runScheduled(t0 + 60 * 60_000)).toBe(true);
  });

  it("never resets with LARDER_DEMO_RESET_MINUTES=0", async () => {
    larder = await open({ demo: true, demoResetMinutes: 0 });
    expect(await larder.demo.runScheduled(0)).toBe(false);
    expect(await larder.demo.runScheduled(10 * 24 * 3600_000)).toBe(false);
  });

  it("reads LARDER_DEMO_RESET_MINUTES", () => {
    expect(loadConfig({ LARDER_DEMO_RESET_MINUTES: "15" } as NodeJS.ProcessEnv).demoResetMinutes).toBe(15);
    expect(loadConfig({} as NodeJS.ProcessEnv).demoResetMinutes).toBe(60);
  });
});
