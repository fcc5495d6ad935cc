/** Builds the WireContext (core/recipes/wire.ts) of one recipe from the group's documents. */
import { createHash } from "node:crypto";
import type { Parts } from "../parts.js";
import type { GroupData } from "../groups/registry.js";
import type { WireContext } from "./wire.js";
import type { RecipeEntry } from "./store/index.js";
import type { OrganizerKind } from "../schemas/records.js";
import type { IngredientFood, IngredientUnit, RecipeSummary } from "../schemas/recipe.js";
import { presentFood, presentOrganizer, presentTool, presentUnit } from "../presenters/vocabulary.js";
import { organizerId } from "../organizers/organizers-service.js";
import { vocabularyOf } from "../foods/vocabulary-service.js";
import { slugify } from "../util/slug.js";
import { utcTimestamp } from "../schemas/timestamp.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "comments" | "ratings" | "recipes" | "users">;

type OrganizerRef = {
  id: string;
  groupId: string;
  name: string;
  slug: string;
  householdsWithTool?: string[];
};

/** Per-group lookups, rebuilt when the group's foods or units document changes. */
export class GroupLookups {
  private cacheKey: unknown[] = [];
  private vocabularyHash = "";
  private units = new Map<string, IngredientUnit>();
  private unitsById = new Map<string, IngredientUnit>();
  private foods = new Map<string, IngredientFood>();
  private foodsById = new Map<string, IngredientFood>();
  vocabulary: ReturnType<typeof vocabularyOf>;
  /** Organizer refs by kind and name, for the organizers document they were made from. */
  /** Refs by kind, then name (a map per kind: no key string made per lookup). */
  private organizerRefs: Record<OrganizerKind, Map<string, OrganizerRef>> = {
    categories: new Map(),
    tags: new Map(),
    tools: new Map(),
  };
  private organizersKey: unknown = null;

  constructor(private g: GroupData) {
    this.vocabulary = vocabularyOf(g);
    this.refresh();
  }

  /** Rebuild only when a document object changed (JsonDoc replaces `data` on reload and update). */
  refresh(): void {
    const key = [this.g.units.data, this.g.foods.data, this.g.labels.data];
    if (key.every((k, i) => k === this.cacheKey[i])) return;
    this.cacheKey = key;
    const groupId = this.g.doc.data.id;
    const labels = new Map(this.g.labels.data.labels.map((l) => [l.id, l]));
    this.units.clear();
    this.unitsById.clear();
    this.foods.clear();
    this.foodsById.clear();
    for (const u of this.g.units.data.units) {
      const p = presentUnit(u, groupId);
      this.units.set(u.name.toLowerCase(), p);
      this.unitsById.set(u.id, p);
    }
    for (const f of this.g.foods.data.foods) {
      const p = presentFood(f, groupId, f.labelId ? (labels.get(f.labelId) ?? null) : null, null);
      this.foods.set(f.name.toLowerCase(), p);
      this.foodsById.set(f.id, p);
    }
    this.vocabulary = vocabularyOf(this.g);
    // A hash of what the ingredient-line reader uses, not a counter: the index cache on disk compares
    // it across restarts, and an edit that changes no name, plural or alias needs no re-read.
    this.vocabularyHash = createHash("sha256")
      .update(JSON.stringify(this.vocabulary))
      .digest("hex")
      .slice(0, 16);
  }

  unitByName = (n: string) => this.units.get(n.toLowerCase()) ?? null;
  unitById = (id: string) => this.unitsById.get(id) ?? null;
  foodByName = (n: string) => this.foods.get(n.toLowerCase()) ?? null;
  foodById = (id: string) => this.foodsById.get(id) ?? null;

  /**
   * The wire ref of an organizer named by a recipe: the stored one, else one with a name-based id.
   * Memoised per organizers document: a summary names several, and deriving an id is a sha256, which
   * over thousands of recipes was a fifth of building the recipe list (docs/decisions/0007). One
   * frozen ref per organizer, shared by every summary naming it: a copy per recipe was about 220,000
   * objects at 50,000 recipes that each full collection marked (decision 0186).
   */
  organizer(kind: OrganizerKind, name: string): OrganizerRef {
    const organizers = this.g.organizers.data;
    if (this.organizersKey !== organizers) {
      this.organizersKey = organizers;
      for (const refs of Object.values(this.organizerRefs)) refs.clear();
    }
    const refs = this.organizerRefs[kind];
    let ref = refs.get(name);
    if (!ref) {
      const groupId = this.g.doc.data.id;
      const slug = slugify(name);
      const found = organizers[kind].find((o) => o.slug === slug);
      if (kind === "tools") {
        const tool = found
          ? presentTool({ householdsWithTool: [], ...found }, groupId)
          : { id: organizerId(groupId, kind, name), groupId, name, slug, householdsWithTool: [] };
        Object.freeze(tool.householdsWithTool);
        ref = tool;
      } else {
        ref = found
          ? presentOrganizer(found, groupId)
          : { id: organizerId(groupId, kind, name), groupId, name, slug };
      }
      refs.set(name, Object.freeze(ref));
    }
    return ref;
  }

  /** Changes whenever the group's units or foods change as the reader sees them: ingredient lines are read again then. */
  version(): string {
    this.refresh();
    return this.vocabularyHash;
  }
}

export function buildWireContext(
  larder: Deps,
  g: GroupData,
  lookups: GroupLookups,
  entry: RecipeEntry,
  subRecipe?: WireContext["subRecipeBySlug"],
): WireContext {
  const groupId = g.doc.data.id;
  const organizers = g.organizers.data;
  const doc = entry.doc;
  const createdAt = normaliseTimestamp(doc.dateAdded) ?? entry.seenAt ?? new Date(0).toISOString();
  const stamped = normaliseTimestamp(doc.dateUpdated);
  // After a hand edit the index's own timestamp is later than the front matter's (ARCHITECTURE §8).
  const seen = entry.seenAt ?? null;
  // The later of the two (both are UTC stamps, so the later sorts last).
  const updatedAt = (stamped && seen ? (seen > stamped ? seen : stamped) : stamped || seen) || createdAt;
  return {
    groupId,
    recipeId: entry.id,
    slug: entry.slug,
    householdIdOf: (userId: string) => {
      // An owner who moved to another group keeps no household here: the recipe stays in its group's
      // first household rather than name one of another group.
      const owner = larder.users.byId(userId);
      if (owner && owner.groupId === groupId) return owner.householdId;
      return [...g.households.values()][0]?.doc.data.id ?? groupId;
    },
    unitByName: lookups.unitByName,
    unitById: lookups.unitById,
    foodByName: lookups.foodByName,
    foodById: lookups.foodById,
    organizer: (kind: OrganizerKind, name: string) => lookups.organizer(kind, name),
    organizerById: (kind: OrganizerKind, id: string) => {
      const found = organizers[kind].find((o) => o.id === id);
      return found ? presentOrganizer(found, groupId) : null;
    },
    recipeSummaryBySlug: (slug: string): RecipeSummary | null => {
      const e = larder.recipes.store.get(g.slug, slug);
      return e && e.id !== entry.id ? larder.recipes.summaryOf(e) : null;
    },
    subRecipeBySlug: subRecipe,
    recipeSlugById: (id: string) => {
      const e = larder.recipes.store.getById(id);
      return e && e.groupSlug === g.slug ? e.slug : null;
    },
    // Derived, read-only: the average of the group's user ratings above 0 (mealie-api-notes §4.3).
    rating: larder.ratings?.averageOf(g.slug, entry.id) ?? null,
    commentsOf: () => larder.comments?.forRecipe(g.slug, entry.id) ?? [],
    createdAt,
    updatedAt,
    vocabulary: lookups.vocabulary,
  };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Where a canonical stamp (`YYYY-MM-DDTHH:MM:SSZ`) has its separators; digits everywhere else. */
const STAMP_SEPARATORS: Record<number, number> = { 4: 45, 7: 45, 10: 84, 13: 58, 16: 58, 19: 90 };

/** The number written by the two digits at `at` (both already checked to be digits). */
function twoDigits(v: string, at: number): number {
  return (v.charCodeAt(at) - 48) * 10 + v.charCodeAt(at + 1) - 48;
}

/** Whether `v` has the canonical stamp's shape: only its separators and digits, 20 characters. */
function stampShaped(v: string): boolean {
  if (v.length !== 20) return false;
  for (let i = 0; i < 20; i++) {
    const c = v.charCodeAt(i);
    const sep = STAMP_SEPARATORS[i];
    if (sep !== undefined ? c !== sep : c < 48 || c > 57) return false;
  }
  return true;
}

/** Front matter may hold a bare date or a timestamp; the wire wants full UTC timestamps. */
export function normaliseTimestamp(v: string | null | undefined): string | null {
  if (!v) return null;
  if (v.length === 10 && /^\d{4}-\d{2}-\d{2}$/.test(v)) return `${v}T00:00:00Z`;
  // What Larder writes is already in the wire's form: returned as is when every part is in range (the
  // Date round trip below would roll 30 February over). Two per summary, and read by characters: Date
  // parsing, then a regular expression's match arrays, were a quarter of building the recipe list at
  // 10,000 recipes (docs/decisions/0007).
  if (stampShaped(v)) {
    const y = twoDigits(v, 0) * 100 + twoDigits(v, 2);
    const mo = twoDigits(v, 5);
    const d = twoDigits(v, 8);
    const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 1 : 0;
    if (
      mo >= 1 &&
      mo <= 12 &&
      d >= 1 &&
      d <= DAYS_IN_MONTH[mo - 1] + leap &&
      twoDigits(v, 11) <= 23 &&
      twoDigits(v, 14) <= 59 &&
      twoDigits(v, 17) <= 59
    )
      return v;
  }
  // ISO forms as a client's are read (no offset is UTC); anything else as Date reads it.
  const iso = utcTimestamp(v);
  if (iso !== null) return iso;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace(".000Z", "Z");
}
