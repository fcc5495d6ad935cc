/**
 * A recipe's earlier versions from git (decision 0074): the commits that touched its file, one version's
 * text and its diff against the version before, and restoring one (written like a hand edit — atomic,
 * then re-read by the store — so the usual identity rules apply). When the folder is not a repository
 * the history is empty and restoring is a 404: nothing fails.
 */
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import { NotFoundError } from "../errors.js";
import { adminOf } from "../users/accounts-service.js";
import { writeFileAtomic } from "../storage/atomic-write.js";
import { git, isRepository } from "./autocommit.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "folder" | "recipes">;

export interface HistoryEntry {
  rev: string;
  date: string;
  author: string;
  message: string;
}

const REV_RE = /^[0-9a-f]{7,40}$/;

export class RecipeHistory {
  constructor(private readonly larder: Deps) {}

  private pathOf(actor: Actor, slug: string): { rel: string; groupSlug: string; slug: string } {
    const { entry } = this.larder.recipes.find(actor, slug);
    return {
      rel: `groups/${entry.groupSlug}/recipes/${entry.slug}.md`,
      groupSlug: entry.groupSlug,
      slug: entry.slug,
    };
  }

  /** Newest first. */
  async list(actor: Actor, slug: string): Promise<{ items: HistoryEntry[] }> {
    const { rel } = this.pathOf(actor, slug);
    const root = this.larder.folder.root;
    if (!isRepository(root)) return { items: [] };
    const out = await git(root, ["log", "--format=%H%x1f%aI%x1f%an%x1f%s", "--", rel]).catch(() => "");
    const items = out
      .split("\n")
      .filter(Boolean)
      .map((l) => {
        const [rev, date, author, message] = l.split("\x1f");
        return { rev, date, author, message };
      });
    return { items };
  }

  /** One version: its text, and the diff from the version before it. */
  async version(
    actor: Actor,
    slug: string,
    rev: string,
  ): Promise<HistoryEntry & { content: string; diff: string }> {
    const { rel } = this.pathOf(actor, slug);
    const found = (await this.list(actor, slug)).items.find((i) => REV_RE.test(rev) && i.rev.startsWith(rev));
    if (!found) throw new NotFoundError("No such version of this recipe");
    const root = this.larder.folder.root;
    const content = await git(root, ["show", `${found.rev}:${rel}`]).catch(() => "");
    const diff = await git(root, ["show", "--format=", found.rev, "--", rel]);
    return { ...found, content, diff };
  }

  /** Put a version back as the recipe's current file (admins: it rewrites a file by hand). */
  async restore(actor: Actor, slug: string, rev: string): Promise<{ message: string; error: false }> {
    adminOf(actor);
    const { groupSlug, slug: s } = this.pathOf(actor, slug);
    const v = await this.version(actor, slug, rev);
    if (!v.content) throw new NotFoundError("That version deleted the recipe: there is nothing to restore");
    await writeFileAtomic(this.larder.folder.recipeFile(groupSlug, s), v.content, {
      tmpDir: this.larder.folder.tmpDir,
    });
    await this.larder.recipes.store.reload(groupSlug, s);
    return { message: `Restored ${s} to ${v.rev.slice(0, 7)}`, error: false };
  }
}
