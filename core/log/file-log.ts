/**
 * The server's log kept in the data folder as well (`.larder/logs/larder.log`), so an admin can read it
 * from the Maintenance page and clean it there, without access to the machine's stderr. One file,
 * rotated to `larder.1.log` past 5 MB: a busy server cannot fill the disk with its log.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";
import type { Logger } from "./logger.js";

export const LOG_FILE = "larder.log";
export const ROTATED_LOG_FILE = "larder.1.log";
const MAX_BYTES = 5 * 1024 * 1024;

export function withLogFile(inner: Logger, logsDir: string, maxBytes = MAX_BYTES): Logger {
  const file = join(logsDir, LOG_FILE);
  let size = -1;
  let failed = false;
  const write = (level: string, msg: string, rest: unknown[]) => {
    if (failed) return;
    const line = `${new Date().toISOString()} ${level} ${format(msg, ...rest)}\n`;
    try {
      if (size < 0) {
        mkdirSync(logsDir, { recursive: true, mode: 0o700 });
        size = (() => {
          try {
            return statSync(file).size;
          } catch {
            return 0;
          }
        })();
      }
      if (size + line.length > maxBytes && size > 0) {
        renameSync(file, join(logsDir, ROTATED_LOG_FILE));
        size = 0;
      }
      appendFileSync(file, line, { mode: 0o600 });
      size += Buffer.byteLength(line);
    } catch {
      // A log that cannot be written (read-only folder, full disk) must not stop the server; stderr has it.
      failed = true;
    }
  };
  return {
    info: (m, ...r) => {
      inner.info(m, ...r);
      write("INFO ", m, r);
    },
    warn: (m, ...r) => {
      inner.warn(m, ...r);
      write("WARN ", m, r);
    },
    error: (m, ...r) => {
      inner.error(m, ...r);
      write("ERROR", m, r);
    },
  };
}
