/**
 * Share links (mealie-api-notes §4.10): a token that lets anyone read one recipe, stored per group in
 * `groups/<g>/shares.json`. Managing them is group-scoped, like Mealie; reading by token is public.
 * Larder honours `expiresAt` (§17): an expired token answers 404 exactly like an unknown one. A token
 * whose recipe is gone (a file deleted by hand) also answers 404, and works again if the file returns.
 */
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import type { Recipe } from "../schemas/recipe.js";
import type { RecipeEntry } from "../recipes/store/index.js";
import { NotFoundError, UnauthorizedError, ValidationError } from "../errors.js";
import { JsonDoc } from "../storage/json-doc.js";
import { SharesDoc, type ShareRecord } from "../schemas/shares.js";
import { utcTimestamp } from "../schemas/timestamp.js";
import { isUuid, newId } from "../util/ids.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "folder" | "groups" | "recipes">;

const DEFAULT_DAYS = 30;
const TOKEN_NOT_FOUND = "Token Not Found";

/** The contract's RecipeShareTokenSummary. */
export interface ShareSummary {
  id: string;
  recipeId: string;
  groupId: string;
  expiresAt: string;
  createdAt: string;
}
/** The contract's RecipeShareToken: the summary plus the recipe. */
export interface ShareToken extends ShareSummary {
  recipe: Recipe;
}

export class SharesService {
  private docs = new Map<string, Promise<JsonDoc<SharesDoc>>>();

  constructor(private larder: Deps) {
    // An API delete cascades to the recipe's share links; a hand delete does not (they reattach if the file returns).
    larder.recipes.onRemoved(async ({ groupSlug, id }) => {
      const group = larder.groups.bySlugOrNull(groupSlug);
      if (group) await this.removeForRecipe(group, id);
    });
  }

  private doc(group: GroupData): Promise<JsonDoc<SharesDoc>> {
    let d = this.docs.get(group.slug);
    if (!d) {
      const file = this.larder.folder.sharesJson(group.slug);
      d = JsonDoc.open(file, {
        schema: SharesDoc,
        tmpDir: this.larder.folder.tmpDir,
        defaults: () => SharesDoc.parse({}),
      });
      d.catch(() => this.docs.delete(group.slug));
      this.docs.set(group.slug, d);
    }
    return d;
  }

  private groupOf(actor: Actor): GroupData {
    if (actor.kind !== "user") throw new UnauthorizedError();
    const g = this.larder.groups.byId(actor.user.groupId);
    if (!g) throw new NotFoundError("group not found");
    return g;
  }

  private summary(group: GroupData, r: ShareRecord): ShareSummary {
    return {
      id: r.id,
      recipeId: r.recipeId,
      groupId: group.doc.data.id,
      expiresAt: r.expiresAt,
      createdAt: r.createdAt,
    };
  }

  private full(group: GroupData, r: ShareRecord): ShareToken {
    const entry = this.recipeEntry(group, r);
    if (!entry) throw new NotFoundError("No Entry Found");
    return { ...this.summary(group, r), recipe: this.larder.recipes.recipeOf(entry) };
  }

  private recipeEntry(group: GroupData, r: ShareRecord): RecipeEntry | null {
    const entry = this.larder.recipes.entryById(r.recipeId);
    return entry && entry.groupSlug === group.slug ? entry : null;
  }

  /** POST /shared/recipes `{recipeId, expiresAt?}` → 201 RecipeShareToken. */
  async create(actor: Actor, input: { recipeId?: unknown; expiresAt?: unknown }): Promise<ShareToken> {
    const group = this.groupOf(actor);
    const recipeId = typeof input.recipeId === "string" ? input.recipeId : "";
    if (!isUuid(recipeId))
      throw new ValidationError([
        { loc: ["body", "recipeId"], msg: "Input should be a valid UUID", type: "uuid_parsing" },
      ]);
    // The recipe must be the caller's group's: this is also what keeps a share from leaking another group's recipe.
    const { entry } = this.larder.recipes.find(actor, recipeId);
    const now = new Date();
    let expiresAt = new Date(now.getTime() + DEFAULT_DAYS * 24 * 3600 * 1000);
    if (input.expiresAt !== undefined && input.expiresAt !== null) {
      // Read as pydantic reads a datetime: `new Date` took 30 February and the year -1, which was then
      // served in a form the contract's date-time refuses.
      const iso = typeof input.expiresAt === "string" ? utcTimestamp(input.expiresAt) : null;
      const d = new Date(iso ?? NaN);
      if (Number.isNaN(d.getTime()))
        throw new ValidationError([
          { loc: ["body", "expiresAt"], msg: "Input should be a valid datetime", type: "datetime_parsing" },
        ]);
      expiresAt = d;
    }
    const rec: ShareRecord = {
      id: newId(),
      recipeId: entry.id,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    const doc = await this.doc(group);
    await doc.update((d) => {
      d.shares.push(rec);
    });
    return this.full(group, rec);
  }

  /** GET /shared/recipes[?recipe_id=]: the group's tokens, oldest first. */
  async list(actor: Actor, recipeId: string | null): Promise<ShareSummary[]> {
    const group = this.groupOf(actor);
    const doc = await this.doc(group);
    return doc.data.shares
      .filter((s) => !recipeId || s.recipeId === recipeId.toLowerCase() || s.recipeId === recipeId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((s) => this.summary(group, s));
  }

  /** GET /shared/recipes/{id}. */
  async get(actor: Actor, id: string): Promise<ShareToken> {
    const group = this.groupOf(actor);
    const rec = (await this.doc(group)).data.shares.find((s) => s.id === id);
    if (!rec) throw new NotFoundError("Not found.");
    return this.full(group, rec);
  }

  /** DELETE /shared/recipes/{id} → the deleted token. */
  async remove(actor: Actor, id: string): Promise<ShareSummary | ShareToken> {
    const group = this.groupOf(actor);
    const doc = await this.doc(group);
    const rec = doc.data.shares.find((s) => s.id === id);
    if (!rec) throw new NotFoundError("Not found.");
    await doc.update((d) => {
      d.shares = d.shares.filter((s) => s.id !== id);
    });
    const entry = this.recipeEntry(group, rec);
    return entry
      ? { ...this.summary(group, rec), recipe: this.larder.recipes.recipeOf(entry) }
      : this.summary(group, rec);
  }

  /** An API delete of a recipe cascades to its share links (a hand delete leaves them as orphans). */
  async removeForRecipe(group: GroupData, recipeId: string): Promise<number> {
    const doc = await this.doc(group);
    const n = doc.data.shares.filter((s) => s.recipeId === recipeId).length;
    if (n) {
      await doc.update((d) => {
        d.shares = d.shares.filter((s) => s.recipeId !== recipeId);
      });
    }
    return n;
  }

  /**
   * The recipe behind a public token: unknown, expired, or whose recipe is gone → 404 "Token Not
   * Found". Tokens are UUIDs, so one lookup per group is all it costs.
   */
  async resolvePublic(token: string, now = new Date()): Promise<RecipeEntry> {
    if (!isUuid(token)) throw new NotFoundError(TOKEN_NOT_FOUND);
    for (const group of this.larder.groups.all()) {
      const rec = (await this.doc(group)).data.shares.find(
        (s) => s.id === token.toLowerCase() || s.id === token,
      );
      if (!rec) continue;
      const expires = Date.parse(rec.expiresAt);
      if (!Number.isFinite(expires) || expires <= now.getTime()) throw new NotFoundError(TOKEN_NOT_FOUND);
      const entry = this.recipeEntry(group, rec);
      if (!entry) throw new NotFoundError(TOKEN_NOT_FOUND);
      return entry;
    }
    throw new NotFoundError(TOKEN_NOT_FOUND);
  }

  /** GET /recipes/shared/{token}: the Recipe, public. */
  async publicRecipe(token: string): Promise<Recipe> {
    return this.larder.recipes.recipeOf(await this.resolvePublic(token), this.larder.recipes.publicReader());
  }
}
