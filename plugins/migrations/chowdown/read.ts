/**
 * Chowdown (a Jekyll site): `_recipes/*.md` with YAML front matter, pictures in `images/`. A component
 * recipe lists, under `components:`, the titles of smaller recipes kept in `_components/*.md`; its page
 * shows their ingredients and directions below its own, and so does the imported recipe.
 */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ArchiveEntry,
  type ReaderContext,
  basename,
  isJunk,
  stem,
} from "../shared/archive.js";
import { cleanRecipe, cleanString, type Loose } from "../shared/clean.js";
import { failed, frontMatter, ok, pictureAt, wrongType } from "../shared/entry.js";

interface Line {
  title: string | null;
  text: string;
}

/**
 * A front-matter list as lines. Hand-written YAML gives more than strings: `- For the dough:` is a key
 * with no value (a heading for the lines after it), `- Dough:` followed by an indented list is a
 * section, and `- Optional: sprinkles` is a one-entry map that stands for the line as written.
 */
function lines(v: unknown): Line[] {
  const out: Line[] = [];
  let heading: string | null = null;
  const push = (raw: string) => {
    const text = cleanString(raw);
    if (!text) return;
    out.push({ title: heading, text });
    heading = null;
  };
  const walk = (item: unknown): void => {
    if (typeof item === "string" || typeof item === "number") push(String(item));
    else if (Array.isArray(item)) item.forEach(walk);
    else if (item && typeof item === "object") {
      for (const [key, val] of Object.entries(item as Loose)) {
        if (val === null || val === undefined || Array.isArray(val)) {
          heading = cleanString(key).replace(/:$/, "") || null;
          if (Array.isArray(val)) walk(val);
        } else if (typeof val === "string" || typeof val === "number") push(`${key}: ${val}`);
      }
    }
  };
  // A block of text (`directions: |`) gives a line per line; in a list, an item is one line however long.
  walk(typeof v === "string" ? v.split(/\r?\n/) : v);
  return out;
}

/** The first line of a component's list carries the component's title, as a section of the recipe. */
function titled(list: Line[], title: string): Line[] {
  return list.map((l, i) => (i === 0 ? { ...l, title } : l));
}

/** Chowdown's template shows `preptime`/`cooktime` with `| upcase`, so `pt15m` is a valid duration. */
function duration(v: unknown): unknown {
  return typeof v === "string" && /^p\d|^pt/i.test(v.trim()) ? v.trim().toUpperCase() : v;
}

const nfc = (s: string) => s.normalize("NFC");

/**
 * The export's pictures, looked up by what `image:` may say: the path under an `images/` folder
 * (subfolders too), or the bare file name, in any case when no name matches exactly. Names are in
 * NFC: a zip made on a Mac may store `crêpes.jpg` decomposed. Indexed once: a scan of every picture per recipe made an export of
 * thousands of recipes quadratic.
 */
interface Pictures {
  underImages: Map<string, ArchiveEntry>;
  byName: Map<string, ArchiveEntry>;
}

function indexPictures(images: ArchiveEntry[]): Pictures {
  const underImages = new Map<string, ArchiveEntry>();
  const byName = new Map<string, ArchiveEntry>();
  for (const e of images) {
    const parts = nfc(e.path).split("/");
    parts.forEach((part, i) => {
      const rel = parts.slice(i + 1).join("/");
      if (part.toLowerCase() !== "images" || !rel) return;
      if (!underImages.has(rel)) underImages.set(rel, e);
      // Under a key no exact name can have: a site built on Windows or a Mac links regardless of case.
      if (!underImages.has(`\u0000${rel.toLowerCase()}`)) underImages.set(`\u0000${rel.toLowerCase()}`, e);
    });
    const name = parts[parts.length - 1];
    if (!byName.has(name)) byName.set(name, e);
    if (!byName.has(`\u0000${name.toLowerCase()}`)) byName.set(`\u0000${name.toLowerCase()}`, e);
  }
  return { underImages, byName };
}

/** The picture named by `image:`: a bare name or a path under `images/`, or a URL. */
async function picture(archive: Archive, pictures: Pictures, value: unknown) {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first !== "string" || !first.trim()) return null;
  const wanted = nfc(first.trim());
  if (/^https?:\/\//i.test(wanted)) return { url: wanted };
  const rel = wanted.replace(/^(\.{0,2}\/)+/, "").replace(/^images\//, "");
  const img =
    pictures.underImages.get(rel) ??
    pictures.byName.get(basename(rel)) ??
    pictures.underImages.get(`\u0000${rel.toLowerCase()}`) ??
    pictures.byName.get(`\u0000${basename(rel).toLowerCase()}`);
  return img ? pictureAt(archive, img.path) : null;
}

/** `_components/*.md` by title; one that cannot be read is left out (the recipe lists its name instead). */
async function readComponents(
  archive: Archive,
): Promise<Map<string, { ingredients: Line[]; steps: Line[] }>> {
  const found = new Map<string, { ingredients: Line[]; steps: Line[] }>();
  const files = archive.entries.filter(
    (e) => !isJunk(e.path) && /(^|\/)_components\/[^/]+\.(md|markdown)$/i.test(e.path),
  );
  for (const file of files) {
    try {
      const { data } = frontMatter(await archive.readText(file.path));
      const title = cleanString(data.title) || stem(file.path);
      found.set(title.toLowerCase(), { ingredients: lines(data.ingredients), steps: lines(data.directions) });
    } catch {
      /* not a recipe of its own: a component that does not parse is listed by name */
    }
  }
  return found;
}

export async function* readChowdown(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const files = archive.entries.filter(
    (e) => !isJunk(e.path) && /(^|\/)_recipes\/[^/]+\.(md|markdown)$/i.test(e.path),
  );
  if (files.length === 0) throw wrongType("Chowdown", "no _recipes/*.md file was found");
  const pictures = indexPictures(
    archive.entries.filter((e) => !isJunk(e.path) && /(^|\/)images\//i.test(e.path)),
  );
  const components = await readComponents(archive);
  ctx?.onTotal?.(files.length);
  for (const file of files) {
    let name = stem(file.path);
    try {
      const { data, body } = frontMatter(await archive.readText(file.path));
      if (typeof data.title === "string" || typeof data.title === "number") name = String(data.title);
      const ingredients = lines(data.ingredients);
      const steps = lines(data.directions);
      const parts = data.components === undefined || data.components === null ? [] : [data.components].flat();
      for (const part of parts) {
        const title = cleanString(part);
        if (!title) continue;
        const c = components.get(title.toLowerCase());
        if (!c) ingredients.push({ title: null, text: title });
        else {
          ingredients.push(...titled(c.ingredients, title));
          steps.push(...titled(c.steps, title));
        }
      }
      const recipe = cleanRecipe({
        name,
        ingredientObjects: ingredients.map((l) => ({ title: l.title, note: l.text })),
        instructions: steps.map((l) => ({ title: l.title ?? "", text: l.text })),
        tags: data.tags,
        categories: data.categories ?? data.category,
        recipeYield: data.yield ?? data.servings,
        prepTime: duration(data.preptime ?? data.prepTime ?? data.prep),
        performTime: duration(data.cooktime ?? data.cookTime ?? data.cook),
        totalTime: duration(data.totaltime ?? data.totalTime ?? data.time),
        nutrition: data.nutrition,
        orgURL: data.source ?? data.url,
      });
      // The body is Markdown prose about the dish: clean_string would strip only tags, so keep it whole.
      recipe.description = body.replace(/\r\n?/g, "\n").trim();
      const image = await picture(archive, pictures, data.image);
      yield ok(recipe, { image, sourceId: `chowdown:${stem(file.path)}` });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
