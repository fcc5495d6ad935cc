/**
 * Foods and units as a signed-in person uses them (mealie-api-notes §4.8): scoped to the actor's group,
 * answered in the wire shape, with the cascades (rename, delete, merge rewrite the recipes that use
 * them) here in core rather than in a route (issue 12).
 */
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import type { FoodRecord, UnitRecord } from "../schemas/records.js";
import type { IngredientFood, IngredientUnit } from "../schemas/recipe.js";
import type { PageEnvelope, QueryRecord } from "../query/paginate.js";
import { listQuery } from "../query/list.js";
import { textRanker } from "../search/text-search.js";
import { foodAttributes, unitAttributes } from "../query/attributes.js";
import { presentFood, presentUnit } from "../presenters/vocabulary.js";

type Kind = "foods" | "units";
type Out<K extends Kind> = K extends "foods" ? IngredientFood : IngredientUnit;

export class VocabularyActions {
  constructor(private readonly larder: Larder) {}

  private out<K extends Kind>(actor: Actor, kind: K, r: FoodRecord | UnitRecord): Out<K> {
    const { group, household } = this.larder.groups.scopeOf(actor);
    const groupId = group.doc.data.id;
    if (kind === "units") return presentUnit(r as UnitRecord, groupId) as Out<K>;
    const f = r as FoodRecord;
    const label = f.labelId ? (group.labels.data.labels.find((l) => l.id === f.labelId) ?? null) : null;
    return presentFood(f, groupId, label, household.slug) as Out<K>;
  }

  private group(actor: Actor) {
    return this.larder.groups.scopeOf(actor).group;
  }

  /** GET /foods, /units: Mealie's list query (search over names and abbreviations). */
  list<K extends Kind>(
    actor: Actor,
    kind: K,
    query: QueryRecord,
    route = `/api/${kind}`,
  ): PageEnvelope<Out<K>> {
    const items = this.larder.vocabulary.list(this.group(actor), kind).map((r) => this.out(actor, kind, r));
    if (kind === "foods") {
      return listQuery(items as IngredientFood[], query, foodAttributes, {
        route,
        search: textRanker<IngredientFood>([(f) => f.name, (f) => f.pluralName]),
        nullsInLinks: "none",
      }) as PageEnvelope<Out<K>>;
    }
    return listQuery(items as IngredientUnit[], query, unitAttributes, {
      route,
      search: textRanker<IngredientUnit>([
        (u) => u.name,
        (u) => u.pluralName,
        (u) => u.abbreviation,
        (u) => u.pluralAbbreviation,
      ]),
      nullsInLinks: "none",
    }) as PageEnvelope<Out<K>>;
  }

  get<K extends Kind>(actor: Actor, kind: K, id: string): Out<K> {
    return this.out(actor, kind, this.larder.vocabulary.get(this.group(actor), kind, id));
  }

  async create<K extends Kind>(actor: Actor, kind: K, input: unknown): Promise<Out<K>> {
    return this.out(actor, kind, await this.larder.vocabulary.create(this.group(actor), kind, input));
  }

  /** Update; a new name is written into every recipe that used the old one. */
  async update<K extends Kind>(actor: Actor, kind: K, id: string, input: unknown): Promise<Out<K>> {
    const g = this.group(actor);
    const { record, old } = await this.larder.vocabulary.update(g, kind, id, input);
    if (old.name !== record.name) await this.larder.recipes.renameVocabulary(g, kind, old.name, record.name);
    return this.out(actor, kind, record);
  }

  /** Delete; recipes keep the name as the ingredient's note. Answers the item as it was. */
  async remove<K extends Kind>(actor: Actor, kind: K, id: string): Promise<Out<K>> {
    const g = this.group(actor);
    const removed = await this.larder.vocabulary.remove(g, kind, id);
    await this.larder.recipes.renameVocabulary(g, kind, removed.name, null);
    return this.out(actor, kind, removed);
  }

  /** PUT /foods/merge, /units/merge: recipes move to `toId`, then `fromId` is deleted. */
  async merge(actor: Actor, kind: Kind, fromId: string, toId: string): Promise<void> {
    await this.larder.recipes.mergeVocabulary(this.group(actor), kind, fromId, toId);
  }
}
