import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import { curatedDocumentName, git } from "./autocommit.js";
import { withActorScope } from "../actor-scope.js";
import { FIRST_ADMIN } from "../users/first-admin.js";
import type { Actor } from "../actor.js";

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-git-"));
  root = join(base, "data");
});
afterEach(async () => rm(base, { recursive: true, force: true }));

async function open(autoCommit: boolean): Promise<Larder> {
  return Larder.open(
    loadConfig({ LARDER_GIT_AUTOCOMMIT: String(autoCommit) } as unknown as NodeJS.ProcessEnv, {
      dataDir: root,
      bcryptRounds: 4,
    }),
    {
      log: consoleLogger("silent"),
      watch: true,
    },
  );
}

async function repository(): Promise<void> {
  await (await open(false)).close();
  await git(root, ["init", "--quiet"]);
  await git(root, ["add", "-A"]);
  await git(root, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "start"]);
}

const log = async () => (await git(root, ["log", "--format=%an <%ae>|%s"])).split("\n");

describe("git autocommit", () => {
  it("makes one commit per recipe change, naming the person and the recipe, and never a shopping change", async () => {
    await repository();
    const larder = await open(true);
    try {
      expect(larder.gitAutoCommit).not.toBeNull();
      const admin = larder.users.all()[0];
      const actor: Actor = { kind: "user", user: admin };
      const slug = await larder.recipes.create(actor, { name: "Pea Soup" });
      // A file the recipe commits must not sweep in (as a shopping check-off writes).
      await writeFile(join(root, "groups", "home", "stray.json"), "{}\n");
      await larder.recipes.update(actor, slug, { description: "Green." }, "patch");
      await larder.events.idle();
      await larder.gitAutoCommit!.idle();
      await larder.recipes.remove(actor, slug);
      await larder.events.idle();
      await larder.gitAutoCommit!.idle();
      const who = `${admin.fullName} <${admin.email}>`;
      expect(await log()).toEqual([
        `${who}|Delete recipe pea-soup (by ${admin.fullName})`,
        `${who}|Update recipe pea-soup (by ${admin.fullName})`,
        `${who}|Add recipe pea-soup (by ${admin.fullName})`,
        "t <t@t>|start",
      ]);
      expect(await git(root, ["status", "--porcelain"])).toContain("stray.json");
    } finally {
      await larder.close();
    }
  });

  it("commits a curated document's change naming who signed the request, and never a shopping list", async () => {
    await repository();
    const larder = await open(true);
    try {
      const admin = larder.users.all()[0];
      const actor: Actor = { kind: "user", user: admin };
      // As the HTTP server does: one scope per request, the actor noted when its token is checked.
      await withActorScope(async () => {
        const { token } = await larder.auth.login(FIRST_ADMIN.username, FIRST_ADMIN.password);
        const signed = await larder.auth.authenticateToken(token);
        await larder.cookbooks.create(signed!, { name: "Weeknights" });
      });
      await larder.shopping.createList(actor, { name: "Saturday" });
      await larder.events.idle();
      await larder.gitAutoCommit!.idle();
      const who = `${admin.fullName} <${admin.email}>`;
      expect(await log()).toEqual([
        `${who}|Update cookbooks of family (by ${admin.fullName})`,
        "t <t@t>|start",
      ]);
      const changed = await git(root, ["show", "--name-only", "--format=", "HEAD"]);
      expect(changed.trim()).toMatch(/households\/[^/]+\/cookbooks\.json$/);
      expect(await git(root, ["status", "--porcelain"])).toContain("shopping-lists/");
    } finally {
      await larder.close();
    }
  });

  it("names the curated documents and leaves daily-use and secret-bearing ones out", () => {
    expect(curatedDocumentName("groups/home/organizers.json")).toBe("categories, tags and tools of home");
    expect(curatedDocumentName("groups/home/foods.json")).toBe("foods of home");
    expect(curatedDocumentName("groups/home/households/family/cookbooks.json")).toBe("cookbooks of family");
    for (const p of [
      "groups/home/households/family/shopping-lists.json",
      "groups/home/households/family/mealplans.json",
      "groups/home/households/family/notifiers.json",
      "groups/home/households/family/webhooks.json",
      "groups/home/ratings.json",
      ".larder/secrets.json",
      "users.json",
    ])
      expect(curatedDocumentName(p), p).toBeNull();
  });

  it("does nothing, and fails nothing, when the folder is not a repository", async () => {
    await (await open(false)).close();
    const larder = await open(true);
    try {
      expect(larder.gitAutoCommit).toBeNull();
      const actor: Actor = { kind: "user", user: larder.users.all()[0] };
      expect(await larder.recipes.create(actor, { name: "Plain" })).toBe("plain");
    } finally {
      await larder.close();
    }
  });
});
