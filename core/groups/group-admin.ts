/**
 * The admin's groups and households (mealie-api-notes §4.13; spec §6): create, rename, change
 * preferences, delete. A group or household that still has users cannot be deleted; deleting an
 * empty group takes its (necessarily empty) households with it (core/policy/groups.ts).
 */
import { z } from "zod";
import { lazySchema } from "../util/lazy-schema.js";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import type { GroupData, HouseholdData } from "./registry.js";
import type { GroupRecord } from "../schemas/records.js";
import { presentGroupInDb, presentHouseholdInDb } from "../presenters/people.js";
import { listQuery } from "../query/list.js";
import { mapPage, type ListQuery, type Page } from "../query/list-query.js";
import { textRanker } from "../search/text-search.js";
import type { HouseholdQueryItem } from "./attributes.js";
import { peopleTables } from "./related-tables.js";
import { canDeleteGroup, canDeleteHousehold } from "../policy/groups.js";
import { adminOf } from "../users/accounts-service.js";
import { SPEC_MESSAGES } from "../users/users-service.js";
import { GroupPreferencesBody, HouseholdPreferencesBody } from "./membership-service.js";
import { slugify } from "../util/slug.js";
import { refuseInDemo } from "../policy/demo.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "groups" | "recipes" | "registration" | "site" | "users">;

/** A group's or household's name, as the admin API takes it (and a migration that makes one). */
export const nameField = lazySchema(() =>
  z
    .string({ error: SPEC_MESSAGES.required })
    .trim()
    .min(1, SPEC_MESSAGES.required)
    .max(200, SPEC_MESSAGES.maxLength(200))
    // The folder name comes from it: a name with no letter or digit would make a meaningless one.
    .refine((n) => slugify(n) !== "", "A Name is Required"),
);

const GroupCreateBody = lazySchema(() => z.object({ name: nameField }));
const GroupUpdateBody = lazySchema(() =>
  z.object({ name: nameField, preferences: GroupPreferencesBody.nullish() }),
);
const HouseholdCreateBody = lazySchema(() =>
  z.object({ name: nameField, groupId: z.string().max(100).nullish() }),
);
const HouseholdUpdateBody = lazySchema(() =>
  z.object({
    name: nameField,
    groupId: z.string().max(100).nullish(),
    preferences: HouseholdPreferencesBody.nullish(),
  }),
);

function definedOnly<T extends Record<string, unknown>>(o: T | null | undefined): Partial<T> | undefined {
  if (!o) return undefined;
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Mealie's `GroupInDB`: what the admin API answers and the CLI shows. */
export type GroupInDb = ReturnType<typeof presentGroupInDb>;
/** Mealie's `HouseholdInDB`. */
export type HouseholdInDb = ReturnType<typeof presentHouseholdInDb>;

type Found = { household: HouseholdData; group: GroupData };

/**
 * Answers are presented records (the wire shapes), never the registry's documents: callers outside
 * core hold no handle on what core stores (issue 12).
 */
export class GroupAdminService {
  constructor(private readonly larder: Deps) {}

  private groupOut(g: GroupData, households = [...g.households.values()]): GroupInDb {
    return presentGroupInDb(
      g.doc.data,
      households.map((h) => h.doc.data),
      this.larder.users.inGroup(g.doc.data.id),
      // The CLI's group commands read no recipes (decision 0202) and show no categories: the stored ones.
      this.larder.recipes.store.isOpen
        ? this.larder.recipes.lister.groupOrganizers(g.slug, "categories")
        : g.organizers.data.categories,
    );
  }

  private householdOut({ household, group }: Found): HouseholdInDb {
    const h = household.doc.data;
    return presentHouseholdInDb(h, group.doc.data, this.larder.users.inHousehold(h.id));
  }

  // ---- groups ----

  /** GET /admin/groups: Mealie's list query (search by name, filter, order, pages). */
  listGroups(actor: Actor, query: ListQuery): Page<GroupInDb> {
    adminOf(actor);
    const byId = new Map(this.larder.groups.all().map((g) => [g.doc.data.id, g]));
    const env = listQuery(
      [...byId.values()].map((g) => g.doc.data),
      query,
      peopleTables(this.larder).groups,
      { search: textRanker<GroupRecord>([(g) => g.name]) },
    );
    return mapPage(env, (g) => this.groupOut(byId.get(g.id) as GroupData));
  }

  groups(actor: Actor): GroupInDb[] {
    adminOf(actor);
    return this.larder.groups.all().map((g) => this.groupOut(g));
  }

  group(actor: Actor, id: string): GroupInDb {
    return this.groupOut(this.findGroup(actor, id));
  }

  private findGroup(actor: Actor, id: string): GroupData {
    adminOf(actor);
    const g = this.larder.groups.byId(id);
    if (!g) throw new NotFoundError("Group not found");
    return g;
  }

  /** POST /admin/groups: a new group with its household "Family". A taken name becomes "Name (1)", as in Mealie. */
  async createGroup(actor: Actor, raw: unknown): Promise<GroupInDb> {
    adminOf(actor);
    const { name } = GroupCreateBody.parse(raw ?? {});
    // Mealie's defaults for a new group: private, and so is its household, whose recipes are not public.
    const g = await this.larder.groups.createGroup(name, "Family", undefined, {
      household: { privateHousehold: true, recipePublic: false },
    });
    return this.groupOut(g);
  }

  /** PUT /admin/groups/{id}: name and preferences; the folder keeps its name. */
  async updateGroup(actor: Actor, id: string, raw: unknown): Promise<GroupInDb> {
    const g = this.findGroup(actor, id);
    const body = GroupUpdateBody.parse(raw ?? {});
    const clash = this.larder.groups.byName(body.name);
    if (clash && clash !== g) throw new BadRequestError("A group with this name already exists");
    await this.larder.groups.updateGroup(g, { name: body.name, preferences: definedOnly(body.preferences) });
    return this.groupOut(g);
  }

  /** DELETE /admin/groups/{id}: 400 "Cannot delete group with users"; returns the group as it was. */
  async deleteGroup(actor: Actor, id: string): Promise<GroupInDb> {
    const g = this.findGroup(actor, id);
    refuseInDemo(this.larder.config, "deleteGroup");
    const plan = canDeleteGroup(g.doc.data, {
      userCount: this.larder.users.inGroup(g.doc.data.id).length,
      householdCount: g.households.size,
    });
    if (!plan.ok) throw new BadRequestError(plan.reason);
    const households = [...g.households.values()];
    const out = this.groupOut(g, households);
    for (const h of households) await this.larder.registration.invitations.removeForHousehold(h.doc.data.id);
    await this.larder.groups.removeGroup(g);
    // The group's recipes left with its folder: the index forgets them now rather than at the next scan.
    await this.larder.recipes.store.rescan(g.slug);
    return out;
  }

  // ---- households ----

  private allHouseholds(): Found[] {
    return this.larder.groups
      .all()
      .flatMap((group) => [...group.households.values()].map((household) => ({ household, group })));
  }

  /** GET /admin/households: Mealie's list query over every household of the site. */
  listHouseholds(actor: Actor, query: ListQuery): Page<HouseholdInDb> {
    adminOf(actor);
    type Item = HouseholdQueryItem & { found: Found };
    const items: Item[] = this.allHouseholds().map((found) => ({
      record: found.household.doc.data,
      groupName: found.group.doc.data.name,
      found,
    }));
    const env = listQuery<Item>(items, query, peopleTables(this.larder).households, {
      search: textRanker<HouseholdQueryItem>([(h) => h.record.name]),
    });
    return mapPage(env, (i) => this.householdOut(i.found));
  }

  households(actor: Actor): HouseholdInDb[] {
    adminOf(actor);
    return this.allHouseholds().map((f) => this.householdOut(f));
  }

  household(actor: Actor, id: string): HouseholdInDb {
    return this.householdOut(this.findHousehold(actor, id));
  }

  private findHousehold(actor: Actor, id: string): Found {
    adminOf(actor);
    const found = this.larder.groups.householdById(id);
    if (!found) throw new NotFoundError("Household not found");
    return found;
  }

  /**
   * POST /admin/households: in `groupId` (default: the site's default group), with privacy following
   * the group's, as Mealie derives it. A name taken in that group becomes "Name (1)", as in Mealie.
   */
  async createHousehold(actor: Actor, raw: unknown): Promise<HouseholdInDb> {
    adminOf(actor);
    const body = HouseholdCreateBody.parse(raw ?? {});
    const groups = this.larder.groups;
    const group = body.groupId
      ? groups.byId(body.groupId)
      : (groups.bySlugOrNull(this.larder.site.data.defaultGroup) ?? groups.all()[0] ?? null);
    if (!group) throw new NotFoundError("Group not found");
    const priv = group.doc.data.preferences.privateGroup;
    const household = await groups.createHousehold(group, body.name, undefined, {
      privateHousehold: priv,
      recipePublic: !priv,
    });
    return this.householdOut({ household, group });
  }

  /** PUT /admin/households/{id}: name and preferences; a household cannot move to another group. */
  async updateHousehold(actor: Actor, id: string, raw: unknown): Promise<HouseholdInDb> {
    const found = this.findHousehold(actor, id);
    const body = HouseholdUpdateBody.parse(raw ?? {});
    if (body.groupId && body.groupId !== found.group.doc.data.id)
      throw new BadRequestError("A household cannot move to another group");
    const clash = this.larder.groups.householdIn(found.group, body.name);
    if (clash && clash !== found.household)
      throw new BadRequestError("A household with this name already exists in the group");
    await this.larder.groups.updateHousehold(found.household, {
      name: body.name,
      preferences: definedOnly(body.preferences),
    });
    return this.householdOut(found);
  }

  /**
   * DELETE /admin/households/{id}: 400 "Cannot delete household with users"; a group also keeps at
   * least one household, where its next member will land.
   */
  async deleteHousehold(actor: Actor, id: string): Promise<HouseholdInDb> {
    const found = this.findHousehold(actor, id);
    const out = this.householdOut(found);
    refuseInDemo(this.larder.config, "deleteHousehold");
    const verdict = canDeleteHousehold(found.household.doc.data, {
      userCount: this.larder.users.inHousehold(found.household.doc.data.id).length,
    });
    if (!verdict.ok) throw new BadRequestError(verdict.reason);
    if (found.group.households.size <= 1)
      throw new BadRequestError("Cannot delete the last household of a group");
    await this.larder.registration.invitations.removeForHousehold(found.household.doc.data.id);
    await this.larder.groups.removeHousehold(found.group, found.household);
    return out;
  }
}
