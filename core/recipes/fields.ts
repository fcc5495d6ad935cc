/**
 * The recipe's front-matter fields, declared once (issue 12). From this table come: the order a file
 * writes its keys in and how each is read (file/metadata.ts), the RecipeDoc's metadata type and its
 * defaults (doc.ts), the plain fields of the wire RecipeSummary and of the recipe input (schemas/recipe.ts),
 * the fields copied between file and wire (wire.ts), what a PUT resets (recipes-service.ts), and how
 * `queryFilter`/`orderBy` read each field (query/attributes.ts). Adding a field is a line here; the
 * compiler then points at the index entry (recipes/recipe-list.ts) — decision 0143 lists the rest.
 *
 * The body (description, ingredients, instructions, notes) is the Markdown under the front matter,
 * not a field here.
 */

/** How a field is held in the file and the doc. */
export type FieldKind =
  /** Text, or null when the file has none (`prepTime: 20 minutes`). */
  | "text"
  /** The recipe's name: text, "" when missing (identity rules give it one). */
  | "name"
  /** A number, 0 when missing and never written as 0 (`recipeServings: 4`). */
  | "count"
  /** Organizer names, flow style when short (`tags: [Indian, Spicy]`). */
  | "names"
  /** The structured keys, each read and written by its own code in file/metadata.ts. */
  | "nutrition"
  | "settings"
  | "extras"
  | "assets";

export interface FieldSpec {
  kind: FieldKind;
  /** The RecipeSummary field carrying it, when it is copied between file and wire unchanged. */
  wire?: string;
  /** How `queryFilter` and `orderBy` read that wire field. */
  filter?: "string" | "number" | "date" | "datetime";
  /** Recipe content: a PUT (which replaces the recipe) resets it to its default. */
  content?: true;
}

/** In file order. Keys are the front-matter keys and the RecipeDoc fields. */
export const RECIPE_FIELDS = {
  id: { kind: "text" },
  name: { kind: "name", wire: "name", filter: "string" },
  owner: { kind: "text" },
  recipeServings: { kind: "count", wire: "recipeServings", filter: "number", content: true },
  recipeYieldQuantity: { kind: "count", wire: "recipeYieldQuantity", filter: "number", content: true },
  recipeYield: { kind: "text", wire: "recipeYield", filter: "string", content: true },
  prepTime: { kind: "text", wire: "prepTime", filter: "string", content: true },
  cookTime: { kind: "text", wire: "cookTime", filter: "string", content: true },
  performTime: { kind: "text", wire: "performTime", filter: "string", content: true },
  totalTime: { kind: "text", wire: "totalTime", filter: "string", content: true },
  categories: { kind: "names", content: true },
  tags: { kind: "names", content: true },
  tools: { kind: "names", content: true },
  orgURL: { kind: "text", wire: "orgURL", filter: "string", content: true },
  nutrition: { kind: "nutrition", content: true },
  settings: { kind: "settings" },
  extras: { kind: "extras", content: true },
  assets: { kind: "assets" },
  image: { kind: "text", wire: "image", filter: "string" },
  dateAdded: { kind: "text" },
  dateUpdated: { kind: "text", wire: "dateUpdated", filter: "datetime" },
  lastMade: { kind: "text", wire: "lastMade", filter: "datetime" },
} as const satisfies Record<string, FieldSpec>;

export type RecipeFieldKey = keyof typeof RECIPE_FIELDS;
type Spec<K extends RecipeFieldKey> = (typeof RECIPE_FIELDS)[K];

/** The value a field of each simple kind holds (the structured kinds are typed in doc.ts). */
export interface SimpleKindValue {
  text: string | null;
  name: string;
  count: number;
}

/** The fields copied between file and wire unchanged, by their front-matter key. */
export type CopiedKey = {
  [K in RecipeFieldKey]: Spec<K> extends { wire: string } ? K : never;
}[RecipeFieldKey];

/** The wire fields they become, with their values: the plain part of RecipeSummary. */
export type CopiedWireFields = {
  -readonly [K in CopiedKey as Spec<K>["wire"]]: SimpleKindValue[Spec<K>["kind"] & keyof SimpleKindValue];
};

export const RECIPE_FIELD_KEYS = Object.keys(RECIPE_FIELDS) as RecipeFieldKey[];

const entries = Object.entries(RECIPE_FIELDS) as [RecipeFieldKey, FieldSpec][];

/** Every copied field, in file order: its front-matter key, wire field, kind, and whether it is content. */
export const COPIED_FIELDS = entries
  .filter(([, s]) => s.wire !== undefined)
  .map(([key, s]) => ({
    key: key as CopiedKey,
    wire: s.wire as keyof CopiedWireFields,
    kind: s.kind,
    content: s.content === true,
  }));

/** The wire fields `queryFilter` and `orderBy` read, with the type they read them as. */
export const FILTERED_FIELDS = entries
  .filter(([, s]) => s.wire !== undefined && s.filter !== undefined)
  .map(([, s]) => ({
    wire: s.wire as keyof CopiedWireFields,
    filter: s.filter as NonNullable<FieldSpec["filter"]>,
  }));

/** The default of a simple kind: what a missing key reads as. */
export function defaultOf(kind: "text" | "name" | "count"): string | number | null {
  return kind === "count" ? 0 : kind === "name" ? "" : null;
}

/** The copied content fields at their defaults, by wire name: what a PUT starts from. */
export function contentDefaults(): Partial<CopiedWireFields> {
  const out: Record<string, unknown> = {};
  for (const [, s] of entries)
    if (s.content && s.wire !== undefined && s.kind !== "name")
      out[s.wire] = defaultOf(s.kind as "text" | "count");
  return out as Partial<CopiedWireFields>;
}
