/** `larder plan …`: the household's meal plan (through the running server when one holds the folder). */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../../context.js";
import { CliError, EXIT, isJsonMode, printJson, printLine, printTable } from "../../output.js";
import { withWeek } from "../../week/backend.js";
import type { PlanEntryOut } from "../../week/types.js";
import { PLAN_ENTRY_TYPES } from "../../../core/schemas/week.js";
import { checkDate, weekOf } from "../../week/dates.js";

function checkType(t: string | undefined): string | undefined {
  if (t !== undefined && !(PLAN_ENTRY_TYPES as readonly string[]).includes(t)) {
    throw new CliError(`Unknown entry type: ${t} (one of ${PLAN_ENTRY_TYPES.join(", ")})`, EXIT.invalid);
  }
  return t;
}

const TYPE_ORDER = (t: string) => (PLAN_ENTRY_TYPES as readonly string[]).indexOf(t);

async function printEntries(entries: PlanEntryOut[], empty: string): Promise<void> {
  const rows = [...entries]
    .sort(
      (a, b) =>
        a.date.localeCompare(b.date) || TYPE_ORDER(a.entryType) - TYPE_ORDER(b.entryType) || a.id - b.id,
    )
    .map((e) => ({
      id: e.id,
      date: e.date,
      type: e.entryType,
      meal: e.recipe ? e.recipe.name : e.title,
      slug: e.recipe?.slug ?? "",
    }));
  await printTable(rows, { columns: ["date", "type", "meal", "slug", "id"], empty });
}

export function registerPlan(program: Command): void {
  const plan = program
    .command("plan")
    .description("the household's meal plan (through the running server when one holds the folder)");

  plan
    .command("show")
    .description("show the plan for a day (default today) or its week")
    .option("--week", "the whole week containing the day (from the household's first day of the week)")
    .option("--date <date>", "the day, YYYY-MM-DD (default: today, UTC)")
    .addOption(dataOption())
    .action(async (opts: { week?: boolean; date?: string; data?: string }) => {
      const date = checkDate(opts.date);
      const result = await withWeek(resolveDataDir(opts.data), async (week) => {
        const range = opts.week ? await weekOf(week, date) : { start: date, end: date };
        return { ...range, entries: await week.entriesBetween(range.start, range.end) };
      });
      if (isJsonMode()) return printJson(result);
      if (opts.week) printLine(`Week of ${result.start} to ${result.end}`);
      await printEntries(
        result.entries,
        opts.week ? "Nothing planned this week." : `Nothing planned for ${date}.`,
      );
    });

  plan
    .command("add <date> [slug]")
    .description("plan a recipe (by slug) or a titled meal on a day")
    .option("--type <type>", `entry type: ${PLAN_ENTRY_TYPES.join(", ")} (default dinner)`)
    .option("--title <title>", "a meal without a recipe")
    .option("--text <text>", "a note for the entry")
    .addOption(dataOption())
    .action(
      async (
        dateArg: string,
        slug: string | undefined,
        opts: { type?: string; title?: string; text?: string; data?: string },
      ) => {
        const date = checkDate(dateArg);
        const entryType = checkType(opts.type) ?? "dinner";
        if (!slug && !opts.title) throw new CliError("Name a recipe slug or give --title", EXIT.invalid);
        if (slug && opts.title) throw new CliError("Give a recipe slug or --title, not both", EXIT.invalid);
        const entry = await withWeek(resolveDataDir(opts.data), async (week) => {
          const recipeId = slug ? (await week.recipe(slug)).id : undefined;
          return week.addEntry({
            date,
            entryType,
            ...(recipeId ? { recipeId } : { title: opts.title }),
            ...(opts.text ? { text: opts.text } : {}),
          });
        });
        if (isJsonMode()) return printJson(entry);
        printLine(
          `Planned ${entry.recipe?.name ?? entry.title} for ${entry.entryType} on ${entry.date} (entry ${entry.id}).`,
        );
      },
    );

  plan
    .command("random")
    .description("plan a random recipe that the household's rules allow")
    .option("--date <date>", "the day, YYYY-MM-DD (default: today, UTC)")
    .option("--type <type>", "entry type (default dinner)")
    .addOption(dataOption())
    .action(async (opts: { date?: string; type?: string; data?: string }) => {
      const date = checkDate(opts.date);
      const entryType = checkType(opts.type) ?? "dinner";
      const entry = await withWeek(resolveDataDir(opts.data), (week) =>
        week.randomEntry({ date, entryType }),
      );
      if (isJsonMode()) return printJson(entry);
      printLine(
        `Planned ${entry.recipe?.name ?? entry.title} for ${entry.entryType} on ${entry.date} (entry ${entry.id}).`,
      );
    });
}
