/**
 * Git autocommit (decision 0074): when the data folder is a git repository and `LARDER_GIT_AUTOCOMMIT`
 * is on, each recipe change becomes one commit naming the person and the recipe. Commits are made from
 * the event bus, after the response, one at a time through a queue (git's index allows one writer), so
 * a request never waits for git. Only the changed recipe's own paths are staged: a shopping check-off or
 * any other file written meanwhile is never swept into the commit. When the folder is not a repository
 * nothing subscribes and nothing fails; a failing git is logged, never thrown.
 */
import { existsSync } from "node:fs";
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
    this.queue = this.queue
      .then(() => this.commit(e))
      .catch((err: unknown) => this.larder.log.warn("git autocommit failed", err));
  }

  private async commit(e: LarderEvent): Promise<void> {
    const doc = e.documentData as { documentType?: string; operation?: string; recipeSlug?: string };
    const group = this.larder.groups.byId(e.groupId);
    if (!group || doc.documentType !== "recipe" || !doc.recipeSlug) return;
    const root = this.larder.folder.root;
    const paths = [
      `groups/${group.slug}/recipes/${doc.recipeSlug}.md`,
      `groups/${group.slug}/recipes/${doc.recipeSlug}`,
    ];
    // `add -A` on exactly these paths stages their creation, change or removal; a path git does not know
    // and that does not exist is skipped with --ignore-missing… which only --dry-run accepts, so filter.
    const present = [];
    for (const p of paths) {
      const known = (await git(root, ["ls-files", "--", p])).trim() !== "";
      if (known || existsSync(join(root, p))) present.push(p);
    }
    if (present.length === 0) return;
    await git(root, ["add", "-A", "--", ...present]);
    const staged = (await git(root, ["diff", "--cached", "--name-only", "--", ...present])).trim();
    if (!staged) return;
    const user = e.userId ? this.larder.users.byId(e.userId) : null;
    const who = user ? user.fullName || user.username : "Larder";
    const email = user?.email || "larder@localhost";
    const verb = doc.operation === "create" ? "Add" : doc.operation === "delete" ? "Delete" : "Update";
    const message = `${verb} recipe ${doc.recipeSlug} (by ${who})`;
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
      message,
      "--",
      ...present,
    ]);
  }
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
