/**
 * `larder import URL… | FILE… | --from-file urls.txt`: recipe pages, pasted pages saved as .html,
 * schema.org .json, recipe zips and photos. Through the running server's API when one holds the folder,
 * else with core under the folder's lock. A TTY shows a progress bar and a line per item; otherwise one
 * plain line per item, or one JSON document with --json. Exit 1 when any item failed.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import { configFor, resolveDataDir, dataOption } from "../context.js";
import { CliError, EXIT, fail, isJsonMode, printJson, printLine, toCliError, useInk } from "../output.js";
import { withCalls } from "../calls.js";
import { readUpTo } from "../bounded-read.js";
import { importCalls, type ImportCalls } from "./import-calls.js";

/**
 * What one argument is, decided by its form: a URL, or a file by its extension; a file whose extension
 * says nothing ("file") by its first bytes once read.
 */
export type ImportItem =
  | { kind: "url"; input: string }
  | { kind: "html" | "json" | "zip" | "image" | "file"; input: string; path: string };
type FileKind = "html" | "json" | "zip" | "image";

export interface ImportOutcome {
  input: string;
  ok: boolean;
  slug?: string;
  error?: string;
}

const IMAGE_EXT = new Set([
  ".jpg",
  ".jpeg",
  ".png",
  ".webp",
  ".gif",
  ".avif",
  ".heic",
  ".heif",
  ".tif",
  ".tiff",
]);
/** As many pages at once as the server's bulk import fetches. */
const CONCURRENCY = 3;

export function classify(arg: string): ImportItem {
  if (/^(https?:\/\/|www\.)/i.test(arg)) return { kind: "url", input: arg };
  const ext = extname(arg).toLowerCase();
  if (ext === ".zip") return { kind: "zip", input: arg, path: arg };
  if (ext === ".html" || ext === ".htm") return { kind: "html", input: arg, path: arg };
  if (ext === ".json") return { kind: "json", input: arg, path: arg };
  if (IMAGE_EXT.has(ext)) return { kind: "image", input: arg, path: arg };
  // A page saved by `curl -o recipe`, a download named by its address, a photo without its extension.
  return { kind: "file", input: arg, path: arg };
}

const startsWith = (b: Buffer, at: number, ascii: string): boolean =>
  b.length >= at + ascii.length && b.toString("latin1", at, at + ascii.length) === ascii;

/** What a file holds, by its first bytes: a zip, a picture, a web page or JSON; null for anything else. */
export function sniff(data: Buffer): FileKind | null {
  if (startsWith(data, 0, "PK\x03\x04") || startsWith(data, 0, "PK\x05\x06")) return "zip";
  if (
    startsWith(data, 0, "\xff\xd8\xff") ||
    startsWith(data, 0, "\x89PNG\r\n\x1a\n") ||
    startsWith(data, 0, "GIF8") ||
    (startsWith(data, 0, "RIFF") && startsWith(data, 8, "WEBP")) ||
    startsWith(data, 0, "II*\x00") ||
    startsWith(data, 0, "MM\x00*") ||
    (startsWith(data, 4, "ftyp") && /^(avi[fs]|hei[cfmsx]|mif1|msf1)$/.test(data.toString("latin1", 8, 12)))
  )
    return "image";
  const head = data
    .toString("utf8", 0, Math.min(data.length, 4096))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (head.startsWith("{") || head.startsWith("[")) return "json";
  if (/^<(!doctype\s+html|html|head|body|meta|title|script|!--)[\s>]/i.test(head)) return "html";
  return null;
}

/** URLs (or paths) one a line; blank lines and `#` comments skipped. */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** Why a file could not be read, in words: "no such file" rather than ENOENT. */
function unreadable(path: string, e: NodeJS.ErrnoException): CliError {
  const why =
    e.code === "ENOENT"
      ? "no such file"
      : e.code === "EISDIR"
        ? "it is a folder, not a file"
        : e.code === "EACCES" || e.code === "EPERM"
          ? "permission denied"
          : (e.code ?? e.message);
  return new CliError(`Cannot read ${path}: ${why}`, EXIT.notFound);
}

const MB = 1024 * 1024;

const tooLarge = (path: string, maxBytes: number, bytes?: number): CliError =>
  new CliError(
    bytes === undefined
      ? `${path} is too large to import: more than ${Math.round(maxBytes / MB)} MB`
      : `${path} is too large to import: ${(bytes / MB).toFixed(1)} MB, where an import takes at most ${Math.round(maxBytes / MB)} MB`,
    EXIT.invalid,
  );

/**
 * A file's bytes, at most `maxBytes` (the limit of an upload to the server's import routes): a file's
 * size is checked before it is read; a pipe (`<(curl …)`) is read until the limit; a device is refused.
 */
async function readLimited(path: string, maxBytes: number): Promise<Buffer> {
  const fail = (e: NodeJS.ErrnoException): never => {
    throw unreadable(path, e);
  };
  const st = await stat(path).catch(fail);
  if (st.isFIFO()) {
    const data = await readUpTo(createReadStream(path), maxBytes).catch(fail);
    if (!data) throw tooLarge(path, maxBytes);
    return data;
  }
  // A folder is read to say so (EISDIR).
  if (!st.isFile() && !st.isDirectory())
    throw new CliError(`Cannot import ${path}: it is not a file`, EXIT.invalid);
  if (st.size > maxBytes) throw tooLarge(path, maxBytes, st.size);
  return readFile(path).catch(fail);
}

async function runOne(
  backend: ImportCalls,
  item: ImportItem,
  tags: boolean,
  maxBytes: number,
): Promise<string> {
  if (item.kind === "url") return backend.url(item.input, tags);
  const data = await readLimited(item.path, maxBytes);
  const kind = item.kind === "file" ? sniff(data) : item.kind;
  if (kind === null)
    throw new CliError(
      `Cannot tell what ${item.path} is: it is not a web page, schema.org JSON, a recipe zip or a photo`,
      EXIT.invalid,
    );
  if (kind === "zip") return backend.zip(data);
  if (kind === "image") return backend.image(data, item.path);
  return backend.htmlOrJson(data.toString("utf8"), tags);
}

/** Run the items, at most CONCURRENCY at once, reporting each as it finishes. */
async function runAll(
  backend: ImportCalls,
  items: ImportItem[],
  tags: boolean,
  maxBytes: number,
  onDone: (o: ImportOutcome, index: number) => void,
): Promise<ImportOutcome[]> {
  const out: ImportOutcome[] = new Array<ImportOutcome>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const item = items[i];
      try {
        out[i] = { input: item.input, ok: true, slug: await runOne(backend, item, tags, maxBytes) };
      } catch (e) {
        out[i] = { input: item.input, ok: false, error: toCliError(e).message };
      }
      onDone(out[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

export function registerImport(program: Command): void {
  program
    .command("import")
    .description("import recipes: page URLs, saved .html, schema.org .json, recipe .zip files, photos")
    .argument("[items...]", "URLs or files")
    .option("--from-file <path>", "read URLs (or paths) from a file, one a line")
    .option("--tags", "keep the pages' keywords as tags", false)
    .addOption(dataOption())
    .action(async (args: string[], opts: { fromFile?: string; tags: boolean; data?: string }) => {
      try {
        const raw = [...args];
        const dataDir = resolveDataDir(opts.data);
        const maxBytes = configFor(dataDir).maxUploadBytes;
        if (opts.fromFile)
          raw.push(...linesOf((await readLimited(opts.fromFile, maxBytes)).toString("utf8")));
        if (raw.length === 0)
          throw new CliError("Nothing to import: give URLs or files, or --from-file", EXIT.invalid);
        const items = raw.map(classify);
        const outcomes = await withCalls(dataDir, importCalls, (calls) =>
          report(calls, items, opts.tags, maxBytes),
        );
        const failed = outcomes.filter((o) => !o.ok).length;
        if (isJsonMode()) printJson({ imported: outcomes.length - failed, failed, results: outcomes });
        if (failed > 0) process.exitCode = EXIT.failure;
      } catch (e) {
        fail(e);
      }
    });
}

async function report(
  backend: ImportCalls,
  items: ImportItem[],
  tags: boolean,
  maxBytes: number,
): Promise<ImportOutcome[]> {
  if (isJsonMode()) return runAll(backend, items, tags, maxBytes, () => undefined);
  if (!useInk()) {
    return runAll(backend, items, tags, maxBytes, (o) =>
      printLine(o.ok ? `ok      ${o.input} → ${o.slug}` : `failed  ${o.input}: ${o.error}`),
    );
  }
  const { renderImportProgress } = await import("../views/import-progress.js");
  const view = renderImportProgress(items.length);
  try {
    return await runAll(backend, items, tags, maxBytes, (o) => view.add(o));
  } finally {
    await view.done();
  }
}
