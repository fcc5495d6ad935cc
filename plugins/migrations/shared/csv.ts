/** CSV exports, read strictly: broken quoting is an error naming the line, never a silent mis-split. */
import { parse } from "csv-parse/sync";
import { MigrationInputError } from "./errors.js";

export function readCsv(text: string, what: string): Record<string, string>[] {
  try {
    return parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim()),
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
