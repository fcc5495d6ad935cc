/**
 * A data folder that fails to open partway leaves nothing running: what the open had started by then
 * (the git auto-commit, the recipe file watcher …) is stopped before the error reaches the caller, so
 * a server that gives up exits, and the folder is no longer watched or committed to.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Larder } from "./larder.js";
import { loadConfig } from "./config.js";
import { consoleLogger } from "./log/logger.js";
import { git } from "./git/autocommit.js";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
const moduleUrl = (rel: string) => JSON.stringify(pathToFileURL(join(projectRoot, rel)).href);

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-failed-open-"));
  root = join(base, "data");
  await (
    await Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir: root, bcryptRounds: 4 }), {
      log: consoleLogger("silent"),
    })
  ).close();
  await git(root, ["init", "--quiet"]);
  await git(root, ["add", "-A"]);
  await git(root, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "start"]);
});
afterEach(async () => rm(base, { recursive: true, force: true }));

describe("a data folder that fails to open after the git auto-commit and the watchers started", () => {
  // A folder where a household's webhooks document should be is read after the recipes, once the recipe
  // watcher runs; a truncated users.json, before them, once the auto-commit listens.
  const breakages: Array<[string, () => Promise<void>, RegExp]> = [
    [
      "a folder in place of a household document",
      () => mkdir(join(root, "groups/home/households/family/webhooks.json")),
      /EISDIR/,
    ],
    [
      "a truncated users.json",
      () => writeFile(join(root, "users.json"), '{ "users": [ { "id'),
      /users\.json cannot be read/,
    ],
  ];
  it.each(breakages)(
    "%s: the process exits by itself, and a document written afterwards is not committed",
    async (_, breakFolder, reason) => {
      await breakFolder();
      const organizers = join(root, "groups/home/organizers.json");
      const script = `
      import { Larder } from ${moduleUrl("core/larder.ts")};
      import { loadConfig } from ${moduleUrl("core/config.ts")};
      import { consoleLogger } from ${moduleUrl("core/log/logger.ts")};
      import { JsonDoc } from ${moduleUrl("core/storage/json-doc.ts")};
      const config = loadConfig({ LARDER_GIT_AUTOCOMMIT: "true" }, { dataDir: ${JSON.stringify(root)}, bcryptRounds: 4 });
      try {
        await Larder.open(config, { log: consoleLogger("silent"), watch: true });
        console.log("opened");
      } catch (e) {
        console.log("failed: " + e.message);
      }
      // A curated document written through Larder's storage after the failure: only a listener the
      // failed open left behind would commit it.
      const doc = await JsonDoc.open(${JSON.stringify(organizers)}, {
        defaults: () => ({}),
        tmpDir: ${JSON.stringify(join(root, ".larder/tmp"))},
      });
      await doc.update((d) => ({ ...d, written: "after the failed open" }));
      await doc.idle();
    `;
      // Left running, the watcher would keep the child alive and execa's deadline would fail the test.
      const child = await execa(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        cwd: projectRoot,
        timeout: 30_000,
      });
      expect(child.stdout).toMatch(new RegExp(`^failed: .*${reason.source}`, "m"));
      expect((await git(root, ["log", "--format=%s"])).split("\n")).toEqual(["start"]);
    },
    40_000,
  );
});

describe("a restore whose folder does not open, rolled back", () => {
  it("leaves only the folder opened again running: the process exits once it is closed", async () => {
    const broken = join(root, "groups/home/households/family/webhooks.json");
    const script = `
      import { mkdir, rmdir } from "node:fs/promises";
      import { Larder } from ${moduleUrl("core/larder.ts")};
      import { loadConfig } from ${moduleUrl("core/config.ts")};
      import { consoleLogger } from ${moduleUrl("core/log/logger.ts")};
      const config = loadConfig({ LARDER_GIT_AUTOCOMMIT: "true" }, { dataDir: ${JSON.stringify(root)}, bcryptRounds: 4 });
      const larder = await Larder.open(config, { log: consoleLogger("silent"), watch: true });
      let undone = "";
      await larder.reload(
        () => mkdir(${JSON.stringify(broken)}),
        async (why) => {
          undone = why.message;
          await rmdir(${JSON.stringify(broken)});
        },
      );
      console.log("undone: " + undone);
      console.log("users: " + larder.users.all().length);
      await larder.close();
    `;
    // The open that failed had started its recipe watcher: left running, it keeps the child alive.
    const child = await execa(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: projectRoot,
      timeout: 30_000,
    });
    expect(child.stdout).toMatch(/^undone: .*EISDIR/m);
    expect(child.stdout).toMatch(/^users: 1$/m);
  }, 40_000);
});
