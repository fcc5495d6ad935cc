/** `larder list …`: the household's shopping lists (through the running server when one holds the folder). */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { CliError, EXIT, isJsonMode, printJson, printLine, printTable } from "../../output.js";
import { withWeek } from "../../week/backend.js";
import { checkDate, weekOf } from "../../week/dates.js";
import type { ShoppingItemOut, ShoppingListOut, WeekCalls } from "../../week/types.js";

/** A list by id or name (case-insensitive); one list and no name given: that one. */
async function pickList(week: WeekCalls, name: string | undefined): Promise<ShoppingListOut> {
  const lists = await week.lists();
  if (name === undefined) {
    if (lists.length === 1) return week.list(lists[0].id);
    throw new CliError(
      lists.length === 0
        ? "No shopping lists yet."
        : "Name a list: " + lists.map((l) => l.name ?? l.id).join(", "),
      EXIT.invalid,
    );
  }
  const want = name.trim().toLowerCase();
  const named = lists.filter((l) => (l.name ?? "").toLowerCase() === want);
  // Two lists of one name: picking the first silently would change a list the person did not mean.
  if (named.length > 1 && !lists.some((l) => l.id === want))
    throw new CliError(
      `"${name}" names ${named.length} shopping lists; give one's id: ${named.map((l) => l.id).join(", ")}`,
      EXIT.invalid,
    );
  const hit = lists.find((l) => l.id === want) ?? named[0];
  if (!hit) throw new CliError(`No shopping list named "${name}"`, EXIT.notFound);
  return week.list(hit.id);
}

/** An item by id, or by its text (display or note), preferring unchecked ones; ambiguous text is refused. */
function pickItem(list: ShoppingListOut, text: string): ShoppingItemOut {
  const byId = list.listItems.find((i) => i.id === text.toLowerCase());
  if (byId) return byId;
  const want = text.trim().toLowerCase();
  const matches = (exact: boolean) =>
    list.listItems.filter((i) =>
      [i.display, i.note, i.food?.name ?? ""].some((s) =>
        exact ? s.toLowerCase() === want : s.toLowerCase().includes(want),
      ),
    );
  for (const exact of [true, false]) {
    const all = matches(exact);
    const open = all.filter((i) => !i.checked);
    const pool = open.length ? open : all;
    if (pool.length === 1) return pool[0];
    if (pool.length > 1)
      throw new CliError(
        `"${text}" matches ${pool.length} items: ${pool.map((i) => i.display || i.note).join("; ")}`,
        EXIT.invalid,
      );
  }
  throw new CliError(`No item "${text}" on ${list.name ?? list.id}`, EXIT.notFound);
}

async function printItems(list: ShoppingListOut): Promise<void> {
  const order = new Map(list.labelSettings.map((s) => [s.labelId, s.position]));
  const rows = [...list.listItems]
    .sort(
      (a, b) =>
        Number(a.checked) - Number(b.checked) ||
        (order.get(a.labelId ?? a.label?.id ?? "") ?? 1e9) -
          (order.get(b.labelId ?? b.label?.id ?? "") ?? 1e9) ||
        a.position - b.position,
    )
    .map((i) => ({
      done: i.checked ? "x" : "",
      item: i.display || i.note,
      label: i.label?.name ?? "",
      id: i.id,
    }));
  printLine(list.name ?? list.id);
  await printTable(rows, { columns: ["done", "item", "label", "id"], empty: "The list is empty." });
}

export function registerList(program: Command): void {
  const list = program
    .command("list")
    .description("the household's shopping lists (through the running server when one holds the folder)");

  list
    .command("show [name]")
    .description("show the lists, or the items of one")
    .addOption(dataOption())
    .action(async (name: string | undefined, opts: { data?: string }) => {
      const out = await withWeek(resolveDataDir(opts.data), async (week) =>
        name === undefined ? { lists: await week.lists() } : { list: await pickList(week, name) },
      );
      if ("list" in out && out.list) {
        if (isJsonMode()) return printJson(out.list);
        return printItems(out.list);
      }
      const lists = out.lists ?? [];
      if (isJsonMode()) return printJson(lists);
      await printTable(
        lists.map((l) => ({ name: l.name ?? "", id: l.id })),
        { columns: ["name", "id"], empty: "No shopping lists yet." },
      );
    });

  list
    .command("new <name>")
    .description("start a shopping list")
    .addOption(dataOption())
    .action(async (name: string, opts: { data?: string }) => {
      if (!name.trim()) throw new CliError("A list needs a name", EXIT.invalid);
      const created = await withWeek(resolveDataDir(opts.data), (week) => week.createList(name.trim()));
      if (isJsonMode()) return printJson(created);
      printLine(`Started ${created.name} (${created.id}).`);
    });

  list
    .command("add-recipe <list> <slug>")
    .description(
      "add a recipe's ingredients to a list (foods the household has on hand are left out unless --all)",
    )
    .option("--scale <n>", "how many times the recipe", "1")
    .option("--all", "include foods the household has on hand")
    .addOption(dataOption())
    .action(async (listName: string, slug: string, opts: { scale: string; all?: boolean; data?: string }) => {
      const scale = Number(opts.scale);
      if (!Number.isFinite(scale) || scale <= 0 || scale > 10_000)
        throw new CliError(`--scale must be a number above 0 (got ${opts.scale})`, EXIT.invalid);
      const out = await withWeek(resolveDataDir(opts.data), async (week) => {
        const target = await pickList(week, listName);
        const recipe = await week.recipe(slug);
        const kept = opts.all
          ? recipe.recipeIngredient
          : recipe.recipeIngredient.filter((i) => !i.food?.onHand);
        const body = {
          recipeIncrementQuantity: scale,
          ...(kept.length === recipe.recipeIngredient.length ? {} : { recipeIngredients: kept }),
        };
        return {
          list: await week.addRecipe(target.id, recipe.id, body),
          recipe: recipe.name,
          skipped: recipe.recipeIngredient.length - kept.length,
        };
      });
      if (isJsonMode()) return printJson(out.list);
      printLine(
        `Added ${out.recipe}${scale !== 1 ? ` ×${scale}` : ""} to ${out.list.name ?? out.list.id}${out.skipped ? ` (${out.skipped} on-hand item(s) left out; --all adds them)` : ""}.`,
      );
    });

  list
    .command("add-plan <list>")
    .description(
      "add the recipes planned from a day (default today) to the end of its week, each as often as it is planned (on-hand foods left out unless --all)",
    )
    .option("--from <date>", "the first day, YYYY-MM-DD (default: today, UTC)")
    .option("--to <date>", "the last day (default: the last day of the first day's week)")
    .option("--all", "include foods the household has on hand")
    .addOption(dataOption())
    .action(async (listName: string, opts: { from?: string; to?: string; all?: boolean; data?: string }) => {
      const from = checkDate(opts.from);
      const out = await withWeek(resolveDataDir(opts.data), async (week) => {
        const to = opts.to === undefined ? (await weekOf(week, from)).end : checkDate(opts.to);
        if (to < from) throw new CliError(`--to ${to} is before --from ${from}`, EXIT.invalid);
        const target = await pickList(week, listName);
        const times = new Map<string, number>();
        for (const e of await week.entriesBetween(from, to))
          if (e.recipe) times.set(e.recipe.slug, (times.get(e.recipe.slug) ?? 0) + 1);
        const added: { recipe: string; times: number; skipped: number }[] = [];
        const entries: Parameters<typeof week.addRecipes>[1] = [];
        for (const [slug, n] of times) {
          const recipe = await week.recipe(slug);
          const kept = opts.all
            ? recipe.recipeIngredient
            : recipe.recipeIngredient.filter((i) => !i.food?.onHand);
          entries.push({
            recipeId: recipe.id,
            recipeIncrementQuantity: n,
            ...(kept.length === recipe.recipeIngredient.length ? {} : { recipeIngredients: kept }),
          });
          added.push({
            recipe: recipe.name,
            times: n,
            skipped: recipe.recipeIngredient.length - kept.length,
          });
        }
        // One call: a recipe the list cannot take leaves the list as it was, not half the week on it.
        const list = entries.length > 0 ? await week.addRecipes(target.id, entries) : target;
        return { from, to, list, added };
      });
      if (isJsonMode()) return printJson({ from: out.from, to: out.to, added: out.added, list: out.list });
      const name = out.list.name ?? out.list.id;
      if (out.added.length === 0) return printLine(`No recipes are planned from ${out.from} to ${out.to}.`);
      const skipped = out.added.reduce((n, a) => n + a.skipped, 0);
      printLine(
        `Added to ${name} the recipes planned from ${out.from} to ${out.to}: ${out.added
          .map((a) => (a.times > 1 ? `${a.recipe} ×${a.times}` : a.recipe))
          .join(", ")}${skipped ? ` (${skipped} on-hand item(s) left out; --all adds them)` : ""}.`,
      );
    });

  list
    .command("check <list> <item>")
    .description("check an item off (by its text or id)")
    .option("--undo", "uncheck it instead")
    .addOption(dataOption())
    .action(async (listName: string, itemText: string, opts: { undo?: boolean; data?: string }) => {
      const item = await withWeek(resolveDataDir(opts.data), async (week) => {
        const target = await pickList(week, listName);
        const it = pickItem(target, itemText);
        await week.updateItem({ ...it, checked: !opts.undo });
        return (
          (await week.list(target.id)).listItems.find((i) => i.id === it.id) ?? { ...it, checked: !opts.undo }
        );
      });
      if (isJsonMode()) return printJson(item);
      printLine(`${item.checked ? "Checked" : "Unchecked"}: ${item.display || item.note}`);
    });
}
