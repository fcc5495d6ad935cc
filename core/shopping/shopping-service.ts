/**
 * Shopping lists and their items (mealie-api-notes §4.5, §8), household-scoped. Each list is one file,
 * `households/<household>/shopping-lists/<list-id>.json` (decision 0030): a check-off rewrites only
 * that list, every change is made synchronously on the list's current state (so two phones checking
 * off different items both win), and a burst of changes shares one write (JsonDoc coalesces them).
 */
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
  type ValidationIssue,
} from "../errors.js";
import type {
  IngredientFood,
  IngredientUnit,
  LabelSummary,
  Recipe,
  RecipeSummary,
} from "../schemas/recipe.js";
import type { FoodRecord, LabelRecord, UnitRecord, UserRecord } from "../schemas/records.js";
import { ShoppingListDoc, type ItemRecipeRef, type ShoppingItemRecord } from "../schemas/week.js";
import { JsonDoc } from "../storage/json-doc.js";
import { brokenDocConflict, brokenDocError } from "../storage/broken.js";
import { presentFood, presentLabel, presentUnit } from "../presenters/vocabulary.js";
import { ingredientDisplay } from "../recipes/display.js";
import { roundQuantity } from "../recipes/quantity.js";
import { AttributeTable, attr, relation } from "../query/attribute-table.js";
import { peopleTables } from "../groups/related-tables.js";
import { listQuery } from "../query/list.js";
import type { ListQuery, Page } from "../query/list-query.js";
import type { EventType, EventDocument } from "../events/event-types.js";
import { derivedId, isUuid, isUuid4, newId } from "../util/ids.js";
import { mergeInto, mergeKey, normaliseNote, quantityIn, type UnitsById } from "./merge.js";
import { integrationOf } from "../mealplans/mealplans-service.js";
import { lazySchema } from "../util/lazy-schema.js";
import { validationDetail } from "../wire/validation-detail.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "events" | "folder" | "groups" | "live" | "log" | "recipes" | "users">;

/** Largest quantity or scale accepted: beyond it sums stop being meaningful (1e308 + 1e308 is Infinity). */
export const MAX_QUANTITY = 1_000_000_000;
/** Most items one bulk request may carry. */
export const MAX_BULK_ITEMS = 20_000;
/** Checked items kept per list by the daily trim (Mealie's rule). */
export const KEEP_CHECKED = 100;

// ---- wire shapes ------------------------------------------------------------------------------

export interface ItemRecipeRefOut {
  recipeId: string;
  recipeQuantity: number;
  recipeScale: number | null;
  recipeNote: string | null;
  id: string;
  shoppingListItemId: string;
}

/** ShoppingListItemOut of the contract. */
export interface ShoppingItemOut {
  quantity: number;
  unit: IngredientUnit | null;
  food: IngredientFood | null;
  referencedRecipe: null;
  note: string;
  display: string;
  shoppingListId: string;
  checked: boolean;
  position: number;
  foodId: string | null;
  labelId: string | null;
  unitId: string | null;
  extras: Record<string, unknown>;
  id: string;
  groupId: string;
  householdId: string;
  label: LabelSummary | null;
  recipeReferences: ItemRecipeRefOut[];
  createdAt: string | null;
  updatedAt: string | null;
}

export interface ListRecipeRefOut {
  id: string;
  shoppingListId: string;
  recipeId: string;
  recipeQuantity: number;
  recipe: RecipeSummary;
}
export interface LabelSettingOut {
  shoppingListId: string;
  labelId: string;
  position: number;
  id: string;
  label: LabelSummary;
}

/** ShoppingListSummary of the contract. */
export interface ShoppingListSummaryOut {
  name: string | null;
  extras: Record<string, unknown>;
  createdAt: string | null;
  updatedAt: string | null;
  groupId: string;
  userId: string;
  id: string;
  householdId: string;
  recipeReferences: ListRecipeRefOut[];
  labelSettings: LabelSettingOut[];
}
/** ShoppingListOut of the contract. */
export type ShoppingListOut = ShoppingListSummaryOut & { listItems: ShoppingItemOut[] };

export interface ItemsCollectionOut {
  createdItems: ShoppingItemOut[];
  updatedItems: ShoppingItemOut[];
  deletedItems: ShoppingItemOut[];
}

type I = ShoppingItemOut;
export const shoppingItemAttributes = new AttributeTable<ShoppingItemOut>("shopping list item", {
  id: attr.uuid((i: I) => i.id),
  shoppingListId: attr.uuid((i: I) => i.shoppingListId),
  checked: attr.boolean((i: I) => i.checked),
  position: attr.number((i: I) => i.position),
  quantity: attr.number((i: I) => i.quantity),
  note: attr.string((i: I) => i.note),
  display: attr.string((i: I) => i.display),
  foodId: attr.uuid((i: I) => i.foodId),
  unitId: attr.uuid((i: I) => i.unitId),
  labelId: attr.uuid((i: I) => i.labelId),
  groupId: attr.uuid((i: I) => i.groupId),
  householdId: attr.uuid((i: I) => i.householdId),
  "food.id": attr.uuid((i: I) => i.food?.id ?? null),
  "food.name": attr.string((i: I) => i.food?.name ?? null),
  "unit.id": attr.uuid((i: I) => i.unit?.id ?? null),
  "unit.name": attr.string((i: I) => i.unit?.name ?? null),
  "label.id": attr.uuid((i: I) => i.label?.id ?? null),
  "label.name": attr.string((i: I) => i.label?.name ?? null),
  createdAt: attr.datetime((i: I) => i.createdAt),
  updatedAt: attr.datetime((i: I) => i.updatedAt),
});

type L = ShoppingListSummaryOut;
export const shoppingListAttributes = new AttributeTable<ShoppingListSummaryOut>("shopping list", {
  id: attr.uuid((l: L) => l.id),
  name: attr.string((l: L) => l.name),
  userId: attr.uuid((l: L) => l.userId),
  "user.id": attr.uuid((l: L) => l.userId),
  groupId: attr.uuid((l: L) => l.groupId),
  householdId: attr.uuid((l: L) => l.householdId),
  createdAt: attr.datetime((l: L) => l.createdAt),
  updatedAt: attr.datetime((l: L) => l.updatedAt),
});

// ---- input -------------------------------------------------------------------------------------

const quantity = lazySchema(() =>
  z
    .number({ error: "Input should be a valid number" })
    .refine((n) => Number.isFinite(n) && Math.abs(n) <= MAX_QUANTITY, {
      message: `Quantity must be a finite number between -${MAX_QUANTITY} and ${MAX_QUANTITY}`,
    }),
);
const uuidOrNull = lazySchema(() => z.string().refine(isUuid, "Input should be a valid UUID").nullish());
const refIn = lazySchema(() =>
  z
    .object({
      // A UUID4, as in Mealie: the nil UUID was stored, then served where the contract wants a uuid4.
      recipeId: z
        .string()
        .refine(isUuid, "Input should be a valid UUID")
        .refine((v) => !isUuid(v) || isUuid4(v), "UUID version 4 expected"),
      recipeQuantity: quantity.nullish(),
      recipeScale: quantity.nullish(),
      recipeNote: z.string().nullish(),
      id: z.string().nullish(),
    })
    .loose(),
);
const idRef = lazySchema(() => z.object({ id: z.string().nullish() }).loose().nullish());
const ItemIn = lazySchema(() =>
  z
    .object({
      shoppingListId: z.string({ error: "Field required" }).refine(isUuid, "Input should be a valid UUID"),
      id: uuidOrNull,
      quantity: quantity.nullish(),
      note: z.string().max(10_000).nullish(),
      checked: z.boolean().nullish(),
      position: z.number().int().min(-1_000_000_000).max(1_000_000_000).nullish(),
      foodId: uuidOrNull,
      unitId: uuidOrNull,
      labelId: uuidOrNull,
      food: idRef,
      unit: idRef,
      extras: z.record(z.string(), z.unknown()).nullish(),
      recipeReferences: z.array(refIn).nullish(),
    })
    .loose(),
);
type ItemIn = z.infer<typeof ItemIn>;

const ListIn = lazySchema(() =>
  z
    .object({ name: z.string().max(1000).nullish(), extras: z.record(z.string(), z.unknown()).nullish() })
    .loose(),
);
const AddRecipeIn = lazySchema(() =>
  z
    .object({
      recipeIncrementQuantity: quantity.refine((n) => n > 0, "Must be greater than 0").nullish(),
      recipeIngredients: z.array(z.record(z.string(), z.unknown())).nullish(),
    })
    .loose(),
);
const AddRecipeBulkIn = lazySchema(() => AddRecipeIn.extend({ recipeId: z.string() }));
const RemoveRecipeIn = lazySchema(() =>
  z
    .object({ recipeDecrementQuantity: quantity.refine((n) => n > 0, "Must be greater than 0").nullish() })
    .loose(),
);
const LabelSettingIn = lazySchema(() =>
  z
    .object({
      id: z.string().nullish(),
      shoppingListId: z.string(),
      labelId: z.string(),
      position: z.number().int(),
    })
    .loose(),
);

// ---- the service ------------------------------------------------------------------------------

interface ListHandle {
  id: string;
  group: GroupData;
  household: HouseholdData;
  doc: JsonDoc<ShoppingListDoc>;
}

interface Vocab {
  foods: Map<string, FoodRecord>;
  units: Map<string, UnitRecord>;
  labels: Map<string, LabelRecord>;
  unitsById: UnitsById;
  labelledNames?: { name: string; labelId: string }[];
}

interface Scope {
  user: UserRecord;
  group: GroupData;
  household: HouseholdData;
}

/** What one change did to one list: for the response, the events and the live channel. */
interface ListDelta {
  created: ShoppingItemRecord[];
  updated: ShoppingItemRecord[];
  deleted: ShoppingItemRecord[];
}

const emptyDoc = (): ShoppingListDoc => ShoppingListDoc.parse({ id: "", userId: "" });

export interface AddRecipeOptions {
  /** Leave out ingredients whose food the household has on hand (the UI's and CLI's default). */
  skipOnHand?: boolean;
}

export class ShoppingService {
  /** Every list file known, by list id. */
  private readonly lists = new Map<string, ListHandle>();
  private readonly opening = new Map<string, Promise<ListHandle>>();
  private vocabCache = new WeakMap<object, Vocab>();

  private constructor(private readonly larder: Deps) {}

  static async open(larder: Deps): Promise<ShoppingService> {
    const s = new ShoppingService(larder);
    for (const g of larder.groups.all()) for (const h of g.households.values()) await s.scan(g, h);
    return s;
  }

  // ---- lists ----------------------------------------------------------------------------------

  /** GET /households/shopping/lists: every list of the household, ordered by name unless asked otherwise. */
  async listLists(actor: Actor, query: ListQuery): Promise<Page<ShoppingListSummaryOut>> {
    const { group, household } = this.scope(actor);
    await this.scan(group, household);
    const items = this.handles(group, household)
      .filter((h) => h.doc.data.id)
      .map((h) => this.presentSummary(h))
      .sort(
        (a, b) =>
          (a.name ?? "").localeCompare(b.name ?? "", undefined, { sensitivity: "base" }) ||
          a.id.localeCompare(b.id),
      );
    return listQuery(items, query, this.listTable(), {
      defaultOrderBy: null,
    });
  }

  /** The lists' table with Mealie's relations of a list: `user`, `household`, `group`, looked up live by id. */
  private listTable(): AttributeTable<ShoppingListSummaryOut> {
    if (this.listTableBuilt) return this.listTableBuilt;
    const people = peopleTables(this.larder);
    type L = ShoppingListSummaryOut;
    return (this.listTableBuilt = shoppingListAttributes.withRelations({
      user: relation.one(
        () => people.member.users,
        (l: L) => people.userOf(l.userId),
      ),
      household: relation.one(
        () => people.member.households,
        (l: L) => people.householdOf(l.householdId),
      ),
      group: relation.one(
        () => people.member.groups,
        (l: L) => people.groupOf(l.groupId),
      ),
    }));
  }
  private listTableBuilt: AttributeTable<ShoppingListSummaryOut> | null = null;

  async getList(actor: Actor, id: string): Promise<ShoppingListOut> {
    const { group, household } = this.scope(actor);
    return this.presentList(await this.readable(group, household, id));
  }

  /** The caller's list by id or by name (case-insensitive), for the CLI. */
  async findList(actor: Actor, idOrName: string): Promise<ShoppingListOut> {
    const { group, household } = this.scope(actor);
    await this.scan(group, household);
    if (isUuid(idOrName)) return this.getList(actor, idOrName);
    const want = String(idOrName).trim().toLowerCase();
    const hit = this.handles(group, household).find(
      (h) => h.doc.data.id && (h.doc.data.name ?? "").toLowerCase() === want,
    );
    if (!hit) throw new NotFoundError(`No shopping list named "${String(idOrName)}"`);
    return this.presentList(hit);
  }

  /** POST /households/shopping/lists: one label setting per group label, ordered by label name. */
  async createList(actor: Actor, input: unknown): Promise<ShoppingListOut> {
    const { user, group, household } = this.scope(actor);
    const body = ListIn.parse(input ?? {});
    const id = newId();
    const now = new Date().toISOString();
    const labels = [...group.labels.data.labels].sort((a, b) => a.name.localeCompare(b.name));
    await mkdir(this.dirOf(group, household), { recursive: true });
    const h = await this.handle(group, household, id);
    await h.doc.update(() =>
      ShoppingListDoc.parse({
        id,
        name: body.name ?? null,
        userId: user.id,
        extras: stringExtras(body.extras),
        createdAt: now,
        updatedAt: now,
        labelSettings: labels.map((l, i) => ({ id: newId(), labelId: l.id, position: i })),
        recipeReferences: [],
        items: [],
      }),
    );
    const out = this.presentList(h);
    this.emit(actor, h, "shopping_list_created", {
      documentType: "shopping_list",
      operation: "create",
      shoppingListId: id,
    });
    this.live(h, "shopping-list", "create", [stripItems(out)]);
    return out;
  }

  /**
   * PUT /households/shopping/lists/{id}: name and extras. Label settings and items are left as they
   * are (Mealie would clear the items on `listItems: []`; nobody means that, and it loses data).
   */
  async updateList(actor: Actor, id: string, input: unknown): Promise<ShoppingListOut> {
    const { group, household } = this.scope(actor);
    const h = await this.writable(group, household, id);
    const body = ListIn.parse(input ?? {});
    await h.doc.update((d) => {
      if (body.name !== undefined) d.name = body.name;
      if (body.extras !== undefined && body.extras !== null) d.extras = stringExtras(body.extras);
      d.updatedAt = new Date().toISOString();
    });
    const out = this.presentList(h);
    this.listUpdated(actor, h);
    return out;
  }

  async removeList(actor: Actor, id: string): Promise<ShoppingListOut> {
    const { group, household } = this.scope(actor);
    const h = await this.writable(group, household, id);
    const out = this.presentList(h);
    // Forgotten first, so no request finds the list while its pending writes settle and the file goes.
    this.lists.delete(h.id);
    await h.doc.idle();
    await rm(h.doc.path, { force: true });
    this.emit(actor, h, "shopping_list_deleted", {
      documentType: "shopping_list",
      operation: "delete",
      shoppingListId: h.id,
    });
    this.live(h, "shopping-list", "delete", [stripItems(out)]);
    return out;
  }

  /** PUT …/label-settings: positions of the list's labels; a setting of another list is a 400. */
  async updateLabelSettings(actor: Actor, id: string, input: unknown): Promise<ShoppingListOut> {
    const { group, household } = this.scope(actor);
    const h = await this.writable(group, household, id);
    if (!Array.isArray(input))
      throw new ValidationError([{ loc: ["body"], msg: "Input should be a valid list", type: "list_type" }]);
    const settings = input.map((x) => LabelSettingIn.parse(x));
    for (const s of settings) {
      if (s.shoppingListId !== h.id)
        throw new BadRequestError(`Label setting ${s.id ?? s.labelId} does not belong to list ${h.id}`);
      if (!group.labels.data.labels.some((l) => l.id === s.labelId))
        throw new BadRequestError(`Unknown label ${s.labelId}`);
    }
    await h.doc.update((d) => {
      const current = this.effectiveSettings(h, d);
      for (const s of settings) {
        const hit = current.find((c) => c.labelId === s.labelId);
        if (hit) hit.position = s.position;
      }
      d.labelSettings = current.map((c) => ({ id: c.id, labelId: c.labelId, position: c.position }));
      d.updatedAt = new Date().toISOString();
    });
    const out = this.presentList(h);
    this.listUpdated(actor, h);
    return out;
  }

  // ---- recipes on a list --------------------------------------------------------------------

  /** POST …/lists/{id}/recipe/{recipeId}: the recipe's ingredients (or a selection), scaled. */
  async addRecipe(
    actor: Actor,
    listId: string,
    recipeId: string,
    input: unknown,
    opts: AddRecipeOptions = {},
  ): Promise<ShoppingListOut> {
    const body = AddRecipeIn.parse(input ?? {});
    return this.addRecipes(
      actor,
      listId,
      [
        {
          recipeId,
          recipeIncrementQuantity: body.recipeIncrementQuantity,
          recipeIngredients: body.recipeIngredients,
        },
      ],
      opts,
    );
  }

  /** POST …/lists/{id}/recipe: several recipes at once. */
  async addRecipesBulk(
    actor: Actor,
    listId: string,
    input: unknown,
    opts: AddRecipeOptions = {},
  ): Promise<ShoppingListOut> {
    if (!Array.isArray(input))
      throw new ValidationError([{ loc: ["body"], msg: "Input should be a valid list", type: "list_type" }]);
    return this.addRecipes(
      actor,
      listId,
      input.map((x) => AddRecipeBulkIn.parse(x)),
      opts,
    );
  }

  private async addRecipes(
    actor: Actor,
    listId: string,
    requests: {
      recipeId: string;
      recipeIncrementQuantity?: number | null;
      recipeIngredients?: Record<string, unknown>[] | null;
    }[],
    opts: AddRecipeOptions,
  ): Promise<ShoppingListOut> {
    const { group, household } = this.scope(actor);
    const h = await this.writable(group, household, listId);
    const vocab = this.vocab(group);
    const now = new Date().toISOString();
    const prepared: { recipe: Recipe; scale: number; items: ShoppingItemRecord[] }[] = [];
    for (const r of requests) {
      const recipe = this.larder.recipes.get(actor, r.recipeId);
      const scale = r.recipeIncrementQuantity ?? 1;
      const ingredients =
        r.recipeIngredients ?? (recipe.recipeIngredient as unknown as Record<string, unknown>[]);
      const raw = this.itemsFromIngredients(actor, recipe.id, ingredients, scale, vocab, household, opts, 0);
      // Ingredients of one recipe that can merge are combined: quantities add on the item and its reference.
      const byKey = new Map<string, ShoppingItemRecord>();
      const items: ShoppingItemRecord[] = [];
      for (const it of raw) {
        const key = mergeKey(it, vocab.unitsById);
        const hit = key ? byKey.get(key) : undefined;
        if (!hit) {
          if (key) byKey.set(key, it);
          items.push(it);
          continue;
        }
        const add = quantityIn(it.quantity, it.unitId, hit.unitId, vocab.unitsById);
        const addRef = quantityIn(
          it.recipeReferences[0]?.recipeQuantity ?? 0,
          it.unitId,
          hit.unitId,
          vocab.unitsById,
        );
        hit.quantity = roundQuantity(hit.quantity + add);
        if (hit.recipeReferences[0])
          hit.recipeReferences[0].recipeQuantity = roundQuantity(
            hit.recipeReferences[0].recipeQuantity + addRef,
          );
        if (hit.foodId && it.note && normaliseNote(it.note) !== normaliseNote(hit.note))
          hit.note = hit.note ? `${hit.note} | ${it.note}` : it.note;
      }
      prepared.push({ recipe, scale, items });
    }
    let delta: ListDelta = { created: [], updated: [], deleted: [] };
    await h.doc.update((d) => {
      delta = { created: [], updated: [], deleted: [] };
      for (const p of prepared) {
        const part = this.insertItems(d, p.items, vocab, now);
        delta.created.push(...part.created);
        delta.updated.push(...part.updated);
        const ref = d.recipeReferences.find((x) => x.recipeId === p.recipe.id);
        if (ref) ref.recipeQuantity = roundQuantity(ref.recipeQuantity + p.scale);
        else d.recipeReferences.push({ id: newId(), recipeId: p.recipe.id, recipeQuantity: p.scale });
      }
      d.updatedAt = now;
    });
    this.itemsChanged(actor, h, delta);
    this.listUpdated(actor, h);
    return this.presentList(h);
  }

  /** POST …/lists/{id}/recipe/{recipeId}/delete: take `decrement` servings of the recipe off the list. */
  async removeRecipe(
    actor: Actor,
    listId: string,
    recipeId: string,
    input: unknown,
  ): Promise<ShoppingListOut> {
    const { group, household } = this.scope(actor);
    const h = await this.writable(group, household, listId);
    const body = RemoveRecipeIn.parse(input ?? {});
    const dec = body.recipeDecrementQuantity ?? 1;
    const rid =
      (
        this.larder.recipes.entryById(recipeId.toLowerCase()) ??
        this.larder.recipes.store.get(group.slug, recipeId)
      )?.id ?? recipeId.toLowerCase();
    const now = new Date().toISOString();
    let delta: ListDelta = { created: [], updated: [], deleted: [] };
    await h.doc.update((d) => {
      delta = { created: [], updated: [], deleted: [] };
      const keep: ShoppingItemRecord[] = [];
      for (const it of d.items) {
        const ref = it.recipeReferences.find((r) => r.recipeId === rid);
        if (!ref) {
          keep.push(it);
          continue;
        }
        const scale = ref.recipeScale ?? 1;
        it.quantity = roundQuantity(it.quantity - (scale > dec ? dec : scale) * ref.recipeQuantity);
        ref.recipeScale = roundQuantity(scale - dec);
        if ((ref.recipeScale ?? 0) <= 0) it.recipeReferences = it.recipeReferences.filter((r) => r !== ref);
        it.updatedAt = now;
        if (it.quantity < 0 || (it.quantity === 0 && it.recipeReferences.length === 0))
          delta.deleted.push(it);
        else {
          delta.updated.push(it);
          keep.push(it);
        }
      }
      d.items = keep;
      const lref = d.recipeReferences.find((r) => r.recipeId === rid);
      if (lref) {
        lref.recipeQuantity = roundQuantity(lref.recipeQuantity - dec);
        if (lref.recipeQuantity <= 0) d.recipeReferences = d.recipeReferences.filter((r) => r !== lref);
      }
      pruneListRefs(d);
      d.updatedAt = now;
    });
    this.itemsChanged(actor, h, delta);
    this.listUpdated(actor, h);
    return this.presentList(h);
  }

  // ---- items ----------------------------------------------------------------------------------

  /** GET /households/shopping/items: the items of every list of the household (filter by `shoppingListId`). */
  async listItems(actor: Actor, query: ListQuery): Promise<Page<ShoppingItemOut>> {
    const { group, household } = this.scope(actor);
    await this.scan(group, household);
    const items: ShoppingItemOut[] = [];
    for (const h of this.handles(group, household)) {
      if (!h.doc.data.id) continue;
      const vocab = this.vocab(group);
      for (const it of h.doc.data.items) items.push(this.presentItem(h, it, vocab));
    }
    return listQuery(items, query, shoppingItemAttributes, {
      defaultOrderBy: "position",
    });
  }

  async getItem(actor: Actor, id: string): Promise<ShoppingItemOut> {
    const { group, household } = this.scope(actor);
    const { h, item } = await this.findItem(group, household, id);
    return this.presentItem(h, item, this.vocab(group));
  }

  /** POST /households/shopping/items and /items/create-bulk. */
  async createItems(actor: Actor, input: unknown): Promise<ItemsCollectionOut> {
    const { group, household } = this.scope(actor);
    const raw = Array.isArray(input) ? input : [input];
    if (raw.length > MAX_BULK_ITEMS)
      throw new PayloadTooLargeError(
        `At most ${MAX_BULK_ITEMS} items per request; send them in several requests`,
      );
    const parsed = raw.map((x, i) => parseAt(ItemIn, x, Array.isArray(input) ? i : null));
    const vocab = this.vocab(group);
    parsed.forEach((p, i) => refuseUnknownIds(p, vocab, Array.isArray(input) ? i : null));
    const byList = new Map<string, ItemIn[]>();
    for (const p of parsed) {
      const key = p.shoppingListId.toLowerCase();
      const bucket = byList.get(key);
      if (bucket) bucket.push(p);
      else byList.set(key, [p]);
    }
    const handles = new Map<string, ListHandle>();
    for (const id of byList.keys()) handles.set(id, await this.writable(group, household, id));
    const out: ItemsCollectionOut = { createdItems: [], updatedItems: [], deletedItems: [] };
    const now = new Date().toISOString();
    let fuzzyBudget = 1000;
    for (const [id, inputs] of byList) {
      const h = handles.get(id) as ListHandle;
      const records = inputs
        .filter((p) => (p.quantity ?? 1) >= 0)
        .map((p) => {
          const rec = this.newItem(p, vocab, now);
          if (!rec.labelId && !rec.foodId && fuzzyBudget-- > 0)
            rec.labelId = this.fuzzyLabel(rec.note, group, vocab);
          return rec;
        });
      let delta: ListDelta = { created: [], updated: [], deleted: [] };
      await h.doc.update((d) => {
        delta = this.insertItems(d, records, vocab, now);
        d.updatedAt = now;
      });
      this.itemsChanged(actor, h, delta);
      out.createdItems.push(...delta.created.map((it) => this.presentItem(h, it, vocab)));
      out.updatedItems.push(...delta.updated.map((it) => this.presentItem(h, it, vocab)));
    }
    return out;
  }

  /** PUT /households/shopping/items/{id}. */
  async updateItem(actor: Actor, id: string, input: unknown): Promise<ItemsCollectionOut> {
    return this.updateItems(actor, [{ ...(asObject(input) ?? {}), id }], true);
  }

  /**
   * PUT /households/shopping/items: full or partial items with their id (fields left out keep their
   * value). A negative quantity deletes the item; items that become mergeable merge (§8).
   */
  async updateItems(actor: Actor, input: unknown, single = false): Promise<ItemsCollectionOut> {
    const { group, household } = this.scope(actor);
    if (!Array.isArray(input))
      throw new ValidationError([{ loc: ["body"], msg: "Input should be a valid list", type: "list_type" }]);
    if (input.length > MAX_BULK_ITEMS)
      throw new PayloadTooLargeError(
        `At most ${MAX_BULK_ITEMS} items per request; send them in several requests`,
      );
    const vocab = this.vocab(group);
    const seen = new Set<string>();
    const updates: (ItemIn & { id: string })[] = [];
    input.forEach((x, i) => {
      // A single item's body is the item itself: its errors are located without an index.
      const p = parseAt(ItemIn, x, single ? null : i);
      if (!p.id)
        throw new ValidationError([{ loc: ["body", i, "id"], msg: "Field required", type: "missing" }]);
      refuseUnknownIds(p, vocab, single ? null : i);
      const id = p.id.toLowerCase();
      if (seen.has(id)) return;
      seen.add(id);
      updates.push({ ...p, id });
    });
    // Resolve every item before changing anything: one unknown id and nothing is touched.
    const located: { h: ListHandle; target: ListHandle; u: ItemIn & { id: string } }[] = [];
    const index = await this.itemIndex(group, household);
    for (const u of updates) {
      const { h } = await this.findItem(group, household, u.id, index);
      const target =
        u.shoppingListId.toLowerCase() === h.id ? h : await this.writable(group, household, u.shoppingListId);
      this.refuseBroken(h);
      located.push({ h, target, u });
    }
    const out: ItemsCollectionOut = { createdItems: [], updatedItems: [], deletedItems: [] };
    const now = new Date().toISOString();
    // Items moved to another list leave theirs first.
    const moved = new Map<string, { target: ListHandle; item: ShoppingItemRecord }[]>();
    const byList = new Map<ListHandle, (ItemIn & { id: string })[]>();
    for (const { h, target, u } of located) {
      if (target === h) {
        const bucket = byList.get(h);
        if (bucket) bucket.push(u);
        else byList.set(h, [u]);
      } else {
        let taken: ShoppingItemRecord | undefined;
        await h.doc.update((d) => {
          taken = d.items.find((x) => x.id === u.id);
          d.items = d.items.filter((x) => x.id !== u.id);
          pruneListRefs(d);
          d.updatedAt = now;
        });
        if (!taken) continue;
        this.itemsChanged(actor, h, { created: [], updated: [], deleted: [taken] });
        const next = this.applyUpdate(taken, u, vocab, now);
        moved.set(target.id, [...(moved.get(target.id) ?? []), { target, item: next }]);
      }
    }
    for (const [target, list] of [...moved.entries()].map(([, v]) => [v[0].target, v] as const)) {
      let delta: ListDelta = { created: [], updated: [], deleted: [] };
      await target.doc.update((d) => {
        delta = this.insertItems(
          d,
          list.map((x) => x.item),
          vocab,
          now,
        );
        d.updatedAt = now;
      });
      this.itemsChanged(actor, target, delta);
      out.updatedItems.push(
        ...[...delta.created, ...delta.updated].map((it) => this.presentItem(target, it, vocab)),
      );
    }
    for (const [h, list] of byList) {
      let delta: ListDelta = { created: [], updated: [], deleted: [] };
      await h.doc.update((d) => {
        delta = { created: [], updated: [], deleted: [] };
        const touched: ShoppingItemRecord[] = [];
        for (const u of list) {
          const i = d.items.findIndex((x) => x.id === u.id);
          if (i < 0) continue;
          const next = this.applyUpdate(d.items[i], u, vocab, now);
          if (next.quantity < 0) {
            delta.deleted.push(d.items[i]);
            d.items.splice(i, 1);
            continue;
          }
          d.items[i] = next;
          touched.push(next);
        }
        // Mergeable items of the request merge into the first; the others go.
        const byKey = new Map<string, ShoppingItemRecord>();
        const gone = new Set<string>();
        for (const it of touched) {
          const key = mergeKey(it, vocab.unitsById);
          const hit = key ? byKey.get(key) : undefined;
          if (!hit) {
            if (key) byKey.set(key, it);
            continue;
          }
          mergeInto(hit, it, vocab.unitsById, newId);
          gone.add(it.id);
          delta.deleted.push(it);
        }
        // Then into an existing unchecked item that was not part of the request.
        const requested = new Set(list.map((u) => u.id));
        const others = new Map<string, ShoppingItemRecord>();
        for (const x of d.items) {
          if (requested.has(x.id)) continue;
          const k = mergeKey(x, vocab.unitsById);
          if (k && !others.has(k)) others.set(k, x);
        }
        for (const it of touched) {
          if (gone.has(it.id)) continue;
          const key = mergeKey(it, vocab.unitsById);
          const other = key ? others.get(key) : undefined;
          if (!other) continue;
          mergeInto(other, it, vocab.unitsById, newId);
          other.updatedAt = now;
          gone.add(it.id);
          delta.deleted.push(it);
          if (!delta.updated.includes(other)) delta.updated.push(other);
        }
        d.items = d.items.filter((x) => !gone.has(x.id));
        delta.updated.push(...touched.filter((x) => !gone.has(x.id)));
        pruneListRefs(d);
        d.updatedAt = now;
      });
      this.itemsChanged(actor, h, delta);
      out.updatedItems.push(...delta.updated.map((it) => this.presentItem(h, it, vocab)));
      out.deletedItems.push(...delta.deleted.map((it) => this.presentItem(h, it, vocab)));
    }
    return out;
  }

  /** DELETE /households/shopping/items?ids=… and /items/{id}: every id must be the household's (else 404, nothing deleted). */
  async removeItems(actor: Actor, ids: readonly string[]): Promise<{ message: string; error: false }> {
    const { group, household } = this.scope(actor);
    const byList = new Map<ListHandle, Set<string>>();
    const index = await this.itemIndex(group, household);
    for (const raw of ids) {
      const { h, item } = await this.findItem(group, household, raw, index);
      this.refuseBroken(h);
      byList.set(h, (byList.get(h) ?? new Set()).add(item.id));
    }
    const now = new Date().toISOString();
    for (const [h, set] of byList) {
      let deleted: ShoppingItemRecord[] = [];
      await h.doc.update((d) => {
        deleted = d.items.filter((x) => set.has(x.id));
        d.items = d.items.filter((x) => !set.has(x.id));
        pruneListRefs(d);
        d.updatedAt = now;
      });
      this.itemsChanged(actor, h, { created: [], updated: [], deleted });
    }
    return { message: `Successfully deleted ${ids.length} item${ids.length === 1 ? "" : "s"}`, error: false };
  }

  /** The daily job: keep the 100 most recently updated checked items of each list. Returns how many went. */
  async trimChecked(): Promise<number> {
    let removed = 0;
    for (const g of this.larder.groups.all())
      for (const hh of g.households.values()) {
        await this.scan(g, hh);
        for (const h of this.handles(g, hh)) {
          if (h.doc.broken || !h.doc.data.id) continue;
          const checked = h.doc.data.items.filter((i) => i.checked);
          if (checked.length <= KEEP_CHECKED) continue;
          const drop = new Set(
            checked
              .sort(
                (a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? "") || a.id.localeCompare(b.id),
              )
              .slice(KEEP_CHECKED)
              .map((i) => i.id),
          );
          let deleted: ShoppingItemRecord[] = [];
          await h.doc.update((d) => {
            deleted = d.items.filter((i) => drop.has(i.id));
            d.items = d.items.filter((i) => !drop.has(i.id));
            pruneListRefs(d);
          });
          removed += deleted.length;
          this.itemsChanged({ kind: "public" }, h, { created: [], updated: [], deleted });
        }
      }
    return removed;
  }

  /** List files that fail to parse (for `larder check`). */
  broken(): { path: string; message: string }[] {
    return [...this.lists.values()].flatMap((h) =>
      h.doc.broken ? [{ path: h.doc.path, message: h.doc.broken.message }] : [],
    );
  }

  async idle(): Promise<void> {
    await Promise.all([...this.opening.values()].map((p) => p.catch(() => undefined)));
    await Promise.all([...this.lists.values()].map((h) => h.doc.idle()));
  }

  // ---- internals: storage -------------------------------------------------------------------

  private scope(actor: Actor): Scope {
    return this.larder.groups.scopeOf(actor);
  }

  private dirOf(group: GroupData, household: HouseholdData): string {
    // Refuses a household folder replaced by a symlink (409) before any list folder is made through it.
    return this.larder.folder.shoppingListsDir(group.slug, household.slug);
  }

  /** Pick up list files added by hand (or by git) since the last look. */
  private async scan(group: GroupData, household: HouseholdData): Promise<void> {
    let names: string[] = [];
    try {
      names = await readdir(this.dirOf(group, household));
    } catch {
      return;
    }
    for (const n of names) {
      const m = /^(.+)\.json$/.exec(n);
      if (!m || !isUuid(m[1])) continue;
      if (!this.lists.has(m[1].toLowerCase())) await this.handle(group, household, m[1].toLowerCase());
    }
  }

  private handle(group: GroupData, household: HouseholdData, id: string): Promise<ListHandle> {
    const hit = this.lists.get(id);
    if (hit) return Promise.resolve(hit);
    let p = this.opening.get(id);
    if (!p) {
      const path = join(this.dirOf(group, household), `${id}.json`);
      p = JsonDoc.open(path, {
        schema: ShoppingListDoc,
        defaults: emptyDoc,
        tmpDir: this.larder.folder.tmpDir,
        arraysSortedBy: ["items", "labelSettings", "recipeReferences"],
      }).then(
        (doc) => {
          const h: ListHandle = { id, group, household, doc };
          this.lists.set(id, h);
          this.opening.delete(id);
          if (doc.broken)
            this.larder.log.warn(
              `${path} cannot be read (${doc.broken.message}); that list answers 500 and is not written until the file is fixed`,
            );
          return h;
        },
        (e: unknown) => {
          this.opening.delete(id);
          throw e;
        },
      );
      this.opening.set(id, p);
    }
    return p;
  }

  private handles(group: GroupData, household: HouseholdData): ListHandle[] {
    return [...this.lists.values()].filter((h) => h.group === group && h.household === household);
  }

  /**
   * A list of the caller's household that can be read: 404 for any other. A list whose file a hand edit
   * broke answers with its last good state; one broken since it was first read has none: 500.
   */
  private async readable(group: GroupData, household: HouseholdData, id: string): Promise<ListHandle> {
    const key = String(id).toLowerCase();
    if (!isUuid(key)) throw new NotFoundError();
    if (!this.lists.has(key)) await this.scan(group, household);
    const h = this.lists.get(key);
    if (!h || h.group !== group || h.household !== household) throw new NotFoundError();
    if (h.doc.broken && !h.doc.data.id)
      throw brokenDocError(this.larder.folder.root, h.doc.path, h.doc.broken.message);
    if (!h.doc.data.id) throw new NotFoundError();
    return h;
  }

  /** A list that may be changed: readable, and its file not broken (409: a hand edit is never overwritten). */
  private async writable(group: GroupData, household: HouseholdData, id: string): Promise<ListHandle> {
    const h = await this.readable(group, household, id);
    this.refuseBroken(h);
    return h;
  }

  private refuseBroken(h: ListHandle): void {
    if (h.doc.broken) throw brokenDocConflict(this.larder.folder.root, h.doc.path, h.doc.broken.message);
  }

  private async findItem(
    group: GroupData,
    household: HouseholdData,
    id: string,
    index?: Map<string, { h: ListHandle; item: ShoppingItemRecord }>,
  ): Promise<{ h: ListHandle; item: ShoppingItemRecord }> {
    const key = String(id).toLowerCase();
    const found = isUuid(key) ? (index ?? (await this.itemIndex(group, household))).get(key) : undefined;
    if (!found) throw new NotFoundError();
    if (found.h.doc.broken && !found.h.doc.data.id)
      throw brokenDocError(this.larder.folder.root, found.h.doc.path, found.h.doc.broken.message);
    return found;
  }

  /** Every item of the household by id, for one request (a bulk call of 10,000 items stays linear). */
  private async itemIndex(
    group: GroupData,
    household: HouseholdData,
  ): Promise<Map<string, { h: ListHandle; item: ShoppingItemRecord }>> {
    await this.scan(group, household);
    const index = new Map<string, { h: ListHandle; item: ShoppingItemRecord }>();
    for (const h of this.handles(group, household))
      for (const item of h.doc.data.items) index.set(item.id, { h, item });
    return index;
  }

  // ---- internals: items -----------------------------------------------------------------------

  private newItem(p: ItemIn, vocab: Vocab, now: string): ShoppingItemRecord {
    const foodId = knownId(p.foodId ?? p.food?.id, vocab.foods);
    const unitId = knownId(p.unitId ?? p.unit?.id, vocab.units);
    const labelId =
      knownId(p.labelId, vocab.labels) ?? (foodId ? (vocab.foods.get(foodId)?.labelId ?? null) : null);
    const id = p.id && isUuid(p.id) ? p.id.toLowerCase() : newId();
    const checked = p.checked ?? false;
    return {
      id,
      position: p.position ?? 0,
      checked,
      quantity: roundQuantity(p.quantity ?? 1),
      note: p.note ?? "",
      foodId,
      unitId,
      labelId,
      extras: stringExtras(p.extras),
      recipeReferences: checked ? [] : (p.recipeReferences ?? []).map((r) => refFrom(r, id)),
      createdAt: now,
      updatedAt: now,
    };
  }

  private applyUpdate(cur: ShoppingItemRecord, u: ItemIn, vocab: Vocab, now: string): ShoppingItemRecord {
    const next: ShoppingItemRecord = structuredClone(cur);
    if (u.quantity !== undefined && u.quantity !== null) next.quantity = roundQuantity(u.quantity);
    if (u.note !== undefined) next.note = u.note ?? "";
    if (u.checked !== undefined && u.checked !== null) next.checked = u.checked;
    if (u.position !== undefined && u.position !== null) next.position = u.position;
    if (u.foodId !== undefined || u.food !== undefined)
      next.foodId = knownId(u.foodId ?? u.food?.id, vocab.foods);
    if (u.unitId !== undefined || u.unit !== undefined)
      next.unitId = knownId(u.unitId ?? u.unit?.id, vocab.units);
    if (u.labelId !== undefined) next.labelId = knownId(u.labelId, vocab.labels);
    if (u.extras !== undefined && u.extras !== null) next.extras = stringExtras(u.extras);
    if (u.recipeReferences !== undefined && u.recipeReferences !== null)
      next.recipeReferences = u.recipeReferences.map((r) => refFrom(r, cur.id));
    // Checked items lose their recipe references (Mealie's rule).
    if (next.checked) next.recipeReferences = [];
    if (JSON.stringify(next) !== JSON.stringify(cur)) next.updatedAt = now;
    return next;
  }

  /**
   * Bulk-create rules (§8): merge mergeable new items among themselves, then into an existing
   * unchecked item of the list (reported as updated). Runs inside the list's update, on its current state.
   */
  private insertItems(
    d: ShoppingListDoc,
    records: ShoppingItemRecord[],
    vocab: Vocab,
    now: string,
  ): ListDelta {
    const delta: ListDelta = { created: [], updated: [], deleted: [] };
    const existing = new Map<string, ShoppingItemRecord>();
    for (const it of d.items) {
      const key = mergeKey(it, vocab.unitsById);
      if (key && !existing.has(key)) existing.set(key, it);
    }
    const fresh = new Map<string, ShoppingItemRecord>();
    const taken = new Set(d.items.map((i) => i.id));
    for (const rec0 of records) {
      const rec = structuredClone(rec0);
      const key = mergeKey(rec, vocab.unitsById);
      const into = key ? (existing.get(key) ?? fresh.get(key)) : undefined;
      if (into) {
        mergeInto(into, rec, vocab.unitsById, newId);
        into.updatedAt = now;
        if (existing.get(key as string) === into && !delta.updated.includes(into)) delta.updated.push(into);
        continue;
      }
      if (taken.has(rec.id)) rec.id = newId();
      taken.add(rec.id);
      for (const r of rec.recipeReferences) r.id = r.id || newId();
      d.items.push(rec);
      delta.created.push(rec);
      if (key) fresh.set(key, rec);
    }
    return delta;
  }

  /** Items built from recipe ingredients (§8 "Add a recipe"); sub-recipes are expanded (three levels at most). */
  private itemsFromIngredients(
    actor: Actor,
    recipeId: string,
    ingredients: Record<string, unknown>[],
    scale: number,
    vocab: Vocab,
    household: HouseholdData,
    opts: AddRecipeOptions,
    depth: number,
  ): ShoppingItemRecord[] {
    const out: ShoppingItemRecord[] = [];
    const now = new Date().toISOString();
    for (const ing of ingredients) {
      const q = typeof ing.quantity === "number" && Number.isFinite(ing.quantity) ? ing.quantity : 0;
      const sub = asObject(ing.referencedRecipe);
      if (sub && typeof sub.id === "string" && depth < 3) {
        try {
          const inner = this.larder.recipes.get(actor, sub.id);
          out.push(
            ...this.itemsFromIngredients(
              actor,
              recipeId,
              inner.recipeIngredient as unknown as Record<string, unknown>[],
              scale * (q || 1),
              vocab,
              household,
              opts,
              depth + 1,
            ),
          );
          continue;
        } catch {
          // A sub-recipe that is gone leaves its line as a note.
        }
      }
      const foodId = knownId(asObject(ing.food)?.id as string | undefined, vocab.foods);
      if (
        opts.skipOnHand &&
        foodId &&
        vocab.foods.get(foodId)?.householdsWithIngredientFood.includes(household.slug)
      )
        continue;
      const unitId = knownId(asObject(ing.unit)?.id as string | undefined, vocab.units);
      const note = typeof ing.note === "string" ? ing.note : "";
      const id = newId();
      out.push({
        id,
        position: 0,
        checked: false,
        quantity: roundQuantity(q * scale),
        note,
        foodId,
        unitId,
        labelId: foodId ? (vocab.foods.get(foodId)?.labelId ?? null) : null,
        extras: {},
        recipeReferences: [
          {
            id: newId(),
            recipeId,
            recipeQuantity: roundQuantity(q),
            recipeScale: scale,
            recipeNote: note || null,
          },
        ],
        createdAt: now,
        updatedAt: now,
      });
    }
    return out;
  }

  /** A label for a note-only item from the food whose name it resembles (Mealie: fuzzy ratio ≥ 80). */
  private fuzzyLabel(note: string, group: GroupData, vocab: Vocab): string | null {
    const text = normaliseNote(note);
    if (!text || text.length > 60) return null;
    let best: { score: number; labelId: string } | null = null;
    for (const c of this.labelledNames(group, vocab)) {
      // ratio ≥ 80 needs lengths within a factor of 1.5 of each other: skip the rest without comparing.
      if (c.name.length * 2 < text.length * 1.33 || text.length * 2 < c.name.length * 1.33) continue;
      const s = ratio(text, c.name);
      if (s >= 80 && (!best || s > best.score)) best = { score: s, labelId: c.labelId };
    }
    return best?.labelId ?? null;
  }

  /** The group's labelled food names (name, plural, aliases), lower-cased; rebuilt when foods change. */
  private labelledNames(group: GroupData, vocab: Vocab): { name: string; labelId: string }[] {
    vocab.labelledNames ??= group.foods.data.foods.flatMap((f) =>
      f.labelId && vocab.labels.has(f.labelId)
        ? [f.name, f.pluralName, ...f.aliases.map((a) => a.name)]
            .filter((n): n is string => !!n)
            .map((n) => ({ name: n.toLowerCase(), labelId: f.labelId as string }))
        : [],
    );
    return vocab.labelledNames;
  }

  private vocab(group: GroupData): Vocab {
    const key = group.foods.data as object;
    const cached = this.vocabCache.get(key);
    if (cached && cached.units === this.unitMapFor(group) && cached.labels === this.labelMapFor(group))
      return cached;
    const units = this.unitMapFor(group);
    const v: Vocab = {
      foods: new Map(group.foods.data.foods.map((f) => [f.id, f])),
      units,
      labels: this.labelMapFor(group),
      unitsById: (id) => units.get(id) ?? null,
    };
    this.vocabCache.set(key, v);
    return v;
  }

  private unitMaps = new WeakMap<object, Map<string, UnitRecord>>();
  private labelMaps = new WeakMap<object, Map<string, LabelRecord>>();
  private unitMapFor(group: GroupData): Map<string, UnitRecord> {
    const k = group.units.data as object;
    let m = this.unitMaps.get(k);
    if (!m) this.unitMaps.set(k, (m = new Map(group.units.data.units.map((u) => [u.id, u]))));
    return m;
  }
  private labelMapFor(group: GroupData): Map<string, LabelRecord> {
    const k = group.labels.data as object;
    let m = this.labelMaps.get(k);
    if (!m) this.labelMaps.set(k, (m = new Map(group.labels.data.labels.map((l) => [l.id, l]))));
    return m;
  }

  // ---- internals: presentation, events -----------------------------------------------------

  private presentItem(h: ListHandle, it: ShoppingItemRecord, vocab: Vocab): ShoppingItemOut {
    const groupId = h.group.doc.data.id;
    const food = it.foodId ? (vocab.foods.get(it.foodId) ?? null) : null;
    const unit = it.unitId ? (vocab.units.get(it.unitId) ?? null) : null;
    const labelRec =
      (it.labelId ? vocab.labels.get(it.labelId) : null) ??
      (food?.labelId ? vocab.labels.get(food.labelId) : null) ??
      null;
    const foodOut = food
      ? presentFood(
          food,
          groupId,
          food.labelId ? (vocab.labels.get(food.labelId) ?? null) : null,
          h.household.slug,
        )
      : null;
    const unitOut = unit ? presentUnit(unit, groupId) : null;
    return {
      quantity: it.quantity,
      unit: unitOut,
      food: foodOut,
      referencedRecipe: null,
      note: it.note,
      display: ingredientDisplay(
        { quantity: it.quantity, unit: unitOut, food: foodOut, note: it.note },
        false,
      ),
      shoppingListId: h.id,
      checked: it.checked,
      position: it.position,
      foodId: food ? food.id : null,
      labelId: it.labelId && vocab.labels.has(it.labelId) ? it.labelId : null,
      unitId: unit ? unit.id : null,
      extras: { ...it.extras },
      id: it.id,
      groupId,
      householdId: h.household.doc.data.id,
      label: labelRec ? presentLabel(labelRec, groupId) : null,
      recipeReferences: it.recipeReferences.map((r) => ({
        recipeId: r.recipeId,
        recipeQuantity: r.recipeQuantity,
        recipeScale: r.recipeScale,
        recipeNote: r.recipeNote,
        id: r.id,
        shoppingListItemId: it.id,
      })),
      createdAt: it.createdAt,
      updatedAt: it.updatedAt,
    };
  }

  /** Stored settings for labels that still exist, then one per newer label (appended, as Mealie does). */
  private effectiveSettings(
    h: ListHandle,
    d: ShoppingListDoc = h.doc.data,
  ): { id: string; labelId: string; position: number }[] {
    const labels = h.group.labels.data.labels;
    const byId = new Map(labels.map((l) => [l.id, l]));
    const out = d.labelSettings.filter((s) => byId.has(s.labelId)).map((s) => ({ ...s }));
    const have = new Set(out.map((s) => s.labelId));
    const missing = labels
      .filter((l) => !have.has(l.id))
      .sort((a, b) => (a.createdAt ?? "").localeCompare(b.createdAt ?? "") || a.name.localeCompare(b.name));
    for (const l of missing)
      out.push({ id: derivedId(h.id, "label-setting", l.id), labelId: l.id, position: out.length });
    return out.sort((a, b) => a.position - b.position || a.labelId.localeCompare(b.labelId));
  }

  private presentSummary(h: ListHandle): ShoppingListSummaryOut {
    const d = h.doc.data;
    const groupId = h.group.doc.data.id;
    const labels = new Map(h.group.labels.data.labels.map((l) => [l.id, l]));
    const recipeReferences: ListRecipeRefOut[] = [];
    for (const r of d.recipeReferences) {
      const entry = this.larder.recipes.entryById(r.recipeId);
      if (!entry || entry.groupSlug !== h.group.slug) continue;
      recipeReferences.push({
        id: r.id,
        shoppingListId: h.id,
        recipeId: r.recipeId,
        recipeQuantity: r.recipeQuantity,
        recipe: this.larder.recipes.summaryOf(entry),
      });
    }
    return {
      name: d.name,
      extras: { ...d.extras },
      createdAt: d.createdAt,
      updatedAt: d.updatedAt,
      groupId,
      userId: d.userId,
      id: h.id,
      householdId: h.household.doc.data.id,
      recipeReferences,
      labelSettings: this.effectiveSettings(h).map((s) => ({
        shoppingListId: h.id,
        labelId: s.labelId,
        position: s.position,
        id: s.id,
        label: presentLabel(labels.get(s.labelId) as LabelRecord, groupId),
      })),
    };
  }

  private presentList(h: ListHandle): ShoppingListOut {
    const vocab = this.vocab(h.group);
    const listItems = [...h.doc.data.items]
      .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
      .map((it) => this.presentItem(h, it, vocab));
    const s = this.presentSummary(h);
    return { ...s, listItems };
  }

  private emit(actor: Actor, h: ListHandle, eventType: EventType, documentData: EventDocument): void {
    this.larder.events.publish({
      eventType,
      groupId: h.group.doc.data.id,
      householdId: h.household.doc.data.id,
      integrationId: integrationOf(actor),
      documentData,
    });
  }

  private live(
    h: ListHandle,
    kind: "shopping-list" | "shopping-item",
    operation: "create" | "update" | "delete",
    data: unknown[],
  ): void {
    this.larder.live.publish({
      groupId: h.group.doc.data.id,
      householdId: h.household.doc.data.id,
      kind,
      operation,
      data,
    });
  }

  private listUpdated(actor: Actor, h: ListHandle): void {
    this.emit(actor, h, "shopping_list_updated", {
      documentType: "shopping_list",
      operation: "update",
      shoppingListId: h.id,
    });
    this.live(h, "shopping-list", "update", [this.presentSummary(h)]);
  }

  /** One event per list per operation (Mealie), and the changed items on the live channel. */
  private itemsChanged(actor: Actor, h: ListHandle, delta: ListDelta): void {
    const vocab = this.vocab(h.group);
    for (const [operation, items] of [
      ["create", delta.created],
      ["update", delta.updated],
      ["delete", delta.deleted],
    ] as const) {
      if (items.length === 0) continue;
      this.emit(actor, h, "shopping_list_updated", {
        documentType: "shopping_list_item",
        operation,
        shoppingListId: h.id,
        shoppingListItemIds: items.map((i) => i.id),
      });
      this.live(
        h,
        "shopping-item",
        operation,
        items.map((i) => this.presentItem(h, i, vocab)),
      );
    }
  }
}

// ---- helpers --------------------------------------------------------------------------------------

function stripItems(l: ShoppingListOut): ShoppingListSummaryOut {
  const { listItems: _omit, ...rest } = l;
  return rest;
}

/** List-level recipe references that no item still references are removed (§8). */
function pruneListRefs(d: ShoppingListDoc): void {
  const used = new Set<string>();
  for (const it of d.items) for (const r of it.recipeReferences) used.add(r.recipeId);
  d.recipeReferences = d.recipeReferences.filter((r) => used.has(r.recipeId));
}

function refFrom(r: z.infer<typeof refIn>, itemId: string): ItemRecipeRef {
  return {
    id: r.id && isUuid(r.id) ? r.id.toLowerCase() : derivedId(itemId, "ref", r.recipeId.toLowerCase()),
    recipeId: r.recipeId.toLowerCase(),
    recipeQuantity: roundQuantity(r.recipeQuantity ?? 0),
    recipeScale: r.recipeScale === null ? null : roundQuantity(r.recipeScale ?? 1),
    recipeNote: r.recipeNote ?? null,
  };
}

function knownId<T>(id: string | null | undefined, map: Map<string, T>): string | null {
  if (!id) return null;
  const k = id.toLowerCase();
  return map.has(k) ? k : map.has(id) ? id : null;
}

/** Mealie's list and item `extras` are str→str; other values are kept as their JSON text. */
function stringExtras(x: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(x ?? {})) out[k] = typeof v === "string" ? v : JSON.stringify(v);
  return out;
}

/**
 * 422 naming each food, unit or label id of an item that is not one of the group's. Dropped
 * silently, the item was saved as a note without its food, and the client never knew (a food
 * deleted meanwhile, another group's id, a typo). Mealie's database refuses such an id too.
 */
function refuseUnknownIds(p: ItemIn, vocab: Vocab, index: number | null): void {
  const issues: ValidationIssue[] = [];
  const at = index === null ? [] : [index];
  const check = (id: string | null | undefined, known: Map<string, unknown>, loc: string[], what: string) => {
    if (id && knownId(id, known) === null)
      issues.push({
        loc: ["body", ...at, ...loc],
        msg: `Value error, no ${what} with this id in your group`,
        type: "value_error",
        input: id,
      });
  };
  check(p.foodId, vocab.foods, ["foodId"], "food");
  if (!p.foodId) check(p.food?.id, vocab.foods, ["food", "id"], "food");
  check(p.unitId, vocab.units, ["unitId"], "unit");
  if (!p.unitId) check(p.unit?.id, vocab.units, ["unit", "id"], "unit");
  check(p.labelId, vocab.labels, ["labelId"], "label");
  if (issues.length > 0) throw new ValidationError(issues);
}

function asObject(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function parseAt<T>(schema: z.ZodType<T>, value: unknown, index: number | null): T {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  throw new ValidationError(validationDetail(r.error, "body", { value }, index === null ? [] : [index]));
}

/** rapidfuzz's `ratio`: 100 × (1 − indel distance / total length). */
function ratio(a: string, b: string): number {
  if (!a.length && !b.length) return 100;
  const m = a.length;
  const n = b.length;
  // Longest common subsequence; indel distance = m + n − 2·lcs.
  let prev = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    const cur = new Array<number>(n + 1).fill(0);
    for (let j = 1; j <= n; j++)
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return (200 * prev[n]) / (m + n);
}
