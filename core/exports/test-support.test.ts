import { ZipArchive } from "archiver";
import { describe, expect, it } from "vitest";
import { readZip } from "./test-support.js";

async function zip(
  options: ConstructorParameters<typeof ZipArchive>[0],
  files: [string, string][],
): Promise<Buffer> {
  const archive = new ZipArchive(options);
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    archive.on("data", (c: Buffer) => chunks.push(c));
    archive.on("end", () => resolve());
    archive.on("error", reject);
  });
  for (const [name, text] of files) archive.append(Buffer.from(text), { name });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

describe("the tests' zip reader", () => {
  const files: [string, string][] = [
    ["recipes/crème-brûlée.md", "# Crème brûlée\n".repeat(50)],
    ["recipes/empty.json", ""],
    ["stored.txt", "x"],
  ];

  it("reads stored and deflated entries, in order, with their UTF-8 names", async () => {
    const entries = readZip(await zip({ zlib: { level: 6 } }, files));
    expect(entries.map((e) => [e.name, e.data.toString("utf8")])).toEqual(files);
  });

  // The hand-written reader took the entry count and offsets from the plain end record, which a zip64
  // archive fills with 0xffff / 0xffffffff: it failed on any zip64 export.
  it("reads a zip64 archive", async () => {
    const entries = readZip(await zip({ forceZip64: true }, files));
    expect(entries.map((e) => [e.name, e.data.toString("utf8")])).toEqual(files);
  });

  it("rejects what is not a zip", () => {
    expect(() => readZip(Buffer.from("not a zip at all, only text"))).toThrow();
  });
});
