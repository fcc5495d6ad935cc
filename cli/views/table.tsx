/** A bordered table for a person at a terminal (plain columns for scripts live in cli/output.ts). */
import { Box, Text } from "ink";

export interface TableProps {
  columns: string[];
  rows: string[][];
}

export function Table({ columns, rows }: TableProps) {
  return (
    <Box flexDirection="row" borderStyle="round" borderColor="gray" paddingX={1} columnGap={2}>
      {columns.map((column, i) => (
        <Box key={column} flexDirection="column">
          <Text bold color="cyan">
            {column}
          </Text>
          {rows.map((row, r) => (
            // Keys by position: rows are a static snapshot, never reordered.
            <Text key={r} wrap="truncate-end">
              {row[i] === "" ? " " : row[i]}
            </Text>
          ))}
        </Box>
      ))}
    </Box>
  );
}
