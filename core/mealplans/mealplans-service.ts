/**
 * Meal plans and their rules (mealie-api-notes §4.5, §7): household-scoped entries in
 * `mealplans.json`, rules in `mealplan-rules.json`. Entries carry integer ids as in Mealie.
 * `entriesBetween` is the system read the webhook digest uses (no actor: the scheduler asks).
 */
import { keepLeftAlone } from "../util/left-alone.js";
import { rowTimeAttributes, timed, type Timed } from "../query/row-times.js";
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import { BadRequestError, NotFoundError, ValidationError } from "../errors.js";
import type { RecipeSummary } from "../schemas/recipe.js";
import type { UserRecord } from "../schemas/records.js";
import {
  MealplansDoc,
  PLAN_ENTRY_TYPES,
  PLAN_RULE_DAYS,
  PLAN_RULE_TYPES,
  PlanEntryRecord,
  PlanRuleRecord,
  PlanRulesDoc,
  type PlanEntryType,
} from "../schemas/week.js";
import { DocCache } from "../storage/doc-cache.js";
import { recipeAttributes, type RecipeIndexEntry } from "../query/attributes.js";
import { AttributeTable, attr, relation } from "../query/attribute-table.js";
import { peopleTables } from "../groups/related-tables.js";
import { compileQueryFilter } from "../query/filter-eval.js";
import { queryFilterParts, type QueryFilterPart } from "../query/query-filter.js";
import { listQuery } from "../query/list.js";
import type { ListQuery, Page } from "../query/list-query.js";
import { isUuid, newId } from "../util/ids.js";
import { isRealDate, todayUtc, weekdayName } from "./dates.js";
import { brokenDocConflict } from "../storage/broken.js";
import { lazySchema } from "../util/lazy-schema.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "events" | "folder" | "groups" | "live" | "log" | "recipes" | "timeline" | "users">;

/** ReadPlanEntry of the contract. */
export interface PlanEntryOut {
  date: string;
  entryType: PlanEntryType;
  title: string;
  text: string;
  recipeId: string | null;
  id: number;
  groupId: string;
  userId: string;
  householdId: string;
  recipe: RecipeSummary | null;
}

/** PlanRulesOut of the contract. */
export interface PlanRuleOut {
  day: (typeof PLAN_RULE_DAYS)[number];
  entryType: (typeof PLAN_RULE_TYPES)[number];
  queryFilterString: string;
  groupId: string;
  householdId: string;
  id: string;
  queryFilter: { parts: QueryFilterPart[] };
}

const dateField = lazySchema(() =>
  z
    .string({ error: "Input should be a valid date" })
    .refine(isRealDate, { message: "Input should be a valid date in the format YYYY-MM-DD" }),
);
const entryTypeField = lazySchema(() =>
  z.enum(PLAN_ENTRY_TYPES, {
    error: `Input should be ${PLAN_ENTRY_TYPES.map((t) => `'${t}'`).join(", ")}`,
  }),
);
const text = (max: number) => z.string().max(max, `Must Be At Most ${max} Characters`).nullish();

const PlanEntryIn = lazySchema(() =>
  z
    .object({
      date: dateField,
      entryType: entryTypeField.nullish(),
      title: text(1000),
      text: text(100_000),
      recipeId: z.string().nullish(),
    })
    .loose(),
);
/** The fields of a plan entry a client sets. */
const PLAN_ENTRY_FIELDS = ["date", "entryType", "title", "text", "recipeId"] as const;
type PlanEntryField = (typeof PLAN_ENTRY_FIELDS)[number];
const RandomIn = lazySchema(() => z.object({ date: dateField, entryType: entryTypeField.nullish() }).loose());
const RuleIn = lazySchema(() =>
  z
    .object({
      day: z
        .enum(PLAN_RULE_DAYS, { error: `Input should be ${PLAN_RULE_DAYS.map((t) => `'${t}'`).join(", ")}` })
        .nullish(),
      entryType: z
        .enum(PLAN_RULE_TYPES, {
          error: `Input should be ${PLAN_RULE_TYPES.map((t) => `'${t}'`).join(", ")}`,
        })
        .nullish(),
      queryFilterString: z.string().max(10_000).nullish(),
    })
    .loose(),
);

type E = PlanEntryOut;
export const planEntryAttributes = new AttributeTable<Timed<PlanEntryOut>>("mealplan", {
  ...rowTimeAttributes<E>(),
  id: attr.number((e: E) => e.id),
  date: attr.date((e: E) => e.date),
  entryType: attr.string((e: E) => e.entryType),
  title: attr.string((e: E) => e.title),
  text: attr.string((e: E) => e.text),
  recipeId: attr.uuid((e: E) => e.recipeId),
  groupId: attr.uuid((e: E) => e.groupId),
  householdId: attr.uuid((e: E) => e.householdId),
  userId: attr.uuid((e: E) => e.userId),
  "user.id": attr.uuid((e: E) => e.userId),
  "recipe.id": attr.uuid((e: E) => e.recipeId),
  "recipe.name": attr.string((e: E) => e.recipe?.name ?? null),
  "recipe.slug": attr.string((e: E) => e.recipe?.slug ?? null),
});

type R = PlanRuleOut;
export const planRuleAttributes = new AttributeTable<Timed<PlanRuleOut>>("mealplan rule", {
  ...rowTimeAttributes<R>(),
  id: attr.uuid((r: R) => r.id),
  day: attr.string((r: R) => r.day),
  entryType: attr.string((r: R) => r.entryType),
  queryFilterString: attr.string((r: R) => r.queryFilterString),
  groupId: attr.uuid((r: R) => r.groupId),
  householdId: attr.uuid((r: R) => r.householdId),
});

interface Scope {
  user: UserRecord;
  group: GroupData;
  household: HouseholdData;
}

/** The plan list's query: Mealie's list parameters plus a date range (YYYY-MM-DD, inclusive). */
export interface PlanListQuery extends ListQuery {
  startDate?: string | null;
  endDate?: string | null;
}

export type PlanChange = { operation: "create" | "update" | "delete"; entries: PlanEntryOut[] };

export class MealplansService {
  private readonly plans: DocCache<MealplansDoc>;
  private readonly rules: DocCache<PlanRulesDoc>;

  private constructor(private readonly larder: Deps) {
    const onError = (path: string, e: unknown) => larder.log.error(`could not open ${path}:`, e);
    this.plans = new DocCache<MealplansDoc>({
      schema: MealplansDoc,
      defaults: () => MealplansDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      arraysSortedBy: ["entries"],
      onError,
    });
    this.rules = new DocCache<PlanRulesDoc>({
      schema: PlanRulesDoc,
      defaults: () => PlanRulesDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      arraysSortedBy: ["rules"],
      onError,
    });
  }

  static async open(larder: Deps): Promise<MealplansService> {
    const s = new MealplansService(larder);
    for (const g of larder.groups.all())
      for (const h of g.households.values()) {
        await s.plans.get(larder.folder.mealplansJson(g.slug, h.slug));
        await s.rules.get(larder.folder.mealplanRulesJson(g.slug, h.slug));
      }
    larder.recipes.onRemoved(({ groupSlug, id }) => s.recipeRemoved(groupSlug, id));
    return s;
  }

  // ---- entries -------------------------------------------------------------------------------

  /** GET /households/mealplans: `startDate`/`endDate` (YYYY-MM-DD) narrow by date, inclusive. */
  list(actor: Actor, query: PlanListQuery): Page<PlanEntryOut> {
    const { group, household } = this.scope(actor);
    const start = query.startDate ?? null;
    const end = query.endDate ?? null;
    const items = this.entriesOf(group, household)
      .filter((e) => (!start || e.date >= start) && (!end || e.date <= end))
      .map((e) => timed(this.present(e, group, household), e));
    return listQuery(items, query, this.entryTable(), {
      defaultOrderBy: "date",
    });
  }

  /**
   * The entries' table with Mealie's relations of a plan entry: `user`, `household`, `group` and
   * `recipe` (the recipe's own paths, `recipe.tags.name` too), looked up live by id.
   */
  private entryTable(): AttributeTable<Timed<PlanEntryOut>> {
    if (this.entryTableBuilt) return this.entryTableBuilt;
    const people = peopleTables(this.larder);
    const recipes = this.larder.recipes;
    const recipeOf = (e: PlanEntryOut): RecipeIndexEntry | null => {
      const found = e.recipeId ? recipes.entryById(e.recipeId) : null;
      return found && recipes.lister.entryOf(found).groupId === e.groupId
        ? recipes.lister.entryOf(found)
        : null;
    };
    return (this.entryTableBuilt = planEntryAttributes.withRelations({
      user: relation.one(
        () => people.member.users,
        (e: PlanEntryOut) => people.userOf(e.userId),
      ),
      household: relation.one(
        () => people.member.households,
        (e: PlanEntryOut) => people.householdOf(e.householdId),
      ),
      group: relation.one(
        () => people.member.groups,
        (e: PlanEntryOut) => people.groupOf(e.groupId),
      ),
      recipe: relation.one(() => recipeAttributes, recipeOf),
    }));
  }
  private entryTableBuilt: AttributeTable<Timed<PlanEntryOut>> | null = null;

  /** GET /households/mealplans/today: a bare array (Home Assistant reads it so). Today is the UTC date. */
  today(actor: Actor): PlanEntryOut[] {
    const { group, household } = this.scope(actor);
    const day = todayUtc();
    return this.entriesOf(group, household)
      .filter((e) => e.date === day)
      .map((e) => this.present(e, group, household));
  }

  /** The caller's entries from `start` to `end` inclusive, ordered by date then entry type order. */
  between(actor: Actor, start: string, end: string): PlanEntryOut[] {
    const { group, household } = this.scope(actor);
    return this.entriesBetween(group.doc.data.id, household.doc.data.id, start, end);
  }

  /**
   * A household's entries with dates in [startDate, endDate] as ReadPlanEntry wire objects, for
   * system callers (the webhook digest). Unknown group or household: [].
   */
  entriesBetween(groupId: string, householdId: string, startDate: string, endDate: string): PlanEntryOut[] {
    const group = this.larder.groups.byId(groupId);
    const household = group ? this.larder.groups.household(groupId, householdId) : null;
    if (!group || !household) return [];
    return this.entriesOf(group, household)
      .filter((e) => e.date >= startDate && e.date <= endDate)
      .sort(
        (a, b) =>
          a.date.localeCompare(b.date) ||
          PLAN_ENTRY_TYPES.indexOf(a.entryType) - PLAN_ENTRY_TYPES.indexOf(b.entryType) ||
          a.id - b.id,
      )
      .map((e) => this.present(e, group, household));
  }

  get(actor: Actor, id: string | number): PlanEntryOut {
    const { group, household } = this.scope(actor);
    return this.present(this.entry(group, household, id), group, household);
  }

  /** POST /households/mealplans: a recipe, or a title (422 when neither). Publishes mealplan_entry_created. */
  async create(actor: Actor, input: unknown): Promise<PlanEntryOut> {
    const { user, group, household } = this.scope(actor);
    const body = PlanEntryIn.parse(input ?? {});
    const recipeId = this.checkRecipe(group, body.recipeId ?? null);
    if (!recipeId && !body.title?.trim()) {
      throw new ValidationError([
        {
          loc: ["body", "title"],
          msg: "Value error, either recipeId or title must be provided",
          type: "value_error",
        },
      ]);
    }
    const out = await this.insert(user, group, household, {
      date: body.date,
      entryType: body.entryType ?? "dinner",
      title: body.title ?? "",
      text: body.text ?? "",
      recipeId,
    });
    const recipe = out.recipe;
    this.larder.events.publish({
      eventType: "mealplan_entry_created",
      groupId: out.groupId,
      householdId: out.householdId,
      integrationId: integrationOf(actor),
      documentData: {
        documentType: "mealplan",
        operation: "create",
        mealplanId: out.id,
        date: out.date,
        recipeId: out.recipeId,
        recipeName: recipe?.name ?? null,
        recipeSlug: recipe?.slug ?? null,
      },
    });
    return out;
  }

  /**
   * PUT /households/mealplans/{id}: the create fields (id, groupId, userId in the body are ignored).
   * `base` is the entry as the client opened it (the planner's dialog): a field the body leaves as it
   * was there takes the entry's value now, so a move to another day or a note's text changed meanwhile
   * is kept rather than put back (decision 0306).
   */
  async update(
    actor: Actor,
    id: string | number,
    input: unknown,
    base?: Partial<Record<PlanEntryField, unknown>>,
  ): Promise<PlanEntryOut> {
    const { group, household } = this.scope(actor);
    const cur = this.entry(group, household, id);
    const body = PlanEntryIn.parse(input ?? {});
    keepLeftAlone(body, base, cur, PLAN_ENTRY_FIELDS);
    const recipeId = this.checkRecipe(group, body.recipeId ?? null);
    if (!recipeId && !body.title?.trim()) {
      throw new ValidationError([
        {
          loc: ["body", "title"],
          msg: "Value error, either recipeId or title must be provided",
          type: "value_error",
        },
      ]);
    }
    const next: PlanEntryRecord = {
      ...cur,
      date: body.date,
      entryType: body.entryType ?? cur.entryType,
      title: body.title ?? "",
      text: body.text ?? "",
      recipeId,
      updatedAt: new Date().toISOString(),
    };
    await this.writePlans(group, household, (d) => ({
      ...d,
      entries: d.entries.map((e) => (e.id === cur.id ? next : e)),
    }));
    const out = this.present(next, group, household);
    this.changed(out, "update");
    return out;
  }

  async remove(actor: Actor, id: string | number): Promise<PlanEntryOut> {
    const { group, household } = this.scope(actor);
    const cur = this.entry(group, household, id);
    const out = this.present(cur, group, household);
    await this.writePlans(group, household, (d) => ({
      ...d,
      entries: d.entries.filter((e) => e.id !== cur.id),
    }));
    this.changed(out, "delete");
    return out;
  }

  /**
   * POST /households/mealplans/random: a recipe of the group that passes every rule matching the
   * date's weekday and the entry type (no rule: any recipe); 404 when none does. Status 200.
   */
  async random(actor: Actor, input: unknown): Promise<PlanEntryOut> {
    const { user, group, household } = this.scope(actor);
    const body = RandomIn.parse(input ?? {});
    const entryType = body.entryType ?? "dinner";
    const day = weekdayName(body.date);
    const filters = this.ruleRecords(group, household)
      .filter(
        (r) => (r.day === "unset" || r.day === day) && (r.entryType === "unset" || r.entryType === entryType),
      )
      .map((r) => r.queryFilterString.trim())
      .filter((s) => s !== "");
    let predicate: ((e: RecipeIndexEntry) => boolean) | null = null;
    if (filters.length) {
      try {
        predicate = compileQueryFilter(filters.map((f) => `(${f})`).join(" AND "), recipeAttributes);
      } catch {
        // A rule broken by a hand edit matches nothing rather than everything.
        predicate = () => false;
      }
    }
    const lister = this.larder.recipes.lister;
    const candidates = this.larder.recipes.store
      .list(group.slug)
      .filter((e) => !predicate || predicate(lister.entryOf(e)));
    if (candidates.length === 0) throw new NotFoundError("No recipes match your rules");
    const pick = candidates[Math.floor(Math.random() * candidates.length)];
    return this.insert(user, group, household, {
      date: body.date,
      entryType,
      title: "",
      text: "",
      recipeId: pick.id,
    });
  }

  /** Remove every entry of a deleted recipe (the API-delete cascade of ARCHITECTURE §3). */
  async recipeRemoved(groupSlug: string, recipeId: string): Promise<void> {
    const group = this.larder.groups.bySlugOrNull(groupSlug);
    if (!group) return;
    for (const h of group.households.values()) {
      const doc = await this.plans.get(this.larder.folder.mealplansJson(group.slug, h.slug));
      const gone = doc.data.entries.filter((e) => e.recipeId === recipeId);
      if (gone.length === 0 || doc.broken) continue;
      const out = gone.map((e) => this.present(e, group, h));
      await doc.replace((d) => ({ ...d, entries: d.entries.filter((e) => e.recipeId !== recipeId) }));
      for (const o of out) this.changed(o, "delete");
    }
  }

  /**
   * The daily job (mealie-api-notes §7): for each of today's entries with a recipe, an `info`
   * timeline event "{fullName} made this for {entryType}" (once a day) and `lastMade` set to now
   * when it was earlier than today. Returns how many recipes it marked.
   */
  async markTodayMade(now = new Date()): Promise<number> {
    const day = now.toISOString().slice(0, 10);
    let marked = 0;
    for (const group of this.larder.groups.all()) {
      for (const household of group.households.values()) {
        for (const e of this.entriesOf(group, household)) {
          if (e.date !== day || !e.recipeId) continue;
          const user = this.larder.users.byId(e.userId);
          const entry = this.larder.recipes.entryById(e.recipeId);
          if (!user || !entry || entry.groupSlug !== group.slug) continue;
          const actor: Actor = { kind: "user", user };
          const subject =
            e.entryType === "side"
              ? `${user.fullName || user.username} made this as a side`
              : `${user.fullName || user.username} made this for ${e.entryType}`;
          try {
            const already = this.larder.timeline
              .list(actor, { queryFilter: `recipeId="${e.recipeId}"`, perPage: -1 })
              .items.some((t) => t.subject === subject && t.timestamp.slice(0, 10) === day);
            if (!already) {
              await this.larder.timeline.create(actor, {
                recipeId: e.recipeId,
                subject,
                eventType: "info",
                timestamp: now.toISOString(),
              });
            }
            const last = entry.doc.lastMade ? String(entry.doc.lastMade).slice(0, 10) : null;
            if (!last || last < day) {
              // setLastMade publishes recipe_updated, as Mealie's job does.
              await this.larder.recipes.setLastMade(actor, e.recipeId, now.toISOString());
              marked++;
            }
          } catch (err) {
            this.larder.log.error(`marking meal plan entry ${e.id} as made failed:`, err);
          }
        }
      }
    }
    return marked;
  }

  // ---- rules ---------------------------------------------------------------------------------

  listRules(actor: Actor, query: ListQuery): Page<PlanRuleOut> {
    const { group, household } = this.scope(actor);
    const items = this.ruleRecords(group, household).map((r) => timed(presentRule(r, group, household), r));
    return listQuery(items, query, planRuleAttributes, { defaultOrderBy: null });
  }

  getRule(actor: Actor, id: string): PlanRuleOut {
    const { group, household } = this.scope(actor);
    return presentRule(this.rule(group, household, id), group, household);
  }

  async createRule(actor: Actor, input: unknown): Promise<PlanRuleOut> {
    const { group, household } = this.scope(actor);
    const body = RuleIn.parse(input ?? {});
    const now = new Date().toISOString();
    const rec = PlanRuleRecord.parse({
      id: newId(),
      day: body.day ?? "unset",
      entryType: body.entryType ?? "unset",
      queryFilterString: checkFilter(body.queryFilterString ?? ""),
      createdAt: now,
      updatedAt: now,
    });
    await this.writeRules(group, household, (d) => {
      d.rules.push(rec);
    });
    return presentRule(rec, group, household);
  }

  async updateRule(actor: Actor, id: string, input: unknown): Promise<PlanRuleOut> {
    const { group, household } = this.scope(actor);
    const cur = this.rule(group, household, id);
    const body = RuleIn.parse(input ?? {});
    const next: PlanRuleRecord = {
      ...cur,
      day: body.day ?? "unset",
      entryType: body.entryType ?? "unset",
      queryFilterString: checkFilter(body.queryFilterString ?? ""),
      updatedAt: new Date().toISOString(),
    };
    await this.writeRules(group, household, (d) => {
      const i = d.rules.findIndex((r) => r.id === cur.id);
      if (i >= 0) d.rules[i] = next;
    });
    return presentRule(next, group, household);
  }

  async removeRule(actor: Actor, id: string): Promise<PlanRuleOut> {
    const { group, household } = this.scope(actor);
    const cur = this.rule(group, household, id);
    await this.writeRules(group, household, (d) => {
      d.rules = d.rules.filter((r) => r.id !== cur.id);
    });
    return presentRule(cur, group, household);
  }

  async idle(): Promise<void> {
    await Promise.all([this.plans.idle(), this.rules.idle()]);
  }

  /** Plan and rule files that fail to parse (for `larder check`). */
  broken(): { path: string; message: string }[] {
    return [...this.plans.loaded(), ...this.rules.loaded()].flatMap((d) =>
      d.broken ? [{ path: d.path, message: d.broken.message }] : [],
    );
  }

  // ---- internals -----------------------------------------------------------------------------

  private async insert(
    user: UserRecord,
    group: GroupData,
    household: HouseholdData,
    fields: { date: string; entryType: PlanEntryType; title: string; text: string; recipeId: string | null },
  ): Promise<PlanEntryOut> {
    const now = new Date().toISOString();
    let rec: PlanEntryRecord | null = null;
    await this.writePlans(group, household, (d) => {
      let id = d.nextId;
      for (const e of d.entries) if (e.id >= id) id = e.id + 1;
      rec = PlanEntryRecord.parse({ id, ...fields, userId: user.id, createdAt: now, updatedAt: now });
      return { ...d, entries: [...d.entries, rec], nextId: id + 1 };
    });
    const out = this.present(rec as unknown as PlanEntryRecord, group, household);
    this.changed(out, "create");
    return out;
  }

  private changed(entry: PlanEntryOut, operation: PlanChange["operation"]): void {
    this.larder.live.publish({
      groupId: entry.groupId,
      householdId: entry.householdId,
      kind: "mealplan",
      operation,
      data: [entry],
    });
  }

  /**
   * A household's plan grows by a few entries a day for as long as it is used: each change returns the
   * new plan, sharing the entries it did not touch, rather than editing a deep copy of them all
   * (JsonDoc.replace, decision 0197).
   */
  private async writePlans(
    group: GroupData,
    household: HouseholdData,
    fn: (d: Readonly<MealplansDoc>) => MealplansDoc,
  ): Promise<void> {
    const doc = await this.plans.get(this.larder.folder.mealplansJson(group.slug, household.slug));
    if (doc.broken) throw brokenDocConflict(this.larder.folder.root, doc.path, doc.broken.message);
    await doc.replace(fn);
  }

  private async writeRules(
    group: GroupData,
    household: HouseholdData,
    fn: (d: PlanRulesDoc) => void,
  ): Promise<void> {
    const doc = await this.rules.get(this.larder.folder.mealplanRulesJson(group.slug, household.slug));
    if (doc.broken) throw brokenDocConflict(this.larder.folder.root, doc.path, doc.broken.message);
    await doc.update(fn);
  }

  private scope(actor: Actor): Scope {
    return this.larder.groups.scopeOf(actor);
  }

  private entriesOf(group: GroupData, household: HouseholdData): PlanEntryRecord[] {
    return this.plans.data(this.larder.folder.mealplansJson(group.slug, household.slug)).entries;
  }

  private ruleRecords(group: GroupData, household: HouseholdData): PlanRuleRecord[] {
    return this.rules.data(this.larder.folder.mealplanRulesJson(group.slug, household.slug)).rules;
  }

  private entry(group: GroupData, household: HouseholdData, id: string | number): PlanEntryRecord {
    const n = typeof id === "number" ? id : /^\d{1,15}$/.test(id) ? Number(id) : NaN;
    if (!Number.isInteger(n)) {
      throw new ValidationError([
        {
          loc: ["path", "item_id"],
          msg: "Input should be a valid integer, unable to parse string as an integer",
          type: "int_parsing",
        },
      ]);
    }
    const e = this.entriesOf(group, household).find((x) => x.id === n);
    if (!e) throw new NotFoundError();
    return e;
  }

  private rule(group: GroupData, household: HouseholdData, id: string): PlanRuleRecord {
    const r = isUuid(id)
      ? this.ruleRecords(group, household).find((x) => x.id === id.toLowerCase())
      : undefined;
    if (!r) throw new NotFoundError();
    return r;
  }

  /** A recipe id must name a recipe of the caller's group (any household). */
  private checkRecipe(group: GroupData, recipeId: string | null): string | null {
    if (!recipeId) return null;
    const entry = isUuid(recipeId) ? this.larder.recipes.entryById(recipeId.toLowerCase()) : null;
    if (!entry || entry.groupSlug !== group.slug) {
      throw new ValidationError([
        { loc: ["body", "recipeId"], msg: "Value error, recipe not found", type: "value_error" },
      ]);
    }
    return entry.id;
  }

  private present(e: PlanEntryRecord, group: GroupData, household: HouseholdData): PlanEntryOut {
    let recipe: RecipeSummary | null = null;
    if (e.recipeId) {
      const entry = this.larder.recipes.entryById(e.recipeId);
      if (entry && entry.groupSlug === group.slug) recipe = this.larder.recipes.summaryOf(entry);
    }
    return {
      date: e.date,
      entryType: e.entryType,
      title: e.title,
      text: e.text,
      recipeId: e.recipeId,
      id: e.id,
      groupId: group.doc.data.id,
      userId: e.userId,
      householdId: household.doc.data.id,
      recipe,
    };
  }
}

function presentRule(r: PlanRuleRecord, group: GroupData, household: HouseholdData): PlanRuleOut {
  let parts: QueryFilterPart[] = [];
  try {
    parts = queryFilterParts(r.queryFilterString).parts;
  } catch {
    // A filter broken by a hand edit still lists; random picks treat it as matching nothing.
  }
  return {
    day: r.day,
    entryType: r.entryType,
    queryFilterString: r.queryFilterString,
    groupId: group.doc.data.id,
    householdId: household.doc.data.id,
    id: r.id,
    queryFilter: { parts },
  };
}

/** A rule's filter is validated against the recipe attributes on save: 422 like Mealie. */
function checkFilter(src: string): string {
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

export function integrationOf(actor: Actor): string {
  return actor.kind === "user" ? (actor.integrationId ?? "generic") : "generic";
}
