/**
 * `larder import URL… | FILE… | --from-file urls.txt`: recipe pages, pasted pages saved as .html,
 * schema.org .json, recipe zips and photos. Through the running server's API when one holds the folder,
 * else with core under the folder's lock. A TTY shows a progress bar and a line per item; otherwise one
 * plain line per item, or one JSON document with --json. Exit 1 when any item failed.
 */
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import {
  configFor,
  liveServer,
  requireDataFolder,
  resolveDataDir,
  withLarder,
  withLock,
  type LiveServer,
  dataOption,
} from "../context.js";
import { CliError, EXIT, fail, isJsonMode, printJson, printLine, toCliError, useInk } from "../output.js";
import { serverUrl } from "../users/server-client.js";
import type { Larder } from "../../core/larder.js";
import type { Actor } from "../../core/actor.js";

/** What one argument is, decided by its form: a URL, or a file by its extension. */
export type ImportItem =
  { kind: "url"; input: string } | { kind: "html" | "json" | "zip" | "image"; input: string; path: string };

export interface ImportOutcome {
  input: string;
  ok: boolean;
  slug?: string;
  error?: string;
}

interface Backend {
  url(url: string, tags: boolean): Promise<string>;
  htmlOrJson(data: string, tags: boolean): Promise<string>;
  zip(data: Buffer): Promise<string>;
  image(data: Buffer, name: string): Promise<string>;
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

async function runOne(backend: Backend, item: ImportItem, tags: boolean): Promise<string> {
  if (item.kind === "url") return backend.url(item.input, tags);
  const data = await readFile(item.path).catch((e: NodeJS.ErrnoException) => {
    throw new CliError(`Cannot read ${item.path}: ${e.code ?? e.message}`, EXIT.notFound);
  });
  if (item.kind === "zip") return backend.zip(data);
  if (item.kind === "image") return backend.image(data, item.path);
  return backend.htmlOrJson(data.toString("utf8"), tags);
}

class ServerBackend implements Backend {
  private base: string;
  constructor(private lock: LiveServer) {
    this.base = serverUrl(lock);
  }
  private async send(path: string, body: NonNullable<RequestInit["body"]>, json: boolean): Promise<string> {
    const res = await fetch(`${this.base}${path}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${this.lock.token}`,
        ...(json ? { "Content-Type": "application/json" } : {}),
      },
      body,
      signal: AbortSignal.timeout(10 * 60_000),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // reported with the status below
    }
    if (res.status === 201 && typeof parsed === "string") return parsed;
    const detail = (parsed as { detail?: unknown } | null)?.detail;
    const message =
      typeof detail === "string"
        ? detail
        : (detail as { details?: string } | undefined)?.details === "BAD_RECIPE_DATA"
          ? "No recipe was found (BAD_RECIPE_DATA)"
          : typeof (detail as { message?: unknown } | undefined)?.message === "string"
            ? (detail as { message: string }).message
            : `HTTP ${res.status}`;
    throw new CliError(message, res.status === 400 || res.status === 422 ? EXIT.invalid : EXIT.failure);
  }
  url(url: string, tags: boolean) {
    return this.send("/api/recipes/create/url", JSON.stringify({ url, includeTags: tags }), true);
  }
  htmlOrJson(data: string, tags: boolean) {
    return this.send("/api/recipes/create/html-or-json", JSON.stringify({ data, includeTags: tags }), true);
  }
  zip(data: Buffer) {
    const f = new FormData();
    f.set("archive", new Blob([new Uint8Array(data)]), "recipe.zip");
    return this.send("/api/recipes/create/zip", f, false);
  }
  image(data: Buffer, name: string) {
    const f = new FormData();
    f.set("images", new Blob([new Uint8Array(data)]), name);
    return this.send("/api/recipes/create/image", f, false);
  }
}

class LocalBackend implements Backend {
  constructor(
    private larder: Larder,
    private actor: Actor,
  ) {}
  async url(url: string, tags: boolean) {
    return (
      await this.larder.imports.importOne(
        this.actor,
        { type: "url", url },
        { tags, categories: false, source: "cli" },
      )
    ).slug;
  }
  async htmlOrJson(data: string, tags: boolean) {
    const t = data.trim();
    let input: Parameters<Larder["imports"]["importOne"]>[1];
    if (t.startsWith("{") || t.startsWith("[")) {
      try {
        input = { type: "json", json: JSON.parse(t) };
      } catch {
        throw new CliError("The JSON could not be read", EXIT.invalid);
      }
    } else input = { type: "html", html: data };
    return (
      await this.larder.imports.importOne(this.actor, input, { tags, categories: false, source: "cli" })
    ).slug;
  }
  async zip(data: Buffer) {
    return (await this.larder.imports.importZip(this.actor, data)).slug;
  }
  async image(data: Buffer) {
    return (await this.larder.imports.importImages(this.actor, [{ data }])).slug;
  }
}

/** Run the items, at most CONCURRENCY at once, reporting each as it finishes. */
async function runAll(
  backend: Backend,
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
          const text = await readFile(opts.fromFile, "utf8").catch((e: NodeJS.ErrnoException) => {
            throw new CliError(`Cannot read ${opts.fromFile}: ${e.code ?? e.message}`, EXIT.notFound);
          });
          raw.push(...linesOf(text));
        }
        if (raw.length === 0)
          throw new CliError("Nothing to import: give URLs or files, or --from-file", EXIT.invalid);
        const items = raw.map(classify);
        const dataDir = resolveDataDir(opts.data);
        requireDataFolder(dataDir);
        const outcomes = await withBackend(dataDir, (backend) => report(backend, items, opts.tags));
        const failed = outcomes.filter((o) => !o.ok).length;
        if (isJsonMode()) printJson({ imported: outcomes.length - failed, failed, results: outcomes });
        if (failed > 0) process.exitCode = EXIT.failure;
      } catch (e) {
        fail(e);
      }
    });
}

async function withBackend<T>(dataDir: string, fn: (b: Backend) => Promise<T>): Promise<T> {
  const server = await liveServer(dataDir);
  if (server) return fn(new ServerBackend(server));
  return withLock(dataDir, () =>
    withLarder(configFor(dataDir), async (larder) => {
      // Imported as the site's first admin, whom the running server's lock token also acts as.
      const admin = larder.users.all().find((u) => u.admin) ?? larder.users.all()[0];
      if (!admin) throw new CliError("The folder has no user to own the recipes", EXIT.failure);
      return fn(new LocalBackend(larder, { kind: "user", user: admin }));
    }),
  );
}

async function report(backend: Backend, items: ImportItem[], tags: boolean): Promise<ImportOutcome[]> {
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
