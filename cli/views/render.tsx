/**
 * Render a static Ink view once and leave its frame on screen. Loaded lazily by cli/output.ts, so
 * scripts and --json runs never pay for React and Ink.
 */
import type { ReactElement } from "react";
import { render } from "ink";
import { Table } from "./table.js";
import { Status, type StatusKind } from "./status.js";

async function renderOnce(element: ReactElement): Promise<void> {
  // These views take no input, so Ink never touches stdin; Ctrl-C keeps its default meaning.
  const instance = render(element, { patchConsole: false, exitOnCtrlC: false });
  instance.unmount();
  await instance.waitUntilExit();
}

export function renderTable(columns: string[], rows: string[][]): Promise<void> {
  return renderOnce(<Table columns={columns} rows={rows} />);
}

export function renderStatus(kind: StatusKind, text: string): Promise<void> {
  return renderOnce(<Status kind={kind} text={text} />);
}
