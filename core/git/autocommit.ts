/**
 * Git autocommit (decision 0074): when the data folder is a git repository and `LARDER_GIT_AUTOCOMMIT`
 * is on, each recipe change becomes one commit naming the person and the recipe. Commits are made from
 * the event bus, after the response, one at a time through a queue (git's index allows one writer), so
 * a request never waits for git. Only the changed recipe's own paths are staged: a shopping check-off or
 * any other file written meanwhile is never swept into the commit. When the folder is not a repository
 * nothing subscribes and nothing fails; a failing git is logged, never thrown.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Larder } from "../larder.js";
import type { LarderEvent } from "../events/bus.js";

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

  constructor(private readonly larder: Larder) {}

  /** Subscribe when enabled and the folder is a repository; returns whether it did. */
  start(): boolean {
    const root = this.larder.folder.root;
    if (!this.larder.config.gitAutoCommit || !isRepository(root)) return false;
    this.unsubscribe = this.larder.events.subscribe((e) => this.enqueue(e), {
      types: ["recipe_created", "recipe_updated", "recipe_deleted"],
    });
    return true;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
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
    const user = e.userId ? this.larder.users.byId(e.userId) : null;
    const who = user ? user.fullName || user.username : "Larder";
    const email = user?.email || "larder@localhost";
    const verb = t.operation === "create" ? "Add" : t.operation === "delete" ? "Delete" : "Update";
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
      `${verb} recipe ${t.slug} (by ${who})`,
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
