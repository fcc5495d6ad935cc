import { afterAll, beforeAll, expect, it } from "vitest";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Larder } from "../core/larder.js";
import { loadConfig } from "../core/config.js";
import { consoleLogger } from "../core/log/logger.js";
import type { Actor } from "../core/actor.js";
import { seedNewDemo } from "./demo.js";

let base: string;
let larder: Larder;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-new-demo-"));
  await cp(resolve("data"), join(base, "data"), {
    recursive: true,
    filter: (src) => !src.endsWith(".larder") && !src.endsWith(".git"),
  });
  // As `serve --demo` opens it: the baseline is taken while the folder opens, before the week exists.
  larder = await Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(base, "data"), bcryptRounds: 4, demo: true }),
    { log: consoleLogger("silent"), watch: true },
  );
});
afterAll(async () => {
  await larder?.close();
  await rm(base, { recursive: true, force: true });
});

it("keeps a new demo's week through the scheduled reset: the baseline is taken again with it", async () => {
  await seedNewDemo(larder);
  const admin: Actor = { kind: "user", user: larder.users.all().find((u) => u.admin)! };
  const planned = larder.mealplans.list(admin, { page: 1, perPage: -1 }).total;
  expect(planned).toBeGreaterThan(0);
  await larder.demo.reset();
  const after: Actor = { kind: "user", user: larder.users.all().find((u) => u.admin)! };
  expect(larder.mealplans.list(after, { page: 1, perPage: -1 }).total).toBe(planned);
  expect((await larder.shopping.listLists(after, { page: 1, perPage: -1 })).items.map((l) => l.name)).toEqual(
    ["This week"],
  );
});
