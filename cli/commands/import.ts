/**
 * `larder import URL… | FILE… | --from-file urls.txt`: recipe pages, pasted pages saved as .html,
 * schema.org .json, recipe zips and photos. Through the running server's API when one holds the folder,
 * else with core under the folder's lock. A TTY shows a progress bar and a line per item; otherwise one
 * plain line per item, or one JSON document with --json. Exit 1 when any item failed.
 */
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../context.js";
import { CliError, EXIT, fail, isJsonMode, printJson, printLine, toCliError, useInk } from "../output.js";
import { withCalls } from "../calls.js";
import { importCalls, type ImportCalls } from "./import-calls.js";

/** What one argument is, decided by its form: a URL, or a file by its extension. */
export type ImportItem =
  { kind: "url"; input: string } | { kind: "html" | "json" | "zip" | "image"; input: string; path: string };

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
  throw new CliError(
    `Cannot tell what ${arg} is: give a URL, or a .html, .json, .zip or photo file`,
    EXIT.invalid,
  );
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

async function runOne(backend: ImportCalls, item: ImportItem, tags: boolean): Promise<string> {
  if (item.kind === "url") return backend.url(item.input, tags);
  const data = await readFile(item.path).catch((e: NodeJS.ErrnoException) => {
    throw unreadable(item.path, e);
  });
  if (item.kind === "zip") return backend.zip(data);
  if (item.kind === "image") return backend.image(data, item.path);
  return backend.htmlOrJson(data.toString("utf8"), tags);
}

/** Run the items, at most CONCURRENCY at once, reporting each as it finishes. */
async function runAll(
  backend: ImportCalls,
  items: ImportItem[],
  tags: boolean,
  onDone: (o: ImportOutcome, index: number) => void,
): Promise<ImportOutcome[]> {
  const out: ImportOutcome[] = new Array<ImportOutcome>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const item = items[i];
      try {
        out[i] = { input: item.input, ok: true, slug: await runOne(backend, item, tags) };
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
        if (opts.fromFile) {
          const from = opts.fromFile;
          const text = await readFile(from, "utf8").catch((e: NodeJS.ErrnoException) => {
            throw unreadable(from, e);
          });
          raw.push(...linesOf(text));
        }
        if (raw.length === 0)
          throw new CliError("Nothing to import: give URLs or files, or --from-file", EXIT.invalid);
        const items = raw.map(classify);
        const outcomes = await withCalls(resolveDataDir(opts.data), importCalls, (calls) =>
          report(calls, items, opts.tags),
        );
        const failed = outcomes.filter((o) => !o.ok).length;
        if (isJsonMode()) printJson({ imported: outcomes.length - failed, failed, results: outcomes });
        if (failed > 0) process.exitCode = EXIT.failure;
      } catch (e) {
        fail(e);
      }
    });
}

async function report(backend: ImportCalls, items: ImportItem[], tags: boolean): Promise<ImportOutcome[]> {
  if (isJsonMode()) return runAll(backend, items, tags, () => undefined);
  if (!useInk()) {
    return runAll(backend, items, tags, (o) =>
      printLine(o.ok ? `ok      ${o.input} → ${o.slug}` : `failed  ${o.input}: ${o.error}`),
    );
  }
  const { renderImportProgress } = await import("../views/import-progress.js");
  const view = renderImportProgress(items.length);
  try {
    return await runAll(backend, items, tags, (o) => view.add(o));
  } finally {
    await view.done();
  }
}
