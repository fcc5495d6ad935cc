/**
 * What the terminal app reads and writes, whichever way it reaches the folder: core directly (this
 * process holds the folder's lock while the app is open) or the running server's API with the lock
 * token, as `larder plan` and `larder list` do. Writes go through the same calls as those commands
 * (a check-off is `larder list check`'s updateItem), so there is one implementation per write.
 */
import type { Larder } from "../../core/larder.js";
import type { Actor } from "../../core/actor.js";
import type { RecipeListQuery } from "../../core/recipes/list-query.js";
import {
  configFor,
  liveServer,
  openLarder,
  requireDataFolder,
  withLock,
  type LiveServer,
} from "../context.js";
import { localActor } from "../users/local.js";
import { ServerClient } from "../users/server-client.js";
import { weekCalls } from "../week/calls.js";
import { importCalls, type ImportCalls } from "../commands/import-calls.js";
import type { WeekCalls } from "../week/types.js";
import type {
  PlanEntryOut,
  ShoppingItemOut,
  ShoppingListOut,
  ShoppingListSummaryOut,
} from "../week/types.js";

export type { PlanEntryOut, ShoppingItemOut, ShoppingListOut, ShoppingListSummaryOut };

/** One row of the search list (a slice of the wire RecipeSummary). */
export interface RecipeHit {
  slug: string;
  name: string;
  description?: string | null;
  totalTime?: string | null;
}

/** The parts of the wire Recipe the reader shows. */
export interface RecipeView {
  slug: string;
  name: string;
  description?: string | null;
  recipeServings?: number | null;
  recipeYield?: string | null;
  recipeYieldQuantity?: number | null;
  totalTime?: string | null;
  settings?: { disableAmount?: boolean } | null;
  recipeIngredient: {
    quantity: number | null;
    unit: { name: string; [k: string]: unknown } | null;
    food: { name: string; pluralName?: string | null } | null;
    note: string | null;
    title?: string | null;
    display?: string;
    originalText?: string | null;
    referencedRecipe?: { name: string } | null;
  }[];
  recipeInstructions: { title?: string | null; text: string }[];
  notes?: { title?: string | null; text: string }[];
}

export interface TuiSource {
  readonly mode: "local" | "server";
  /**
   * Settles once the source can answer (the folder opened), or rejects with why it never will: the
   * app then ends with that error, as a command that could not open the folder does.
   */
  readonly ready: Promise<void>;
  /** The first `limit` recipes matching `query` (all recipes by name when it is blank), and how many match. */
  search(query: string, limit: number): Promise<{ items: RecipeHit[]; total: number }>;
  recipe(slug: string): Promise<RecipeView>;
  firstDayOfWeek(): Promise<number>;
  entriesBetween(start: string, end: string): Promise<PlanEntryOut[]>;
  lists(): Promise<ShoppingListSummaryOut[]>;
  list(id: string): Promise<ShoppingListOut>;
  /** Check an item off or back on: `larder list check`'s write. */
  setChecked(item: ShoppingItemOut, checked: boolean): Promise<void>;
  /** Import one recipe page; the new recipe's slug. */
  importUrl(url: string): Promise<string>;
}

/** The search box's list: relevance while searching, else by name. */
function searchQuery(query: string, limit: number): RecipeListQuery {
  const search = query.trim();
  return search
    ? { page: 1, perPage: limit, search }
    : { page: 1, perPage: limit, orderBy: "name", orderDirection: "asc" };
}

/** The same query as the API's query string. */
function queryString(q: RecipeListQuery): string {
  const entries = Object.entries(q).filter(([, v]) => v !== null && v !== undefined);
  return new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString();
}

export class LocalSource implements TuiSource {
  readonly mode = "local" as const;
  readonly ready = Promise.resolve();
  private readonly actor: Actor;
  private readonly week: WeekCalls;

  constructor(private readonly larder: Larder) {
    this.actor = localActor(larder);
    this.week = weekCalls.local(larder);
  }

  async search(query: string, limit: number): Promise<{ items: RecipeHit[]; total: number }> {
    const page = this.larder.recipes.lister.list(this.actor, searchQuery(query, limit));
    return { items: page.items as RecipeHit[], total: page.total };
  }
  async recipe(slug: string): Promise<RecipeView> {
    return this.larder.recipes.get(this.actor, slug) as unknown as RecipeView;
  }
  firstDayOfWeek() {
    return this.week.firstDayOfWeek();
  }
  entriesBetween(start: string, end: string) {
    return this.week.entriesBetween(start, end);
  }
  lists() {
    return this.week.lists();
  }
  list(id: string) {
    return this.week.list(id);
  }
  setChecked(item: ShoppingItemOut, checked: boolean) {
    return this.week.updateItem({ ...item, checked });
  }
  importUrl(url: string): Promise<string> {
    return importCalls.local(this.larder).url(url, false);
  }
}

/**
 * A LocalSource still being made: the app draws its first frame while the folder opens (a warm start
 * of 10,000 recipes takes about a second, 50,000 three), and each call waits for the folder.
 */
export class OpeningSource implements TuiSource {
  readonly mode = "local" as const;
  readonly ready: Promise<void>;

  constructor(private readonly source: Promise<LocalSource>) {
    this.ready = source.then(() => undefined);
    // Read through `ready` by the app; a rejection nobody asked about yet is not unhandled.
    this.ready.catch(() => undefined);
  }

  async search(query: string, limit: number) {
    return (await this.source).search(query, limit);
  }
  async recipe(slug: string) {
    return (await this.source).recipe(slug);
  }
  async firstDayOfWeek() {
    return (await this.source).firstDayOfWeek();
  }
  async entriesBetween(start: string, end: string) {
    return (await this.source).entriesBetween(start, end);
  }
  async lists() {
    return (await this.source).lists();
  }
  async list(id: string) {
    return (await this.source).list(id);
  }
  async setChecked(item: ShoppingItemOut, checked: boolean) {
    return (await this.source).setChecked(item, checked);
  }
  async importUrl(url: string) {
    return (await this.source).importUrl(url);
  }
}

export class ServerSource implements TuiSource {
  readonly mode = "server" as const;
  readonly ready = Promise.resolve();
  private readonly client: ServerClient;
  private readonly week: WeekCalls;
  private readonly imports: ImportCalls;

  constructor(lock: LiveServer, dataDir: string) {
    this.client = new ServerClient(lock, dataDir);
    this.week = weekCalls.server(lock, dataDir);
    this.imports = importCalls.server(lock, dataDir);
  }

  async search(query: string, limit: number): Promise<{ items: RecipeHit[]; total: number }> {
    const page = await this.client.request<{ items: RecipeHit[]; total: number }>(
      "GET",
      `/api/recipes?${queryString(searchQuery(query, limit))}`,
    );
    return { items: page.items, total: page.total };
  }
  recipe(slug: string): Promise<RecipeView> {
    return this.client.request("GET", `/api/recipes/${encodeURIComponent(slug)}`);
  }
  firstDayOfWeek() {
    return this.week.firstDayOfWeek();
  }
  entriesBetween(start: string, end: string) {
    return this.week.entriesBetween(start, end);
  }
  lists() {
    return this.week.lists();
  }
  list(id: string) {
    return this.week.list(id);
  }
  setChecked(item: ShoppingItemOut, checked: boolean) {
    return this.week.updateItem({ ...item, checked });
  }
  importUrl(url: string): Promise<string> {
    return this.imports.url(url, false);
  }
}

/**
 * Run `fn` with the folder's source: the live server's API when one holds the folder, else core under
 * our own lock for as long as the app is open (decision 0075). Core opens the folder while `fn` runs
 * (OpeningSource), and the folder is closed once both are done.
 */
export async function withSource<T>(dataDir: string, fn: (source: TuiSource) => Promise<T>): Promise<T> {
  requireDataFolder(dataDir);
  const server = await liveServer(dataDir);
  if (server) return fn(new ServerSource(server, dataDir));
  return withLock(dataDir, async () => {
    const opening = openLarder(configFor(dataDir));
    try {
      return await fn(new OpeningSource(opening.then((larder) => new LocalSource(larder))));
    } finally {
      const larder = await opening.catch(() => null);
      await larder?.close();
    }
  });
}
