/**
 * A zip file read in blocks of 1 MiB for yauzl (decision 0198). yauzl reads a file's central directory
 * one entry at a time and each entry's local header on its own, each an fs.read of a few dozen bytes:
 * 150,000 reads for a backup of 50,000 files, most of its time. The entries come in the order they
 * lie in the file, so a few cached blocks answer nearly every one of those reads; an entry's data
 * larger than a block is read from the file in pieces as it is wanted.
 */
import { close, closeSync, fstat, open, read } from "node:fs";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import type { Options, RandomAccessReader, ZipFile } from "yauzl";

const BLOCK = 1024 * 1024;
/** What a large entry's stream reads at a time. */
const PIECE = 64 * 1024;
/** Blocks kept: the directory's and the data's current ones, for every entry in flight. */
const KEPT = 16;

type Yauzl = typeof import("yauzl");

/**
 * The zip file at `path`, read through blocks. The reader owns a plain descriptor (not a FileHandle)
 * and closes it when yauzl is done; `unreadable` is what to throw when yauzl cannot read the file.
 */
export async function openBlockZip(
  yauzl: Yauzl,
  path: string,
  options: Options,
  unreadable: (err: Error | null) => Error,
): Promise<ZipFile> {
  const fd = await promisify(open)(path, "r");
  let size: number;
  try {
    size = (await promisify(fstat)(fd)).size;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  const reader = blockReader(yauzl, fd, size);
  return new Promise((resolve, reject) =>
    yauzl.fromRandomAccessReader(reader, size, options, (err, z) => {
      if (err || !z) {
        reader.close(() => undefined);
        reject(unreadable(err));
      } else resolve(z);
    }),
  );
}

export function blockReader(yauzl: Yauzl, fd: number, size: number): RandomAccessReader {
  const blocks = new Map<number, Promise<Buffer>>();

  const block = (n: number): Promise<Buffer> => {
    const hit = blocks.get(n);
    if (hit) {
      // Most recently used last: the Map's order is the eviction order.
      blocks.delete(n);
      blocks.set(n, hit);
      return hit;
    }
    const start = n * BLOCK;
    const length = Math.min(BLOCK, size - start);
    const p = new Promise<Buffer>((resolve, reject) => {
      const buf = Buffer.allocUnsafe(length);
      readAt(buf, length, start, (err, got) =>
        err
          ? reject(err)
          : got !== length
            ? reject(new Error("zip: file shorter than it was"))
            : resolve(buf),
      );
    });
    // A failed read is not kept: the next ask tries again (and fails the same way, with its own error).
    p.catch(() => blocks.delete(n));
    blocks.set(n, p);
    while (blocks.size > KEPT) blocks.delete(blocks.keys().next().value!);
    return p;
  };

  // Reads in flight: the descriptor is closed only once none is (it could be another file's by then).
  let pending = 0;
  let idle: (() => void) | null = null;
  const readAt = (
    buf: Buffer,
    length: number,
    position: number,
    cb: (err: Error | null, got: number) => void,
  ) => {
    pending++;
    read(fd, buf, 0, length, position, (err, got) => {
      if (--pending === 0) idle?.();
      cb(err, got);
    });
  };

  /** A large entry's bytes, read in 64 KiB pieces as they are wanted (no fs stream: it would close the shared descriptor). */
  const rangeStream = (start: number, end: number): Readable => {
    let at = start;
    return new Readable({
      highWaterMark: PIECE,
      read() {
        const n = Math.min(PIECE, end - at);
        if (n <= 0) return void this.push(null);
        const buf = Buffer.allocUnsafe(n);
        readAt(buf, n, at, (err, got) => {
          if (this.destroyed) return;
          if (err || got !== n) return void this.destroy(err ?? new Error("zip: file shorter than it was"));
          at += n;
          this.push(buf);
        });
      },
    });
  };

  const copy = async (into: Buffer, offset: number, length: number, position: number): Promise<void> => {
    let done = 0;
    while (done < length) {
      const at = position + done;
      const b = await block(Math.floor(at / BLOCK));
      const from = at % BLOCK;
      const n = Math.min(length - done, b.length - from);
      if (n <= 0) throw new Error("zip: read past the end of the file");
      b.copy(into, offset + done, from, from + n);
      done += n;
    }
  };

  class BlockReader extends yauzl.RandomAccessReader {
    override read(
      buffer: Buffer,
      offset: number,
      length: number,
      position: number,
      callback: (err: Error | null) => void,
    ): void {
      copy(buffer, offset, length, position).then(
        () => callback(null),
        (err: Error) => callback(err),
      );
    }

    override _readStreamForRange(start: number, end: number): Readable {
      if (end - start > BLOCK) return rangeStream(start, end);
      const out = new Readable({ read() {} });
      const buf = Buffer.allocUnsafe(end - start);
      copy(buf, 0, buf.length, start).then(
        () => {
          out.push(buf);
          out.push(null);
        },
        (err: Error) => out.destroy(err),
      );
      return out;
    }

    private closed = false;

    override close(callback: (err: Error | null) => void): void {
      blocks.clear();
      // Once only: a descriptor closed twice may by then be another file's.
      if (this.closed) return void setImmediate(() => callback(null));
      this.closed = true;
      const done = (): void => close(fd, (err) => callback(err ?? null));
      if (pending === 0) done();
      else idle = done;
    }
  }
  const reader = new BlockReader();
  // yauzl reports a failed close as an "error" event on the reader, which nobody else listens to: an
  // unheard "error" would end the process over a descriptor that is gone either way.
  reader.on("error", () => undefined);
  return reader;
}
