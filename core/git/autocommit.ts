/**
 * Git autocommit (decisions 0074, 0063): when the data folder is a git repository and
 * `LARDER_GIT_AUTOCOMMIT` is on, each recipe change becomes one commit naming the person and the recipe,
 * and each change to a curated document (organizers, foods, units, labels, group and household settings,
 * cookbooks, meal-plan rules, recipe actions) one commit naming the person and the document. Commits are made from
 * the event bus, after the response, one at a time through a queue (git's index allows one writer), so
 * a request never waits for git. Only the changed recipe's own paths are staged: a shopping check-off or
 * any other file written meanwhile is never swept into the commit. When the folder is not a repository
 * nothing subscribes and nothing fails; a failing git is logged, never thrown.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { relative, sep } from "node:path";
import type { Parts } from "../parts.js";
import type { LarderEvent } from "../events/bus.js";
import { currentActor } from "../actor-scope.js";
import { onDocumentOpened, type JsonDoc } from "../storage/json-doc.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "events" | "folder" | "groups" | "log" | "users">;

/**
 * The git-tracked JSON documents people curate, with how a commit message names each. Lists, plans,
 * ratings and shares change with daily use (a check-off is not history); webhooks and notifiers may
 * carry tokens in their URLs and stay out of commits.
 */
const CURATED: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^groups\/([^/]+)\/group\.json$/, (m) => `group settings of ${m[1]}`],
  [/^groups\/([^/]+)\/organizers\.json$/, (m) => `categories, tags and tools of ${m[1]}`],
  [/^groups\/([^/]+)\/(foods|units|labels)\.json$/, (m) => `${m[2]} of ${m[1]}`],
  [/^groups\/[^/]+\/households\/([^/]+)\/household\.json$/, (m) => `household settings of ${m[1]}`],
  [/^groups\/[^/]+\/households\/([^/]+)\/cookbooks\.json$/, (m) => `cookbooks of ${m[1]}`],
  [/^groups\/[^/]+\/households\/([^/]+)\/mealplan-rules\.json$/, (m) => `meal plan rules of ${m[1]}`],
  [/^groups\/[^/]+\/households\/([^/]+)\/recipe-actions\.json$/, (m) => `recipe actions of ${m[1]}`],
];

/** What a commit calls this document, or null when its changes are not committed. */
export function curatedDocumentName(relativePath: string): string | null {
  const path = relativePath.split(sep).join("/");
  for (const [re, name] of CURATED) {
    const m = re.exec(path);
    if (m) return name(m);
  }
  return null;
}

/** `git` with an environment that cannot prompt or read the user's global identity by surprise. */
export async function git(cwd: string, args: string[]): Promise<string> {
  const { execa } = await import("execa");
  const r = await execa("git", args, { cwd, env: { GIT_TERMINAL_PROMPT: "0" } });
  return r.stdout;
}

export function isRepository(root: string): boolean {
  return existsSync(join(root, ".git"));
}

export class GitAutoCommit {
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private stopDocs: (() => void) | null = null;
  private readonly watched = new WeakSet<JsonDoc<unknown>>();

  constructor(private readonly larder: Deps) {}

  /** Subscribe when enabled and the folder is a repository; returns whether it did. */
  start(): boolean {
    const root = this.larder.folder.root;
    if (!this.larder.config.gitAutoCommit || !isRepository(root)) return false;
    this.unsubscribe = this.larder.events.subscribe((e) => this.enqueue(e), {
      types: ["recipe_created", "recipe_updated", "recipe_deleted"],
    });
    this.stopDocs = onDocumentOpened((doc) => this.watchDocument(doc));
    return true;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.stopDocs?.();
    this.stopDocs = null;
  }

  /** A curated document's writes through Larder (not hand edits: those are the person's to commit). */
  private watchDocument(doc: JsonDoc<unknown>): void {
    const root = this.larder.folder.root;
    const rel = relative(root, doc.path);
    const name = rel.startsWith("..") ? null : curatedDocumentName(rel);

    if (!name || this.watched.has(doc)) return;
    this.watched.add(doc);
    const file = rel.split(sep).join("/");
    doc.onChange((e) => {
      if (e.type !== "change" || e.origin !== "update" || !this.stopDocs) return;
      // The author is taken now, in the request that wrote it; the bytes once this write is on disk
      // (a change announced in the same tick shares that write, and so this commit)
      const actor = currentActor();
      const userId = actor?.kind === "user" ? actor.user.id : undefined;
      // (the write is scheduled right after this announcement, so wait a turn before waiting on it).
      const captured = new Promise((r) => setImmediate(r))
        .then(() => doc.idle())
        .then(() => readFile(join(root, file)))
        .catch(() => null);
      this.queue = this.queue
        .then(async () => this.commitDocument(file, name, userId, await captured))
        .catch((err: unknown) => this.larder.log.warn("git autocommit failed", err));
    });
  }

  private async commitDocument(
    file: string,
    name: string,
    userId: string | undefined,
    content: Buffer | null,
  ) {
    if (content === null) return;
    const root = this.larder.folder.root;
    const sha = (await gitInput(root, ["hash-object", "-w", "--stdin"], content)).trim();
    await git(root, ["update-index", "--add", "--cacheinfo", `100644,${sha},${file}`]);
    const staged = (await git(root, ["diff", "--cached", "--name-only", "--", file])).trim();
    if (!staged) return;
    await this.commitStaged(userId, (who) => `Update ${name} (by ${who})`);
  }

  /** Resolves when every commit queued so far is made (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(e: LarderEvent): void {
    // The file's bytes are taken now, as the event arrives, not when the queue reaches it: a later
    // write to the same recipe must become its own commit, not be folded into this one.
    const target = this.target(e);
    const captured = target
      ? readFile(join(this.larder.folder.root, target.md)).catch(() => null)
      : Promise.resolve(null);
    this.queue = this.queue
      .then(async () => (target ? this.commit(e, target, await captured) : undefined))
      .catch((err: unknown) => this.larder.log.warn("git autocommit failed", err));
  }

  private target(e: LarderEvent): { md: string; media: string; slug: string; operation: string } | null {
    const doc = e.documentData as { documentType?: string; operation?: string; recipeSlug?: string };
    const group = this.larder.groups.byId(e.groupId);
    if (!group || doc.documentType !== "recipe" || !doc.recipeSlug) return null;
    const dir = `groups/${group.slug}/recipes`;
    return {
      md: `${dir}/${doc.recipeSlug}.md`,
      media: `${dir}/${doc.recipeSlug}`,
      slug: doc.recipeSlug,
      operation: doc.operation ?? "update",
    };
  }

  private async commit(
    e: LarderEvent,
    t: { md: string; media: string; slug: string; operation: string },
    content: Buffer | null,
  ): Promise<void> {
    const root = this.larder.folder.root;
    if (content === null) await git(root, ["rm", "--cached", "--quiet", "--ignore-unmatch", "--", t.md]);
    else {
      const sha = (await gitInput(root, ["hash-object", "-w", "--stdin"], content)).trim();
      await git(root, ["update-index", "--add", "--cacheinfo", `100644,${sha},${t.md}`]);
    }
    // The recipe's media folder (images, assets) as it is now: best effort, it changes rarely.
    const mediaKnown = (await git(root, ["ls-files", "--", t.media])).trim() !== "";
    if (mediaKnown || existsSync(join(root, t.media))) await git(root, ["add", "-A", "--", t.media]);
    const staged = (await git(root, ["diff", "--cached", "--name-only", "--", t.md, t.media])).trim();
    if (!staged) return;
    const verb = t.operation === "create" ? "Add" : t.operation === "delete" ? "Delete" : "Update";
    await this.commitStaged(e.userId, (who) => `${verb} recipe ${t.slug} (by ${who})`);
  }

  private async commitStaged(userId: string | undefined, message: (who: string) => string): Promise<void> {
    const root = this.larder.folder.root;
    const user = userId ? this.larder.users.byId(userId) : null;
    const who = user ? user.fullName || user.username : "Larder";
    const email = user?.email || "larder@localhost";
    // The index as staged above (no pathspec: `commit -- paths` would re-read the files from disk).
    await git(root, [
      "-c",
      "user.name=Larder",
      "-c",
      "user.email=larder@localhost",
      "commit",
      "--quiet",
      "--no-verify",
      `--author=${who.replace(/[<>]/g, "")} <${email.replace(/[<>]/g, "")}>`,
      "-m",
      message(who),
    ]);
  }
}

async function gitInput(cwd: string, args: string[], input: Buffer): Promise<string> {
  const { execa } = await import("execa");
  return (await execa("git", args, { cwd, input, env: { GIT_TERMINAL_PROMPT: "0" } })).stdout;
}

/** What `larder init --git` writes beside the template's `.gitignore` (which keeps `.larder/` out). */
export const GITATTRIBUTES = `# Recipes and documents are text with LF endings on every machine; media is binary.
*.md text eol=lf diff=markdown
*.json text eol=lf
*.jsonl text eol=lf
*.jpg binary
*.jpeg binary
*.png binary
*.webp binary
*.gif binary
*.pdf binary
`;

/**
 * Make a data folder a git repository (idempotent): `git init`, `.gitattributes`, and a first commit of
 * whatever is tracked, made as "Larder" so no global identity is needed.
 */
export async function initRepository(root: string): Promise<{ created: boolean }> {
  const { writeFile } = await import("node:fs/promises");
  const created = !isRepository(root);
  if (created) await git(root, ["init", "--quiet"]);
  if (!existsSync(join(root, ".gitattributes"))) await writeFile(join(root, ".gitattributes"), GITATTRIBUTES);
  await git(root, ["add", "-A"]);
  if ((await git(root, ["diff", "--cached", "--name-only"])).trim()) {
    await git(root, [
      "-c",
      "user.name=Larder",
      "-c",
      "user.email=larder@localhost",
      "commit",
      "--quiet",
      "--no-verify",
      "-m",
      "Larder data folder",
    ]);
  }
  return { created };
}
