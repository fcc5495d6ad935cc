/** CSV exports, read strictly: broken quoting is an error naming the line, never a silent mis-split. */
import { parse } from "csv-parse/sync";
import { MigrationInputError } from "./errors.js";

/**
 * A header cell as it is compared: a spreadsheet that opened the export may have re-cased it ("TITLE",
 * "title") or spaced it (" Prep time ", "preptime", "prep_time").
 */
export const headerKey = (h: string): string => h.replace(/[\s_-]+/g, "").toLowerCase();

/**
 * The rows, keyed by `columns` (the names the app writes) wherever a header cell is one of them as
 * headerKey compares; other cells keep their header as written, trimmed. The first of two cells that
 * read as one column is that column.
 */
export function readCsv(
  text: string,
  what: string,
  columns: readonly string[] = [],
): Record<string, string>[] {
  const known = new Map(columns.map((c) => [headerKey(c), c]));
  try {
    return parse(text, {
      columns: (header: string[]) => {
        const taken = new Set<string>();
        return header.map((h) => {
          const column = known.get(headerKey(h));
          if (column === undefined || taken.has(column)) return h.trim();
          taken.add(column);
          return column;
        });
      },
      skip_empty_lines: true,
      relax_column_count: true,
      bom: true,
      trim: false,
    }) as Record<string, string>[];
  } catch (e) {
    const err = e as { message?: string; lines?: number };
    throw new MigrationInputError(
      `${what} cannot be read as CSV${err.lines ? ` (near line ${err.lines})` : ""}: ${err.message ?? String(e)}`,
    );
  }
}

/**
 * A line of bare commas (a spreadsheet's trailing rows): no recipe, and not worth a report entry. Kept in
 * the rows rather than skipped by the parser, so that a row's index still gives its spreadsheet number.
 */
export function isBlankRow(row: Record<string, string>): boolean {
  return Object.values(row).every((v) => !v?.trim());
}
