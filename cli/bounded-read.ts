/**
 * Reading a stream whole, within a limit: a command given a stream that never ends (`< /dev/zero`, a
 * runaway pipe) stops with a message rather than filling memory until node gives up.
 */
import type { Readable } from "node:stream";
import { CliError, EXIT } from "./output.js";

/** The stream's bytes, or null once it holds more than `maxBytes` (the stream is destroyed then). */
export async function readUpTo(stream: Readable, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/** All of stdin as text, or exit 2 past `maxBytes`; `what` names what it was meant to hold. */
export async function readStdin(maxBytes: number, what: string): Promise<string> {
  const data = await readUpTo(process.stdin, maxBytes);
  if (!data)
    throw new CliError(`stdin holds more than ${sizeOf(maxBytes)}: too much for ${what}`, EXIT.invalid);
  return data.toString("utf8");
}

function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}
