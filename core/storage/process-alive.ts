/**
 * Whether another process still runs: the one check behind the folder's lock (lock.ts), the sweep of
 * dead writers' temp files (atomic-write.ts) and of half-done work's markers (work-markers.ts).
 */
import { readFileSync } from "node:fs";

/**
 * True if a process with this pid runs on this machine (EPERM: it exists but belongs to someone else).
 * A zombie — killed, not yet reaped by its parent — keeps its pid but runs nothing (decision 0206).
 */
export function isProcessAlive(pid: number): boolean {
  const state = processStat(pid)?.state;
  if (state === "Z" || state === "X") return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: unknown } | null)?.code === "EPERM";
  }
}

/**
 * Linux's view of a process (/proc/PID/stat): its state letter and start time, or null where there is
 * no /proc or no such process. The name in parentheses may hold spaces and parentheses itself.
 */
export function processStat(pid: number): { state: string; start: string } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return fields.length > 19 ? { state: fields[0], start: fields[19] } : null;
}
