/**
 * Sending hostile requests and judging the answers: raw HTTP (fetch would normalise `..` and `%2e%2e`
 * out of a path), a timeout that marks a hang rather than a slow answer, and the checks every answer
 * must pass whatever it was sent.
 */
import { Agent, request } from "node:http";
import { readdir, readFile, lstat } from "node:fs/promises";
import { join, relative } from "node:path";
import { parseRecipeFile } from "../../../core/recipes/file/recipe-file.js";
import { MARK } from "./hostile-values.js";

export interface Outgoing {
  method: string;
  /** Sent as written: the caller encodes what must be encoded. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Answer {
  status: number;
  text: string;
  /** Set when no answer came within the bound: the server hung on this request. */
  hung?: boolean;
}

/** Far above any answer a working server gives here; only a hang or a busy loop reaches it. */
export const HANG_MS = 15_000;

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export function send(base: string, token: string | null, out: Outgoing): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...out.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (out.body !== undefined) headers["Content-Length"] = Buffer.byteLength(out.body);
    let req;
    try {
      req = request({
        host: url.hostname,
        port: url.port,
        method: out.method,
        path: out.path,
        headers,
        agent,
        timeout: HANG_MS,
      });
    } catch (e) {
      // Node refuses to send some paths at all (a raw control character): nothing reached the server.
      resolve({ status: -1, text: (e as Error).message });
      return;
    }
    req.on("timeout", () => {
      req.destroy();
      resolve({ status: 0, text: "", hung: true });
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ status: 0, text: `socket error ${e.code}` }));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    if (out.body !== undefined) req.end(out.body);
    else req.end();
  });
}

/** A stack frame (`at fn (/x/y.ts:1:2)`) or an internal path in an answer. */
const STACK = /\bat (?:async )?[\w$.<>]*\s*\(?(?:file:\/\/)?\/[^\s)]+:\d+:\d+/;

/**
 * What is wrong with an answer to a hostile request; empty when it is fine. `secrets` are texts no
 * answer may contain (the data folder's path, the checkout's).
 */
export function answerProblems(a: Answer, secrets: readonly string[]): string[] {
  if (a.status === -1) return [];
  if (a.hung) return [`no answer within ${HANG_MS / 1000} s`];
  const out: string[] = [];
  if (a.status === 0) out.push(`connection dropped without an answer (${a.text})`);
  if (a.status >= 500) out.push(`answered ${a.status}: ${a.text.slice(0, 300)}`);
  if (a.status >= 400 && a.status < 500) {
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      out.push(`error ${a.status} is not JSON: ${a.text.slice(0, 120)}`);
    }
    if (body !== undefined && (body === null || typeof body !== "object" || !("detail" in body)))
      out.push(`error ${a.status} is not {"detail": …}: ${a.text.slice(0, 120)}`);
  }
  if (STACK.test(a.text)) out.push(`a stack trace in the answer: ${STACK.exec(a.text)?.[0]}`);
  for (const s of secrets) if (s && a.text.includes(s)) out.push(`the answer names ${s}`);
  if (/node_modules|\.ts:\d+/.test(a.text)) out.push("the answer names source files");
  return out;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

/** Every JSON document of the folder parses, and every recipe file reads as a recipe. */
export async function unreadableFiles(dataDir: string): Promise<string[]> {
  const bad: string[] = [];
  for await (const file of walk(dataDir)) {
    const rel = relative(dataDir, file);
    if (rel.startsWith(".larder")) continue;
    try {
      if (file.endsWith(".json")) JSON.parse(await readFile(file, "utf8"));
      else if (file.endsWith(".md") && /(^|\/)recipes\//.test(rel))
        parseRecipeFile(await readFile(file, "utf8"), { units: [], foods: [] });
    } catch (e) {
      bad.push(`${rel}: ${(e as Error).message.slice(0, 200)}`);
    }
  }
  return bad;
}

/** Files named with the fuzz's mark in the folders a path that climbed out of the data folder would reach. */
export async function escapedFiles(dirs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const n of names) if (n.includes(MARK)) found.push(join(dir, n));
  }
  return found;
}

/** The names directly in a folder, to compare before and after (the data folder's parent holds only it). */
export async function listing(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  const out: string[] = [];
  for (const n of names) out.push(`${n}${(await lstat(join(dir, n))).isDirectory() ? "/" : ""}`);
  return out.sort();
}
