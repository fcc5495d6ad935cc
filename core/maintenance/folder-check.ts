/**
 * `larder check`'s inspection (ARCHITECTURE §3 invariant 4): files that fail to parse (never
 * overwritten), files the index settled by rule or does not read, and leftovers a hand delete leaves
 * behind. In core so the command reads no store of its own (issue 12).
 */
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Parts } from "../parts.js";
import { ReplacedFolderError } from "../storage/data-folder.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<
  Parts,
  "directory" | "folder" | "groups" | "mealplans" | "notifiers" | "recipes" | "shopping" | "webhooks"
>;

export interface BrokenReport {
  /** Relative to the data folder, with forward slashes. */
  path: string;
  line: number | null;
  message: string;
}
export interface OrphanReport {
  path: string;
  kind: "media-folder" | "nested";
  message: string;
}
/** A file the index settled by rule (a duplicate id, a foreign owner) or does not read at all (a link, a dot name). */
export interface ProblemReport {
  path: string;
  kind: "duplicate-id" | "foreign-owner" | "symlink" | "hidden" | "extension";
  message: string;
}
export interface CheckReport {
  recipes: number;
  broken: BrokenReport[];
  orphans: OrphanReport[];
  problems: ProblemReport[];
}

/** A path inside the folder as reports give it: relative to the root, with forward slashes. */
const inFolder = (root: string, p: string) => relative(root, p).split("\\").join("/");

/**
 * The household week's JSON documents (decision 0030) a hand edit broke, by path relative to the
 * folder: `larder check` and the admin's problem list report the same ones.
 */
export function brokenWeekDocuments(
  larder: Pick<Parts, "folder" | "groups" | "mealplans" | "notifiers" | "shopping" | "webhooks">,
): BrokenReport[] {
  return [
    ...larder.groups.broken(),
    ...larder.mealplans.broken(),
    ...larder.shopping.broken(),
    ...larder.webhooks.broken(),
    ...larder.notifiers.broken(),
  ].map((b) => ({ path: inFolder(larder.folder.root, b.path), line: null, message: b.message }));
}

export async function checkFolder(larder: Deps): Promise<CheckReport> {
  const root = larder.folder.root;
  const rel = (p: string) => inFolder(root, p);
  const broken: BrokenReport[] = larder.recipes.store
    .broken()
    // Built by hand, not with folder.recipeFile(): that one refuses names that are not valid slugs,
    // and a broken file may well have such a name.
    .map((b) => ({
      path: `groups/${b.groupSlug}/recipes/${b.slug}.md`,
      line: b.line ?? null,
      message: b.message,
    }));
  broken.push(...brokenWeekDocuments(larder));
  const orphans: OrphanReport[] = [];
  const problems: ProblemReport[] = larder.recipes.store.problems().map((p) => ({
    path: `groups/${p.groupSlug}/recipes/${p.slug}.md`,
    kind: p.kind,
    message: p.message,
  }));
  for (const { group } of larder.directory.all()) {
    let dir: string;
    try {
      dir = larder.folder.recipesDir(group.slug);
    } catch (e) {
      if (!(e instanceof ReplacedFolderError)) throw e;
      // Its recipes are not read through the link: say why they are missing.
      problems.push({
        path: e.folder,
        kind: "symlink",
        message: "not a real folder (a symbolic link?): never followed; put the folder itself back",
      });
      continue;
    }
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      // The index reads neither (a link could point outside the folder; a dot name is an editor's or
      // git's), so a person who put a recipe there would otherwise never learn why it is missing.
      // `.#name.md` is Emacs's lock file while a buffer is modified: not a recipe, not a problem.
      if (e.name.startsWith(".#")) continue;
      const path = rel(join(dir, e.name));
      // `Pancakes.MD`: a recipe to its author, a file of another kind to the index (names are exact).
      if (!e.name.endsWith(".md")) {
        if (/\.md$/i.test(e.name) && e.isFile() && !e.name.startsWith("."))
          problems.push({
            path,
            kind: "extension",
            message: `not read as a recipe: the extension must be ".md" in lower case; rename it to "${e.name.slice(0, -3)}.md"`,
          });
        continue;
      }
      if (e.isSymbolicLink()) {
        problems.push({
          path,
          kind: "symlink",
          message: "a symbolic link: never followed; replace it with the file itself",
        });
      } else if (e.name.startsWith(".")) {
        problems.push({
          path,
          kind: "hidden",
          message: "a hidden file (dot name): not read as a recipe; rename it without the leading dot",
        });
      }
    }
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    for (const e of entries) {
      if (e.isDirectory() && e.name.endsWith(".md")) {
        orphans.push({
          path: `${rel(join(dir, e.name))}/`,
          kind: "media-folder",
          message:
            "a folder named like a recipe file: not read; a recipe is a file, its media a folder without .md",
        });
      } else if (e.isDirectory() && !files.has(`${e.name}.md`)) {
        const nested = await markdownInside(join(dir, e.name));
        orphans.push({
          path: `${rel(join(dir, e.name))}/`,
          kind: nested ? "nested" : "media-folder",
          message: nested
            ? `a folder holding recipe files (${nested}): recipes in subfolders are not read; move them up into groups/${group.slug}/recipes/`
            : `media folder without its recipe ${e.name}.md`,
        });
      }
    }
  }
  const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
  return {
    recipes: larder.recipes.store.all().length,
    broken: broken.sort(byPath),
    orphans: orphans.sort(byPath),
    problems: problems.sort(byPath),
  };
}

/**
 * The first Markdown file inside `dir` (relative to it), at any depth, or null: such a folder is a
 * person's own sorting of recipe files, not a recipe's media folder, and no clean may remove it.
 */
export async function markdownInside(dir: string, depth = 0): Promise<string | null> {
  if (depth > 8) return "a deeply nested folder";
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (e.isFile() && /\.md$/i.test(e.name)) return e.name;
    if (e.isDirectory()) {
      const inner = await markdownInside(join(dir, e.name), depth + 1);
      if (inner) return `${e.name}/${inner}`;
    }
  }
  return null;
}
