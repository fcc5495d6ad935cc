/**
 * A Mealie admin backup (mealie-api-notes §10): `database.json` maps every table to its rows (raw column
 * names) plus `alembic_version`, and `data/` holds the files. Rows are joined here into plain groups,
 * users, vocabulary, organizers, cookbooks and recipes; nothing is written.
 *
 * Every revision from Mealie v1.0 on is read by column name, because a backup from a newer Mealie than
 * any Larder was tested with is what most people moving in will bring. The layout changes read here:
 * one rating per recipe, then per user (`users_to_recipes`, 2024); households (2024: every table keeps
 * its `group_id`); `last_made` per household (`households_to_recipes`); servings and yield quantity as
 * numbers; a deleted food kept on its ingredient as `food_snapshot`; times that are durations moved to
 * `<time>_seconds` (2026). A database.json without the tables every revision has is refused.
 */
import type {
  MigratedCookbook,
  MigratedGroup,
  MigratedRecipe,
  MigratedSite,
  MigratedUser,
} from "../../../core/plugins/kinds.js";
import { type Archive, basename, dirname, imageType, isJunk } from "../shared/archive.js";
import { NUTRITION_KEYS, prettySeconds, type CleanRecipe } from "../shared/clean.js";
import { attachPicture, failed, ok, pictureAt, wrongType } from "../shared/entry.js";
import { MigrationInputError } from "../shared/errors.js";

/** Alembic revisions of the real backups Larder is tested on (Mealie v1.x), oldest first. */
export const TESTED_REVISIONS = ["44e8d670719d", "ba1e4a6cfe99", "bcfdad6b7355", "09aba125b57a"] as const;

/** The tables every Mealie revision since v1.0 has: without them this is not a Mealie v1+ database. */
const REQUIRED_TABLES = ["groups", "users", "recipes"] as const;

/** database.json of a big site is large, but far below what a bomb would inflate to. */
const MAX_DATABASE_BYTES = 512 * 1024 * 1024;

type Row = Record<string, unknown>;
type Tables = Record<string, Row[]>;

const str = (v: unknown): string =>
  typeof v === "string" ? v : v === null || v === undefined ? "" : String(v);
const optStr = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const bool = (v: unknown): boolean => v === true || v === 1 || v === "true" || v === "True";
const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v)
    ? v
    : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))
      ? Number(v)
      : null;
/** Backups write UUIDs with or without dashes depending on the database; compare them without. */
export const idKey = (v: unknown): string => str(v).replace(/-/g, "").toLowerCase();
const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function groupBy(rows: Row[] | undefined, key: string): Map<string, Row[]> {
  const m = new Map<string, Row[]>();
  for (const r of rows ?? []) {
    const k = idKey(r[key]);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}
function byId(rows: Row[] | undefined): Map<string, Row> {
  return new Map((rows ?? []).map((r) => [idKey(r.id), r]));
}
const byPosition = (a: Row, b: Row) => (num(a.position) ?? 0) - (num(b.position) ?? 0);

/** Where database.json is: at the top, or inside the one folder Safari's "Compress" wraps it in. */
export function findDatabase(archive: Archive): string {
  const candidates = archive.entries.filter(
    (e) => !isJunk(e.path) && basename(e.path) === "database.json" && e.path.split("/").length <= 2,
  );
  if (candidates.length === 0) throw wrongType("Mealie backup", "no database.json was found");
  return candidates.sort((a, b) => a.path.length - b.path.length)[0].path;
}

export async function readTables(
  archive: Archive,
): Promise<{ tables: Tables; revision: string; root: string }> {
  const path = findDatabase(archive);
  let raw: unknown;
  try {
    raw = JSON.parse(await archive.readText(path, MAX_DATABASE_BYTES));
  } catch (e) {
    if (e instanceof MigrationInputError) throw e;
    throw new MigrationInputError(`The backup's database.json cannot be read: ${(e as Error).message}`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    throw wrongType("Mealie backup", "database.json is not an object of tables");
  // A table is a list of rows, a row an object: anything else in a damaged or hand-made file is no row,
  // rather than a TypeError deep in the join (which would have failed the whole import).
  const isRow = (r: unknown): r is Row => !!r && typeof r === "object" && !Array.isArray(r);
  const given = raw as Record<string, unknown>;
  const tables: Tables = {};
  for (const [name, rows] of Object.entries(given))
    tables[name] = Array.isArray(rows) ? rows.filter(isRow) : [];
  const revision = str(tables.alembic_version?.[0]?.version_num);
  const missing = REQUIRED_TABLES.filter((name) => !Array.isArray(given[name]));
  if (missing.length)
    throw new MigrationInputError(
      `This backup's database.json has no ${missing.map((m) => `'${m}'`).join(" or ")} table` +
        (revision ? ` (schema revision '${revision}')` : "") +
        ": it is not a backup of Mealie v1 or later. Check the migration type.",
    );
  return { tables, revision, root: dirname(path) };
}

function filterFor(kind: "recipe_category" | "tags" | "tools", names: string[], all: boolean): string {
  const quoted = names.map((n) => `"${n.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(", ");
  return `${kind}.name ${all ? "CONTAINS ALL" : "IN"} [${quoted}]`;
}

export function cookbookFilter(c: Omit<MigratedCookbook, "queryFilterString">): string {
  const parts: string[] = [];
  if (c.categories.length) parts.push(filterFor("recipe_category", c.categories, c.requireAllCategories));
  if (c.tags.length) parts.push(filterFor("tags", c.tags, c.requireAllTags));
  if (c.tools.length) parts.push(filterFor("tools", c.tools, c.requireAllTools));
  return parts.join(" AND ");
}

/**
 * The whole site in the backup, group by group. Pictures (`data/recipes/<id>/images/original.*`) are read
 * one recipe at a time by its `loadPicture`, from the archive, which must stay open until then.
 */
export async function readBackup(archive: Archive): Promise<MigratedSite> {
  const { tables: t, revision, root } = await readTables(archive);
  const foodsById = byId(t.ingredient_foods);
  const unitsById = byId(t.ingredient_units);
  const tagsById = byId(t.tags);
  const catsById = byId(t.categories);
  const toolsById = byId(t.tools);
  const householdsById = byId(t.households);
  const ingredientsOf = groupBy(t.recipes_ingredients, "recipe_id");
  const stepsOf = groupBy(t.recipe_instructions, "recipe_id");
  const nutritionOf = byIdOf(t.recipe_nutrition, "recipe_id");
  const settingsOf = byIdOf(t.recipe_settings, "recipe_id");
  const notesOf = groupBy(t.notes, "recipe_id");
  const extrasOf = groupBy(
    t.api_extras,
    "recipee_id" in (t.api_extras?.[0] ?? {}) ? "recipee_id" : "recipe_id",
  );
  const tagLinks = groupBy(t.recipes_to_tags, "recipe_id");
  const catLinks = groupBy(t.recipes_to_categories, "recipe_id");
  const toolLinks = groupBy(t.recipes_to_tools, "recipe_id");
  const commentsOf = groupBy(t.recipe_comments, "recipe_id");
  const favoritesOf = groupBy(t.users_to_favorites, "recipe_id");
  const ratingsOf = groupBy(t.users_to_recipes, "recipe_id");
  // Since households (2024) each keeps its own "last made"; the recipe's is the latest of them.
  const lastMadeOf = new Map<string, string>();
  for (const x of t.households_to_recipes ?? []) {
    const made = optStr(x.last_made);
    const rid = idKey(x.recipe_id);
    if (made && made > (lastMadeOf.get(rid) ?? "")) lastMadeOf.set(rid, made);
  }
  const names = (links: Row[] | undefined, key: string, table: Map<string, Row>) =>
    (links ?? [])
      .map((l) => str(table.get(idKey(l[key]))?.name))
      .filter((n, i, all) => n && all.indexOf(n) === i);
  const imageFiles = new Map<string, string>();
  const dataPrefix = root ? `${root}/data/recipes/` : "data/recipes/";
  for (const e of archive.entries) {
    if (!e.path.startsWith(dataPrefix) || isJunk(e.path) || !imageType(e.path)) continue;
    const [id, folder, file] = e.path.slice(dataPrefix.length).split("/");
    if (folder === "images" && file && /^original\./.test(file)) imageFiles.set(idKey(id), e.path);
  }

  const groups: MigratedGroup[] = [];
  for (const g of t.groups ?? []) {
    const gid = idKey(g.id);
    const inGroup = (rows: Row[] | undefined) => (rows ?? []).filter((r) => idKey(r.group_id) === gid);
    const users: MigratedUser[] = inGroup(t.users).map((u) => ({
      sourceId: idKey(u.id),
      username: str(u.username),
      fullName: str(u.full_name) || str(u.username),
      email: str(u.email),
      admin: bool(u.admin),
      advanced: bool(u.advanced),
      canInvite: bool(u.can_invite),
      canManage: bool(u.can_manage),
      canOrganize: bool(u.can_organize),
      household: optStr(householdsById.get(idKey(u.household_id))?.name),
    }));
    const cookbooks: MigratedCookbook[] = inGroup(t.cookbooks).map((c) => {
      const cid = idKey(c.id);
      const linked = (table: string, key: string, ids: Map<string, Row>) =>
        (t[table] ?? [])
          .filter((l) => idKey(l.cookbook_id) === cid)
          .map((l) => str(ids.get(idKey(l[key]))?.name))
          .filter(Boolean);
      const base = {
        sourceId: cid,
        name: str(c.name),
        description: str(c.description),
        position: num(c.position) ?? 1,
        public: bool(c.public),
        categories: linked("cookbooks_to_categories", "category_id", catsById),
        tags: linked("cookbooks_to_tags", "tag_id", tagsById),
        tools: linked("cookbooks_to_tools", "tool_id", toolsById),
        requireAllCategories: bool(c.require_all_categories ?? true),
        requireAllTags: bool(c.require_all_tags ?? true),
        requireAllTools: bool(c.require_all_tools ?? true),
        household: optStr(householdsById.get(idKey(c.household_id))?.name),
      };
      return { ...base, queryFilterString: optStr(c.query_filter_string) ?? (cookbookFilter(base) || null) };
    });
    const recipes: MigratedRecipe[] = [];
    for (const r of inGroup(t.recipes)) {
      const rid = idKey(r.id);
      const name = str(r.name) || str(r.slug) || rid;
      try {
        const nutritionRow = nutritionOf.get(rid) ?? {};
        const nutrition: Record<string, string> = {};
        for (const [k, v] of Object.entries(nutritionRow)) {
          const key = camel(k);
          if (
            (NUTRITION_KEYS as readonly string[]).includes(key) &&
            v !== null &&
            v !== undefined &&
            v !== ""
          )
            nutrition[key] = str(v);
        }
        const s = settingsOf.get(rid);
        const positive = (v: unknown) => ((num(v) ?? 0) > 0 ? num(v) : null);
        const servings = positive(r.recipe_servings);
        const yieldQuantity = positive(r.recipe_yield_quantity);
        const recipe: CleanRecipe & Record<string, unknown> = {
          name,
          description: str(r.description),
          recipeYield: str(r.recipe_yield) || (yieldQuantity ? String(yieldQuantity) : ""),
          ...(servings ? { recipeServings: servings } : {}),
          recipeIngredient: (ingredientsOf.get(rid) ?? []).sort(byPosition).map((i) => {
            const food = foodName(i, foodsById);
            const unit = unitsById.get(idKey(i.unit_id));
            return {
              title: optStr(i.title),
              note: str(i.note),
              quantity: num(i.quantity),
              ...(food ? { food: { name: food } } : {}),
              ...(unit ? { unit: { name: str(unit.name) } } : {}),
              ...(optStr(i.original_text) ? { originalText: str(i.original_text) } : {}),
            };
          }),
          recipeInstructions: (stepsOf.get(rid) ?? [])
            .sort(byPosition)
            .map((st) => ({ title: str(st.title), text: str(st.text) })),
          totalTime: timeOf(r, "total_time"),
          prepTime: timeOf(r, "prep_time"),
          performTime: timeOf(r, "perform_time"),
          cookTime: optStr(r.cook_time),
          tags: names(tagLinks.get(rid), "tag_id", tagsById).map((n) => ({ name: n })),
          recipeCategory: names(catLinks.get(rid), "category_id", catsById).map((n) => ({ name: n })),
          tools: names(toolLinks.get(rid), "tool_id", toolsById).map((n) => ({ name: n })),
          nutrition,
          orgURL: optStr(r.org_url),
          notes: (notesOf.get(rid) ?? []).map((n) => ({ title: str(n.title), text: str(n.text) })),
          settings: s
            ? {
                public: bool(s.public),
                showNutrition: bool(s.show_nutrition),
                showAssets: bool(s.show_assets),
                landscapeView: bool(s.landscape_view),
                disableComments: bool(s.disable_comments),
                locked: bool(s.locked),
              }
            : undefined,
        };
        const added = optStr(r.date_added);
        if (added) recipe.dateAdded = added.slice(0, 10);
        const lastMade = optStr(r.last_made) ?? lastMadeOf.get(rid) ?? null;
        if (lastMade) recipe.lastMade = lastMade;
        const extras = Object.fromEntries(
          (extrasOf.get(rid) ?? []).map((x) => [str(x.key_name), str(x.value)]).filter(([k]) => k),
        );
        if (Object.keys(extras).length) recipe.extras = extras;
        const imagePath = imageFiles.get(rid);
        const ratings = new Map<string, { userSourceId: string; rating: number | null; favorite: boolean }>();
        const ownRating = num(r.rating);
        if (ownRating && r.user_id)
          ratings.set(idKey(r.user_id), {
            userSourceId: idKey(r.user_id),
            rating: ownRating,
            favorite: false,
          });
        for (const x of ratingsOf.get(rid) ?? []) {
          const u = idKey(x.user_id);
          ratings.set(u, { userSourceId: u, rating: num(x.rating), favorite: bool(x.is_favorite) });
        }
        for (const f of favoritesOf.get(rid) ?? []) {
          const u = idKey(f.user_id);
          ratings.set(u, { userSourceId: u, rating: ratings.get(u)?.rating ?? null, favorite: true });
        }
        const entry = ok(recipe, { sourceId: `recipe:${rid}` });
        recipes.push({
          sourceId: rid,
          ownerSourceId: optStr(r.user_id) ? idKey(r.user_id) : null,
          entry,
          ...(imagePath
            ? { loadPicture: async () => attachPicture(entry, await pictureAt(archive, imagePath)) }
            : {}),
          comments: (commentsOf.get(rid) ?? []).map((c) => ({
            userSourceId: idKey(c.user_id),
            text: str(c.text),
            createdAt: optStr(c.created_at),
          })),
          ratings: [...ratings.values()],
        });
      } catch (e) {
        recipes.push({
          sourceId: rid,
          ownerSourceId: null,
          entry: failed(name, e),
          comments: [],
          ratings: [],
        });
      }
    }
    groups.push({
      sourceId: gid,
      name: str(g.name),
      users,
      labels: inGroup(t.multi_purpose_labels).map((l) => ({
        sourceId: idKey(l.id),
        name: str(l.name),
        color: optStr(l.color),
      })),
      foods: inGroup(t.ingredient_foods).map((f) => ({
        sourceId: idKey(f.id),
        name: str(f.name),
        pluralName: optStr(f.plural_name),
        description: str(f.description),
        labelSourceId: optStr(f.label_id) ? idKey(f.label_id) : null,
      })),
      units: inGroup(t.ingredient_units).map((u) => ({
        sourceId: idKey(u.id),
        name: str(u.name),
        pluralName: optStr(u.plural_name),
        description: str(u.description),
        abbreviation: str(u.abbreviation),
        pluralAbbreviation: optStr(u.plural_abbreviation),
        fraction: u.fraction === undefined ? true : bool(u.fraction),
        useAbbreviation: bool(u.use_abbreviation),
      })),
      categories: inGroup(t.categories)
        .map((c) => str(c.name))
        .filter(Boolean),
      tags: inGroup(t.tags)
        .map((c) => str(c.name))
        .filter(Boolean),
      tools: inGroup(t.tools)
        .map((c) => str(c.name))
        .filter(Boolean),
      cookbooks,
      recipes,
      mealplans: inGroup(t.group_meal_plans).map((m) => ({
        sourceId: str(m.id),
        date: str(m.date).slice(0, 10),
        entryType: str(m.entry_type),
        title: str(m.title),
        text: str(m.text),
        recipeSourceId: optStr(m.recipe_id) ? idKey(m.recipe_id) : null,
        userSourceId: optStr(m.user_id) ? idKey(m.user_id) : null,
      })),
      shoppingLists: inGroup(t.shopping_lists).map((l) => {
        const lid = idKey(l.id);
        const labels = byId(t.multi_purpose_labels);
        return {
          sourceId: lid,
          name: str(l.name),
          userSourceId: optStr(l.user_id) ? idKey(l.user_id) : null,
          items: (t.shopping_list_items ?? [])
            .filter((i) => idKey(i.shopping_list_id) === lid)
            .sort(byPosition)
            .map((i) => ({
              note: str(i.note),
              quantity: num(i.quantity),
              checked: bool(i.checked),
              position: num(i.position) ?? 0,
              food: foodName(i, foodsById),
              unit: optStr(unitsById.get(idKey(i.unit_id))?.name),
              label: optStr(labels.get(idKey(i.label_id))?.name),
            })),
        };
      }),
    });
  }
  const tested = (TESTED_REVISIONS as readonly string[]).includes(revision);
  const source = tested
    ? `Mealie backup, schema revision ${revision}`
    : `Mealie backup, schema revision ${revision || "unknown"} (not one Larder was tested with: read by column name)`;
  return { source, groups };
}

/**
 * A time as text. Since 2026 Mealie keeps a time that reads as a duration in `<time>_seconds` and
 * clears its text; a time it could not read stays text.
 */
function timeOf(r: Row, field: string): string | null {
  const text = optStr(r[field]);
  if (text) return text;
  const seconds = num(r[`${field}_seconds`]);
  return seconds !== null && seconds > 0 ? prettySeconds(seconds) : null;
}

/** An ingredient's or item's food: the food row, else the copy Mealie keeps once the food is deleted. */
function foodName(row: Row, foods: Map<string, Row>): string | null {
  const food = optStr(foods.get(idKey(row.food_id))?.name);
  if (food) return food;
  let snapshot: unknown = row.food_snapshot;
  if (typeof snapshot === "string") {
    try {
      snapshot = JSON.parse(snapshot);
    } catch {
      return null;
    }
  }
  return snapshot && typeof snapshot === "object" ? optStr((snapshot as Row).name) : null;
}

function byIdOf(rows: Row[] | undefined, key: string): Map<string, Row> {
  // A one-to-one table can hold a stray second row for a recipe; the first one is the recipe's.
  const m = new Map<string, Row>();
  for (const r of rows ?? []) if (!m.has(idKey(r[key]))) m.set(idKey(r[key]), r);
  return m;
}
