/**
 * Recipes as the API sees them: create, read, replace, patch, delete, duplicate, list. Scoping by group
 * happens here (every lookup goes through the actor's group), so a route cannot forget it.
 */
import { cp, rm } from "node:fs/promises";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors.js";
import { RecipeInput, RECIPE_SETTINGS_DEFAULTS, type Recipe, type RecipeSummary } from "../schemas/recipe.js";
import type { UserRecord } from "../schemas/records.js";
import { nameKey, RecipeStore, type LockedSave, type RecipeEntry } from "./store/index.js";
import { docToRecipe, docToSummary, recipeToDoc } from "./wire.js";
import { buildWireContext, GroupLookups } from "./wire-context.js";
import { pick } from "./wire-bytes.js";
import { againAfterHandEdit, NOT_FROM_BODY, patchOnTopOfHandEdit, replaceBase } from "./after-hand-edit.js";
import { ChangedOnDiskError } from "./store/file-state.js";
import { emptyRecipeDoc, type RecipeDoc } from "./doc.js";
import { canReadRecipe, canUpdateRecipe } from "../policy/recipes.js";
import { PUBLIC } from "../actor.js";
import { fileSlug, slugify } from "../util/slug.js";
import { newId } from "../util/ids.js";
import { RecipeLister } from "./recipe-list.js";
import { SearchIndexFiles } from "../search/index-file.js";
import { searchFileFormat } from "./search-stamp.js";
import { KeyedSerial } from "../util/keyed-serial.js";
import { lineAsWritten } from "./original-text.js";
import { ingredientsOnce } from "./store/lazy-doc.js";
import type { RecipeIndexEntry } from "../query/attributes.js";

/**
 * Who reads a recipe, for its sub-recipes: which it sees whole (else their summary, all the public
 * ever saw of them), and whether their comments come along (never to the public, as a recipe's own do not).
 */
export interface SubRecipeReader {
  whole: (e: RecipeEntry) => boolean;
  comments: boolean;
}
/** A member of the recipe's group reads every recipe of it. */
const MEMBER: SubRecipeReader = { whole: () => true, comments: true };
/** Sub-recipes come whole this many levels down (as the shopping list expands them), then as null. */
const SUB_RECIPE_LEVELS = 3;

/** The parts of the Larder this module uses. */
type Deps = Pick<
  Parts,
  | "comments"
  | "cookbooks"
  | "events"
  | "folder"
  | "groups"
  | "log"
  | "organizers"
  | "ratings"
  | "users"
  | "vocabulary"
>;

const DEFAULT_STEP =
  "Recipe steps as well as other fields in the recipe page support markdown syntax.\n\n**Add a link**\n\n[My Link](https://demo.mealie.io)";
const MAX_NAME = 500;

/** What `larder stats` reports about the recipe index. */
export type RecipeStats = ReturnType<RecipeStore["stats"]>;

export class RecipesService {
  readonly store: RecipeStore;
  private lookups = new Map<string, GroupLookups>();
  private summaries = new WeakMap<RecipeDoc, RecipeSummary>();
  private removedListeners = new Set<(removed: { groupSlug: string; id: string }) => Promise<void> | void>();
  private rereadTimers = new Map<string, NodeJS.Timeout>();
  private edits = new KeyedSerial();
  readonly lister: RecipeLister;

  private constructor(
    private larder: Deps,
    readOnly: boolean,
    /** Whether the store watches its files once opened (the server). */
    private readonly watch: boolean,
  ) {
    this.store = new RecipeStore({
      folder: larder.folder,
      log: larder.log,
      readOnly,
      vocabularyFor: (groupSlug) => this.lookupsFor(groupSlug).vocabulary,
      vocabularyVersion: (groupSlug) => this.lookupsFor(groupSlug).version(),
      firstAdminOf: (groupSlug) => {
        const g = larder.groups.bySlugOrNull(groupSlug);
        return g ? (larder.users.firstAdminOf(g.doc.data.id)?.id ?? null) : null;
      },
      isGroupMember: (groupSlug, userId) => {
        const g = larder.groups.bySlugOrNull(groupSlug);
        if (!g) return null;
        // Asked once per recipe at every start: by the users' id map, not a walk of every user.
        const groupId = g.doc.data.id;
        if (larder.users.byId(userId)?.groupId === groupId) return true;
        return larder.users.all().some((u) => u.groupId === groupId) ? false : null;
      },
    });
    this.lister = new RecipeLister(
      larder,
      this,
      readOnly ? null : new SearchIndexFiles(larder.folder.cacheDir, searchFileFormat()),
    );
  }

  /** What the wire mapping reads: this service and the ratings, comments and users beside it. */
  private get wireParts() {
    return {
      recipes: this,
      ratings: this.larder.ratings,
      comments: this.larder.comments,
      users: this.larder.users,
    };
  }

  /**
   * `whenNeeded`: the folder's recipes are read at the first `opened()`, not now. For a CLI command
   * that needs none (`larder user list`), reading 50,000 recipes was most of its time (decision 0202);
   * until then the store refuses every read rather than answer from an empty index.
   */
  static async open(
    larder: Deps,
    opts: { watch: boolean; readOnly?: boolean; whenNeeded?: boolean },
  ): Promise<RecipesService> {
    const s = new RecipesService(larder, opts.readOnly ?? false, opts.watch);
    if (!opts.whenNeeded)
      // A scan that fails after the file watcher started must not leave it watching.
      await s.opened().catch(async (e: unknown) => {
        await s.close().catch(() => undefined);
        throw e;
      });
    return s;
  }

  private openDone: Promise<void> | null = null;

  /** Reads the recipes the first time it is called; resolves once they are read. */
  opened(): Promise<void> {
    return (this.openDone ??= this.openNow());
  }

  private async openNow(): Promise<void> {
    await this.store.open({ watch: this.watch });
    this.lister.attach();
  }

  async close(): Promise<void> {
    // Still opening (a command stopped meanwhile): closed once it is, so nothing is half written.
    if (this.openDone) await this.openDone.catch(() => undefined);
    await this.lister
      .close()
      .catch((e: unknown) => this.larder.log.warn("could not save the search index:", e));
    for (const t of this.rereadTimers.values()) clearTimeout(t);
    await this.store.close();
  }

  lookupsFor(groupSlug: string): GroupLookups {
    const g = this.larder.groups.bySlugOrNull(groupSlug);
    if (!g) throw new NotFoundError("group not found");
    let l = this.lookups.get(groupSlug);
    if (!l) {
      l = new GroupLookups(g);
      this.lookups.set(groupSlug, l);
      // Ingredient lines read differently once foods or units change: have the store read them again.
      const reread = () => {
        if (this.rereadTimers.has(groupSlug)) return;
        this.rereadTimers.set(
          groupSlug,
          setTimeout(() => {
            this.rereadTimers.delete(groupSlug);
            this.store
              .refreshVocabulary(groupSlug)
              .catch((e: unknown) => this.larder.log.error("re-reading recipes failed", e));
          }, 50),
        );
      };
      g.foods.onChange(reread);
      g.units.onChange(reread);
    }
    l.refresh();
    return l;
  }

  private groupOf(entry: RecipeEntry): GroupData {
    const g = this.larder.groups.bySlugOrNull(entry.groupSlug);
    if (!g) throw new NotFoundError("group not found");
    return g;
  }

  entryById(id: string): RecipeEntry | null {
    return this.store.getById(id);
  }

  /**
   * The wire RecipeSummary of an index entry, cached until the entry's document changes, or its
   * owner's household or name (the lister forgets the group's summaries then).
   */
  summaryOf(entry: RecipeEntry): RecipeSummary {
    this.lister.ownersCurrent(entry.groupSlug);
    return this.knownSummaryOf(entry);
  }

  /** summaryOf for the lister, which checked the group's owners before its walk over the entries. */
  knownSummaryOf(entry: RecipeEntry): RecipeSummary {
    const cached = this.summaries.get(entry.doc);
    if (cached) return cached;
    const listed = this.lister.listedOf(entry.doc);
    let s: RecipeSummary;
    if (listed) s = pick(listed);
    else {
      const g = this.groupOf(entry);
      s = docToSummary(entry.doc, buildWireContext(this.wireParts, g, this.lookupsFor(g.slug), entry));
    }
    this.summaries.set(entry.doc, s);
    return s;
  }

  /**
   * Let go of a doc's cached summary once the lister's entry holds the same values: a summary kept
   * beside every entry was 50,000 objects of 25 fields at 50,000 recipes for the collector to mark
   * (decision 0186). summaryOf makes it again from the entry when asked.
   */
  summaryListed(doc: RecipeDoc): void {
    this.summaries.delete(doc);
  }

  /** Drop a recipe's cached summary (its derived `rating` changed). */
  forgetSummary(id: string): void {
    const e = this.store.getById(id);
    if (e) this.summaries.delete(e.doc);
  }

  /**
   * Run `fn` after every API delete of a recipe: the cascades of ARCHITECTURE §3 (ratings, comments,
   * timeline, shares, plans). A file deleted by hand runs none: its records wait as orphans.
   */
  onRemoved(fn: (removed: { groupSlug: string; id: string }) => Promise<void> | void): () => void {
    this.removedListeners.add(fn);
    return () => this.removedListeners.delete(fn);
  }

  /**
   * The wire Recipe of an entry. Its sub-recipes come whole, as Mealie sends them (the contract's
   * `referencedRecipe` is a Recipe), to `reader`'s limits; `chain` holds the recipes that named this one.
   */
  recipeOf(entry: RecipeEntry, reader: SubRecipeReader = MEMBER, chain: readonly string[] = []): Recipe {
    const g = this.groupOf(entry);
    const sub = (slug: string): RecipeSummary | null => {
      const e = this.store.get(g.slug, slug);
      if (!e || e.id === entry.id) return null;
      // Where Mealie would go on for ever, nothing: null keeps the answer in the contract's shape.
      if (chain.length + 1 >= SUB_RECIPE_LEVELS || chain.includes(e.id)) return null;
      if (!reader.whole(e)) return this.summaryOf(e);
      const whole = this.recipeOf(e, reader, [...chain, entry.id]);
      const shown: Recipe = reader.comments ? whole : { ...whole, comments: [] };
      return shown;
    };
    return docToRecipe(entry.doc, buildWireContext(this.wireParts, g, this.lookupsFor(g.slug), entry, sub));
  }

  /** Whether the public may read a recipe now (live household and group preferences). */
  publicMayRead(): (r: RecipeIndexEntry) => boolean {
    const ctx = {
      householdPrefsOf: (id: string) => this.larder.groups.householdById(id)?.household.doc.data.preferences,
      groupPrefsOf: (id: string) => this.larder.groups.byId(id)?.doc.data.preferences,
    };
    return (r) =>
      canReadRecipe(
        PUBLIC,
        { userId: r.userId, groupId: r.groupId, householdId: r.householdId, settings: r.settings },
        ctx,
      );
  }

  /** The public's reader (explore, a share link): whole only the sub-recipes it may read itself. */
  publicReader(): SubRecipeReader {
    const mayRead = this.publicMayRead();
    return { whole: (e) => mayRead(this.lister.entryOf(e)), comments: false };
  }

  private userGroup(actor: Actor): { user: UserRecord; group: GroupData } {
    const { user, group } = this.larder.groups.scopeOf(actor);
    return { user, group };
  }

  /** A recipe of the actor's group by slug or id; another group's recipe is a 404, never its data. */
  find(actor: Actor, slugOrId: string): { entry: RecipeEntry; group: GroupData; user: UserRecord } {
    const { user, group } = this.userGroup(actor);
    const entry = this.store.get(group.slug, slugOrId);
    if (!entry) throw new NotFoundError("No Entry Found");
    return { entry, group, user };
  }

  get(actor: Actor, slugOrId: string): Recipe {
    return this.recipeOf(this.find(actor, slugOrId).entry);
  }

  /**
   * Each ingredient's line as its author wrote it ("4 tablespoons unsalted butter, melted"), or null
   * (lineAsWritten): the recipe page shows these at the recipe's own amounts, where the wire's `display`
   * says the group's names for unit and food ("4 tbsp butter melted"), as Mealie's does.
   */
  ingredientLinesAsWritten(actor: Actor, slugOrId: string): (string | null)[] {
    const { entry, group } = this.find(actor, slugOrId);
    const vocab = this.lookupsFor(group.slug).vocabulary;
    return ingredientsOnce(entry.doc).map((ing) => lineAsWritten(ing, vocab));
  }

  private assertCanUpdate(user: UserRecord, entry: RecipeEntry): void {
    const summary = this.summaryOf(entry);
    const allowed = canUpdateRecipe(
      user,
      {
        userId: summary.userId,
        groupId: summary.groupId,
        householdId: summary.householdId,
        settings: { public: entry.doc.settings.public ?? false, locked: entry.doc.settings.locked ?? false },
      },
      {
        householdPrefsOf: (hid: string) =>
          this.larder.groups.householdById(hid)?.household.doc.data.preferences,
      },
    );
    if (!allowed) throw new ForbiddenError("Permission Denied");
  }

  /** A free slug for a name: "Name", then "Name (1)" … "Name (9)" (mealie-api-notes §5.5). */
  freeName(group: GroupData, name: string, exceptId?: string): { name: string; slug: string } {
    // Spec §5: names are unique in a group. A free file name is not enough: a hand-written or renamed
    // file may carry a name whose slug is not its file name, so the names themselves are compared too.
    const self = exceptId ? this.store.getById(exceptId) : null;
    const ownKey = self && self.groupSlug === group.slug ? nameKey(self.doc.name) : null;
    const nameTaken = (n: string) => this.store.nameCount(group.slug, n) > (nameKey(n) === ownKey ? 1 : 0);
    for (let i = 0; i < 10; i++) {
      const candidate = i === 0 ? name : `${name} (${i})`;
      const slug = fileSlug(candidate);
      const taken = this.store.get(group.slug, slug);
      const free = taken ? taken.id === exceptId : !this.store.slugTaken(group.slug, slug);
      if (free && !nameTaken(candidate)) return { name: candidate, slug };
    }
    throw new BadRequestError("Recipe already exists");
  }

  /**
   * Creates `doc` under the first free name from `wanted`. Two creates of one name at the same moment
   * both see it free; the one that loses the file finds the next name instead of failing with 409.
   */
  private async createFree(group: GroupData, wanted: string, doc: RecipeDoc): Promise<RecipeEntry> {
    for (let attempt = 0; ; attempt++) {
      const { name, slug } = this.freeName(group, wanted);
      try {
        return await this.store.create(group.slug, slug, { ...doc, name });
      } catch (e) {
        // Taken meanwhile (by another request or a file written by hand): freeName now sees it.
        if (!(e instanceof ConflictError) || attempt >= 10 || !this.store.slugTaken(group.slug, slug))
          throw e;
      }
    }
  }

  checkName(raw: unknown): string {
    const name = String(raw ?? "").trim();
    // A validation error, so the list shape goes with FastAPI's status for it.
    if (!name)
      throw new ValidationError([{ loc: ["body", "name"], msg: "This Field is Required", type: "missing" }]);
    if (name.length > MAX_NAME)
      throw new BadRequestError(`Recipe name must be at most ${MAX_NAME} characters`);
    if (!slugify(name)) throw new BadRequestError("Recipe name must contain a letter or a digit");
    return name;
  }

  /** POST /recipes: returns the new slug. */
  async create(actor: Actor, input: unknown): Promise<string> {
    const { user, group } = this.userGroup(actor);
    const body = RecipeInput.parse(input ?? {});
    // Mealie's CreateRecipe requires a name: an empty or null body is a 422, never a "New Recipe".
    if (body.name === undefined || body.name === null)
      throw new ValidationError([{ loc: ["body", "name"], msg: "Field required", type: "missing" }]);
    const wanted = this.checkName(body.name);
    const household = this.larder.groups.household(group.doc.data.id, user.householdId)?.doc.data;
    const prefs = household?.preferences;
    const now = new Date().toISOString();
    const doc = emptyRecipeDoc(wanted);
    doc.id = newId();
    doc.owner = user.id;
    doc.dateAdded = now;
    doc.dateUpdated = now;
    doc.ingredients = [
      {
        title: null,
        quantity: null,
        quantityMax: null,
        unit: null,
        food: null,
        note: "1 Cup Flour",
        originalText: null,
        referencedRecipe: null,
      },
    ];
    doc.instructions = [{ title: null, summary: null, text: DEFAULT_STEP, ingredientRefs: [] }];
    if (prefs) {
      doc.settings = onlyNonDefault({
        public: prefs.recipePublic,
        showNutrition: prefs.recipeShowNutrition,
        showAssets: prefs.recipeShowAssets,
        landscapeView: prefs.recipeLandscapeView,
        disableComments: prefs.recipeDisableComments,
      });
    }
    const hasMore = Object.keys(body).some((k) => k !== "name");
    const entry = await this.createFree(group, wanted, doc);
    const slug = entry.slug;
    if (hasMore) await this.write(user, group, entry, { ...body, name: entry.doc.name }, "patch", true);
    this.publish(actor, "recipe_created", group, user.householdId, slug);
    return slug;
  }

  /**
   * Runs `edit` when no other edit of the recipe is running: a read-modify-write started while another
   * is saving would otherwise derive its doc from the version before it and drop that change.
   */
  oneEditAtATime<T>(recipeId: string, edit: () => Promise<T>): Promise<T> {
    return this.edits.run(recipeId, edit);
  }

  /**
   * A change computed from the recipe as it is (the day it was made, an image, an asset, a bulk
   * action): saved one edit at a time, and computed again on the person's version when the save meets
   * a hand edit (decision 0282). `change` gives null when there is nothing to change (left unsaved).
   */
  changeById(recipeId: string, change: (current: RecipeEntry) => RecipeDoc | null): Promise<RecipeEntry> {
    return this.oneEditAtATime(recipeId, () =>
      this.changeWith((g, slug, doc, opts) => this.store.save(g, slug, doc, opts), recipeId, change),
    );
  }

  private changeWith(
    save: LockedSave,
    recipeId: string,
    change: (current: RecipeEntry) => RecipeDoc | null,
  ): Promise<RecipeEntry> {
    let triedOn = "";
    return againAfterHandEdit(async (handEdit) => {
      const current = this.entryById(recipeId);
      if (!current) throw new NotFoundError("No Entry Found");
      // The store did not take in a new version (the person's save is still under way): give up.
      if (handEdit && current.file.hash === triedOn) throw handEdit;
      triedOn = current.file.hash;
      const doc = change(current);
      return doc ? save(current.groupSlug, current.slug, doc, { basedOn: current }) : current;
    });
  }

  /**
   * PUT (replace) or PATCH (merge) one recipe. `from.base` is the copy the body was made from, when the
   * client kept it (the app's editor): a recipe changed since then, by anyone, gets only the fields the
   * body changed from it, and a 409 when someone else changed one of those too, unless `from.mineWins`
   * (the person chose to keep their version of those fields) (decision 0306).
   */
  async update(
    actor: Actor,
    slugOrId: string,
    input: unknown,
    mode: "put" | "patch",
    from?: { base: Record<string, unknown>; mineWins?: boolean },
  ): Promise<Recipe> {
    const base = from?.base;
    const body = RecipeInput.parse(input ?? {});
    const found = this.find(actor, slugOrId);
    return this.oneEditAtATime(found.entry.id, async () => {
      let change: RecipeInput = body;
      let how = mode;
      let before: Recipe | null = null;
      let beforeHash = "";
      const { saved, group } = await againAfterHandEdit(async (handEdit) => {
        // Found again: the edit before this one may have changed it (or renamed its file).
        const { entry, group, user } = this.find(actor, found.entry.id);
        this.assertCanUpdate(user, entry);
        if (!before && base && base.id === entry.id) {
          const now = this.recipeOf(entry);
          if (base.updatedAt !== now.updatedAt) {
            // Compared as JSON, the form the client's copy came in.
            // Mine wins: compared with the copy itself, every field the body changed is set.
            const theirs = from?.mineWins ? base : now;
            const onTop = patchOnTopOfHandEdit(asJson(base), asJson(theirs), change, how);
            if (!onTop) throw new ConflictError(EDITED_SINCE);
            change = onTop;
            how = "patch";
          }
        }
        if (handEdit && before) {
          // Still the version the try before was made on: the store is waiting for the person's save
          // to finish (an empty file between truncate and write), so there is nothing to make it on.
          if (entry.file.hash === beforeHash) throw handEdit;
          const onTop = patchOnTopOfHandEdit(before, this.recipeOf(entry), change, how);
          if (!onTop) throw handEdit;
          change = onTop;
          how = "patch";
        }
        before = this.recipeOf(entry);
        beforeHash = entry.file.hash;
        return { saved: await this.write(user, group, entry, change, how, false), group };
      });
      const out = this.recipeOf(saved);
      this.publish(actor, "recipe_updated", group, out.householdId, out.slug);
      return out;
    });
  }

  private async write(
    user: UserRecord,
    group: GroupData,
    entry: RecipeEntry,
    body: RecipeInput,
    mode: "put" | "patch",
    fresh: boolean,
  ): Promise<RecipeEntry> {
    const current = this.recipeOf(entry);
    const { name, slug } = this.writeChecks(user, group, entry, current, body);
    const base: Record<string, unknown> = mode === "patch" ? { ...current } : replaceBase(current);
    const merged: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(body)) {
      if (v === undefined || NOT_FROM_BODY.has(k)) continue;
      merged[k] = v;
    }
    if (body.settings) merged.settings = { ...current.settings, ...body.settings };
    merged.name = name;
    await this.ensureVocabulary(group, merged);
    const lookups = this.lookupsFor(group.slug);
    const ctx = buildWireContext(this.wireParts, group, lookups, entry);
    const doc = recipeToDoc(merged, { ...ctx, slug }, entry.doc);
    doc.id = entry.id;
    doc.owner = entry.doc.owner ?? user.id;
    // The wire's dateAdded is a date: one sent back unchanged keeps the file's full timestamp, another
    // date replaces it (migration scripts set it; the schema has made it a UTC timestamp).
    const added = body.dateAdded ?? null;
    doc.dateAdded =
      added !== null && !(entry.doc.dateAdded ?? "").startsWith(added.slice(0, 10))
        ? added
        : entry.doc.dateAdded;
    doc.image = entry.doc.image;
    if (entry.doc.otherKeys && Object.keys(entry.doc.otherKeys).length) doc.otherKeys = entry.doc.otherKeys;
    doc.lastMade = body.lastMade !== undefined ? (body.lastMade ?? null) : entry.doc.lastMade;
    doc.dateUpdated = new Date().toISOString();
    const ifUnchangedSince = fresh ? undefined : (body.updatedAt ?? undefined);
    if (slug !== entry.slug) return this.store.rename(group.slug, entry.slug, slug, doc, { basedOn: entry });
    return this.store.save(group.slug, slug, doc, { ifUnchangedSince, basedOn: entry });
  }

  /**
   * What `write` refuses before it changes anything: locking or unlocking another's recipe, a bad
   * name, a name another recipe's file has. The name and file slug the recipe will have.
   */
  private writeChecks(
    user: UserRecord,
    group: GroupData,
    entry: RecipeEntry,
    current: Recipe,
    body: RecipeInput,
    taken = (slug: string): boolean => this.takenByAnother(group, slug, entry.id),
  ): { name: string; slug: string } {
    const incomingLocked = (body.settings as Record<string, unknown> | null | undefined)?.locked;
    if (
      incomingLocked !== undefined &&
      Boolean(incomingLocked) !== current.settings.locked &&
      current.userId !== user.id
    ) {
      throw new ForbiddenError("Only the recipe owner can lock or unlock it");
    }
    if (body.name === undefined || body.name === null) return { name: current.name, slug: entry.slug };
    const name = this.checkName(body.name);
    const wanted = fileSlug(name);
    if (wanted === entry.slug) return { name, slug: entry.slug };
    if (taken(wanted)) throw new BadRequestError("Recipe already exists");
    return { name, slug: wanted };
  }

  /** Whether another recipe of the group has the file (or id) `slug`. */
  private takenByAnother(group: GroupData, slug: string, id: string): boolean {
    const other = this.store.get(group.slug, slug);
    return other !== null && other.id !== id;
  }

  /** Organizers named by the payload exist in organizers.json; foods and units given by name are created. */
  async ensureVocabulary(group: GroupData, merged: Record<string, unknown>): Promise<void> {
    const names = (v: unknown): string[] =>
      Array.isArray(v)
        ? v
            .map((o) => (typeof o === "string" ? o : ((o as { name?: string; id?: string }).name ?? null)))
            .filter((n): n is string => typeof n === "string" && n.trim() !== "")
        : [];
    await this.larder.organizers.ensure(group, "categories", names(merged.recipeCategory));
    await this.larder.organizers.ensure(group, "tags", names(merged.tags));
    await this.larder.organizers.ensure(group, "tools", names(merged.tools));
    const ings = Array.isArray(merged.recipeIngredient)
      ? (merged.recipeIngredient as Record<string, unknown>[])
      : [];
    for (const ing of ings) {
      for (const kind of ["food", "unit"] as const) {
        const ref = ing?.[kind] as { id?: string | null; name?: string | null } | null | undefined;
        if (!ref) continue;
        const vocabKind = kind === "food" ? "foods" : "units";
        if (ref.id && this.larder.vocabulary.has(group, vocabKind, ref.id)) continue;
        if (ref.name && ref.name.trim()) {
          if (!this.larder.vocabulary.byName(group, vocabKind, ref.name))
            await this.larder.vocabulary.create(group, vocabKind, { name: ref.name.trim() });
        } else if (ref.id) {
          throw new BadRequestError(`Unknown ${kind} id ${ref.id}`);
        }
      }
    }
  }

  async remove(actor: Actor, slugOrId: string): Promise<Recipe> {
    const { entry, group, user } = this.find(actor, slugOrId);
    this.assertCanUpdate(user, entry);
    const recipe = this.recipeOf(entry);
    await this.store.remove(group.slug, entry.slug);
    for (const fn of this.removedListeners) {
      await Promise.resolve()
        .then(() => fn({ groupSlug: group.slug, id: entry.id }))
        .catch((e: unknown) => this.larder.log.error(`cascade after deleting recipe ${entry.id} failed:`, e));
    }
    this.publish(actor, "recipe_deleted", group, recipe.householdId, recipe.slug);
    return recipe;
  }

  async duplicate(actor: Actor, slugOrId: string, newName?: string | null): Promise<Recipe> {
    const { entry, group, user } = this.find(actor, slugOrId);
    const wanted = this.checkName(newName || entry.doc.name);
    const now = new Date().toISOString();
    const doc: RecipeDoc = structuredClone(entry.doc);
    doc.id = newId();
    doc.owner = user.id;
    doc.dateAdded = now;
    doc.dateUpdated = now;
    doc.lastMade = null;
    const created = await this.createFree(group, wanted, doc);
    const src = this.larder.folder.recipeMediaDir(group.slug, entry.slug);
    const dst = this.larder.folder.recipeMediaDir(group.slug, created.slug);
    await rm(dst, { recursive: true, force: true });
    await cp(src, dst, { recursive: true }).catch(() => undefined);
    const out = this.recipeOf(created);
    this.publish(actor, "recipe_created", group, out.householdId, out.slug);
    return out;
  }

  /**
   * PATCH /recipes/{slug}/last-made: any group member, even on locked recipes (mealie-api-notes §4.6).
   * `timestamp`: a UTC timestamp (core/schemas/timestamp.ts), or null for now.
   */
  async setLastMade(actor: Actor, slugOrId: string, timestamp: string | null): Promise<Recipe> {
    const { entry, group } = this.find(actor, slugOrId);
    const lastMade = timestamp ?? new Date().toISOString();
    const saved = await this.changeById(entry.id, (current) => ({ ...current.doc, lastMade }));
    const out = this.recipeOf(saved);
    this.publish(actor, "recipe_updated", group, out.householdId, out.slug);
    return out;
  }

  /** Mealie's recipe events (mealie-api-notes §9): `{recipeSlug}`, for the recipe's household. */
  private publish(
    actor: Actor,
    eventType: "recipe_created" | "recipe_updated" | "recipe_deleted",
    group: GroupData,
    householdId: string,
    recipeSlug: string,
  ): void {
    const operation =
      eventType === "recipe_created" ? "create" : eventType === "recipe_updated" ? "update" : "delete";
    this.larder.events.publish({
      eventType,
      groupId: group.doc.data.id,
      householdId,
      integrationId: actor.kind === "user" ? (actor.integrationId ?? "generic") : "generic",
      documentData: { documentType: "recipe", operation, recipeSlug },
      ...(actor.kind === "user" ? { userId: actor.user.id } : {}),
    });
  }

  /** PUT/PATCH /recipes with a list: each item addressed by id (or slug). */
  async bulkUpdate(actor: Actor, items: unknown, mode: "put" | "patch"): Promise<Recipe[]> {
    if (!Array.isArray(items)) throw new BadRequestError("Expected a list of recipes");
    // Every item is checked before the first is saved: a list with a bad item changes nothing.
    const keys = items.map((item: unknown) => {
      const rec = typeof item === "object" && item !== null && !Array.isArray(item) ? item : {};
      const { id, slug } = rec as { id?: unknown; slug?: unknown };
      const key = typeof id === "string" && id ? id : slug;
      if (typeof key !== "string" || !key) throw new BadRequestError("Each recipe needs an id or slug");
      return key;
    });
    this.checkBulk(actor, keys, items);
    const out: Recipe[] = [];
    for (let i = 0; i < items.length; i++) out.push(await this.update(actor, keys[i], items[i], mode));
    return out;
  }

  /**
   * Every item of a bulk update as `update` would check it, before any is saved: its fields, the
   * recipe it names, the caller's right to change it, its name (against the folder and the list's
   * other new names). An item that fails leaves the whole list unsaved, where the items before it
   * used to be saved. Only what can change between the check and the save (a hand edit, a full disk)
   * can still stop a list part way.
   */
  private checkBulk(actor: Actor, keys: string[], items: unknown[]): void {
    // File names as the list's renames leave them, in order: claimed by a recipe, or given up.
    const claimed = new Map<string, string>();
    const vacated = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      const body = RecipeInput.parse(items[i] ?? {});
      const { entry, group, user } = this.find(actor, keys[i]);
      this.assertCanUpdate(user, entry);
      const key = (slug: string) => `${group.slug}/${slug}`;
      const { slug } = this.writeChecks(user, group, entry, this.recipeOf(entry), body, (wanted) => {
        const by = claimed.get(key(wanted));
        if (by !== undefined) return by !== entry.id;
        return !vacated.has(key(wanted)) && this.takenByAnother(group, wanted, entry.id);
      });
      if (slug === entry.slug) continue;
      vacated.add(key(entry.slug));
      claimed.delete(key(entry.slug));
      claimed.set(key(slug), entry.id);
    }
  }

  /** Each recipe's organizer names of one kind, for a group (counts on the organizer screens). */
  organizerNames(groupSlug: string, kind: "categories" | "tags" | "tools"): string[][] {
    return this.store.list(groupSlug).map((e) => e.doc[kind]);
  }

  /** The index's figures (`larder stats`). */
  stats(): RecipeStats {
    return this.store.stats();
  }

  /** An organizer was renamed (or deleted: `to` null): rewrite the recipe files that name it. */
  async renameOrganizer(
    group: GroupData,
    kind: "categories" | "tags" | "tools",
    from: string,
    to: string | null,
  ): Promise<number> {
    const key = slugify(from);
    return this.rewriteWhere(group, (doc) => {
      const list = doc[kind];
      if (!list.some((n) => slugify(n) === key)) return null;
      doc[kind] =
        to === null ? list.filter((n) => slugify(n) !== key) : list.map((n) => (slugify(n) === key ? to : n));
      return doc;
    });
  }

  /**
   * A change of the group's foods or units (`change`), then the rewrite of the recipes that name what it
   * renamed or deleted (`rename` of its result, null: none), as one piece of the store's lone work. The
   * change is in memory at once while the recipe files still name the old item: the re-read of recipes
   * that a change of units or foods schedules, coming in between (under load, while the units file was
   * still being written), read "2 tablespoon apple" with a vocabulary that no longer knew "tablespoon"
   * and showed the ingredient without a unit; had it come before the rewrite listed the recipes, the
   * rename never reached them (decision 0267). Saves and re-reads now wait for both steps.
   */
  async changeVocabulary<T>(
    group: GroupData,
    kind: "foods" | "units",
    change: () => Promise<T>,
    rename: (result: T) => { from: string; to: string | null } | null,
  ): Promise<T> {
    await this.opened();
    return this.store.alone(async (save) => {
      const result = await change();
      const r = rename(result);
      if (r && r.from !== r.to) await this.rewriteLocked(group, renamedIn(kind, r.from, r.to), save);
      return result;
    });
  }

  /** PUT /foods/merge, /units/merge: ingredients move to `toId`, then `fromId` is deleted. */
  async mergeVocabulary(
    group: GroupData,
    kind: "foods" | "units",
    fromId: string,
    toId: string,
  ): Promise<void> {
    await this.opened();
    await this.store.alone(async (save) => {
      const from = this.larder.vocabulary.get(group, kind, fromId);
      const to = this.larder.vocabulary.get(group, kind, toId);
      if (from.id === to.id) throw new BadRequestError("Cannot merge an item into itself");
      await this.rewriteLocked(group, renamedIn(kind, from.name, to.name), save);
      await this.larder.vocabulary.remove(group, kind, from.id);
    });
  }

  /** Rewrite every recipe of a group that `pick` selects (food/unit/organizer renames and merges). */
  async rewriteWhere(group: GroupData, pick: (doc: RecipeDoc) => RecipeDoc | null): Promise<number> {
    return this.rewriteEach(group, pick, (id, change) => this.changeById(id, change));
  }

  /**
   * rewriteWhere inside the store's lone work, with its save that does not wait for it; and without
   * taking each recipe's edit turn, which an API edit waiting for the store may hold.
   */
  private rewriteLocked(
    group: GroupData,
    pick: (doc: RecipeDoc) => RecipeDoc | null,
    save: LockedSave,
  ): Promise<number> {
    return this.rewriteEach(group, pick, (id, change) => this.changeWith(save, id, change));
  }

  private async rewriteEach(
    group: GroupData,
    pick: (doc: RecipeDoc) => RecipeDoc | null,
    changeOne: (recipeId: string, change: (current: RecipeEntry) => RecipeDoc | null) => Promise<RecipeEntry>,
  ): Promise<number> {
    let n = 0;
    for (const entry of this.store.list(group.slug)) {
      if (!pick(structuredClone(entry.doc))) continue;
      // Picked again from the recipe as it is when saved: a hand edit may come in between.
      let changed = false;
      try {
        await changeOne(entry.id, (current) => {
          const next = pick(structuredClone(current.doc));
          changed = next !== null;
          return next;
        });
      } catch (e) {
        // Deleted meanwhile (by hand, or through the API): nothing left to rewrite.
        if (e instanceof NotFoundError) changed = false;
        // Saved by hand over and over while the rename ran: the person's version stays as they wrote
        // it, and the rename goes on with the other recipes rather than stopping halfway.
        else if (e instanceof ChangedOnDiskError) {
          changed = false;
          this.larder.log.warn(
            `rename: groups/${group.slug}/recipes/${entry.slug}.md kept as saved by hand; it was changed while the rename ran`,
          );
        } else throw e;
      }
      if (changed) n++;
    }
    return n;
  }
}

/** The 409 of an edit made on a copy whose fields someone else changed since (decision 0306). */
export const EDITED_SINCE =
  "This recipe was changed after you opened it, in a field you changed too; reload it and make your changes again";

/** `value` as JSON would carry it (no undefined keys, dates as strings), for comparing with a client's copy. */
function asJson<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * The edit of a recipe doc that a food or unit renamed `from` → `to` brings (null: none). Deleted (`to`
 * null), the ingredient keeps the name as a note.
 */
function renamedIn(
  kind: "foods" | "units",
  from: string,
  to: string | null,
): (doc: RecipeDoc) => RecipeDoc | null {
  const field = kind === "foods" ? "food" : "unit";
  const lower = from.toLowerCase();
  return (doc) => {
    let changed = false;
    for (const ing of doc.ingredients) {
      if (ing[field]?.toLowerCase() !== lower) continue;
      changed = true;
      if (to !== null) ing[field] = to;
      else {
        ing[field] = null;
        ing.note = [from, ing.note].filter(Boolean).join(", ");
      }
    }
    return changed ? doc : null;
  };
}

function onlyNonDefault(
  s: Partial<Record<keyof typeof RECIPE_SETTINGS_DEFAULTS, boolean>>,
): Partial<Record<keyof typeof RECIPE_SETTINGS_DEFAULTS, boolean>> {
  const out: Partial<Record<keyof typeof RECIPE_SETTINGS_DEFAULTS, boolean>> = {};
  for (const [k, v] of Object.entries(s) as [keyof typeof RECIPE_SETTINGS_DEFAULTS, boolean | undefined][]) {
    if (v !== undefined && v !== RECIPE_SETTINGS_DEFAULTS[k]) out[k] = v;
  }
  return out;
}
