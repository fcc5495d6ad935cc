/** `larder export` as a real process: each format written, --json listing, an unknown slug writes nothing. */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, larder, tempDir } from "../testing/run-cli.js";

let tmp: Awaited<ReturnType<typeof tempDir>>;
let dir: string;
beforeAll(async () => {
  tmp = await tempDir();
  dir = join(tmp.path, "data");
  expect((await larder(["init", dir])).exitCode).toBe(0);
  await writeFile(
    join(dir, "groups", "home", "recipes", "toast.md"),
    "---\nname: Toast\n---\n\n## Ingredients\n\n- 2 slices bread\n\n## Instructions\n\n1. Toast it.\n",
  );
});
afterAll(async () => tmp?.cleanup());

describe("larder export", () => {
  it("writes a recipe as Markdown, Mealie JSON and a zip", { timeout: 90_000 }, async () => {
    const out = join(tmp.path, "out");
    for (const format of ["md", "json", "zip"]) {
      const r = await larder(["export", "toast", "--format", format, "--out", out, "--data", dir, "--json"]);
      expect(r.exitCode).toBe(0);
      const [w] = json<Array<{ slug: string; path: string; bytes: number }>>(r);
      expect(w).toMatchObject({ slug: "toast", path: join(out, `toast.${format}`) });
      expect((await readFile(w.path)).length).toBe(w.bytes);
    }
    expect(await readFile(join(out, "toast.md"), "utf8")).toContain("Toast it.");
    expect(JSON.parse(await readFile(join(out, "toast.json"), "utf8"))).toMatchObject({
      name: "Toast",
      slug: "toast",
    });
    expect((await readFile(join(out, "toast.zip"))).subarray(0, 2).toString()).toBe("PK");
  });

  it(
    "writes nothing when one slug is unknown (exit 4), refuses an unknown format (exit 2)",
    { timeout: 60_000 },
    async () => {
      const out = join(tmp.path, "none");
      const r = await larder(["export", "toast", "no-such-recipe", "--out", out, "--data", dir, "--json"]);
      expect(r.exitCode).toBe(4);
      expect(json<{ error: { message: string } }>(r).error.message).toContain("no-such-recipe");
      expect(await readdir(out).catch(() => [])).toEqual([]);
      expect((await larder(["export", "toast", "--format", "pdf", "--data", dir])).exitCode).toBe(2);
    },
  );
});
