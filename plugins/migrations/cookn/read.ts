/**
 * Cook'n: its "export cookbook" zip holds the cookbook's database tables as `.dsv` files
 * (`temp_recipe.dsv`, `temp_ingredient.dsv`, …) and its pictures as files named by their media ID
 * (mediaPath takes the other names a copy of it may have). An export of several cookbooks is a zip of
 * such zips. A recipe is put together from its rows: its desc row
 * (title, chapter), its chapter and cookbook (the category), its ingredient rows with their unit, food and
 * brand, and a picture of its own or of its chapter or cookbook.
 */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ReaderContext,
  basename,
  dirname,
  isJunk,
  openInnerZip,
  stem,
} from "../shared/archive.js";
import { cleanRecipe, cleanString } from "../shared/clean.js";
import { failed, ok, type Picture, pictureAt, wrongType } from "../shared/entry.js";

/** One cookbook's zip inside a zip of zips: its tables and its pictures. */
const MAX_INNER_ZIP = 64 * 1024 * 1024;

const COLUMN_SEPARATOR = "||||";
const ROW_SEPARATOR = "!@#%^&*()";

type Row = Record<string, string>;

/**
 * A `.dsv` table as rows keyed by the header's column names. Cells are trimmed (a row separator may be
 * followed by a line break) and Cook'n's `[null]` is an empty cell.
 */
export function parseDsv(text: string): Row[] {
  const rows = text
    .trim()
    .split(ROW_SEPARATOR)
    .filter((r) => r.trim());
  if (rows.length === 0) return [];
  const header = rows[0].split(COLUMN_SEPARATOR).map((h) => h.trim());
  return rows.slice(1).map((r) => {
    const cells = r.split(COLUMN_SEPARATOR);
    const row: Row = {};
    header.forEach((h, i) => {
      const v = (cells[i] ?? "").trim();
      row[h] = v === "[null]" ? "" : v;
    });
    return row;
  });
}

/** A numbered ("1.", "2)", "3 -") or bulleted ("-", "*", "•") line: the start of a step. */
const STEP_MARKER = /^(?:\d+\s*[.)-]|[-*•])(?:\s+|$)/;

/**
 * Cook'n keeps a recipe's directions as one free text. Numbered or bulleted lines each start a step and
 * the lines after them belong to it (a long step wrapped by its author); text with no marker at all is
 * a step per line.
 */
export function cooknSteps(text: string): Array<{ title: string; text: string }> {
  const lines = text
    .split(/\r\n?|\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const marked = lines.some((l) => STEP_MARKER.test(l));
  const steps: string[][] = [];
  for (const line of lines) {
    if (!marked || STEP_MARKER.test(line) || steps.length === 0) steps.push([]);
    steps[steps.length - 1].push(marked ? line.replace(STEP_MARKER, "") : line);
  }
  return steps
    .map((s) =>
      cleanString(
        s
          .map((l) => l.trim())
          .filter(Boolean)
          .join("\n"),
      ),
    )
    .filter(Boolean)
    .map((t) => ({ title: "", text: t }));
}

/** The value of an amount as Cook'n writes it ("2", "1 1/2", "0.5", "2-3"), for singular or plural. */
function amountValue(s: string): number | null {
  const m = /^(?:(\d+)\s+)?(\d+)\s*\/\s*(\d+)/.exec(s);
  if (m && Number(m[3]) > 0) return Number(m[1] ?? 0) + Number(m[2]) / Number(m[3]);
  const n = /^\d+(?:\.\d+)?/.exec(s);
  return n ? Number(n[0]) : null;
}

/** Qualifiers carry the commas Cook'n shows around them: "finely chopped," and ", drained". */
const qualifier = (s: string | undefined) => (s ?? "").trim().replace(/,+$/, "").trim();

/** The tables of one cookbook, keyed by ID where rows are looked up by it. */
interface Tables {
  recipes: Row[];
  desc: Map<string, Row> | null;
  chapters: Map<string, Row>;
  cookbooks: Map<string, Row>;
  /** A recipe's ingredient rows, in DISPLAY_ORDER. */
  ingredients: Map<string, Row[]>;
  units: Map<string, Row>;
  foods: Map<string, Row>;
  brands: Map<string, Row>;
  /** An entity's (recipe, chapter, cookbook) media rows. */
  media: Map<string, Row[]>;
}

const byId = (rows: Row[], key = "ID") => new Map(rows.filter((r) => r[key]).map((r) => [r[key], r]));

function ingredientLine(row: Row, t: Tables): string {
  const amount = (row.AMOUNT_QTY_STRING ?? "").trim();
  const value = amountValue(amount);
  const many = value !== null && value > 1;
  const unit = t.units.get(row.AMOUNT_UNIT ?? "");
  const food = t.foods.get(row.INGREDIENT_FOOD_ID ?? "");
  const unitName = unit ? (many && unit.PLURAL_NAME) || unit.NAME || unit.ABBREVIATION || "" : "";
  // "3 eggs" but "3 cups flour": the food takes the plural when it is what is counted.
  const foodName = food ? (many && !unitName && food.PLURAL_NAME) || food.NAME || "" : "";
  const words = (parts: string[]) =>
    parts
      .map((p) => p.trim())
      .filter(Boolean)
      .join(" ");
  const line = words([value === 0 ? "" : amount, unitName, qualifier(row.PRE_QUALIFIER), foodName]);
  const post = qualifier(row.POST_QUALIFIER);
  // ", diced" reads as the person wrote it: "2 large onions, diced".
  const withPost = post.startsWith(",")
    ? [line, post.replace(/^,+/, "").trim()].filter(Boolean).join(", ")
    : words([line, post]);
  return words([withPost, t.brands.get(row.BRAND_ID ?? "")?.NAME ?? ""]);
}

/** Whole minutes as Cook'n stores them; anything else (empty, text) is no time. */
function minutes(v: string | undefined): number | null {
  const s = (v ?? "").trim();
  return /^\d+$/.test(s) && Number(s) > 0 ? Number(s) : null;
}

/** One cookbook export: the folder of an archive that holds `temp_recipe.dsv`. */
interface Cookbook {
  archive: Archive;
  dir: string;
  /** What names it when its tables do not (the inner zip's name in a zip of zips). */
  label: string;
}

function cookbooksIn(archive: Archive, label: string): Cookbook[] {
  return archive.entries
    .filter((e) => !isJunk(e.path) && basename(e.path).toLowerCase() === "temp_recipe.dsv")
    .map((e) => ({ archive, dir: dirname(e.path), label }));
}

/** The path of a table in the cookbook's folder (Cook'n writes `temp_cookBook_desc`; any case is taken). */
function tablePath(book: Cookbook, table: string): string | undefined {
  const want = `${table.toLowerCase()}.dsv`;
  return book.archive.entries.find(
    (e) => dirname(e.path) === book.dir && basename(e.path).toLowerCase() === want && !isJunk(e.path),
  )?.path;
}

async function readTable(book: Cookbook, table: string): Promise<Row[] | null> {
  const path = tablePath(book, table);
  return path ? parseDsv(await book.archive.readText(path)) : null;
}

async function readTables(book: Cookbook): Promise<Tables> {
  const recipes = (await readTable(book, "temp_recipe")) ?? [];
  const desc = await readTable(book, "temp_recipe_desc");
  const ingredients = new Map<string, Row[]>();
  // Rows whose order is not a whole number are not placed in the list by Cook'n either: passed over.
  const ordered = ((await readTable(book, "temp_ingredient")) ?? [])
    .filter((r) => /^-?\d+$/.test(r.DISPLAY_ORDER ?? ""))
    .sort((a, b) => Number(a.DISPLAY_ORDER) - Number(b.DISPLAY_ORDER));
  for (const r of ordered) {
    const list = ingredients.get(r.PARENT_ID) ?? [];
    list.push(r);
    ingredients.set(r.PARENT_ID, list);
  }
  const media = new Map<string, Row[]>();
  for (const r of (await readTable(book, "temp_media")) ?? []) {
    if (!r.ID || !r.ENTITY_ID) continue;
    const list = media.get(r.ENTITY_ID) ?? [];
    list.push(r);
    media.set(r.ENTITY_ID, list);
  }
  return {
    recipes,
    desc: desc ? byId(desc) : null,
    chapters: byId((await readTable(book, "temp_chapter_desc")) ?? []),
    cookbooks: byId((await readTable(book, "temp_cookBook_desc")) ?? []),
    ingredients,
    units: byId((await readTable(book, "temp_unit")) ?? []),
    foods: byId((await readTable(book, "temp_food")) ?? []),
    brands: byId((await readTable(book, "temp_brand")) ?? []),
    media,
  };
}

/** Extensions for the media types Cook'n records, for a file named `<ID>.<ext>` whose ID has none. */
const EXTENSIONS: Record<string, string[]> = {
  "image/jpeg": ["jpg", "jpeg"],
  "image/jpg": ["jpg", "jpeg"],
  "image/png": ["png"],
  "image/gif": ["gif"],
  "image/bmp": ["bmp"],
  "image/webp": ["webp"],
  "image/tiff": ["tif", "tiff"],
};

/** A cell that reads as a file's name ("Leek tart.jpg", `C:\Cookn\Media\leek.jpg`), by its last part. */
const FILE_NAME = /(?:^|[\\/])([^\\/]+\.[a-z0-9]{2,5})$/i;

/**
 * The cookbook's files other than its tables, under its folder at any depth, by lower-cased name and
 * by lower-cased name without its extension: built once per cookbook (a walk per media row made an
 * export of a few thousand recipes take seconds). A name beats a stem; the first file of a name wins.
 */
function mediaFiles(book: Cookbook): Map<string, string> {
  const under = book.dir ? `${book.dir}/` : "";
  const files = book.archive.entries.filter(
    (e) => e.path.startsWith(under) && !isJunk(e.path) && !e.path.toLowerCase().endsWith(".dsv"),
  );
  const byName = new Map<string, string>();
  for (const e of files)
    if (!byName.has(basename(e.path).toLowerCase())) byName.set(basename(e.path).toLowerCase(), e.path);
  for (const e of files)
    if (!byName.has(stem(e.path).toLowerCase())) byName.set(stem(e.path).toLowerCase(), e.path);
  return byName;
}

/**
 * The file of a media row. Cook'n names it by the media ID, usually without an extension, beside the
 * tables; copies that passed through other tools have `<ID>.<ext>` from the media type, the ID in
 * another case (Windows does not tell "m1.JPG" from "M1"), or sit in a folder below. Failing all of
 * those, a cell of the row that is a file's name (a column naming the file, or its path on the PC it
 * was exported from) is looked up by that name.
 */
function mediaPath(book: Cookbook, files: Map<string, string>, row: Row): string | undefined {
  const id = row.ID;
  const exact = book.dir ? `${book.dir}/${id}` : id;
  if (book.archive.has(exact)) return exact;
  for (const ext of EXTENSIONS[(row.MEDIA_CONTENT_TYPE ?? "").toLowerCase()] ?? []) {
    const named = files.get(`${id}.${ext}`.toLowerCase());
    if (named) return named;
  }
  const byId = files.get(id.toLowerCase());
  if (byId) return byId;
  for (const [column, value] of Object.entries(row)) {
    if (column === "ID" || column === "ENTITY_ID") continue;
    const name = FILE_NAME.exec(value.trim())?.[1];
    const found = name && files.get(name.toLowerCase());
    if (found) return found;
  }
  return undefined;
}

/** The first picture of these entities (the recipe, then its chapter, then its cookbook) found in the zip. */
async function pictureOf(
  book: Cookbook,
  t: Tables,
  files: Map<string, string>,
  entities: string[],
): Promise<Picture> {
  for (const entity of entities) {
    for (const m of t.media.get(entity) ?? []) {
      const type = (m.MEDIA_CONTENT_TYPE ?? "").toLowerCase();
      if (type && !type.startsWith("image/")) continue;
      const path = mediaPath(book, files, m);
      if (path) return pictureAt(book.archive, path);
    }
  }
  return null;
}

async function* readCookbook(book: Cookbook): AsyncGenerator<MigratedEntry> {
  let t: Tables;
  try {
    t = await readTables(book);
  } catch (e) {
    // One cookbook of a zip of zips whose tables cannot be read: the other cookbooks still come in.
    yield failed(book.label || book.dir || "Cook'n cookbook", e);
    return;
  }
  const files = mediaFiles(book);
  // The cookbook a recipe is in, when its chapter does not say (an export holds one cookbook).
  const only = t.cookbooks.size === 1 ? [...t.cookbooks.values()][0] : undefined;
  const where = only?.TITLE || book.label ? ` of "${only?.TITLE || book.label}"` : "";
  for (const row of t.recipes) {
    const id = row.ID ?? "";
    const desc = id ? t.desc?.get(id) : undefined;
    let name = desc?.TITLE || (id ? `Cook'n recipe ${id}` : "Cook'n recipe without an ID");
    try {
      if (!id) throw new Error(`a row of temp_recipe.dsv${where} has no ID; it was not imported`);
      if (!t.desc)
        throw new Error(`the export${where} has no temp_recipe_desc.dsv, which holds recipe titles`);
      if (!desc)
        throw new Error(`recipe ${id}${where} has no row in temp_recipe_desc.dsv; it was not imported`);
      const chapter = t.chapters.get(desc.PARENT ?? "");
      const cookbook = t.cookbooks.get(chapter?.PARENT ?? "");
      const bookTitle = cookbook?.TITLE || only?.TITLE || "";
      const prep = minutes(row.PREPTIME);
      const cook = minutes(row.COOKTIME);
      const total = (prep ?? 0) + (cook ?? 0);
      const serves = (row.SERVES ?? "").trim();
      const recipe = cleanRecipe({
        name: desc.TITLE,
        description: desc.DESCRIPTION,
        // Mealie's choice: one category naming the cookbook and the chapter.
        categories: [cookbook?.TITLE, chapter?.TITLE].filter(Boolean).join(" - "),
        recipeYield: serves === "0" ? "" : serves,
        recipeServings: serves,
        prepTime: prep,
        performTime: cook,
        totalTime: total,
        timesInMinutes: true,
        ingredientObjects: (t.ingredients.get(id) ?? []).map((r) => ({
          title: null,
          note: cleanString(ingredientLine(r, t)),
        })),
      });
      name = recipe.name;
      recipe.recipeInstructions = cooknSteps(row.INSTRUCTIONS ?? "");
      const image = await pictureOf(
        book,
        t,
        files,
        [id, chapter?.ID ?? "", (cookbook ?? only)?.ID ?? ""].filter(Boolean),
      );
      // IDs are the cookbook's own: two cookbooks of a zip of zips may both have a recipe 1.
      const scope = bookTitle || book.label;
      yield ok(recipe, { image, sourceId: `cookn:${scope ? `${scope}/` : ""}${id}` });
    } catch (e) {
      yield failed(name, e);
    }
  }
}

export async function* readCookn(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const direct = cookbooksIn(archive, "");
  const inner = archive.entries
    .filter((e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".zip"))
    .map((e) => e.path);
  // A first pass counts the recipes (and finds the inner zips that are cookbooks) for the progress
  // report; each inner zip is opened again when its turn comes, so only one is held at a time.
  let total = 0;
  for (const book of direct) total += (await readTable(book, "temp_recipe"))?.length ?? 0;
  const zips: Array<{ path: string; broken: boolean }> = [];
  for (const path of inner) {
    let zip: Archive | null = null;
    try {
      zip = await openInnerZip(archive, path, MAX_INNER_ZIP);
      const books = cookbooksIn(zip, stem(path));
      if (books.length === 0) continue;
      for (const book of books) total += (await readTable(book, "temp_recipe"))?.length ?? 0;
      zips.push({ path, broken: false });
    } catch {
      // Reported as one failed entry in its turn, with the reason.
      total += 1;
      zips.push({ path, broken: true });
    } finally {
      zip?.close();
    }
  }
  if (direct.length === 0 && zips.length === 0) throw wrongType("Cook'n", "no temp_recipe.dsv was found");
  ctx?.onTotal?.(total);
  for (const book of direct) yield* readCookbook(book);
  for (const { path } of zips) {
    let zip: Archive | null = null;
    try {
      zip = await openInnerZip(archive, path, MAX_INNER_ZIP);
    } catch (e) {
      yield failed(basename(path), e);
      continue;
    }
    try {
      for (const book of cookbooksIn(zip, stem(path))) yield* readCookbook(book);
    } finally {
      zip.close();
    }
  }
}
