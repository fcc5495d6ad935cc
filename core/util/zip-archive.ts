/**
 * Zips written with archiver, deflated at level 6, for backups and recipe exports.
 *
 * archiver's zip engine (compress-commons 7) writes the zip's central directory as about twenty small
 * writes per file in one synchronous loop, so nothing drains until the loop ends: at 50,000 files a
 * million small buffers were queued at once, and a backup's heap grew from about 70 MB to 250 MB in
 * its last second (decision 0198); a bulk export of many recipes did the same on the main thread.
 * The writes of that loop are gathered here into 64 KiB ones; the bytes and the engine's offset
 * accounting are unchanged. An engine without the members this relies on is left as it is.
 */
import type { ZipArchive } from "archiver";
import { loadArchiver } from "../lazy/modules.js";

interface ZipEngine {
  _finish: () => void;
  offset: number;
  write: (chunk: unknown, cb?: unknown) => boolean;
  end: (...args: unknown[]) => unknown;
}

const GATHER_BYTES = 64 * 1024;

function engineOf(archive: unknown): ZipEngine | null {
  const engine = (archive as { _module?: { engine?: Partial<ZipEngine> } } | null)?._module?.engine;
  if (!engine || typeof engine._finish !== "function" || typeof engine.offset !== "number") return null;
  if (typeof engine.write !== "function" || typeof engine.end !== "function") return null;
  return engine as ZipEngine;
}

/** Gather the writes the archive's zip engine makes when it finishes (its central directory). */
export function gatherFinalWrites(archive: unknown): boolean {
  const engine = engineOf(archive);
  if (!engine) return false;
  const finish = engine._finish;
  engine._finish = function (this: ZipEngine) {
    const write = this.write;
    const end = this.end;
    let batch: Buffer[] = [];
    let bytes = 0;
    const flush = (): void => {
      if (bytes === 0) return;
      const whole = Buffer.concat(batch, bytes);
      batch = [];
      bytes = 0;
      // The engine's own write counts the bytes again: they were counted as each piece came, since
      // the loop reads the offset as it goes.
      this.offset -= whole.length;
      write.call(this, whole);
    };
    const restore = (): void => {
      flush();
      this.write = write;
      this.end = end;
    };
    this.write = (chunk: unknown, cb?: unknown): boolean => {
      if (!Buffer.isBuffer(chunk) || cb !== undefined) {
        flush();
        return write.call(this, chunk, cb);
      }
      this.offset += chunk.length;
      batch.push(chunk);
      bytes += chunk.length;
      if (bytes >= GATHER_BYTES) flush();
      return true;
    };
    this.end = (...args: unknown[]): unknown => {
      restore();
      return end.apply(this, args);
    };
    try {
      finish.call(this);
    } finally {
      restore();
    }
  };
  return true;
}

/** A new zip archive (archiver, loaded on first use) whose central directory is written in large writes. */
export async function newZipArchive(): Promise<ZipArchive> {
  const { ZipArchive } = await loadArchiver();
  const archive = new ZipArchive({ zlib: { level: 6 } });
  gatherFinalWrites(archive);
  return archive;
}
