/**
 * Ingredient parsing (mealie-api-notes §4.11, §13): any member of a group may parse lines against their
 * group's foods and units. The service resolves the vocabulary and the parser plugin and runs it through
 * the registry (a faulty plugin is disabled, not fatal), then presents matched foods and units in full,
 * so routes and the CLI stay thin.
 */
import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Config } from "../config.js";
import type { Logger } from "../log/logger.js";
import type { PluginRegistry } from "../plugins/registry.js";
import { LarderError, ValidationError } from "../errors.js";
import type { GroupData } from "../groups/registry.js";
import type { Parts } from "../parts.js";
import { createGuardedFetcher, type GuardedFetcher } from "../net/index.js";
import type {
  ParsedIngredientResult,
  ParsedRef,
  ParserVocabulary,
  VocabularyMatcher,
} from "../plugins/kinds.js";
import { presentFood, presentUnit } from "../presenters/vocabulary.js";
import { ingredientDisplay } from "../recipes/display.js";
import type { IngredientFood, IngredientUnit } from "../schemas/recipe.js";
import { newId } from "../util/ids.js";
import { createMatcher } from "./matcher.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "aiProviders" | "config" | "groups" | "log" | "plugins">;

/** Mealie's RegisteredParser enum. */
export const PARSER_NAMES = ["nlp", "brute", "openai"] as const;
export type ParserName = (typeof PARSER_NAMES)[number];
/** Lines per request and characters per line: generous for a recipe, bounded for the server. */
export const MAX_LINES = 1000;
export const MAX_LINE_CHARS = 10_000;

const parserField = z
  .enum(PARSER_NAMES, { error: "Input should be 'nlp', 'brute' or 'openai'" })
  .default("nlp");
const line = z.string().max(MAX_LINE_CHARS, `String should have at most ${MAX_LINE_CHARS} characters`);
export const IngredientRequest = z.object({ parser: parserField, ingredient: line }).loose();
export const IngredientsRequest = z
  .object({
    parser: parserField,
    ingredients: z.array(line).max(MAX_LINES, `List should have at most ${MAX_LINES} items`),
  })
  .loose();

type CreateUnit = Omit<IngredientUnit, "id" | "createdAt" | "updatedAt" | "groupId"> & { id: null };
type CreateFood = Omit<IngredientFood, "id" | "createdAt" | "updatedAt" | "groupId" | "label" | "onHand"> & {
  id: null;
};

/** ParsedIngredient of the contract. */
export interface ParsedIngredientOut {
  input: string | null;
  confidence: ParsedIngredientResult["confidence"];
  ingredient: {
    quantity: number | null;
    unit: IngredientUnit | CreateUnit | null;
    food: IngredientFood | CreateFood | null;
    referencedRecipe: null;
    note: string;
    display: string;
    title: null;
    originalText: string | null;
    referenceId: string;
  };
}

export class ParserService {
  #fetch: GuardedFetcher | null = null;
  /** Matchers by group, rebuilt when the foods or units document is replaced (every update replaces it). */
  #matchers = new WeakMap<
    GroupData,
    { foods: unknown; units: unknown; matcher: VocabularyMatcher; vocabulary: ParserVocabulary }
  >();

  constructor(private readonly larder: Deps) {}

  /** `POST /parser/ingredient`: one line. */
  async parseOne(actor: Actor, body: unknown): Promise<ParsedIngredientOut> {
    const req = IngredientRequest.parse(body);
    const [one] = await this.parse(actor, [req.ingredient], req.parser);
    return one;
  }

  /** `POST /parser/ingredients`: many lines, answered in order. */
  async parseMany(actor: Actor, body: unknown): Promise<ParsedIngredientOut[]> {
    const req = IngredientsRequest.parse(body);
    return this.parse(actor, req.ingredients, req.parser);
  }

  /** Parse lines with the named parser against the actor's group vocabulary. */
  async parse(
    actor: Actor,
    lines: readonly string[],
    parserName: string = "nlp",
  ): Promise<ParsedIngredientOut[]> {
    const { group, household } = this.larder.groups.scopeOf(actor);
    const { matcher, vocabulary } = this.#matcherFor(group);
    this.#fetch ??= createGuardedFetcher(this.larder.config);
    // The AI parser uses the group's AI provider when one is selected, else OPENAI_*.
    const config =
      parserName === "openai"
        ? { ...this.larder.config, openai: await this.larder.aiProviders.openaiConfigFor(actor, "default") }
        : this.larder.config;
    const results = await runParser(
      { config, log: this.larder.log, plugins: this.larder.plugins },
      this.#fetch,
      lines,
      parserName,
      vocabulary,
      matcher,
    );
    const present = this.#presenter(group, household.doc.data.slug);
    return results.map((r, i) => present(r, lines[i]));
  }

  /** The group's vocabulary as parsers see it, with its matcher (built once per vocabulary version). */
  vocabularyFor(group: GroupData): { matcher: VocabularyMatcher; vocabulary: ParserVocabulary } {
    return this.#matcherFor(group);
  }

  #matcherFor(group: GroupData): { matcher: VocabularyMatcher; vocabulary: ParserVocabulary } {
    const foods = group.foods.data,
      units = group.units.data;
    const hit = this.#matchers.get(group);
    if (hit && hit.foods === foods && hit.units === units) return hit;
    const vocabulary: ParserVocabulary = {
      foods: foods.foods.map((f) => ({
        id: f.id,
        name: f.name,
        pluralName: f.pluralName,
        aliases: f.aliases,
      })),
      units: units.units.map((u) => ({
        id: u.id,
        name: u.name,
        pluralName: u.pluralName,
        abbreviation: u.abbreviation,
        pluralAbbreviation: u.pluralAbbreviation,
        aliases: u.aliases,
      })),
    };
    const entry = { foods, units, vocabulary, matcher: createMatcher(vocabulary) };
    this.#matchers.set(group, entry);
    return entry;
  }

  #presenter(group: GroupData, householdSlug: string) {
    const groupId = group.doc.data.id;
    const foodsById = new Map(group.foods.data.foods.map((f) => [f.id, f]));
    const unitsById = new Map(group.units.data.units.map((u) => [u.id, u]));
    const labels = new Map(group.labels.data.labels.map((l) => [l.id, l]));
    const unitOf = (ref: ParsedRef | null): IngredientUnit | CreateUnit | null => {
      if (!ref || !ref.name?.trim()) return null;
      const u = ref.id ? unitsById.get(ref.id) : undefined;
      return u ? presentUnit(u, groupId) : unsavedUnit(ref.name.trim());
    };
    const foodOf = (ref: ParsedRef | null): IngredientFood | CreateFood | null => {
      if (!ref || !ref.name?.trim()) return null;
      const f = ref.id ? foodsById.get(ref.id) : undefined;
      return f
        ? presentFood(f, groupId, f.labelId ? (labels.get(f.labelId) ?? null) : null, householdSlug)
        : unsavedFood(ref.name.trim());
    };
    return (r: ParsedIngredientResult, line: string) => presentParsed(r, line, unitOf, foodOf);
  }
}

/**
 * Run a parser plugin through the registry on lines already checked for size, against a vocabulary.
 * Shared by the service and by parsing outside any group (`larder parse`).
 */
export async function runParser(
  deps: { config: Config; log: Logger; plugins: PluginRegistry },
  fetch: GuardedFetcher,
  lines: readonly string[],
  parserName: string,
  vocabulary: ParserVocabulary,
  matcher: VocabularyMatcher = createMatcher(vocabulary),
): Promise<ParsedIngredientResult[]> {
  if (lines.length > MAX_LINES)
    throw new ValidationError([
      { loc: ["body", "ingredients"], msg: `List should have at most ${MAX_LINES} items`, type: "too_long" },
    ]);
  lines.forEach((l, i) => {
    if (typeof l !== "string" || l.length > MAX_LINE_CHARS)
      throw new ValidationError([
        {
          loc: ["body", "ingredients", i],
          msg: `String should have at most ${MAX_LINE_CHARS} characters`,
          type: "string_too_long",
        },
      ]);
  });
  const plugin = deps.plugins.get("parser", parserName);
  if (!plugin) {
    if ((PARSER_NAMES as readonly string[]).includes(parserName))
      throw new LarderError(`The ${parserName} parser is not available (see larder plugins)`, 503);
    throw new ValidationError([
      { loc: ["body", "parser"], msg: "Input should be 'nlp', 'brute' or 'openai'", type: "enum" },
    ]);
  }
  if (lines.length === 0) return [];
  const results = await deps.plugins.use(plugin, (p) =>
    p.parse(lines, { config: deps.config, log: deps.log, fetch, vocabulary, match: matcher }),
  );
  if (!Array.isArray(results) || results.length !== lines.length) {
    throw new LarderError(
      `The ${parserName} parser answered ${Array.isArray(results) ? results.length : "no"} results for ${lines.length} lines`,
      500,
    );
  }
  return results;
}

/** Mealie's CreateIngredientUnit for a unit the vocabulary does not hold. */
export function unsavedUnit(name: string): CreateUnit {
  return {
    id: null,
    name,
    pluralName: null,
    description: "",
    extras: {},
    fraction: true,
    abbreviation: "",
    pluralAbbreviation: "",
    useAbbreviation: false,
    aliases: [],
    standardQuantity: null,
    standardUnit: null,
  };
}
/** Mealie's CreateIngredientFood for a food the vocabulary does not hold. */
export function unsavedFood(name: string): CreateFood {
  return {
    id: null,
    name,
    pluralName: null,
    description: "",
    extras: {},
    labelId: null,
    aliases: [],
    householdsWithIngredientFood: [],
  };
}

/** A plugin's result in the wire shape, given how to show its unit and food. */
export function presentParsed(
  r: ParsedIngredientResult,
  line: string,
  unitOf: (ref: ParsedRef | null) => IngredientUnit | CreateUnit | null,
  foodOf: (ref: ParsedRef | null) => IngredientFood | CreateFood | null,
): ParsedIngredientOut {
  const unit = unitOf(r.ingredient.unit);
  const food = foodOf(r.ingredient.food);
  const quantity =
    typeof r.ingredient.quantity === "number" && Number.isFinite(r.ingredient.quantity)
      ? r.ingredient.quantity
      : 0;
  const max = r.ingredient.quantityMax ?? null;
  const note = typeof r.ingredient.note === "string" ? r.ingredient.note : "";
  return {
    input: typeof r.input === "string" ? r.input : line,
    confidence: r.confidence,
    ingredient: {
      quantity,
      unit,
      food,
      referencedRecipe: null,
      note,
      display: ingredientDisplay(
        { quantity, quantityMax: max !== null && max > quantity ? max : null, unit, food, note },
        false,
      ),
      title: null,
      originalText: r.ingredient.originalText ?? null,
      referenceId: newId(),
    },
  };
}
