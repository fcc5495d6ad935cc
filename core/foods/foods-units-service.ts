/**
 * Foods and units for a signed-in actor (the data-management screens, spec §2): the actor's own group
 * only, answers in wire shape (IngredientFood / IngredientUnit), and a rename or merge carried into the
 * recipe files that name the item, for the screens and the API alike. The permission of the screens (canOrganize, spec §6) is the route
 * guard's; like Mealie's API, core lets any member of the group edit its vocabulary.
 */
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import { NotFoundError } from "../errors.js";
import type { IngredientFood, IngredientUnit } from "../schemas/recipe.js";
import type { FoodRecord, UnitRecord } from "../schemas/records.js";
import { presentFood, presentUnit } from "../presenters/vocabulary.js";
import { signedIn } from "../users/accounts-service.js";
import type { ListQuery, Page } from "../query/list-query.js";
import { listQuery } from "../query/list.js";
import { textRanker } from "../search/text-search.js";
import { foodAttributes, unitAttributes } from "../query/attributes.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "groups" | "recipes" | "vocabulary">;

export type VocabularyKind = "foods" | "units";
type Out<K extends VocabularyKind> = K extends "foods" ? IngredientFood : IngredientUnit;

/** What an update renamed, for the recipes that name it. */
function renamed({ record, old }: { record: { name: string }; old: { name: string } }) {
  return old.name === record.name ? null : { from: old.name, to: record.name };
}

/** Case- and accent-insensitive containment, the way the list screens filter as one types. */
function fold(s: string | null | undefined): string {
  return (s ?? "").normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

export class FoodsUnitsService {
  constructor(private readonly larder: Deps) {}

  /** Every food or unit of the actor's group, by name; `search` keeps those whose names contain it. */
  list<K extends VocabularyKind>(actor: Actor, kind: K, search = ""): Out<K>[] {
    const g = this.group(actor);
    const needle = fold(search.trim());
    const all = this.larder.vocabulary.list(g, kind) as (FoodRecord | UnitRecord)[];
    const names = (r: FoodRecord | UnitRecord): (string | null)[] =>
      kind === "units"
        ? [r.name, r.pluralName, (r as UnitRecord).abbreviation, (r as UnitRecord).pluralAbbreviation]
        : [r.name, r.pluralName, ...r.aliases.map((a) => a.name)];
    return all
      .filter((r) => !needle || names(r).some((n) => fold(n).includes(needle)))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((r) => this.present(actor, g, kind, r));
  }

  /** GET /foods, /units: Mealie's list query (search over names and abbreviations, filter, order, pages). */
  query<K extends VocabularyKind>(actor: Actor, kind: K, query: ListQuery): Page<Out<K>> {
    const g = this.group(actor);
    const items = this.larder.vocabulary.list(g, kind).map((r) => this.present(actor, g, kind, r));
    if (kind === "foods") {
      return listQuery(items as IngredientFood[], query, foodAttributes, {
        search: textRanker<IngredientFood>([(f) => f.name, (f) => f.pluralName]),
      }) as Page<Out<K>>;
    }
    return listQuery(items as IngredientUnit[], query, unitAttributes, {
      search: textRanker<IngredientUnit>([
        (u) => u.name,
        (u) => u.pluralName,
        (u) => u.abbreviation,
        (u) => u.pluralAbbreviation,
      ]),
    }) as Page<Out<K>>;
  }

  get<K extends VocabularyKind>(actor: Actor, kind: K, id: string): Out<K> {
    const g = this.group(actor);
    return this.present(actor, g, kind, this.larder.vocabulary.get(g, kind, id));
  }

  /** PUT /foods/{id}, /units/{id}: the whole item replaced (as Mealie's API does); renames cascade. */
  async replace<K extends VocabularyKind>(
    actor: Actor,
    kind: K,
    id: string,
    input: unknown,
  ): Promise<Out<K>> {
    const g = this.group(actor);
    const { record } = await this.larder.recipes.changeVocabulary(
      g,
      kind,
      () => this.larder.vocabulary.update(g, kind, id, input),
      renamed,
    );
    return this.present(actor, g, kind, record);
  }

  async create<K extends VocabularyKind>(actor: Actor, kind: K, input: unknown): Promise<Out<K>> {
    const g = this.group(actor);
    const rec = await this.larder.vocabulary.create(g, kind, input);
    return this.present(actor, g, kind, rec);
  }

  /**
   * Changes the fields `patch` names and keeps the others (the API's PUT replaces the whole item); a
   * new name is written into every recipe of the group that used the old one.
   */
  async update<K extends VocabularyKind>(
    actor: Actor,
    kind: K,
    id: string,
    patch: Record<string, unknown>,
  ): Promise<Out<K>> {
    const g = this.group(actor);
    const { record } = await this.larder.recipes.changeVocabulary(
      g,
      kind,
      // Read when the change runs: one asked for just before it may have changed the record meanwhile.
      () =>
        this.larder.vocabulary.update(g, kind, id, { ...this.larder.vocabulary.get(g, kind, id), ...patch }),
      renamed,
    );
    return this.present(actor, g, kind, record);
  }

  async remove<K extends VocabularyKind>(actor: Actor, kind: K, id: string): Promise<Out<K>> {
    const g = this.group(actor);
    const removed = await this.larder.recipes.changeVocabulary(
      g,
      kind,
      () => this.larder.vocabulary.remove(g, kind, id),
      (r) => ({ from: r.name, to: null }),
    );
    return this.present(actor, g, kind, removed);
  }

  /** `from` disappears; recipes that named it name `to` instead. */
  async merge(actor: Actor, kind: VocabularyKind, fromId: string, toId: string): Promise<void> {
    await this.larder.recipes.mergeVocabulary(this.group(actor), kind, fromId, toId);
  }

  /** On hand is per household (mealie-api-notes §0.1): only the actor's household is added or removed. */
  async setOnHand(actor: Actor, foodId: string, onHand: boolean): Promise<IngredientFood> {
    const g = this.group(actor);
    const slug = this.householdSlug(actor);
    const cur = this.larder.vocabulary.get(g, "foods", foodId);
    const others = cur.householdsWithIngredientFood.filter((h) => h !== slug);
    return this.update(actor, "foods", foodId, {
      householdsWithIngredientFood: onHand ? [...others, slug] : others,
    });
  }

  private present<K extends VocabularyKind>(
    actor: Actor,
    g: GroupData,
    kind: K,
    r: FoodRecord | UnitRecord,
  ): Out<K> {
    if (kind === "units") return presentUnit(r as UnitRecord, g.doc.data.id) as Out<K>;
    const f = r as FoodRecord;
    const label = f.labelId ? (g.labels.data.labels.find((l) => l.id === f.labelId) ?? null) : null;
    return presentFood(f, g.doc.data.id, label, this.householdSlug(actor)) as Out<K>;
  }

  private group(actor: Actor): GroupData {
    const g = this.larder.groups.byId(signedIn(actor).groupId);
    if (!g) throw new NotFoundError("group not found");
    return g;
  }

  private householdSlug(actor: Actor): string {
    const me = signedIn(actor);
    const h = this.larder.groups.household(me.groupId, me.householdId);
    if (!h) throw new NotFoundError("household not found");
    return h.slug;
  }
}
