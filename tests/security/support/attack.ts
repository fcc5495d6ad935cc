/**
 * One run of the input fuzz over a list of operations: the hostile requests of each, the read of what
 * an accepted write stored, the same writes sent at once, then the checks of what is left: the server
 * answers, the files read, the kept entities are as they were, nothing was written beside the folder.
 * Returns every problem found, as lines naming the request that caused it.
 */
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import type { TestServer } from "../../support/server.js";
import { readKept, type Stored } from "./fixtures.js";
import { fillPath, pathParams, type Contract, type Operation } from "./operations.js";
import { concurrentWrite, DEEP, variantsOf, type Variant } from "./variants.js";
import { answerProblems, escapedFiles, listing, send, unreadableFiles, type Answer } from "./wire.js";

export interface Campaign {
  t: TestServer;
  s: Stored;
  contract: Contract;
  ops: Operation[];
  /** Throws when `data` is not a `schema` of the Mealie contract; null when the contract is absent. */
  validate: ((schema: string, data: unknown) => void) | null;
}

export interface Outcome {
  problems: string[];
  sent: number;
  /** Requests per operation, fewest and most. */
  spread: [number, number];
}

/** Copies of one write sent at once: what a double-clicked button or a retrying client sends. */
const COPIES = 4;

/** Lists whose entities a path names by this key: two of one value would make the path ambiguous. */
const UNIQUE: [string, string][] = [
  ["/api/organizers/tags", "slug"],
  ["/api/organizers/categories", "slug"],
  ["/api/organizers/tools", "slug"],
  ["/api/households/cookbooks", "slug"],
  ["/api/recipes", "slug"],
  ["/api/admin/groups", "slug"],
  ["/api/foods", "name"],
  ["/api/units", "name"],
  ["/api/groups/labels", "name"],
  ["/api/admin/users", "username"],
];

function parsed(a: Answer): Record<string, unknown> | null {
  try {
    const body = JSON.parse(a.text) as unknown;
    return body && typeof body === "object" ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function createdId(a: Answer): string | undefined {
  const id = parsed(a)?.id;
  return id == null ? undefined : String(id);
}

/** A shopping item changed to match another of its list is merged into it, as in Mealie. */
function mergedAway(v: Variant, a: Answer): boolean {
  const id = v.path.split("/").pop() ?? "";
  const deleted = parsed(a)?.deletedItems;
  return Array.isArray(deleted) && deleted.some((d: { id?: string }) => d.id === id);
}

function changedKeys(a: unknown, b: unknown): string[] {
  if (!a || !b || typeof a !== "object" || typeof b !== "object")
    return [`${JSON.stringify(a)} → ${JSON.stringify(b)}`.slice(0, 300)];
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])]
    .filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k]))
    .map((k) => `${k}: ${JSON.stringify(x[k])?.slice(0, 150)} → ${JSON.stringify(y[k])?.slice(0, 150)}`);
}

export async function attack(c: Campaign): Promise<Outcome> {
  const { t, s, ops, validate } = c;
  const secrets = [t.dataDir, dirname(t.dataDir), process.cwd()];
  const problems: string[] = [];
  // A deep run takes minutes: what it finds is shown as it finds it.
  if (DEEP)
    problems.push = (...lines: string[]) => (
      lines.forEach((l) => console.log(l)),
      Array.prototype.push.apply(problems, lines)
    );
  const judge = (op: Operation, where: string, a: Answer) => {
    for (const p of answerProblems(a, secrets)) problems.push(`${where}: ${p}`);
  };
  const getOf = (template: string) => ops.find((o) => o.method === "GET" && o.template === template);

  /** Null when GET `path` answers 200 in `op`'s contract shape (or there is no contract), else why not. */
  const conforms = async (op: Operation, path = fillPath(op.template, s)): Promise<string | null> => {
    const a = await send(t.url, s.token, { method: "GET", path });
    if (a.status !== 200) return `answered ${a.status}: ${a.text.slice(0, 200)}`;
    if (!validate || !op.answer) return null;
    try {
      validate(op.answer, JSON.parse(a.text));
      return null;
    } catch (e) {
      return (e as Error).message.slice(0, 400);
    }
  };

  // Reads judged after the fuzz, each only as strictly as it passed before it.
  const entityReads = new Map<string, boolean>();
  for (const op of ops) {
    const g = getOf(op.template);
    if (g && op.method !== "GET" && !entityReads.has(g.template))
      entityReads.set(g.template, (await conforms(g)) === null);
  }
  const lists = c.contract
    .operations()
    .filter((o) => o.method === "GET" && !pathParams(o.template).length && !o.query.some((q) => q.required));
  const listsBefore = new Map<string, string | null>();
  for (const r of lists) listsBefore.set(r.template, await conforms(r));
  const parent = await listing(dirname(t.dataDir));
  const kept = await readKept(t, s);

  /** The GET of what an accepted write stored: its own path, the created entity's, or a renamed recipe's. */
  const readBack = (op: Operation, v: Variant, a: Answer): { op: Operation; path: string } | null => {
    const path = v.path.split("?")[0];
    if (op.method === "PUT" || op.method === "PATCH") {
      const g = getOf(op.template);
      if (!g || mergedAway(v, a)) return null;
      const slug = parsed(a)?.slug;
      if (!op.template.endsWith("{slug}") || typeof slug !== "string") return { op: g, path };
      // A recipe renamed by the write moves to its new slug; later requests follow the target there.
      if (path === fillPath(op.template, s)) s.target.slug = slug;
      return { op: g, path: `${path.slice(0, path.lastIndexOf("/"))}/${encodeURIComponent(slug)}` };
    }
    if (op.method !== "POST" || pathParams(op.template).length) return null;
    const one = ops.find((o) => o.method === "GET" && o.template.startsWith(`${op.template}/{`));
    const id = createdId(a);
    if (!one || pathParams(one.template).length !== 1 || id === undefined) return null;
    return { op: one, path: one.template.replace(/\{[^}]+\}/, encodeURIComponent(id)) };
  };

  let sent = 0;
  const counts: number[] = [];
  for (const op of ops) {
    const variants = variantsOf(c.contract, op, s);
    counts.push(variants.length);
    for (const v of variants) {
      const a = await send(t.url, s.token, v);
      sent++;
      const where = `${v.method} ${v.path.slice(0, 120)} [${v.label}]`;
      judge(op, where, a);
      if (a.status < 200 || a.status >= 300 || v.method === "GET") continue;
      const read = readBack(op, v, a);
      if (!read) continue;
      const wrong = await conforms(read.op, read.path);
      if (wrong && (entityReads.get(read.op.template) !== false || wrong.startsWith("answered")))
        problems.push(`${where}: accepted (${a.status}), then GET ${read.path.slice(0, 100)} ${wrong}`);
    }
  }

  // Each write sent several times at once: every copy answered, and every copy answered as made is there.
  for (const op of ops.filter((o) => o.body?.kind === "json")) {
    const v = concurrentWrite(c.contract, op, s);
    const answers = await Promise.all(Array.from({ length: COPIES }, () => send(t.url, s.token, v)));
    sent += COPIES;
    const where = `${v.method} ${v.path} [${COPIES} copies at once]`;
    for (const a of answers) {
      judge(op, where, a);
      if (a.status < 200 || a.status >= 300) continue;
      const read = readBack(op, v, a);
      const wrong = read && (await conforms(read.op, read.path));
      if (wrong?.startsWith("answered"))
        problems.push(`${where}: accepted (${a.status}), then GET ${read!.path} ${wrong}`);
    }
  }
  // Names that address an entity stay unique, however the writes above interleaved.
  for (const [path, key] of UNIQUE) {
    const all = parsed(await send(t.url, s.token, { method: "GET", path: `${path}?perPage=-1` }));
    const values = ((all?.items as Record<string, string>[] | undefined) ?? []).map((i) =>
      `${i[key]}`.toLowerCase(),
    );
    const twice = values.filter((x, i) => values.indexOf(x) !== i);
    if (twice.length) problems.push(`${path}: two share the ${key} ${twice.slice(0, 3).join(", ")}`);
  }

  for (const r of lists) {
    const now = await conforms(r);
    const before = listsBefore.get(r.template);
    if (now && (before === null || (now.startsWith("answered") && !before?.startsWith("answered"))))
      problems.push(`afterwards GET ${r.template}: ${now}`);
  }
  const about = await send(t.url, null, { method: "GET", path: "/api/app/about" });
  if (about.status !== 200) problems.push(`afterwards /api/app/about answered ${about.status}`);
  for (const f of await unreadableFiles(t.dataDir)) problems.push(`afterwards a file does not read: ${f}`);
  const beside = [tmpdir(), dirname(t.dataDir), dirname(dirname(t.dataDir)), process.cwd(), "/"];
  for (const f of await escapedFiles(beside))
    problems.push(`a file was written outside the data folder: ${f}`);
  if ((await listing(dirname(t.dataDir))).join() !== parent.join())
    problems.push("the data folder's parent changed");
  const after = await readKept(t, s);
  for (const [path, before] of Object.entries(kept))
    if (JSON.stringify(after[path]) !== JSON.stringify(before))
      problems.push(
        `${path} changed though no request named it: ${changedKeys(before, after[path]).join(", ")}`,
      );

  return { problems, sent, spread: [Math.min(...counts), Math.max(...counts)] };
}
