/**
 * What each kind of plugin implements. Core defines these; `plugins/<kind>/<name>/` implements them
 * (ARCHITECTURE §6). Each kind's contract is small on purpose: a plugin receives plain data and a
 * context, never the Larder instance, so it cannot reach around core's scoping.
 */
import type { Config } from "../config.js";
import type { Logger } from "../log/logger.js";
import type { GuardedFetcher } from "../net/index.js";

/** What every plugin is handed when it is used. */
export interface PluginContext {
  config: Config;
  log: Logger;
  /** The guarded fetcher: the only way a plugin may reach the network. */
  fetch: GuardedFetcher;
  signal?: AbortSignal;
}

export interface PluginBase<K extends PluginKind> {
  kind: K;
  /** Unique within its kind: `nlp`, `schema-org`, `paprika`, `ntfy`. */
  name: string;
  description?: string;
  version?: string;
}

/**
 * Ingredient parser (issue 16): turns lines such as "2 cups flour, sifted" into Mealie's
 * ParsedIngredient. Core resolves the group's vocabulary and presents matched foods and units in full;
 * the plugin returns plain text fields, matched ones carrying the vocabulary entry's id.
 */
export interface ParserPlugin extends PluginBase<"parser"> {
  /** One result per line, in order. A line the parser cannot read still gets a result (text in `note`). */
  parse(lines: readonly string[], ctx: PluginContext & ParserContext): Promise<ParsedIngredientResult[]>;
}
export interface ParserContext {
  /** The group's foods and units, for matching names, plurals, abbreviations and aliases. */
  vocabulary: ParserVocabulary;
  /** Mealie's matching rules over `vocabulary`, built once per vocabulary by core. */
  match: VocabularyMatcher;
}
export interface ParserVocabulary {
  foods: ReadonlyArray<ParserFood>;
  units: ReadonlyArray<ParserUnit>;
}
export interface ParserFood {
  id: string;
  name: string;
  pluralName?: string | null;
  aliases?: ReadonlyArray<{ name: string }>;
}
export interface ParserUnit {
  id: string;
  name: string;
  pluralName?: string | null;
  abbreviation?: string | null;
  pluralAbbreviation?: string | null;
  aliases?: ReadonlyArray<{ name: string }>;
}
export interface VocabularyMatcher {
  /** Exact key (name, plural, alias; normalised), else the best fuzzy match at ratio ≥ 85, else null. */
  food(text: string): ParserFood | null;
  /** As `food`, with abbreviations too, at ratio ≥ 70. */
  unit(text: string): ParserUnit | null;
  /** Only an exact key: a parser's own guesses ("the last word is the unit") need more than a likeness. */
  exactFood(text: string): ParserFood | null;
  exactUnit(text: string): ParserUnit | null;
  /**
   * Both at once, with Mealie's repair of a food split into unit and food: when the unit text matches
   * no unit but "<unit> <food>" matches a food, that food is taken and the unit dropped.
   */
  ingredient(unit: string | null, food: string | null): { unit: ParsedRef | null; food: ParsedRef | null };
}
/** A food or unit in a result: `id` when it matched the vocabulary, the parsed text otherwise. */
export interface ParsedRef {
  id?: string;
  name: string;
}
/** Mealie's ParsedIngredient: the input, the confidences and the ingredient. */
export interface ParsedIngredientResult {
  input: string;
  confidence: {
    average: number | null;
    comment: number | null;
    name: number | null;
    unit: number | null;
    quantity: number | null;
    food: number | null;
  };
  ingredient: {
    quantity: number | null;
    /** The upper end of a range ("2-3 cloves"); not on Mealie's wire, shown in `display`. */
    quantityMax?: number | null;
    unit: ParsedRef | null;
    food: ParsedRef | null;
    note: string;
    /** Mealie sets it for some parsers (openai: the input line). */
    originalText?: string | null;
  };
}

/** Importer: turns a page, a document, an archive or photos into recipes (issue 15). */
export interface ImporterPlugin extends PluginBase<"importer"> {
  accepts(input: ImportInput): boolean;
  /**
   * The recipes in the input. A page with no recipe throws `BadRecipeDataError` (core/imports/errors.ts);
   * anything else the plugin cannot read throws `PluginInputError`. Tags and categories are always
   * returned: the caller decides whether to keep them (`includeTags`, `includeCategories`).
   */
  import(input: ImportInput, ctx: PluginContext): Promise<ImportedRecipe[]>;
  /** What the importer read before cleaning (POST /recipes/test-scrape-url); optional. */
  inspect?(input: ImportInput, ctx: PluginContext): Promise<unknown>;
}
export type ImportInput =
  | { type: "url"; url: string }
  | { type: "html"; html: string; url?: string }
  | { type: "json"; json: unknown; url?: string }
  | { type: "zip"; path: string }
  | {
      type: "images";
      images: ReadonlyArray<{ path: string; contentType: string }>;
      translateLanguage?: string;
    };
/** A recipe in Mealie's wire shape (loose: core validates it on create) plus where its image is. */
export interface ImportedRecipe {
  recipe: Record<string, unknown>;
  /** An image to store with it: a URL to fetch through the guarded fetcher, or bytes already read. */
  image?: { url: string } | { bytes: Uint8Array; contentType?: string };
}

/** Migration from another app's export (issue 17). */
export interface MigrationPlugin extends PluginBase<"migration"> {
  /** Mealie's `migration_type` values this plugin reads (`paprika`, `nextcloud`, …). */
  types: readonly string[];
  /**
   * Read the upload (a zip, a bare file, or a folder from the CLI) into one entry per recipe. Throw a
   * `PluginInputError` before the first entry for an upload of the wrong kind; a recipe that cannot be
   * read is an `ok: false` entry, never a throw. `onTotal` is told how many recipes were found.
   */
  migrate(archive: MigrationArchive, ctx: PluginContext): AsyncIterable<MigratedEntry>;
  /**
   * For a whole-site export (a Mealie backup): everything it holds, group by group, read before anything
   * is written. A plugin with `readSite` is used through it, not through `migrate`.
   */
  readSite?(archive: MigrationArchive, ctx: PluginContext): Promise<MigratedSite>;
}
/** A whole site read from a backup: plain data keyed by the source's own ids. */
export interface MigratedSite {
  /** What the backup says about itself ("Mealie backup, alembic revision 44e8d670719d"). */
  source: string;
  groups: MigratedGroup[];
  /** Entries of the archive passed over as unsafe, as `skipped` entries (decision 0280). */
  skipped?: MigratedEntry[];
  /** Closes the upload, which `loadPicture` reads from; called once the site is brought in. */
  close?: () => void;
}
export interface MigratedGroup {
  sourceId: string;
  name: string;
  users: MigratedUser[];
  labels: Array<{ sourceId: string; name: string; color: string | null }>;
  foods: Array<{
    sourceId: string;
    name: string;
    pluralName: string | null;
    description: string;
    labelSourceId: string | null;
  }>;
  units: Array<{
    sourceId: string;
    name: string;
    pluralName: string | null;
    description: string;
    abbreviation: string;
    pluralAbbreviation: string | null;
    fraction: boolean;
    useAbbreviation: boolean;
  }>;
  categories: string[];
  tags: string[];
  tools: string[];
  cookbooks: MigratedCookbook[];
  recipes: MigratedRecipe[];
  mealplans: Array<{
    sourceId: string;
    date: string;
    entryType: string;
    title: string;
    text: string;
    recipeSourceId: string | null;
    userSourceId: string | null;
  }>;
  shoppingLists: Array<{
    sourceId: string;
    name: string;
    userSourceId: string | null;
    items: Array<{
      note: string;
      quantity: number | null;
      checked: boolean;
      position: number;
      food: string | null;
      unit: string | null;
      label: string | null;
    }>;
  }>;
}
export interface MigratedUser {
  sourceId: string;
  username: string;
  fullName: string;
  email: string;
  admin: boolean;
  advanced: boolean;
  canInvite: boolean;
  canManage: boolean;
  canOrganize: boolean;
  /** The name of the user's household in the source (Mealie v2 and later); null where there are none. */
  household: string | null;
}
export interface MigratedCookbook {
  sourceId: string;
  name: string;
  description: string;
  position: number;
  public: boolean;
  /** Mealie's own filter string (newer backups), else one built from the organizers below. */
  queryFilterString: string | null;
  categories: string[];
  tags: string[];
  tools: string[];
  requireAllCategories: boolean;
  requireAllTags: boolean;
  requireAllTools: boolean;
  /** The name of the household it belongs to in the source (Mealie v2 and later); null before households. */
  household: string | null;
}
export interface MigratedRecipe {
  sourceId: string;
  ownerSourceId: string | null;
  entry: MigratedEntry;
  /**
   * Reads the recipe's picture into `entry` (its image, or a warning that it was left out), called just
   * before the recipe is brought in: a site of 50,000 recipes' pictures is not held in memory at once.
   */
  loadPicture?: () => Promise<void>;
  comments: Array<{ userSourceId: string; text: string; createdAt: string | null }>;
  /** Per-user ratings and favourites (older backups keep one rating on the recipe: its owner's). */
  ratings: Array<{ userSourceId: string; rating: number | null; favorite: boolean }>;
}
export interface MigrationArchive {
  path: string;
  type: string;
  onTotal?: (total: number) => void;
}
export type MigratedEntry =
  | {
      ok: true;
      name: string;
      imported: ImportedRecipe;
      sourceId?: string;
      /** What was left out of a recipe that is still brought in ("its picture … was not kept"). */
      warnings?: string[];
    }
  | {
      ok: false;
      name: string;
      error: string;
      /**
       * Not a recipe but an entry of the archive passed over as unsafe (a `../` name, a NUL): never
       * read, the report lists it as skipped with `error` saying why (decision 0280).
       */
      skipped?: true;
    };

/**
 * Notifier for Apprise URL schemes (issue 14). URLs are handed over as the text the user saved: some
 * Apprise URLs are not WHATWG URLs (a Telegram bot token holds a colon where a port would be).
 */
export interface NotifierPlugin extends PluginBase<"notifier"> {
  /** URL schemes handled, without the colon: `ntfy`, `ntfys`. */
  schemes: readonly string[];
  /**
   * Read a URL when it is saved. Throw `PluginInputError` when it cannot be used (the API answers 422
   * with the message); return every endpoint it will contact (`https://host:port/…`, `smtp://host:port`)
   * so that core can refuse private addresses before anything is sent.
   */
  check?(url: string, ctx: PluginContext): string[];
  send(url: string, notification: Notification, ctx: NotifierContext): Promise<void>;
}
export interface NotifierContext extends PluginContext {
  /**
   * For protocols other than HTTP (SMTP): resolve a host name to one address the fetch policy allows
   * (public, or in LARDER_FETCH_ALLOW), or throw `BlockedTargetError`. Connect to that address.
   */
  resolveAllowed(hostname: string): Promise<string>;
}
export interface Notification {
  title: string;
  body: string;
  /**
   * Mealie's extra fields for `json://`/`form://` targets: `event_type`, `integration_id`,
   * `document_data` (a JSON string), `event_id`, `timestamp`. Other schemes ignore them.
   */
  extras: Record<string, string>;
}

export interface PluginKinds {
  importer: ImporterPlugin;
  migration: MigrationPlugin;
  parser: ParserPlugin;
  notifier: NotifierPlugin;
}
export type PluginKind = keyof PluginKinds;
export const PLUGIN_KINDS: readonly PluginKind[] = ["importer", "migration", "parser", "notifier"];
export type AnyPlugin = PluginKinds[PluginKind];
