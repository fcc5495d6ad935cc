/**
 * What kind of backup a chosen zip is, read in the browser before it is uploaded, so a Mealie backup
 * (which the server migrates into the group at once) can be confirmed first. Reads only the zip's
 * central directory (its list of names), never the files. The rule is core's sniffBackup
 * (core/backups/read-backup.ts); tests/web/backup-kind.test.ts checks both agree.
 */

/** The file a Larder backup carries at its root (core/backups/archive.ts MANIFEST_NAME). */
const LARDER_MANIFEST = "larder-backup.json";
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
/** The end record is 22 bytes plus a comment of up to 65535. */
const TAIL = 22 + 0xffff;

/** The names in a zip, or null when it cannot be read here (not a zip, or a zip64 archive). */
export async function zipEntryNames(file: Blob): Promise<string[] | null> {
  const tailStart = Math.max(0, file.size - TAIL);
  const tail = new DataView(await file.slice(tailStart).arrayBuffer());
  let end = -1;
  for (let i = tail.byteLength - 22; i >= 0; i--)
    if (tail.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  if (end < 0) return null;
  const count = tail.getUint16(end + 10, true);
  const size = tail.getUint32(end + 12, true);
  const offset = tail.getUint32(end + 16, true);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) return null;
  if (offset + size > file.size) return null;
  const dir = new DataView(await file.slice(offset, offset + size).arrayBuffer());
  const decoder = new TextDecoder();
  const names: string[] = [];
  for (let at = 0; names.length < count;) {
    if (at + 46 > dir.byteLength || dir.getUint32(at, true) !== CENTRAL) return null;
    const nameLength = dir.getUint16(at + 28, true);
    const rest = nameLength + dir.getUint16(at + 30, true) + dir.getUint16(at + 32, true);
    if (at + 46 + nameLength > dir.byteLength) return null;
    names.push(decoder.decode(new Uint8Array(dir.buffer, dir.byteOffset + at + 46, nameLength)));
    at += 46 + rest;
  }
  return names;
}

/** core's rule: a Larder manifest, else Mealie's database.json and data/ files (maybe in one wrapper folder). */
export function backupKind(names: string[]): "larder" | "mealie" | "unknown" {
  let database = false;
  let data = false;
  for (const name of names) {
    if (name === LARDER_MANIFEST) return "larder";
    const stripped = name.replace(/^(?!data\/)(?!database\.json)[^/]+\//, "");
    database ||= stripped === "database.json";
    data ||= stripped.startsWith("data/") && !stripped.endsWith("/");
  }
  return database && data ? "mealie" : "unknown";
}
