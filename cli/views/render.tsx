/**
 * Render a static Ink view once and leave it on screen. Loaded lazily by cli/output.ts, so scripts and
 * --json runs never pay for React and Ink.
 */
import type { ReactElement } from "react";
import { Box, render, Static } from "ink";
import { Table } from "./table.js";
import { Status, type StatusKind } from "./status.js";

async function renderOnce(element: ReactElement): Promise<void> {
  // <Static>: written once, above the live area. A live frame taller than the terminal makes Ink
  // clear the whole screen (scrollback included) on every render, which a long table would trigger.
  const instance = render(
    <Static items={[element]}>
      {(item, i) => (
        // A row box sizes its child to content instead of stretching it across the terminal.
        <Box key={i}>{item}</Box>
      )}
    </Static>,
    { patchConsole: false, exitOnCtrlC: false },
  );
  // Ask for the exit promise before unmounting: Ink creates it lazily, and one created after the
  // unmount never settles (the process would then end here, silently dropping later output).
  const exited = instance.waitUntilExit();
  instance.unmount();
  await exited;
}

export function renderTable(columns: string[], rows: string[][]): Promise<void> {
  return renderOnce(<Table columns={columns} rows={rows} />);
}

export function renderStatus(kind: StatusKind, text: string): Promise<void> {
  return renderOnce(<Status kind={kind} text={text} />);
}
