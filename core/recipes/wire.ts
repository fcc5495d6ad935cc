/**
 * Mapping between a RecipeDoc (what the file holds) and the wire Recipe (what the API sends), given the
 * group's vocabulary, organizers and recipes. Derived fields are stable: an ingredient's `referenceId`
 * and a step's `id` are hashes of (recipe id, kind, position), and `display` is computed.
 *
 * recipeToDoc applies the API's normalisation (see normaliseLine/normaliseBlock in file/text.ts and
 * docs/recipe-format.md, "What the API normalises"), so that everything it accepts reads back from the
 * file unchanged.
 */
import {
  NUTRITION_KEYS,
  RECIPE_SETTINGS_DEFAULTS,
  type IngredientFood,
  type IngredientUnit,
  type Nutrition,
  type NutritionKey,
  type Recipe,
  type RecipeAsset,
  type RecipeIngredient,
  type RecipeInput,
  type RecipeNote,
  type RecipeOrganizerRef,
  type RecipeSettings,
  type RecipeStep,
  type RecipeSummary,
  type RecipeToolRef,
} from "../schemas/recipe.js";
import type { OrganizerKind } from "../schemas/records.js";
import { derivedId } from "../util/ids.js";
import type { DocIngredient, DocStep, RecipeDoc, Vocabulary } from "./doc.js";
import { COPIED_FIELDS, type CopiedKey } from "./fields.js";
import { ingredientDisplay } from "./display.js";
import { incomingOriginalText, wireOriginalText } from "./original-text.js";
import { normaliseBlock, normaliseLine } from "./file/text.js";
import { roundQuantity } from "./quantity.js";
import { normaliseTimestamp } from "./wire-context.js";
import { emptyList } from "../util/shared-empties.js";

export interface WireContext {
  groupId: string;
  /** The recipe's id (already assigned). */
  recipeId: string;
  slug: string;
  householdIdOf(userId: string): string;
  /** Canonical-name lookups (any case). */
  unitByName(name: string): IngredientUnit | null;
  unitById(id: string): IngredientUnit | null;
  foodByName(name: string): IngredientFood | null;
  foodById(id: string): IngredientFood | null;
  /**
   * Pure: the existing organizer of that name, or a name-derived one, in the wire's shape (a tool's
   * with `householdsWithTool`). Shared and frozen: summaries hold it as it is.
   */
  organizer(kind: OrganizerKind, name: string): RecipeOrganizerRef | RecipeToolRef;
  organizerById(kind: OrganizerKind, id: string): RecipeOrganizerRef | null;
  /** For ingredient `referencedRecipe`. */
  recipeSummaryBySlug(slug: string): RecipeSummary | null;
  /** The sub-recipe an ingredient names, whole (a full Recipe) where the reader may see it so. */
  subRecipeBySlug?(slug: string): RecipeSummary | null;
  recipeSlugById(id: string): string | null;
  rating: number | null;
  /** The recipe's comments (derived from the activity log); only the full Recipe carries them. */
  commentsOf?: () => unknown[];
  /** Timestamps the store knows. */
  createdAt: string;
  updatedAt: string;
  vocabulary: Vocabulary;
}

/** Anything shaped like a recipe payload: the parsed RecipeInput, a wire Recipe, or a merge of both. */
export type RecipeLike = RecipeInput | Recipe | Readonly<Record<string, unknown>>;

const ingredientRefId = (recipeId: string, position: number): string =>
  derivedId(recipeId, "ingredient", String(position));
const stepId = (recipeId: string, position: number): string => derivedId(recipeId, "step", String(position));

/** The wire `dateAdded` is a date: the date part of the file's timestamp. */
function datePart(v: string | null): string | null {
  if (v === null) return null;
  const m = /^\d{4}-\d{2}-\d{2}/.exec(v);
  return m ? m[0] : v;
}

/** `unit food, note` for unit and food names the group does not know. */
function withUnknownNames(note: string, names: (string | null)[]): string {
  const known = names.filter((n): n is string => n !== null && n !== "");
  return known.length ? [known.join(" "), note].filter(Boolean).join(", ") : note;
}

// ---- doc → wire ----

/** Up to this many refs, a repeat is found by a look along the ones kept (no Set per summary). */
const FEW_ORGANIZERS = 16;

/** Refs gathered here, then copied into a list of their exact length (decision 0207). */
const gathered: RecipeOrganizerRef[] = [];

function organizers<T extends RecipeOrganizerRef>(names: readonly string[], ref: (name: string) => T): T[] {
  // None: one frozen list, as the refs themselves are (decision 0186).
  if (names.length === 0) return emptyList();
  // A list grown by push keeps room for 17 refs after its first: 152 bytes per list kept in every
  // list entry, where most hold one to three.
  gathered.length = 0;
  let seen: Set<string> | null = null;
  next: for (const name of names) {
    const r = ref(name);
    if (seen) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
    } else {
      for (let i = 0; i < gathered.length; i++) if (gathered[i].id === r.id) continue next;
      if (gathered.length === FEW_ORGANIZERS) seen = new Set(gathered.map((o) => o.id)).add(r.id);
    }
    gathered.push(r);
  }
  const out = gathered.slice() as T[];
  gathered.length = 0;
  return out;
}

function toolRef(ctx: WireContext, name: string): RecipeToolRef {
  const r = ctx.organizer("tools", name);
  return "householdsWithTool" in r ? r : { ...r, householdsWithTool: [] };
}

function organizerRef(ctx: WireContext, kind: "categories" | "tags", name: string): RecipeOrganizerRef {
  return ctx.organizer(kind, name);
}

/**
 * The wire RecipeSummary of a doc. One literal in the wire's key order (a list request reads these): the
 * compiler asks for every field declared in core/recipes/fields.ts, since RecipeSummary is typed from it.
 */
export function docToSummary(doc: RecipeDoc, ctx: WireContext): RecipeSummary {
  const userId = doc.owner ?? "";
  return {
    id: ctx.recipeId,
    userId,
    householdId: ctx.householdIdOf(userId),
    groupId: ctx.groupId,
    name: doc.name,
    slug: ctx.slug,
    image: doc.image,
    recipeServings: doc.recipeServings,
    recipeYieldQuantity: doc.recipeYieldQuantity,
    recipeYield: doc.recipeYield,
    totalTime: doc.totalTime,
    prepTime: doc.prepTime,
    cookTime: doc.cookTime,
    performTime: doc.performTime,
    description: doc.description,
    recipeCategory: organizers(doc.categories, (n) => organizerRef(ctx, "categories", n)),
    tags: organizers(doc.tags, (n) => organizerRef(ctx, "tags", n)),
    tools: organizers(doc.tools, (n) => toolRef(ctx, n)),
    rating: ctx.rating,
    orgURL: doc.orgURL,
    dateAdded: datePart(doc.dateAdded),
    dateUpdated: doc.dateUpdated,
    createdAt: ctx.createdAt,
    updatedAt: ctx.updatedAt,
    // A hand-written file may hold a bare date; the wire's lastMade is a UTC date-time.
    lastMade: normaliseTimestamp(doc.lastMade),
  };
}

function wireIngredient(
  ing: DocIngredient,
  position: number,
  ctx: WireContext,
  disableAmount: boolean,
): RecipeIngredient {
  const unit = ing.unit === null ? null : ctx.unitByName(ing.unit);
  const food = ing.food === null ? null : ctx.foodByName(ing.food);
  // A name the group does not know (a stale vocabulary) stays readable in the note rather than vanishing.
  const note = withUnknownNames(ing.note, [!unit ? ing.unit : null, !food ? ing.food : null]);
  const referencedRecipe =
    ing.referencedRecipe === null
      ? null
      : (ctx.subRecipeBySlug ?? ctx.recipeSummaryBySlug)(ing.referencedRecipe);
  // The line the ingredient was read from (decision 0150); a range rides in it, as the wire has no upper bound.
  const originalText = wireOriginalText(ing, ctx.vocabulary);
  return {
    quantity: ing.quantity,
    unit,
    food,
    referencedRecipe,
    note,
    display: ingredientDisplay(
      {
        quantity: ing.quantity,
        quantityMax: ing.quantityMax,
        unit,
        food,
        note,
        recipeName: referencedRecipe?.name ?? null,
      },
      disableAmount,
    ),
    title: ing.title,
    originalText,
    referenceId: ingredientRefId(ctx.recipeId, position),
    isFood: !disableAmount,
    disableAmount,
  };
}

function wireStep(step: DocStep, position: number, ctx: WireContext, ingredientCount: number): RecipeStep {
  return {
    id: stepId(ctx.recipeId, position),
    title: step.title,
    summary: step.summary,
    text: step.text,
    ingredientReferences: step.ingredientRefs
      .filter((p) => p >= 0 && p < ingredientCount)
      .map((p) => ({ referenceId: ingredientRefId(ctx.recipeId, p) })),
  };
}

/** The wire Recipe of a doc. */
export function docToRecipe(doc: RecipeDoc, ctx: WireContext): Recipe {
  const settings: RecipeSettings = { ...RECIPE_SETTINGS_DEFAULTS, ...doc.settings };
  const nutrition = Object.fromEntries(NUTRITION_KEYS.map((k) => [k, doc.nutrition[k] ?? null])) as Nutrition;
  return {
    ...docToSummary(doc, ctx),
    recipeIngredient: doc.ingredients.map((ing, i) => wireIngredient(ing, i, ctx, settings.disableAmount)),
    recipeInstructions: doc.instructions.map((s, i) => wireStep(s, i, ctx, doc.ingredients.length)),
    nutrition,
    settings,
    assets: doc.assets.map((a) => ({ ...a })),
    notes: doc.notes.map((n) => ({ ...n })),
    extras: Object.fromEntries(Object.entries(doc.extras)),
    comments: ctx.commentsOf?.() ?? [],
  };
}

// ---- wire → doc ----

type Loose = Readonly<Record<string, unknown>>;
const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
function text(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}
/** Optional text: "" (what clients send for a cleared field) is the same as none. */
const optText = (v: unknown): string | null => text(v) || null;
function finite(v: unknown): number | null {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/** The fields the file and the wire share unchanged (core/recipes/fields.ts), read from a payload. */
function copiedFromWire(r: Loose): Pick<RecipeDoc, CopiedKey> {
  const out: Record<string, unknown> = {};
  for (const f of COPIED_FIELDS) {
    const v = r[f.wire];
    // A cleared text field ("") is none; a count that is not a number is 0.
    out[f.key] = f.kind === "name" ? (text(v) ?? "") : f.kind === "count" ? finite(v) || 0 : optText(v);
  }
  return out as Pick<RecipeDoc, CopiedKey>;
}

function organizerNames(kind: OrganizerKind, v: unknown, ctx: WireContext): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const o of asList(v)) {
    let name: string | null = null;
    if (typeof o === "string") name = o;
    else if (isObject(o)) {
      // An id the group knows wins: renaming an organizer is the organizers service's job.
      const id = text(o.id);
      name = (id ? ctx.organizerById(kind, id)?.name : null) ?? text(o.name);
    }
    if (!name || seen.has(name)) continue;
    seen.add(name);
    out.push(name);
  }
  return out;
}

function vocabName<T extends { name: string }>(
  v: unknown,
  byId: (id: string) => T | null,
  byName: (name: string) => T | null,
): { known: string | null; unknown: string | null } {
  const ref = typeof v === "string" ? { name: v } : isObject(v) ? v : null;
  if (!ref) return { known: null, unknown: null };
  const id = text(ref.id);
  const name = text(ref.name);
  const found = (id ? byId(id) : null) ?? (name ? byName(name) : null);
  if (found) return { known: found.name, unknown: null };
  return { known: null, unknown: name ? normaliseLine(name) || null : null };
}

function docIngredient(raw: unknown, ctx: WireContext, previous?: DocIngredient): DocIngredient {
  const r: Loose = typeof raw === "string" ? { note: raw } : isObject(raw) ? raw : {};
  const q = finite(r.quantity);
  const quantity = q === null || roundQuantity(q) <= 0 ? null : roundQuantity(q);
  const unit = vocabName(r.unit, ctx.unitById, ctx.unitByName);
  const food = vocabName(r.food, ctx.foodById, ctx.foodByName);
  // Should not happen (the service creates foods and units first); kept readable in the note if it does.
  const note = withUnknownNames(normaliseLine(text(r.note) ?? ""), [unit.unknown, food.unknown]);

  let referencedRecipe: string | null = null;
  if (isObject(r.referencedRecipe)) {
    const id = text(r.referencedRecipe.id);
    const slug = text(r.referencedRecipe.slug);
    referencedRecipe =
      (id ? ctx.recipeSlugById(id) : null) ?? (slug && ctx.recipeSummaryBySlug(slug) ? slug : null);
  }
  const ing: DocIngredient = {
    title: normaliseLine(text(r.title) ?? "") || null,
    quantity,
    quantityMax: null,
    unit: unit.known,
    food: food.known,
    note,
    originalText: normaliseLine(text(r.originalText) ?? "") || null,
    referencedRecipe,
    referencedRecipeName:
      referencedRecipe === null ? null : (ctx.recipeSummaryBySlug(referencedRecipe)?.name ?? null),
  };
  return incomingOriginalText(ing, previous, ctx.vocabulary);
}

function docStep(raw: unknown, refPositions: Map<string, number>): DocStep {
  const r: Loose = typeof raw === "string" ? { text: raw } : isObject(raw) ? raw : {};
  const ingredientRefs: number[] = [];
  for (const ref of asList(r.ingredientReferences)) {
    const id = isObject(ref) ? text(ref.referenceId) : null;
    const p = id === null ? undefined : refPositions.get(id);
    if (p !== undefined) ingredientRefs.push(p);
  }
  return {
    title: normaliseLine(text(r.title) ?? "") || null,
    summary: normaliseLine(text(r.summary) ?? "") || null,
    text: normaliseBlock(text(r.text) ?? ""),
    ingredientRefs,
  };
}

/**
 * The doc for a recipe payload (a full or merged wire recipe). Foods and units may be given by id or by
 * name, organizers by id, name or as plain strings. Step ingredient references are resolved against the
 * incoming ingredients' referenceIds, so that a reorder through the API keeps them right. `previous`, the
 * stored recipe an update replaces, tells an originalText sent back as served from a new one.
 */
export function recipeToDoc(recipe: RecipeLike, ctx: WireContext, previous?: RecipeDoc): RecipeDoc {
  const r = recipe as Loose;
  const ingredientsIn = asList(r.recipeIngredient);
  const refPositions = new Map<string, number>();
  ingredientsIn.forEach((ing, i) => {
    const id = isObject(ing) ? text(ing.referenceId) : null;
    if (id !== null && !refPositions.has(id)) refPositions.set(id, i);
  });
  const before = new Map(previous?.ingredients.map((ing, p) => [ingredientRefId(ctx.recipeId, p), ing]));
  const previousOf = (raw: unknown): DocIngredient | undefined => {
    const id = isObject(raw) ? text(raw.referenceId) : null;
    return id === null ? undefined : before.get(id);
  };

  const nutrition: Partial<Record<NutritionKey, string>> = {};
  const nutritionIn = isObject(r.nutrition) ? r.nutrition : {};
  for (const k of NUTRITION_KEYS) {
    const v = text(nutritionIn[k]);
    if (v) nutrition[k] = v;
  }
  const settings: Partial<RecipeSettings> = {};
  const settingsIn = isObject(r.settings) ? r.settings : {};
  for (const k of Object.keys(RECIPE_SETTINGS_DEFAULTS) as (keyof RecipeSettings)[]) {
    const v = settingsIn[k];
    if (typeof v === "boolean" && v !== RECIPE_SETTINGS_DEFAULTS[k]) settings[k] = v;
  }
  const extras = Object.fromEntries(
    Object.entries(isObject(r.extras) ? r.extras : {})
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [
        k,
        typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v),
      ]),
  );
  const assets: RecipeAsset[] = asList(r.assets)
    .filter(isObject)
    .filter((a) => typeof a.name === "string" && typeof a.icon === "string")
    .map((a) => ({ name: String(a.name), icon: String(a.icon), fileName: text(a.fileName) }));
  const notes: RecipeNote[] = asList(r.notes)
    .filter(isObject)
    .map((n) => ({ title: normaliseLine(text(n.title) ?? ""), text: normaliseBlock(text(n.text) ?? "") }));

  // The wire's dateAdded is only a date; keep the store's full timestamp when the date is unchanged.
  let dateAdded = optText(r.dateAdded);
  if (
    dateAdded !== null &&
    /^\d{4}-\d{2}-\d{2}$/.test(dateAdded) &&
    ctx.createdAt.startsWith(`${dateAdded}T`)
  ) {
    dateAdded = ctx.createdAt;
  }

  return {
    ...copiedFromWire(r),
    id: ctx.recipeId,
    owner: optText(r.userId),
    description: normaliseBlock(text(r.description) ?? ""),
    categories: organizerNames("categories", r.recipeCategory, ctx),
    tags: organizerNames("tags", r.tags, ctx),
    tools: organizerNames("tools", r.tools, ctx),
    nutrition,
    settings,
    extras,
    dateAdded,
    assets,
    ingredients: ingredientsIn.map((ing) => docIngredient(ing, ctx, previousOf(ing))),
    instructions: asList(r.recipeInstructions).map((s) => docStep(s, refPositions)),
    notes,
  };
}
