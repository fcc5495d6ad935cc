/**
 * Recipe actions (mealie-api-notes §4.5): links and POST hooks of a household, `recipe-actions.json`
 * in its folder. Triggering a `post` action sends `{action, content: <recipe>, recipe_scale}` with
 * Python's snake_case keys, in the background, through the guarded fetcher: an address on the private
 * network is refused unless the admin allowed it (LARDER_FETCH_ALLOW).
 */
import { rowTimeAttributes, timed, type Timed } from "../query/row-times.js";
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import { RECIPE_ACTION_TYPES, RecipeActionRecord, RecipeActionsDoc } from "../schemas/household-records.js";
import { DocCache } from "../storage/doc-cache.js";
import { AttributeTable, attr } from "../query/attribute-table.js";
import { listQuery } from "../query/list.js";
import type { ListQuery, Page } from "../query/list-query.js";
import { createGuardedFetcher, type GuardedFetcher } from "../net/index.js";
import { isUuid, newId } from "../util/ids.js";
import { snakeKeys } from "./snake-case.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "folder" | "groups" | "log" | "recipes">;

/** Mealie's timeout for an action post. */
const TRIGGER_TIMEOUT_MS = 15_000;

export const RecipeActionIn = z
  .object({
    actionType: z.enum(RECIPE_ACTION_TYPES),
    title: z.string().trim().min(1, "This Field is Required").max(255, "Must Be At Most 255 Characters"),
    url: z
      .string()
      .trim()
      .min(1, "This Field is Required")
      .max(2048, "Must Be At Most 2048 Characters")
      // Only web addresses: a `javascript:` link would run in the page of whoever clicks it, and a
      // `file:` one names the server's own files. Refused when saved, not only when triggered.
      .refine((u) => /^https?:\/\/[^\s/]/i.test(u), "URL scheme should be 'http' or 'https'"),
  })
  .loose();
export const TriggerIn = z.object({ recipeScale: z.number().positive().finite().nullish() }).loose();

/** GroupRecipeActionOut of the contract. */
export interface RecipeActionOut {
  actionType: "link" | "post";
  title: string;
  url: string;
  groupId: string;
  householdId: string;
  id: string;
}

type A = RecipeActionOut;
export const recipeActionAttributes = new AttributeTable<Timed<RecipeActionOut>>("recipe action", {
  ...rowTimeAttributes<A>(),
  id: attr.uuid((a: A) => a.id),
  actionType: attr.string((a: A) => a.actionType),
  title: attr.string((a: A) => a.title),
  url: attr.string((a: A) => a.url),
  groupId: attr.uuid((a: A) => a.groupId),
  householdId: attr.uuid((a: A) => a.householdId),
});

export class RecipeActionsService {
  private readonly docs: DocCache<RecipeActionsDoc>;
  private readonly fetcher: GuardedFetcher;

  private constructor(private readonly larder: Deps) {
    this.docs = new DocCache<RecipeActionsDoc>({
      schema: RecipeActionsDoc,
      defaults: () => RecipeActionsDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      arraysSortedBy: ["actions"],
      onError: (path, e) => larder.log.error(`could not open ${path}:`, e),
    });
    this.fetcher = createGuardedFetcher(larder.config);
  }

  static async open(larder: Deps): Promise<RecipeActionsService> {
    const s = new RecipeActionsService(larder);
    for (const g of larder.groups.all())
      for (const h of g.households.values()) await s.docs.get(s.pathOf(g, h));
    return s;
  }

  list(actor: Actor, query: ListQuery): Page<RecipeActionOut> {
    const { group, household } = this.scope(actor);
    const items = this.records(group, household).map((a) => timed(present(a, group, household), a));
    return listQuery(items, query, recipeActionAttributes, { defaultOrderBy: null });
  }

  get(actor: Actor, id: string): RecipeActionOut {
    const { group, household } = this.scope(actor);
    return present(this.record(group, household, id), group, household);
  }

  async create(actor: Actor, input: unknown): Promise<RecipeActionOut> {
    const { group, household } = this.scope(actor);
    const body = RecipeActionIn.parse(input ?? {});
    const now = new Date().toISOString();
    const rec = RecipeActionRecord.parse({
      id: newId(),
      actionType: body.actionType,
      title: body.title,
      url: body.url,
      createdAt: now,
      updatedAt: now,
    });
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      d.actions.push(rec);
    });
    return present(rec, group, household);
  }

  /** PUT: `groupId`/`householdId` in the body are ignored; an action never moves. */
  async update(actor: Actor, id: string, input: unknown): Promise<RecipeActionOut> {
    const { group, household } = this.scope(actor);
    const cur = this.record(group, household, id);
    const body = RecipeActionIn.parse(input ?? {});
    const next: RecipeActionRecord = {
      ...cur,
      actionType: body.actionType,
      title: body.title,
      url: body.url,
      updatedAt: new Date().toISOString(),
    };
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      const i = d.actions.findIndex((a) => a.id === cur.id);
      if (i >= 0) d.actions[i] = next;
    });
    return present(next, group, household);
  }

  async remove(actor: Actor, id: string): Promise<RecipeActionOut> {
    const { group, household } = this.scope(actor);
    const cur = this.record(group, household, id);
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      d.actions = d.actions.filter((a) => a.id !== cur.id);
    });
    return present(cur, group, household);
  }

  /**
   * POST /households/recipe-actions/{id}/trigger/{slug}: checks now (404 action or recipe, 400 not a
   * `post` action), sends later. The route answers 202 without waiting; `delivery` settles when the
   * post is done and never rejects (failures are logged).
   */
  trigger(actor: Actor, id: string, recipeSlug: string, input: unknown): { delivery: Promise<boolean> } {
    const { group, household } = this.scope(actor);
    const action = this.record(group, household, id);
    const recipe = this.larder.recipes.get(actor, recipeSlug);
    if (action.actionType !== "post") throw new BadRequestError("Only post actions can be triggered");
    const scale = TriggerIn.parse(input ?? {}).recipeScale ?? 1;
    const payload = {
      action: snakeKeys(present(action, group, household)),
      content: snakeKeys(recipe),
      recipe_scale: scale,
    };
    const delivery = this.fetcher(action.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
      timeoutMs: TRIGGER_TIMEOUT_MS,
      maxBytes: 1024 * 1024,
    }).then(
      () => true,
      (e: unknown) => {
        const reason = (e as { reason?: string }).reason ?? (e instanceof Error ? e.message : String(e));
        this.larder.log.warn(`recipe action "${action.title}" failed: ${reason}`);
        return false;
      },
    );
    return { delivery };
  }

  async idle(): Promise<void> {
    await this.docs.idle();
  }

  private scope(actor: Actor): { group: GroupData; household: HouseholdData } {
    const { group, household } = this.larder.groups.scopeOf(actor);
    return { group, household };
  }

  private pathOf(g: GroupData, h: HouseholdData): string {
    return this.larder.folder.recipeActionsJson(g.slug, h.slug);
  }

  private records(g: GroupData, h: HouseholdData): RecipeActionRecord[] {
    return this.docs.data(this.pathOf(g, h)).actions;
  }

  private record(g: GroupData, h: HouseholdData, id: string): RecipeActionRecord {
    const found = isUuid(id)
      ? this.records(g, h).find((a) => a.id === id.toLowerCase() || a.id === id)
      : undefined;
    if (!found) throw new NotFoundError();
    return found;
  }
}

function present(a: RecipeActionRecord, g: GroupData, h: HouseholdData): RecipeActionOut {
  return {
    actionType: a.actionType,
    title: a.title,
    url: a.url,
    groupId: g.doc.data.id,
    householdId: h.doc.data.id,
    id: a.id,
  };
}
