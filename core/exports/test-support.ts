/**
 * For tests only: list and read the entries of a zip (fflate's reader: stored or deflated, zip64).
 */
import { unzipSync } from "fflate";

export interface ZipEntry {
  name: string;
  data: Buffer;
}

/** The entries in the order the central directory lists them. */
export function readZip(buf: Buffer): ZipEntry[] {
  const files = unzipSync(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  return Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data) }));
}
