/**
 * The recipe list's organizer parameters (mealie-api-notes §4.6): `categories`, `tags`, `tools`,
 * `foods`, `households` (repeat the parameter for several values; each a UUID or, except for foods, a
 * slug) and `requireAllCategories|Tags|Tools|Foods` (default false: any listed value matches).
 * The route passes the predicate to listQuery as `where`; a cookbook replaces these parameters.
 */
import { z } from "zod";
import { ValidationError } from "../errors.js";
import type { RecipeIndexEntry } from "./attributes.js";
import type { Predicate } from "./filter-eval.js";
import { parseUuid } from "./values.js";

type QueryRecord = Readonly<Record<string, string | readonly string[] | null | undefined>>;

const list = z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? v : [v]), z.array(z.string()));
// FastAPI's boolean query values.
const bool = z.preprocess(
  (v) => {
    const x = Array.isArray(v) ? v[v.length - 1] : v;
    if (typeof x !== "string") return x;
    const s = x.toLowerCase();
    return ["true", "1", "yes", "on", "t", "y"].includes(s)
      ? true
      : ["false", "0", "no", "off", "f", "n"].includes(s)
        ? false
        : x;
  },
  z.boolean({ error: "Input should be a valid boolean" }).default(false),
);

export const RecipeOrganizerParamsSchema = z.object({
  categories: list,
  tags: list,
  tools: list,
  foods: list,
  households: list,
  requireAllCategories: bool,
  requireAllTags: bool,
  requireAllTools: bool,
  requireAllFoods: bool,
});
export type RecipeOrganizerParams = z.output<typeof RecipeOrganizerParamsSchema>;

/** Read the organizer parameters from a query record (`tags` or `tags[]`). Bad booleans → 422. */
export function parseRecipeOrganizerParams(query: QueryRecord): RecipeOrganizerParams {
  const src: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query))
    src[k.replace(/\[\]$/, "").replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = v;
  const r = RecipeOrganizerParamsSchema.safeParse(src);
  if (!r.success) {
    throw new ValidationError(
      r.error.issues.map((i) => ({ loc: ["query", ...i.path.map(String)], msg: i.message, type: i.code })),
    );
  }
  return r.data;
}

type Ref = { id: string; slug?: string; name?: string };

/** A test for one requested value: by id when it is a UUID, else by slug (or name, for foods). */
function matcher(value: string, bySlug: boolean): (ref: Ref) => boolean {
  const id = parseUuid(value);
  if (id) return (ref) => ref.id.toLowerCase() === id;
  if (bySlug) return (ref) => ref.slug === value;
  // Foods have no slug; Larder accepts a name, compared case-insensitively.
  const name = value.toLowerCase();
  return (ref) => ref.name?.toLowerCase() === name;
}

function organizerTest(
  values: string[],
  requireAll: boolean,
  refs: (r: RecipeIndexEntry) => readonly Ref[],
  bySlug = true,
): Predicate<RecipeIndexEntry> | null {
  if (!values.length) return null;
  const tests = values.map((v) => matcher(v, bySlug));
  return requireAll
    ? (r) => tests.every((t) => refs(r).some(t))
    : (r) => refs(r).some((ref) => tests.some((t) => t(ref)));
}

/** The predicate for the organizer parameters; null when none is given. */
export function recipeOrganizerFilter(p: RecipeOrganizerParams): Predicate<RecipeIndexEntry> | null {
  const parts = [
    organizerTest(p.categories, p.requireAllCategories, (r) => r.recipeCategory),
    organizerTest(p.tags, p.requireAllTags, (r) => r.tags),
    organizerTest(p.tools, p.requireAllTools, (r) => r.tools),
    organizerTest(p.foods, p.requireAllFoods, (r) => r.foods, false),
    // A recipe has one household: several values always mean "any of them".
    organizerTest(p.households, false, (r) => [
      { id: r.household?.id ?? r.householdId, slug: r.household?.slug },
    ]),
  ].filter((x): x is Predicate<RecipeIndexEntry> => x !== null);
  if (!parts.length) return null;
  return (r) => parts.every((test) => test(r));
}
