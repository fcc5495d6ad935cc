/**
 * Groups and households as records, for the adapters (web/, cli/): who is where, names, preferences.
 * The registry's documents stay inside core (issue 12); what leaves is the record as last written
 * (each write replaces it, so a caller's reference never changes under it; writes go through services).
 */
import type { Parts } from "../parts.js";
import type { GroupRecord, HouseholdRecord, OrganizerKind, UserRecord } from "../schemas/records.js";
import type { GroupData } from "./registry.js";
import { NotFoundError } from "../errors.js";
import { presentUser } from "../presenters/people.js";
import type { Wire } from "../wire/index.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "auth" | "groups" | "recipes" | "site">;

export class Directory {
  constructor(private readonly larder: Deps) {}

  private households(g: GroupData): HouseholdRecord[] {
    return [...g.households.values()].map((h) => h.doc.data);
  }

  /** Every group with its households. */
  all(): { group: GroupRecord; households: HouseholdRecord[] }[] {
    return this.larder.groups.all().map((g) => ({ group: g.doc.data, households: this.households(g) }));
  }

  /** A group by slug or name (case-insensitive). */
  groupByRef(ref: string): GroupRecord | null {
    return (this.larder.groups.bySlugOrNull(ref) ?? this.larder.groups.byName(ref))?.doc.data ?? null;
  }

  /** The names a group's recipe editor offers (units, foods, organizers), sorted. */
  vocabularyNames(groupSlug: string): Record<"units" | "foods" | "categories" | "tags" | "tools", string[]> {
    const g = this.larder.groups.bySlugOrNull(groupSlug);
    const names = (list: readonly { name: string }[] | undefined) =>
      (list ?? []).map((x) => x.name).sort((a, b) => a.localeCompare(b));
    // Organizers a recipe file names count as the group's too (the organizer pages list them).
    const organizers = (kind: OrganizerKind) =>
      names(g ? this.larder.recipes.lister.groupOrganizers(g.slug, kind) : undefined);
    return {
      units: names(g?.units.data.units),
      foods: names(g?.foods.data.foods),
      categories: organizers("categories"),
      tags: organizers("tags"),
      tools: organizers("tools"),
    };
  }

  /** A group's foods (id and name), for filters. */
  foodsOf(groupSlug: string): { id: string; name: string }[] {
    return (this.larder.groups.bySlugOrNull(groupSlug)?.foods.data.foods ?? []).map((f) => ({
      id: f.id,
      name: f.name,
    }));
  }

  groupById(id: string): GroupRecord | null {
    return this.larder.groups.byId(id)?.doc.data ?? null;
  }

  groupBySlug(slug: string): GroupRecord | null {
    return this.larder.groups.bySlugOrNull(slug)?.doc.data ?? null;
  }

  /** The site's default group (else the first) and its default household. */
  defaultGroup(): { group: GroupRecord; household: HouseholdRecord | null } | null {
    const groups = this.larder.groups;
    const g = groups.bySlugOrNull(this.larder.site.data.defaultGroup) ?? groups.all()[0] ?? null;
    if (!g) return null;
    return { group: g.doc.data, household: groups.defaultHousehold(g)?.doc.data ?? null };
  }

  /** The households of a group (by id), oldest first as the folder lists them. */
  householdsOf(groupId: string): HouseholdRecord[] {
    const g = this.larder.groups.byId(groupId);
    return g ? this.households(g) : [];
  }

  householdById(id: string): { group: GroupRecord; household: HouseholdRecord } | null {
    const found = this.larder.groups.householdById(id);
    return found ? { group: found.group.doc.data, household: found.household.doc.data } : null;
  }

  /** Mealie's `UserOut` for a user, with their group and household (and API tokens unless told not to). */
  userOut(u: UserRecord, withTokens = true): Wire<"UserOut"> {
    const found = this.householdById(u.householdId);
    if (!found) throw new NotFoundError("household not found");
    const tokens = withTokens ? this.larder.auth.listTokens(u.id) : null;
    return presentUser(u, found.group, found.household, tokens);
  }
}
