import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { App, type Screen } from "./app.js";
import type { RecipeHit, RecipeView, ShoppingItemOut, ShoppingListOut, TuiSource } from "./source.js";

const pancakes: RecipeView = {
  slug: "pancakes",
  name: "Fluffy Pancakes",
  recipeServings: 4,
  recipeIngredient: [
    { quantity: 2, unit: { name: "cup", pluralName: "cups" }, food: { name: "flour" }, note: null },
    { quantity: 1, unit: null, food: { name: "egg", pluralName: "eggs" }, note: null },
  ],
  recipeInstructions: [{ text: "Whisk everything together." }],
  notes: [{ title: "Tip", text: "Rest the batter." }],
};
const soup: RecipeView = {
  slug: "tomato-soup",
  name: "Tomato Soup",
  recipeServings: 2,
  recipeIngredient: [],
  recipeInstructions: [],
};

function item(id: string, display: string, position: number, checked = false): ShoppingItemOut {
  return {
    id,
    display,
    note: "",
    checked,
    position,
    labelId: null,
    label: null,
  } as unknown as ShoppingItemOut;
}

/** An in-memory folder: searches by name, records every check-off it is asked to write. */
function fakeSource(more = 0) {
  const recipes = [
    pancakes,
    ...Array.from({ length: more }, (_, i) => ({
      ...soup,
      slug: `stew-${String(i + 1).padStart(3, "0")}`,
      name: `Stew ${String(i + 1).padStart(3, "0")}`,
    })),
    soup,
  ];
  const list = {
    id: "weekly",
    name: "Weekly",
    labelSettings: [],
    listItems: [item("a", "2 cups flour", 0), item("b", "milk", 1)],
  } as unknown as ShoppingListOut;
  const writes: { id: string; checked: boolean }[] = [];
  const source: TuiSource = {
    mode: "local",
    ready: Promise.resolve(),
    search: async (q, limit) => {
      const all = recipes
        .filter((r) => r.name.toLowerCase().includes(q.trim().toLowerCase()))
        .map((r): RecipeHit => ({ slug: r.slug, name: r.name }));
      return { items: all.slice(0, limit), total: all.length };
    },
    recipe: async (slug) => {
      const r = recipes.find((x) => x.slug === slug);
      if (!r) throw new Error(`No recipe ${slug}`);
      return r;
    },
    firstDayOfWeek: async () => 1,
    entriesBetween: async () => [],
    lists: async () => [{ id: list.id, name: list.name } as never],
    list: async () => structuredClone(list),
    setChecked: async (it, checked) => {
      writes.push({ id: it.id, checked });
      list.listItems = list.listItems.map((i) => (i.id === it.id ? { ...i, checked } : i));
    },
    importUrl: async (url) => {
      if (url.includes("broken")) throw new Error("No recipe was found");
      return "imported-recipe";
    },
  };
  return { source, writes };
}

/** Poll the last frame until `check` holds (bounded): the app answers asynchronously, as over HTTP. */
async function frameWhere(frame: () => string | undefined, check: (f: string) => boolean, what: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const f = frame() ?? "";
    if (check(f)) return f;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${f}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const showing = (frame: () => string | undefined, text: string) =>
  frameWhere(frame, (f) => f.includes(text), JSON.stringify(text));

function start(opts: { plain?: boolean; initial?: Screen; more?: number } = {}) {
  const fake = fakeSource(opts.more);
  const app = render(<App source={fake.source} plain={opts.plain} initial={opts.initial} />);
  return { ...app, ...fake };
}

const ARROW_DOWN = "\u001B[B";
const ENTER = "\r";

describe("the terminal app", () => {
  it("draws its first frame while the folder opens, and lists the recipes once it has", async () => {
    const fake = fakeSource();
    let open: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (open = resolve));
    // Every call waits for the folder, as OpeningSource's do.
    const source: TuiSource = {
      ...fake.source,
      ready,
      search: async (q, limit) => {
        await ready;
        return fake.source.search(q, limit);
      },
    };
    const app = render(<App source={source} />);
    const first = await showing(app.lastFrame, "Opening the data folder…");
    expect(first).toContain("Search:");
    app.stdin.write("pan");
    await showing(app.lastFrame, "Search: pan");
    open();
    const listed = await showing(app.lastFrame, "1 recipe");
    expect(listed).toContain("> Fluffy Pancakes");
    app.unmount();
  });

  it("narrows the recipe list as you type, moves with the arrows and opens the one under the cursor", async () => {
    const app = start();
    await showing(app.lastFrame, "2 recipes");
    expect(app.lastFrame()).toMatch(/> Fluffy Pancakes\n {2}Tomato Soup/);
    app.stdin.write(ARROW_DOWN);
    await showing(app.lastFrame, "> Tomato Soup");
    app.stdin.write("tom");
    const narrowed = await showing(app.lastFrame, "1 recipe");
    expect(narrowed).toContain("Search: tom");
    expect(narrowed).not.toContain("Pancakes");
    app.stdin.write("\u007F\u007F\u007Fzzz");
    await showing(app.lastFrame, 'No recipe matches "zzz"');
    app.stdin.write("\u007F\u007F\u007Fpan");
    await showing(app.lastFrame, "> Fluffy Pancakes");
    app.stdin.write(ENTER);
    const opened = await showing(app.lastFrame, "Ingredients");
    expect(opened).toContain("Servings: 4");
    expect(opened).toContain("- 2 cups flour");
    app.unmount();
  });

  it("reaches every recipe with the arrows, loading more as the cursor reaches the last one loaded", async () => {
    const app = start({ more: 80 });
    const first = await showing(app.lastFrame, "82 recipes");
    expect(first).toContain("loaded; more as you scroll");
    // In this fake's order: the pancakes, then Stew 001 … Stew 080, then the soup.
    for (let i = 1; i <= 80; i++) {
      app.stdin.write(ARROW_DOWN);
      await showing(app.lastFrame, `> Stew ${String(i).padStart(3, "0")}`);
    }
    app.stdin.write(ARROW_DOWN);
    await showing(app.lastFrame, "> Tomato Soup");
    expect(app.lastFrame()).not.toContain("more as you scroll");
    app.unmount();
  });

  it("scales the ingredients with + and - using core's quantity display", async () => {
    const app = start({ initial: { kind: "recipe", slug: "pancakes" } });
    await showing(app.lastFrame, "- 2 cups flour");
    app.stdin.write("+");
    let f = await showing(app.lastFrame, "Servings: 5 (recipe: 4)");
    // 2 cups × 5/4 = 2 ½ cups, in Mealie's fraction text.
    expect(f).toContain("- 2 ¹/₂ cups flour");
    expect(f).toContain("- 1 ¹/₄ eggs");
    app.stdin.write("-");
    app.stdin.write("-");
    app.stdin.write("-");
    f = await showing(app.lastFrame, "Servings: 2 (recipe: 4)");
    expect(f).toContain("- 1 cup flour");
    expect(f).toContain("- ¹/₂ egg");
    // Steps and notes are there too.
    expect(f).toContain(" 1. Whisk everything together.");
    expect(f).toContain("Rest the batter.");
    app.stdin.write("0");
    f = await showing(app.lastFrame, "Servings: 4\n");
    // The status line says the servings back to the recipe's too, not the last step's.
    await frameWhere(app.lastFrame, (fr) => !fr.includes("Servings: 2\n"), "the status line to follow 0");
    expect(f).not.toContain("Servings: 2 (recipe: 4)");
    app.unmount();
  });

  it("checks a list item off with Space through the source's write, and back on again", async () => {
    const app = start({ initial: { kind: "lists" } });
    // One list: opened straight away.
    await showing(app.lastFrame, "Weekly (2 to get, 0 checked)");
    expect(app.lastFrame()).toContain("> [ ] 2 cups flour");
    app.stdin.write(" ");
    const f = await showing(app.lastFrame, "Checked: 2 cups flour");
    expect(f).toContain("Weekly (1 to get, 1 checked)");
    // The checked item sinks; the cursor stays on its row, now the next item.
    expect(f).toMatch(/> \[ \] milk\n {2}\[x\] 2 cups flour/);
    expect(app.writes).toEqual([{ id: "a", checked: true }]);
    app.stdin.write(ARROW_DOWN);
    await showing(app.lastFrame, "> [x] 2 cups flour");
    app.stdin.write(" ");
    await showing(app.lastFrame, "Unchecked: 2 cups flour");
    expect(app.writes).toEqual([
      { id: "a", checked: true },
      { id: "a", checked: false },
    ]);
    app.unmount();
  });

  it("shows the keys of the current screen on ? and closes the help on any key", async () => {
    const app = start({ initial: { kind: "recipe", slug: "pancakes" } });
    await showing(app.lastFrame, "Ingredients");
    let reads = 0;
    const recipe = app.source.recipe;
    app.source.recipe = (slug) => (reads++, recipe(slug));
    app.stdin.write("?");
    const help = await showing(app.lastFrame, "Press any key to close this help.");
    expect(help).toMatch(/\+ -\s+more or fewer servings/);
    expect(help).toMatch(/Tab\s+next screen/);
    // While the help is open, keys do not reach the screen underneath.
    app.stdin.write("+");
    const back = await showing(app.lastFrame, "Ingredients");
    expect(back).toContain("Servings: 4\n");
    // The screen was kept under the help, not opened again.
    expect(reads).toBe(0);
    app.unmount();
  });

  it("moves between screens with Tab and imports a pasted URL with its result", async () => {
    const app = start();
    await showing(app.lastFrame, "2 recipes");
    app.stdin.write("\t");
    await showing(app.lastFrame, "‹Plan›");
    await showing(app.lastFrame, "nothing planned");
    app.stdin.write("i");
    await showing(app.lastFrame, "Recipe URL:");
    app.stdin.write("https://example.test/r?id=1");
    app.stdin.write(ENTER);
    await showing(app.lastFrame, "imported as imported-recipe");
    app.stdin.write("i");
    await showing(app.lastFrame, "Recipe URL:");
    app.stdin.write("https://broken.test/");
    app.stdin.write(ENTER);
    const f = await showing(app.lastFrame, "failed: No recipe was found");
    expect(f).toContain("Import failed: No recipe was found");
    // Text that holds no web address is not sent: the field stays open with it.
    app.stdin.write("i");
    await showing(app.lastFrame, "Recipe URL:");
    app.stdin.write("pancakes");
    app.stdin.write(ENTER);
    const kept = await showing(app.lastFrame, "Not a web address");
    expect(kept).toContain("Recipe URL: pancakes");
    app.unmount();
  });

  it("goes back to the first screen with q from another tab's screen, and quits only there", async () => {
    const app = start();
    await showing(app.lastFrame, "2 recipes");
    for (const tabs of [["‹Plan›"], ["‹Plan›", "‹Lists›"], ["‹Imports›"]]) {
      // One key at a time, as a person types: each Tab moves on from the screen the last one showed.
      for (const tab of tabs) {
        app.stdin.write(tab === "‹Imports›" ? "\u001B[Z" : "\t");
        await showing(app.lastFrame, tab);
      }
      app.stdin.write("q");
      await showing(app.lastFrame, "‹Recipes›");
    }
    await showing(app.lastFrame, "2 recipes");
    app.unmount();
  });

  /**
   * The lists screen opened with its lists held back until `answer`, then q; `answerAt` says whether the
   * lists come once the recipes are shown again, or in the same moment as the q, before the screen is
   * drawn again (the lists screen has not gone yet then). One list would open straight away; the app
   * must stay on the recipes either way.
   */
  async function qWhileListsLoad(answerAt: "after" | "same moment") {
    const fake = fakeSource();
    let answer: () => void = () => undefined;
    const later = new Promise<void>((resolve) => (answer = resolve));
    const source: TuiSource = {
      ...fake.source,
      lists: async () => {
        await later;
        return fake.source.lists();
      },
    };
    const app = render(<App source={source} />);
    await showing(app.lastFrame, "2 recipes");
    app.stdin.write("\t");
    await showing(app.lastFrame, "‹Plan›");
    app.stdin.write("\t");
    await showing(app.lastFrame, "the shopping lists");
    app.stdin.write("q");
    if (answerAt === "after") await showing(app.lastFrame, "‹Recipes›");
    answer();
    await later;
    await new Promise((r) => setImmediate(r));
    const f = await showing(app.lastFrame, "2 recipes");
    expect(f).toContain("‹Recipes›");
    expect(f).not.toContain("Weekly");
    app.unmount();
  }

  it("stays on the screen a person went back to when the shopping lists come after they left", () =>
    qWhileListsLoad("after"));

  // A CI flake of the test above: the one list opened over the recipes.
  it("stays on the screen a person went back to when the shopping lists come in the same moment", () =>
    qWhileListsLoad("same moment"));

  it("fits the screen: never more lines than the terminal has, minus one", async () => {
    const app = start({ initial: { kind: "recipe", slug: "pancakes" } });
    const f = await showing(app.lastFrame, "Ingredients");
    expect(f.split("\n").length).toBeLessThanOrEqual(23);
    app.unmount();
  });

  it("in plain mode draws no rules or boxes and marks the cursor and tab with text", async () => {
    const app = start({ plain: true });
    const f = await showing(app.lastFrame, "2 recipes");
    expect(f).not.toMatch(/[─│╭╮╰╯‹›▏]/);
    expect(f).toContain("[Recipes]");
    expect(f).toContain("> Fluffy Pancakes");
    // No inverse video or colour: only text says where the cursor is.
    expect(f).not.toMatch(/\u001B\[(7|3\d|4\d)m/);
    app.unmount();
  });
});
