/**
 * Cookbooks (mealie-api-notes §4.5): saved recipe filters of a household, `cookbooks.json` in its
 * folder. Reads and writes are household-scoped; a cookbook's recipes come from every household of
 * the group. Slugs are unique per group and deduplicated as `slug`, `slug-1`, … while the name stays.
 */
import { keepLeftAlone } from "../util/left-alone.js";
import { rowTimeAttributes, timed, type Timed } from "../query/row-times.js";
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import { BadRequestError, NotFoundError, ValidationError } from "../errors.js";
import { CookbookRecord, CookbooksDoc } from "../schemas/household-records.js";
import type { RecipeSummary } from "../schemas/recipe.js";
import { DocCache } from "../storage/doc-cache.js";
import { recipeAttributes, type RecipeIndexEntry } from "../query/attributes.js";
import { AttributeTable, attr } from "../query/attribute-table.js";
import { compileQueryFilter, type Predicate } from "../query/filter-eval.js";
import { mentionsNow } from "../query/now-placeholder.js";
import { queryFilterParts, type QueryFilterPart } from "../query/query-filter.js";
import { listQuery } from "../query/list.js";
import type { ListQuery, Page } from "../query/list-query.js";
import { isUuid, newId } from "../util/ids.js";
import { slugify } from "../util/slug.js";
import { lazySchema } from "../util/lazy-schema.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "events" | "folder" | "groups" | "log" | "recipes">;

export const CookbookIn = lazySchema(() =>
  z
    .object({
      name: z.string().max(255, "Must Be At Most 255 Characters"),
      description: z.string().max(10_000).nullish(),
      slug: z.string().nullish(),
      position: z.number().int().nullish(),
      public: z.boolean().nullish(),
      queryFilterString: z.string().max(10_000).nullish(),
    })
    .loose(),
);
const CookbookUpdateIn = lazySchema(() => CookbookIn.extend({ id: z.string() }));

/** ReadCookBook of the contract. */
export interface CookbookOut {
  name: string;
  description: string;
  slug: string;
  position: number;
  public: boolean;
  queryFilterString: string;
  groupId: string;
  householdId: string;
  id: string;
  queryFilter: { parts: QueryFilterPart[] };
  household: { id: string; name: string };
}

type Cb = CookbookOut;
export const cookbookAttributes = new AttributeTable<Timed<CookbookOut>>("cookbook", {
  ...rowTimeAttributes<Cb>(),
  id: attr.uuid((c: Cb) => c.id),
  name: attr.string((c: Cb) => c.name),
  slug: attr.string((c: Cb) => c.slug),
  description: attr.string((c: Cb) => c.description),
  position: attr.number((c: Cb) => c.position),
  public: attr.boolean((c: Cb) => c.public),
  queryFilterString: attr.string((c: Cb) => c.queryFilterString),
  groupId: attr.uuid((c: Cb) => c.groupId),
  householdId: attr.uuid((c: Cb) => c.householdId),
  "household.id": attr.uuid((c: Cb) => c.householdId),
  "household.name": attr.string((c: Cb) => c.household.name),
});

interface Scope {
  group: GroupData;
  household: HouseholdData;
}

/** The fields the cookbooks page's dialog edits, each kept as it is now when the dialog left it alone. */
const COOKBOOK_FIELDS = ["name", "description", "public", "queryFilterString"] as const;
type CookbookField = (typeof COOKBOOK_FIELDS)[number];

export class CookbooksService {
  private readonly docs: DocCache<CookbooksDoc>;
  private readonly filters = new Map<string, Predicate<RecipeIndexEntry> | null>();

  private constructor(private readonly larder: Deps) {
    this.docs = new DocCache<CookbooksDoc>({
      schema: CookbooksDoc,
      defaults: () => CookbooksDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      arraysSortedBy: ["cookbooks"],
      onError: (path, e) => larder.log.error(`could not open ${path}:`, e),
    });
  }

  static async open(larder: Deps): Promise<CookbooksService> {
    const s = new CookbooksService(larder);
    for (const g of larder.groups.all())
      for (const h of g.households.values()) await s.docs.get(s.pathOf(g, h));
    return s;
  }

  /** GET /households/cookbooks. */
  list(actor: Actor, query: ListQuery): Page<CookbookOut> {
    const { group, household } = this.scope(actor);
    const items = this.records(group, household).map((c) => timed(present(c, group, household), c));
    return listQuery(items, query, cookbookAttributes, { defaultOrderBy: null });
  }

  /** GET /households/cookbooks/{idOrSlug}: the cookbook and the group's recipes its filter selects. */
  get(actor: Actor, idOrSlug: string): CookbookOut & { recipes: RecipeSummary[] } {
    const { group, household } = this.scope(actor);
    const c = this.find(group, household, idOrSlug);
    if (!c) throw new NotFoundError();
    return { ...present(c, group, household), recipes: this.recipesOf(group, c, () => true) };
  }

  async create(actor: Actor, input: unknown): Promise<CookbookOut> {
    const { group, household } = this.scope(actor);
    const body = CookbookIn.parse(input ?? {});
    const name = checkName(body.name);
    const filter = this.checkFilter(body.queryFilterString ?? "");
    const now = new Date().toISOString();
    const rec = CookbookRecord.parse({
      id: newId(),
      name,
      description: body.description ?? "",
      slug: this.freeSlug(group, name, null, null),
      position: body.position ?? 1,
      public: body.public ?? false,
      queryFilterString: filter,
      createdAt: now,
      updatedAt: now,
    });
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      // Picked again where the household's earlier writes are in: picked only before the wait for
      // the disk, copies of one create sent at once all took the same slug.
      rec.slug = this.freeSlug(group, name, null, new Set(d.cookbooks.map((c) => c.slug)));
      d.cookbooks.push(rec);
    });
    this.publish("cookbook_created", "create", group, household, rec.id);
    return present(rec, group, household);
  }

  /**
   * PUT /households/cookbooks/{id}: the create body; the slug follows the name. `base` is the cookbook
   * as the client opened it (the cookbooks page's dialog): a field the body leaves as it was there takes
   * the cookbook's value now, so what another member changed meanwhile is kept (decision 0306).
   */
  async update(
    actor: Actor,
    id: string,
    input: unknown,
    base?: Partial<Record<CookbookField, unknown>>,
  ): Promise<CookbookOut> {
    const { group, household } = this.scope(actor);
    const body: Record<string, unknown> = { ...asObject(input), id };
    const cur = base ? this.find(group, household, id, false) : null;
    if (cur) keepLeftAlone(body, base, cur, COOKBOOK_FIELDS);
    const [out] = await this.apply(group, household, [body]);
    this.publish("cookbook_updated", "update", group, household, out.id);
    return out;
  }

  /** PUT /households/cookbooks: several at once (positions, mostly). */
  async updateMany(actor: Actor, input: unknown): Promise<CookbookOut[]> {
    const { group, household } = this.scope(actor);
    if (!Array.isArray(input))
      throw new ValidationError([{ loc: ["body"], msg: "Input should be a valid list", type: "list_type" }]);
    const out = await this.apply(group, household, input.map(asObject));
    this.larder.events.publish({
      eventType: "cookbook_updated",
      groupId: group.doc.data.id,
      householdId: household.doc.data.id,
      documentData: { documentType: "cookbook", operation: "update", cookbookIds: out.map((c) => c.id) },
    });
    return out;
  }

  async remove(actor: Actor, id: string): Promise<CookbookOut> {
    const { group, household } = this.scope(actor);
    const c = this.find(group, household, id, false);
    if (!c) throw new NotFoundError();
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      d.cookbooks = d.cookbooks.filter((x) => x.id !== c.id);
    });
    this.publish("cookbook_deleted", "delete", group, household, c.id);
    return present(c, group, household);
  }

  /** For `GET /recipes?cookbook=`: the cookbook's filter, from the caller's household, else the group. */
  recipeFilterFor(actor: Actor, idOrSlug: string): Predicate<RecipeIndexEntry> {
    const { group, household } = this.scope(actor);
    const c =
      this.find(group, household, idOrSlug) ??
      this.inGroup(group).find((x) => matches(x.cookbook, idOrSlug))?.cookbook;
    if (!c) throw new NotFoundError("cookbook not found", "cookbook not found");
    return this.filterOf(c) ?? (() => true);
  }

  /** Every cookbook of a group with its household (explore lists the public ones). */
  inGroup(group: GroupData): { cookbook: CookbookRecord; household: HouseholdData }[] {
    const out: { cookbook: CookbookRecord; household: HouseholdData }[] = [];
    for (const h of group.households.values())
      for (const c of this.records(group, h)) out.push({ cookbook: c, household: h });
    return out;
  }

  /** The group's recipes a cookbook selects, further narrowed by `visible`, ordered by name. */
  recipesOf(group: GroupData, c: CookbookRecord, visible: (e: RecipeIndexEntry) => boolean): RecipeSummary[] {
    const test = this.filterOf(c);
    const lister = this.larder.recipes.lister;
    return this.larder.recipes.store
      .list(group.slug)
      .filter((e) => {
        const entry = lister.entryOf(e);
        return visible(entry) && (!test || test(entry));
      })
      .map((e) => this.larder.recipes.summaryOf(e))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The compiled filter of a cookbook (null: no filter, every recipe). A filter broken by a hand edit selects nothing. */
  filterOf(c: CookbookRecord): Predicate<RecipeIndexEntry> | null {
    const src = c.queryFilterString;
    // A filter relative to now (`createdAt >= $NOW-7d`) is compiled afresh, at the time it is asked.
    if (!this.filters.has(src) || mentionsNow(src)) {
      let p: Predicate<RecipeIndexEntry> | null;
      try {
        p = compileQueryFilter(src, recipeAttributes);
      } catch {
        p = () => false;
      }
      this.filters.set(src, p);
    }
    return this.filters.get(src) ?? null;
  }

  /** A cookbook of any household of the actor's group, by slug (the cookbook page); null when none. */
  inActorsGroup(actor: Actor, slug: string): CookbookOut | null {
    const { group } = this.scope(actor);
    const hit = this.inGroup(group).find((x) => x.cookbook.slug === slug);
    return hit ? present(hit.cookbook, group, hit.household) : null;
  }

  presentWith(c: CookbookRecord, group: GroupData, household: HouseholdData): CookbookOut {
    return present(c, group, household);
  }

  async idle(): Promise<void> {
    await this.docs.idle();
  }

  private publish(
    eventType: "cookbook_created" | "cookbook_updated" | "cookbook_deleted",
    operation: "create" | "update" | "delete",
    group: GroupData,
    household: HouseholdData,
    cookbookId: string,
  ): void {
    this.larder.events.publish({
      eventType,
      groupId: group.doc.data.id,
      householdId: household.doc.data.id,
      documentData: { documentType: "cookbook", operation, cookbookId },
    });
  }

  private async apply(
    group: GroupData,
    household: HouseholdData,
    inputs: Record<string, unknown>[],
  ): Promise<CookbookOut[]> {
    const now = new Date().toISOString();
    const changes: CookbookRecord[] = [];
    const taken = new Set<string>();
    for (const raw of inputs) {
      const body = CookbookUpdateIn.parse(raw);
      const cur = this.find(group, household, body.id, false);
      if (!cur) throw new NotFoundError();
      const name = checkName(body.name);
      const slug =
        keepsSlug(cur.slug, name) && !taken.has(cur.slug)
          ? cur.slug
          : this.freeSlug(group, name, cur.id, taken);
      taken.add(slug);
      changes.push({
        ...cur,
        name,
        slug,
        description: body.description ?? cur.description,
        position: body.position ?? cur.position,
        public: body.public ?? cur.public,
        queryFilterString:
          body.queryFilterString === undefined || body.queryFilterString === null
            ? cur.queryFilterString
            : this.checkFilter(body.queryFilterString),
        updatedAt: now,
      });
    }
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      for (const c of changes) {
        const i = d.cookbooks.findIndex((x) => x.id === c.id);
        if (i >= 0) d.cookbooks[i] = c;
      }
    });
    return changes.map((c) => present(c, group, household));
  }

  private scope(actor: Actor): Scope {
    const { group, household } = this.larder.groups.scopeOf(actor);
    return { group, household };
  }

  private pathOf(g: GroupData, h: HouseholdData): string {
    return this.larder.folder.cookbooksJson(g.slug, h.slug);
  }

  private records(g: GroupData, h: HouseholdData): CookbookRecord[] {
    return this.docs.data(this.pathOf(g, h)).cookbooks;
  }

  private find(g: GroupData, h: HouseholdData, idOrSlug: string, bySlug = true): CookbookRecord | null {
    return (
      this.records(g, h).find((c) =>
        bySlug ? matches(c, idOrSlug) : c.id === idOrSlug.toLowerCase() || c.id === idOrSlug,
      ) ?? null
    );
  }

  /** `slugify(name)`, else `slugify("name (1)")`, … unique in the group (`taken`: slugs claimed by the same request). */
  private freeSlug(g: GroupData, name: string, exceptId: string | null, taken: Set<string> | null): string {
    const used = new Set(
      this.inGroup(g)
        .filter((x) => x.cookbook.id !== exceptId)
        .map((x) => x.cookbook.slug),
    );
    for (const t of taken ?? []) used.add(t);
    for (let i = 0; ; i++) {
      const slug = slugify(i === 0 ? name : `${name} (${i})`);
      if (!used.has(slug)) return slug;
    }
  }

  /** A filter string as stored: valid against the recipe attributes, else 422 like Mealie. */
  private checkFilter(src: string): string {
    try {
      compileQueryFilter(src, recipeAttributes);
    } catch (e) {
      if (e instanceof BadRequestError)
        throw new ValidationError([
          { loc: ["body", "queryFilterString"], msg: e.message, type: "value_error" },
        ]);
      throw e;
    }
    return src;
  }
}

function present(c: CookbookRecord, group: GroupData, household: HouseholdData): CookbookOut {
  let parts: QueryFilterPart[] = [];
  try {
    parts = queryFilterParts(c.queryFilterString).parts;
  } catch {
    // A filter broken by a hand edit still lists; it selects nothing (filterOf).
  }
  return {
    name: c.name,
    description: c.description,
    slug: c.slug,
    position: c.position,
    public: c.public,
    queryFilterString: c.queryFilterString,
    groupId: group.doc.data.id,
    householdId: household.doc.data.id,
    id: c.id,
    queryFilter: { parts },
    household: { id: household.doc.data.id, name: household.doc.data.name },
  };
}

function matches(c: CookbookRecord, idOrSlug: string): boolean {
  return isUuid(idOrSlug) ? c.id === idOrSlug.toLowerCase() || c.id === idOrSlug : c.slug === idOrSlug;
}

/** A name must give a slug: "", " " and "@" do not (422, as in Mealie). */
function checkName(raw: string): string {
  const name = raw.trim();
  if (!slugify(name))
    throw new ValidationError([
      {
        loc: ["body", "name"],
        msg: "Value error, name must contain a letter or a digit",
        type: "value_error",
      },
    ]);
  return name;
}

/** The slug stays while it is still `slugify(name)`, optionally with a `-N` suffix. */
function keepsSlug(slug: string, name: string): boolean {
  const base = slugify(name);
  return slug === base || new RegExp(`^${base.replace(/[-]/g, "\\-")}-\\d+$`).test(slug);
}

function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
