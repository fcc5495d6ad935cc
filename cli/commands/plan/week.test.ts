/** `larder plan` and `larder list` as real processes: on a folder directly, then through a live server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort, json, larder, larderProcess, tempDir } from "../../testing/run-cli.js";

const today = new Date().toISOString().slice(0, 10);
type Entry = { id: number; date: string; entryType: string; title: string; recipe: { slug: string } | null };
type Item = { id: string; note: string; display: string; checked: boolean; quantity: number };
type List = { id: string; name: string; listItems: Item[] };

describe("larder plan and larder list", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    expect((await larder(["init", dir])).exitCode).toBe(0);
    await mkdir(join(dir, "groups", "home", "recipes"), { recursive: true });
    await writeFile(
      join(dir, "groups", "home", "recipes", "pancakes.md"),
      "---\nname: Pancakes\n---\n## Ingredients\n- 2 eggs\n- milk\n- flour\n",
    );
  }, 60_000);
  afterAll(async () => tmp?.cleanup());

  it("plans, shows the day and the week, picks at random, and refuses bad dates and types (exit 2)", async () => {
    const added = await larder(["plan", "add", today, "pancakes", "--data", dir, "--json"]);
    expect(added.exitCode, String(added.stderr)).toBe(0);
    expect(json<Entry>(added)).toMatchObject({
      date: today,
      entryType: "dinner",
      recipe: { slug: "pancakes" },
    });
    const titled = json<Entry>(
      await larder([
        "plan",
        "add",
        today,
        "--title",
        "Leftovers",
        "--type",
        "lunch",
        "--data",
        dir,
        "--json",
      ]),
    );
    expect(titled).toMatchObject({ title: "Leftovers", entryType: "lunch" });
    const day = json<{ entries: Entry[] }>(await larder(["plan", "show", "--data", dir, "--json"]));
    expect(day.entries.map((e) => e.recipe?.slug ?? e.title).sort()).toEqual(["Leftovers", "pancakes"]);
    const week = json<{ start: string; end: string; entries: Entry[] }>(
      await larder(["plan", "show", "--week", "--data", dir, "--json"]),
    );
    expect(new Date(`${week.start}T00:00:00Z`).getUTCDay()).toBe(0);
    expect(week.start <= today && today <= week.end).toBe(true);
    expect(week.entries.length).toBe(2);
    const plain = await larder(["plan", "show", "--data", dir]);
    expect(String(plain.stdout)).toContain("Pancakes");
    const random = json<Entry>(
      await larder(["plan", "random", "--date", "2031-01-01", "--data", dir, "--json"]),
    );
    expect(random.recipe?.slug).toBe("pancakes");
    const bad = await larder(["plan", "add", "2024-02-30", "--title", "x", "--data", dir]);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toContain("2024-02-30");
    expect(
      (await larder(["plan", "add", today, "--title", "x", "--type", "brunch", "--data", dir])).exitCode,
    ).toBe(2);
    expect((await larder(["plan", "add", today, "no-such-recipe", "--data", dir])).exitCode).toBe(4);
  }, 120_000);

  it("starts a list, adds a recipe scaled, checks an item off by its text; unknown lists are exit 4", async () => {
    const list = json<List>(await larder(["list", "new", "Groceries", "--data", dir, "--json"]));
    const added = await larder([
      "list",
      "add-recipe",
      "groceries",
      "pancakes",
      "--scale",
      "2",
      "--data",
      dir,
      "--json",
    ]);
    expect(added.exitCode, String(added.stderr)).toBe(0);
    const withItems = json<List>(added);
    expect(withItems.id).toBe(list.id);
    expect(withItems.listItems).toHaveLength(3);
    expect(withItems.listItems.find((i) => i.display.includes("egg"))?.quantity).toBe(4);
    const checked = json<Item>(await larder(["list", "check", "Groceries", "milk", "--data", dir, "--json"]));
    expect(checked).toMatchObject({ checked: true });
    const shown = json<List>(await larder(["list", "show", "Groceries", "--data", dir, "--json"]));
    expect(shown.listItems.filter((i) => i.checked).map((i) => i.id)).toEqual([checked.id]);
    const lists = json<{ name: string }[]>(await larder(["list", "show", "--data", dir, "--json"]));
    expect(lists.map((l) => l.name)).toEqual(["Groceries"]);
    expect((await larder(["list", "show", "Nope", "--data", dir])).exitCode).toBe(4);
    expect((await larder(["list", "check", "Groceries", "caviar", "--data", dir])).exitCode).toBe(4);
    const unknown = await larder(["list", "add-recipe", "Groceries", "no-such-dish", "--data", dir]);
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toContain("No recipe 'no-such-dish' in this group");
    const files = await readdir(join(dir, "groups", "home", "households", "family", "shopping-lists"));
    expect(files).toEqual([`${list.id}.json`]);

    // A second list of the same name: the name no longer says which; its id does.
    const twin = json<List>(await larder(["list", "new", "Groceries", "--data", dir, "--json"]));
    const ambiguous = await larder(["list", "show", "Groceries", "--data", dir]);
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stderr).toContain(`"Groceries" names 2 shopping lists; give one's id:`);
    expect((await larder(["list", "show", twin.id, "--data", dir])).exitCode).toBe(0);
    await rm(join(dir, "groups", "home", "households", "family", "shopping-lists", `${twin.id}.json`));
  }, 120_000);

  /** `larder list add-plan` over a span with pancakes planned twice: once on the list, its eggs doubled. */
  async function pancakesTwiceOnList(listId: string, from: string, to: string): Promise<void> {
    const res = await larder([
      "list",
      "add-plan",
      listId,
      "--from",
      from,
      "--to",
      to,
      "--data",
      dir,
      "--json",
    ]);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const out = json<{ added: { recipe: string; times: number }[]; list: List }>(res);
    expect(out.added).toEqual([expect.objectContaining({ recipe: "Pancakes", times: 2 })]);
    expect(out.list.listItems.find((i) => i.display.includes("egg"))?.quantity).toBe(4);
  }

  it("puts the recipes planned on a span of days on a list, each as often as planned", async () => {
    for (const date of ["2032-03-01", "2032-03-03"])
      expect((await larder(["plan", "add", date, "pancakes", "--data", dir])).exitCode).toBe(0);
    expect((await larder(["plan", "add", "2032-03-02", "--title", "Eat out", "--data", dir])).exitCode).toBe(
      0,
    );
    const list = json<List>(await larder(["list", "new", "Plan Week", "--data", dir, "--json"]));
    await pancakesTwiceOnList(list.id, "2032-03-01", "2032-03-07");
    const plain = await larder(["list", "add-plan", list.id, "--from", "2032-04-01", "--data", dir]);
    expect(plain.exitCode).toBe(0);
    expect(String(plain.stdout)).toMatch(/No recipes are planned from 2032-04-01 to 2032-04-0\d\./);
    const backwards = await larder([
      "list",
      "add-plan",
      list.id,
      "--from",
      "2032-03-07",
      "--to",
      "2032-03-01",
      "--data",
      dir,
    ]);
    expect(backwards.exitCode).toBe(2);
    await rm(join(dir, "groups", "home", "households", "family", "shopping-lists", `${list.id}.json`));
  }, 120_000);

  it("goes through the running server's API when one holds the folder", async () => {
    const port = await freePort();
    const proc = larderProcess(["serve", "--json", "--port", String(port), "--data", dir]);
    try {
      const deadline = Date.now() + 45_000;
      let up = false;
      while (!up && Date.now() < deadline) {
        up = await fetch(`http://127.0.0.1:${port}/api/app/about`).then(
          (r) => r.ok,
          () => false,
        );
        if (!up) await new Promise((r) => setTimeout(r, 200));
      }
      expect(up).toBe(true);
      const res = await larder(["list", "check", "Groceries", "flour", "--data", dir, "--json"]);
      expect(res.exitCode, String(res.stderr)).toBe(0);
      expect(json<Item>(res).checked).toBe(true);
      const planned = await larder([
        "plan",
        "add",
        "2031-02-03",
        "--title",
        "Through the server",
        "--data",
        dir,
        "--json",
      ]);
      expect(planned.exitCode, String(planned.stderr)).toBe(0);
      // The server wrote it: the lock is still the server's, and the file has the entry.
      const lock = JSON.parse(await readFile(join(dir, ".larder", "lock"), "utf8")) as { port: number };
      expect(lock.port).toBe(port);
      const plans = JSON.parse(
        await readFile(join(dir, "groups", "home", "households", "family", "mealplans.json"), "utf8"),
      ) as { entries: { title: string }[] };
      expect(plans.entries.some((e) => e.title === "Through the server")).toBe(true);
      const unknown = await larder(["plan", "add", "2031-02-04", "no-such-dish", "--data", dir]);
      expect(unknown.exitCode).toBe(4);
      expect(unknown.stderr).toContain("No recipe 'no-such-dish' in this group");
      // The planned week onto a list, in one bulk call to the server.
      for (const date of ["2031-02-05", "2031-02-06"])
        expect((await larder(["plan", "add", date, "pancakes", "--data", dir])).exitCode).toBe(0);
      const week = json<List>(await larder(["list", "new", "Server Week", "--data", dir, "--json"]));
      await pancakesTwiceOnList(week.id, "2031-02-03", "2031-02-09");
    } finally {
      proc.kill("SIGTERM");
      await proc;
    }
  }, 120_000);

  it("larder check reports a list file broken by hand and leaves it alone", async () => {
    const lists = join(dir, "groups", "home", "households", "family", "shopping-lists");
    // The Groceries list's file: the folder holds the server test's list too.
    let file = "";
    for (const name of await readdir(lists))
      if ((JSON.parse(await readFile(join(lists, name), "utf8")) as { name?: string }).name === "Groceries")
        file = name;
    expect(file).not.toBe("");
    await writeFile(join(lists, file), "{ not json");
    const res = await larder(["check", "--data", dir, "--json"]);
    expect(res.exitCode).toBe(1);
    const report = json<{ broken: { path: string; message: string }[] }>(res);
    expect(report.broken.map((b) => b.path)).toContain(
      `groups/home/households/family/shopping-lists/${file}`,
    );
    expect(await readFile(join(lists, file), "utf8")).toBe("{ not json");
    expect((await larder(["list", "show", "Groceries", "--data", dir])).exitCode).toBe(4);
  }, 120_000);
});
