/**
 * A bordered table for a person at a terminal (plain columns for scripts live in cli/output.ts).
 * Laid out here, row by row, within the terminal's width: columns of Ink boxes side by side drew a
 * table wider than an 80-column terminal (every line wrapped) and let an empty cell shift the cells
 * below it onto the wrong row. A cell too long for its column wraps inside it; nothing is cut off
 * (an id shown here is one a command takes).
 */
import { Box, Text } from "ink";

export interface TableProps {
  columns: string[];
  rows: string[][];
  /** Columns available (default: the terminal's, else 80). */
  width?: number;
}

const GAP = 2;
/** Border and padding on either side. */
const CHROME = 4;
/** A column is not narrowed below this, so the others give way first. */
const MIN_COLUMN = 8;

const chars = (s: string) => Array.from(s);

/** Column widths: each its content's, the widest narrowed first until the table fits in `width`. */
export function columnWidths(columns: string[], rows: string[][], width: number): number[] {
  const widths = columns.map((c, i) =>
    Math.max(chars(c).length, ...rows.map((r) => chars(r[i] ?? "").length), 1),
  );
  let over = widths.reduce((a, b) => a + b, 0) + GAP * (columns.length - 1) + CHROME - width;
  while (over > 0) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++)
      if (widths[i] > MIN_COLUMN && (widest < 0 || widths[i] > widths[widest])) widest = i;
    if (widest < 0) break;
    const cut = Math.min(over, widths[widest] - MIN_COLUMN);
    widths[widest] -= cut;
    over -= cut;
  }
  return widths;
}

/** The lines of a cell `width` characters wide: at spaces where it can, inside a word where it must. */
export function wrapCell(text: string, width: number): string[] {
  const out: string[] = [];
  let rest = chars(text);
  while (rest.length > width) {
    let cut = rest.lastIndexOf(" ", width);
    if (cut <= 0) cut = width;
    out.push(rest.slice(0, cut).join("").trimEnd());
    rest = rest.slice(cut);
    while (rest[0] === " ") rest = rest.slice(1);
  }
  out.push(rest.join(""));
  return out;
}

function lines(cells: string[], widths: number[]): string[] {
  const wrapped = cells.map((c, i) => wrapCell(c, widths[i]));
  const height = Math.max(...wrapped.map((w) => w.length));
  return Array.from({ length: height }, (_, l) =>
    wrapped
      .map((w, i) => (i === wrapped.length - 1 ? (w[l] ?? "") : (w[l] ?? "").padEnd(widths[i])))
      .join(" ".repeat(GAP))
      .trimEnd(),
  );
}

export function Table({ columns, rows, width }: TableProps) {
  const available = Math.max(20, width ?? (process.stdout.columns || 80));
  const widths = columnWidths(columns, rows, available);
  return (
    <Box flexDirection="column" alignSelf="flex-start" borderStyle="round" borderColor="gray" paddingX={1}>
      {lines(columns, widths).map((line, i) => (
        <Text key={`h${i}`} bold color="cyan">
          {line}
        </Text>
      ))}
      {rows.flatMap((row, r) =>
        // Keys by position: rows are a static snapshot, never reordered.
        lines(row, widths).map((line, l) => <Text key={`${r}.${l}`}>{line === "" ? " " : line}</Text>),
      )}
    </Box>
  );
}
