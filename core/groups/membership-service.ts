/**
 * A signed-in user's own group and household (mealie-api-notes §4.4, §4.5): who is in them, their
 * preferences, permissions, statistics and storage. Everything is read through the actor's group or
 * household, so another group's ids answer 404 like unknown ones; each permission flag is checked
 * here (spec §6), not in a route.
 */
import { keepLeftAlone } from "../util/left-alone.js";
import { z } from "zod";
import { lazySchema } from "../util/lazy-schema.js";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import { ForbiddenError, NotFoundError } from "../errors.js";
import type { GroupData, HouseholdData } from "./registry.js";
import type { GroupRecord, HouseholdRecord, OrganizerKind, UserRecord } from "../schemas/records.js";
import { requirePermission } from "../policy/guards.js";
import { canChangePermissions } from "../policy/users.js";
import { signedIn } from "../users/accounts-service.js";
import { SetPermissionsBody } from "../users/user-input.js";
import { folderSize, formatBytes } from "../maintenance/disk.js";
import { listQuery } from "../query/list.js";
import { mapPage, type ListQuery, type Page } from "../query/list-query.js";
import { textRanker } from "../search/text-search.js";
import { presentHouseholdSummary, presentUserSummary } from "../presenters/people.js";
import type { Wire } from "../wire/index.js";
import type { HouseholdQueryItem } from "./attributes.js";
import { peopleTables } from "./related-tables.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "directory" | "folder" | "groups" | "recipes" | "users">;

const flag = lazySchema(() => z.boolean().optional());

/** PUT /groups/preferences (`UpdateGroupPreferences`): absent fields keep their values. */
export const GroupPreferencesBody = lazySchema(() =>
  z.object({ privateGroup: flag, showAnnouncements: flag }),
);

/** PUT /households/preferences (`UpdateHouseholdPreferences`): absent fields keep their values. */
export const HouseholdPreferencesBody = lazySchema(() =>
  z.object({
    privateHousehold: flag,
    showAnnouncements: flag,
    lockRecipeEditsFromOtherHouseholds: flag,
    firstDayOfWeek: z.number().int().min(0).max(6).optional(),
    recipePublic: flag,
    recipeShowNutrition: flag,
    recipeShowAssets: flag,
    recipeLandscapeView: flag,
    recipeDisableComments: flag,
  }),
);

/** Mealie's per-group storage allowance, shown by GET /groups/storage. */
export const GROUP_STORAGE_BYTES = 500 * 1000 * 1000;

export interface HouseholdStatistics {
  totalRecipes: number;
  totalUsers: number;
  totalCategories: number;
  totalTags: number;
  totalTools: number;
}

export class MembershipService {
  constructor(private readonly larder: Deps) {}

  private groupData(actor: Actor): GroupData {
    const g = this.larder.groups.byId(signedIn(actor).groupId);
    if (!g) throw new NotFoundError("group not found");
    return g;
  }

  private householdData(actor: Actor): HouseholdData {
    const me = signedIn(actor);
    const h = this.larder.groups.household(me.groupId, me.householdId);
    if (!h) throw new NotFoundError("household not found");
    return h;
  }

  /** The actor's group. */
  group(actor: Actor): GroupRecord {
    const g = this.larder.groups.byId(signedIn(actor).groupId);
    if (!g) throw new NotFoundError("group not found");
    return g.doc.data;
  }

  /** The actor's household. */
  household(actor: Actor): HouseholdRecord {
    const me = signedIn(actor);
    const h = this.larder.groups.household(me.groupId, me.householdId);
    if (!h) throw new NotFoundError("household not found");
    return h.doc.data;
  }

  /** GET /groups/members: every user of the actor's group. */
  groupMembers(actor: Actor): UserRecord[] {
    return this.larder.users.inGroup(this.groupData(actor).doc.data.id);
  }

  /** GET /groups/members as a page, searched by username and full name. */
  groupMembersPage(actor: Actor, query: ListQuery): Page<Wire<"UserSummary">> {
    const page = listQuery(this.groupMembers(actor), query, peopleTables(this.larder).member.users, {
      search: textRanker<UserRecord>([(u) => u.username, (u) => u.fullName]),
    });
    return mapPage(page, (u) => presentUserSummary(u));
  }

  /** GET /groups/members/{usernameOrId}: 404 "User Not Found" outside the group. */
  groupMember(actor: Actor, usernameOrId: string): UserRecord {
    const user = this.larder.users.inGroupByIdOrName(this.groupData(actor).doc.data.id, usernameOrId);
    if (!user) throw new NotFoundError("User Not Found");
    return user;
  }

  /** PUT /groups/preferences: requires canManage (Mealie checks nothing; mealie-api-notes §17). */
  async updateGroupPreferences(actor: Actor, raw: unknown): Promise<GroupRecord> {
    requirePermission(signedIn(actor), "canManage");
    const body = GroupPreferencesBody.parse(raw ?? {});
    return this.larder.groups.updateGroup(this.groupData(actor), { preferences: definedOnly(body) });
  }

  /** GET /groups/storage: what the group's folder takes on disk, against Mealie's 500 MB. */
  async groupStorage(actor: Actor): Promise<{
    usedStorageBytes: number;
    usedStorageStr: string;
    totalStorageBytes: number;
    totalStorageStr: string;
  }> {
    const used = await folderSize(this.larder.folder.groupDir(this.groupData(actor).slug));
    return {
      usedStorageBytes: used,
      usedStorageStr: formatBytes(used),
      totalStorageBytes: GROUP_STORAGE_BYTES,
      totalStorageStr: formatBytes(GROUP_STORAGE_BYTES),
    };
  }

  /** GET /groups/households: the households of the actor's group. */
  households(actor: Actor): HouseholdRecord[] {
    return [...this.groupData(actor).households.values()].map((h) => h.doc.data);
  }

  /** GET /groups/households as a page, searched by name. */
  householdsPage(actor: Actor, query: ListQuery): Page<Wire<"HouseholdSummary">> {
    const groupName = this.group(actor).name;
    const items: HouseholdQueryItem[] = this.households(actor).map((record) => ({ record, groupName }));
    const page = listQuery(items, query, peopleTables(this.larder).member.households, {
      search: textRanker<HouseholdQueryItem>([(h) => h.record.name]),
    });
    return mapPage(page, (h) => presentHouseholdSummary(h.record));
  }

  /** GET /groups/households/{slugOrId}: 404 "Household not found" outside the group. */
  householdInGroup(actor: Actor, slugOrId: string): HouseholdRecord {
    const g = this.groupData(actor);
    const h =
      g.households.get(slugOrId) ?? [...g.households.values()].find((x) => x.doc.data.id === slugOrId);
    if (!h) throw new NotFoundError("Household not found");
    return h.doc.data;
  }

  /** GET /households/members: the users of the actor's household. */
  householdMembers(actor: Actor): UserRecord[] {
    return this.larder.users.inHousehold(this.householdData(actor).doc.data.id);
  }

  /** GET /households/members as a page of `UserOut`, searched by username, full name and e-mail. */
  householdMembersPage(actor: Actor, query: ListQuery): Page<Wire<"UserOut">> {
    const page = listQuery(this.householdMembers(actor), query, peopleTables(this.larder).householdMembers, {
      search: textRanker<UserRecord>([(u) => u.username, (u) => u.fullName, (u) => u.email]),
    });
    return mapPage(page, (u) => this.larder.directory.userOut(u, false));
  }

  /** PUT /households/preferences: requires canManageHousehold. */
  async updateHouseholdPreferences(
    actor: Actor,
    raw: unknown,
    base?: Record<string, unknown>,
  ): Promise<HouseholdRecord> {
    requirePermission(signedIn(actor), "canManageHousehold");
    const body: Record<string, unknown> = definedOnly(HouseholdPreferencesBody.parse(raw ?? {}));
    // `base`: the preferences as the settings page showed them (decision 0306).
    const household = this.householdData(actor);
    keepLeftAlone(body, base, household.doc.data.preferences, Object.keys(body));
    return this.larder.groups.updateHousehold(household, { preferences: body });
  }

  /**
   * PUT /households/permissions: requires canManage; an unknown user, or one of another group, is a
   * 404; one of another household, or oneself, a 403 (core/policy/users.ts PERMISSION_CHANGE_RULES).
   */
  async setPermissions(actor: Actor, raw: unknown): Promise<UserRecord> {
    const me = signedIn(actor);
    requirePermission(me, "canManage");
    const body = SetPermissionsBody.parse(raw ?? {});
    const target = this.larder.users.byId(body.userId);
    if (!target || target.groupId !== me.groupId) throw new NotFoundError("User Not Found");
    const verdict = canChangePermissions(me, target);
    if (!verdict.ok) throw new ForbiddenError(verdict.reason);
    const { userId: _id, ...flags } = body;
    return this.larder.users.update(target.id, flags);
  }

  /** GET /households/statistics: the household's recipes and users, the group's organizers (stored or named by a recipe). */
  statistics(actor: Actor): HouseholdStatistics {
    const g = this.groupData(actor);
    const householdId = this.householdData(actor).doc.data.id;
    const recipes = this.larder.recipes;
    const totalRecipes = recipes.store
      .list(g.slug)
      .filter((e) => recipes.summaryOf(e).householdId === householdId).length;
    const count = (kind: OrganizerKind) => recipes.lister.groupOrganizers(g.slug, kind).length;
    return {
      totalRecipes,
      totalUsers: this.larder.users.inHousehold(householdId).length,
      totalCategories: count("categories"),
      totalTags: count("tags"),
      totalTools: count("tools"),
    };
  }

  /** GET /households/self/recipes/{slug}: the household's view of a recipe of the group. */
  householdRecipe(actor: Actor, slugOrId: string): { recipeId: string; lastMade: string | null } {
    const { entry } = this.larder.recipes.find(actor, slugOrId);
    return { recipeId: entry.id, lastMade: entry.doc.lastMade };
  }
}

function definedOnly<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
