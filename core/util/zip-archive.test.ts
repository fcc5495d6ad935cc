import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { loadArchiver } from "../lazy/modules.js";
import { gatherFinalWrites } from "./zip-archive.js";

/** A zip of `n` small files made by archiver, and how many of the chunks its output received were tiny. */
async function zipOf(n: number, gather: boolean): Promise<{ bytes: Buffer; tiny: number }> {
  const { ZipArchive } = await loadArchiver();
  const archive = new ZipArchive({ zlib: { level: 6 } });
  if (gather) expect(gatherFinalWrites(archive)).toBe(true);
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  const closed = new Promise((resolve) => out.on("finish", resolve));
  archive.pipe(out);
  const date = new Date("2026-01-02T03:04:05Z");
  for (let i = 0; i < n; i++) archive.append(Buffer.from(`recipe ${i}\n`), { name: `r/${i}.md`, date });
  await archive.finalize();
  await closed;
  return { bytes: Buffer.concat(chunks), tiny: chunks.filter((c) => c.length <= 8).length };
}

describe("the zip's central directory", () => {
  it("is written in a few large chunks instead of twenty per file, byte for byte the same", async () => {
    const plain = await zipOf(2000, false);
    const gathered = await zipOf(2000, true);
    expect(gathered.bytes.equals(plain.bytes)).toBe(true);
    // The local headers are small writes either way; the directory's ~15 tiny fields per file are not.
    expect(plain.tiny - gathered.tiny).toBeGreaterThan(15 * 2000);
  });

  it("leaves an archive without the zip engine it knows as it is", () => {
    expect(gatherFinalWrites({})).toBe(false);
    expect(gatherFinalWrites({ _module: { engine: { _finish: 1 } } })).toBe(false);
  });
});
