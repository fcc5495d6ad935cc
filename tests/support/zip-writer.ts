/**
 * A minimal zip writer for tests that need archives no well-behaved tool would write: `../` names,
 * absolute paths, symlink entries, sizes that lie. Real archives in tests come from the fixtures.
 */
import { deflateRawSync } from "node:zlib";

export interface ZipSpec {
  name: string;
  data: Buffer | string;
  /** Unix mode for the external attributes (0o120777 makes a symlink entry). */
  mode?: number;
  /** Store instead of deflate. */
  store?: boolean;
  /** Lie about the inflated size (zip bombs that under-declare). */
  declaredSize?: number;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function makeZip(specs: ZipSpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const s of specs) {
    const data = Buffer.isBuffer(s.data) ? s.data : Buffer.from(s.data, "utf8");
    const body = s.store ? data : deflateRawSync(data);
    const name = Buffer.from(s.name, "utf8");
    const crc = crc32(data);
    const size = s.declaredSize ?? data.length;
    const method = s.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((s.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  return Buffer.concat([...locals, cd, ...endRecords(specs.length, cd.length, offset)]);
}

/**
 * The end of the central directory. Past 65,535 entries the count no longer fits its 16 bits, and the
 * Zip64 records carry it (as Python's zipfile writes them for a large Mealie backup).
 */
function endRecords(count: number, cdBytes: number, cdOffset: number): Buffer[] {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(cdBytes, 12);
  end.writeUInt32LE(cdOffset, 16);
  if (count < 0xffff) return [end];
  const zip64 = Buffer.alloc(56);
  zip64.writeUInt32LE(0x06064b50, 0);
  zip64.writeBigUInt64LE(44n, 4);
  zip64.writeUInt16LE(45, 12);
  zip64.writeUInt16LE(45, 14);
  zip64.writeBigUInt64LE(BigInt(count), 24);
  zip64.writeBigUInt64LE(BigInt(count), 32);
  zip64.writeBigUInt64LE(BigInt(cdBytes), 40);
  zip64.writeBigUInt64LE(BigInt(cdOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(cdOffset + cdBytes), 8);
  locator.writeUInt32LE(1, 16);
  return [zip64, locator, end];
}
