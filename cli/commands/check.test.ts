import { mkdir, readFile, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rm } from "node:fs/promises";
import { freePort, json, larder, larderProcess, tempDir } from "../testing/run-cli.js";
import type { CheckReport } from "./check.js";

describe("larder check", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  let recipes: string;
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    const init = await larder(["init", dir]);
    expect(init.exitCode, String(init.stderr)).toBe(0);
    recipes = join(dir, "groups", "home", "recipes");
  });
  afterAll(() => tmp.cleanup());
  beforeEach(async () => {
    await rm(recipes, { recursive: true, force: true });
    await mkdir(recipes, { recursive: true });
  });

  it("reports a recipe file that fails to parse and exits 1", async () => {
    await writeFile(join(recipes, "good.md"), "---\nname: Good Soup\n---\nA soup.\n");
    await writeFile(join(recipes, "bad.md"), "---\nname: [unclosed\n---\n");
    const res = await larder(["check", "--data", dir, "--json"]);
    expect(res.exitCode).toBe(1);
    const report = json<CheckReport>(res);
    expect(report.recipes).toBeGreaterThanOrEqual(1);
    expect(report.orphans).toEqual([]);
    expect(report.broken).toHaveLength(1);
    expect(report.broken[0]).toMatchObject({
      path: "groups/home/recipes/bad.md",
      message: expect.any(String),
    });
    expect(report.broken[0].message.length).toBeGreaterThan(0);

    const plain = await larder(["check", "--data", dir]);
    expect(plain.exitCode).toBe(1);
    expect(plain.stdout).toMatch(/^file\s+line\s+problem$/m);
    expect(plain.stdout).toContain("groups/home/recipes/bad.md");
    expect(plain.stdout).toContain("1 broken file");
  });

  it("reports the broken file of a large folder a running server holds, on every run", async () => {
    // From 200 files a start with a cache stats them on a thread; waiting for that thread kept nothing
    // alive in a command that does not hold the lock, and node ended it silently with exit 0.
    for (let i = 0; i < 210; i++)
      await writeFile(join(recipes, `gen-${i}.md`), `---\nname: Gen ${i}\n---\nbody\n`);
    await writeFile(join(recipes, "bad.md"), "---\nname: [unclosed\n---\n");
    const port = await freePort();
    const server = larderProcess(["serve", "--data", dir, "--port", String(port), "--host", "127.0.0.1"], {
      env: { PRODUCTION: "false" },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = "";
        server.stdout?.on("data", (c: Buffer) => {
          out += c.toString();
          if (out.includes("is serving")) resolve();
        });
        void server.then(() => reject(new Error(`larder serve ended: ${out}`)));
      });
      // The first run may write the cache the second starts from.
      for (let run = 0; run < 2; run++) {
        const res = await larder(["check", "--data", dir, "--json"]);
        expect(res.exitCode, `run ${run}: ${String(res.stderr)}`).toBe(1);
        expect(json<CheckReport>(res).broken.map((b) => b.path)).toEqual(["groups/home/recipes/bad.md"]);
      }
    } finally {
      server.kill("SIGTERM");
      await server;
    }
  }, 60_000);

  it("names a truncated household.json instead of crashing, and leaves the file as it is", async () => {
    const file = join(dir, "groups", "home", "households", "family", "household.json");
    const good = await readFile(file, "utf8");
    const truncated = good.slice(0, Math.floor(good.length / 2));
    await writeFile(file, truncated);
    try {
      const res = await larder(["check", "--data", dir, "--json"]);
      expect(res.exitCode, String(res.stderr)).toBe(1);
      expect(json<CheckReport>(res).broken).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: "groups/home/households/family/household.json" }),
        ]),
      );
      expect(await readFile(file, "utf8")).toBe(truncated);
    } finally {
      await writeFile(file, good);
    }
  });

  it("reports a media folder whose recipe is gone as an orphan", async () => {
    await mkdir(join(recipes, "ghost", "assets"), { recursive: true });
    await writeFile(join(recipes, "kept.md"), "---\nname: Kept\n---\n");
    await mkdir(join(recipes, "kept"));
    const res = await larder(["--json", "check", "--data", dir]);
    expect(res.exitCode).toBe(1);
    expect(json<CheckReport>(res)).toMatchObject({
      broken: [],
      orphans: [{ path: "groups/home/recipes/ghost/", kind: "media-folder" }],
    });
  });

  it("reports symlinked and hidden .md files, never following the link out of the folder", async () => {
    const outside = join(tmp.path, "outside.md");
    await writeFile(outside, "---\nname: Outside\n---\nSecret.\n");
    await symlink(outside, join(recipes, "linked.md"));
    await writeFile(join(recipes, ".hidden.md"), "---\nname: Hidden\n---\n");
    await writeFile(join(recipes, "plain.md"), "---\nname: Plain\n---\n");
    const res = await larder(["--json", "check", "--data", dir]);
    expect(res.exitCode).toBe(1);
    const report = json<CheckReport>(res);
    expect(report.problems).toEqual([
      { path: "groups/home/recipes/.hidden.md", kind: "hidden", message: expect.stringContaining("hidden") },
      {
        path: "groups/home/recipes/linked.md",
        kind: "symlink",
        message: expect.stringContaining("never followed"),
      },
    ]);
    expect(report.recipes).toBe(1);
    expect(await readFile(outside, "utf8")).toBe("---\nname: Outside\n---\nSecret.\n");
  });

  it("reports a recipes folder replaced by a symlink, never listing the folder it points to", async () => {
    const outside = join(tmp.path, "outside-recipes");
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, "Away.MD"), "---\nname: Away\n---\n");
    await rm(recipes, { recursive: true });
    await symlink(outside, recipes);
    const report = json<CheckReport>(await larder(["--json", "check", "--data", dir]));
    expect(report.problems).toEqual([
      { path: "groups/home/recipes", kind: "symlink", message: expect.stringContaining("never followed") },
    ]);
    await rm(recipes);
  });

  it("says why a .MD file or a folder named like a recipe file is not read", async () => {
    const fresh = join(tmp.path, "extension-data");
    expect((await larder(["init", fresh])).exitCode).toBe(0);
    const into = join(fresh, "groups", "home", "recipes");
    await writeFile(join(into, "Pancakes.MD"), "---\nname: Pancakes\n---\n");
    await mkdir(join(into, "shelf.md"));
    const report = json<CheckReport>(await larder(["--json", "check", "--data", fresh]));
    expect(report.problems).toEqual([
      {
        path: "groups/home/recipes/Pancakes.MD",
        kind: "extension",
        message: expect.stringContaining('rename it to "Pancakes.md"'),
      },
    ]);
    expect(report.orphans).toEqual([
      {
        path: "groups/home/recipes/shelf.md/",
        kind: "media-folder",
        message: expect.stringContaining("a folder named like a recipe file"),
      },
    ]);
  });

  it("reports a copied file's duplicate id and an owner from outside the group", async () => {
    const id = "3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10";
    await writeFile(join(recipes, "soup.md"), `---\nid: ${id}\nname: Soup\n---\n`);
    await utimes(
      join(recipes, "soup.md"),
      new Date("2026-01-01T00:00:00Z"),
      new Date("2026-01-01T00:00:00Z"),
    );
    await writeFile(
      join(recipes, "a-soup-copy.md"),
      `---\nid: ${id}\nname: Soup copy\nowner: ../../x\n---\n`,
    );
    const res = await larder(["--json", "check", "--data", dir]);
    expect(res.exitCode).toBe(1);
    const report = json<CheckReport>(res);
    expect(report.problems.map((p) => [p.path, p.kind])).toEqual([
      ["groups/home/recipes/a-soup-copy.md", "duplicate-id"],
      ["groups/home/recipes/a-soup-copy.md", "foreign-owner"],
    ]);
  });

  it("reports a file that is not UTF-8 text as broken and leaves it untouched", async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("---\nname: Soup\n---\n", "utf16le"),
    ]);
    await writeFile(join(recipes, "wide.md"), utf16);
    const res = await larder(["--json", "check", "--data", dir]);
    expect(res.exitCode).toBe(1);
    expect(json<CheckReport>(res).broken).toEqual([
      expect.objectContaining({
        path: "groups/home/recipes/wide.md",
        message: expect.stringContaining("not UTF-8"),
      }),
    ]);
    expect(await readFile(join(recipes, "wide.md"))).toEqual(utf16);
  });

  it("exits 0 and says so when the folder is clean", async () => {
    await writeFile(join(recipes, "fine.md"), "---\nname: Fine\n---\n");
    const res = await larder(["check", "--data", dir]);
    expect(res.exitCode, String(res.stdout) + String(res.stderr)).toBe(0);
    expect(res.stdout).toMatch(/1 recipe, no problems/);
  });

  it("refuses a folder that is not a Larder folder instead of creating one", async () => {
    const missing = join(tmp.path, "nowhere");
    const res = await larder(["check", "--data", missing]);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain("larder init");
  });

  it("takes the folder from LARDER_DATA", async () => {
    const res = await larder(["check", "--json"], { env: { LARDER_DATA: dir } });
    expect(res.exitCode).toBe(0);
    expect(json<CheckReport>(res).broken).toEqual([]);
  });

  it("reports webhook and notifier files broken by hand, and leaves them alone", async () => {
    const hooks = join(dir, "groups", "home", "households", "family", "webhooks.json");
    const urls = join(dir, ".larder", "notifier-urls.json");
    await writeFile(hooks, '{ "webhooks": [');
    await writeFile(urls, '{ "urls": ');
    try {
      const res = await larder(["check", "--data", dir, "--json"]);
      expect(res.exitCode).toBe(1);
      expect(json<CheckReport>(res).broken.map((b) => b.path)).toEqual(
        expect.arrayContaining(["groups/home/households/family/webhooks.json", ".larder/notifier-urls.json"]),
      );
      expect(await readFile(hooks, "utf8")).toBe('{ "webhooks": [');
    } finally {
      await rm(hooks, { force: true });
      await rm(urls, { force: true });
    }
  });
});
