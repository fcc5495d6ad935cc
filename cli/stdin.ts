/**
 * Reading all of stdin, within a limit: a command given a stream that never ends (`< /dev/zero`, a
 * runaway pipe) stops with a message rather than filling memory until node gives up.
 */
import { CliError, EXIT } from "./output.js";

export async function readStdin(maxBytes: number, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      process.stdin.destroy();
      throw new CliError(`stdin holds more than ${sizeOf(maxBytes)}: too much for ${what}`, EXIT.invalid);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}
