/**
 * The people tables of a running Larder with their relations, as Mealie's models have them: a user's
 * `group` and `household`, a household's `group` and `users`, a group's `households` and `users`. A
 * list's `queryFilter`/`orderBy` then follows them (`household.slug` on users, `group.name` on
 * households, `user.username` on meal plans) the way Mealie's filter joins through a relationship.
 * The related items are looked up live, by id, in the registries.
 *
 * Two sets: the admin's, where a user has an e-mail to filter by, and a member's, where users are the
 * `UserSummary` a member is shown of the group — no e-mail at any depth (`group.users.email` on a meal
 * plan is refused like an unknown path), so a filter cannot probe what the answers hide.
 */
import type { Parts } from "../parts.js";
import { relation, type AttributeTable } from "../query/attribute-table.js";
import { userAttributes, userSummaryAttributes, type UserQueryItem } from "../query/attributes.js";
import type { GroupRecord } from "../schemas/records.js";
import { groupAttributes, householdAttributes, type HouseholdQueryItem } from "./attributes.js";

type Deps = Pick<Parts, "groups" | "users">;

export interface RelatedTables {
  users: AttributeTable<UserQueryItem>;
  households: AttributeTable<HouseholdQueryItem>;
  groups: AttributeTable<GroupRecord>;
}

export interface PeopleTables extends RelatedTables {
  /** For a member's lists: users without e-mail, at every depth. */
  member: RelatedTables;
  /**
   * A member's own household's members (`GET /households/members`, whose answer shows e-mails): `email`
   * on the user itself, the member's tables through its relations.
   */
  householdMembers: AttributeTable<UserQueryItem>;
  userOf(id: string | null | undefined): UserQueryItem | null;
  householdOf(id: string | null | undefined): HouseholdQueryItem | null;
  groupOf(id: string | null | undefined): GroupRecord | null;
}

const built = new WeakMap<Deps["groups"], PeopleTables>();

export function peopleTables(larder: Deps): PeopleTables {
  const hit = built.get(larder.groups);
  if (hit) return hit;
  const groupOf = (id: string | null | undefined) => (id ? (larder.groups.byId(id)?.doc.data ?? null) : null);
  const householdOf = (id: string | null | undefined): HouseholdQueryItem | null => {
    const found = id ? larder.groups.householdById(id) : null;
    return found ? { record: found.household.doc.data, groupName: found.group.doc.data.name } : null;
  };
  const userOf = (id: string | null | undefined) => (id ? larder.users.byId(id) : null);
  const userRelations = (to: () => RelatedTables) => ({
    group: relation.one(
      () => to().groups,
      (u: UserQueryItem) => groupOf(u.groupId),
    ),
    household: relation.one(
      () => to().households,
      (u: UserQueryItem) => householdOf(u.householdId),
    ),
  });
  const over = (base: AttributeTable<UserQueryItem>): RelatedTables => {
    const t: RelatedTables = {
      users: base.withRelations(userRelations(() => t)),
      households: householdAttributes.withRelations({
        group: relation.one(
          () => t.groups,
          (h: HouseholdQueryItem) => groupOf(h.record.groupId),
        ),
        users: relation.many(
          () => t.users,
          (h: HouseholdQueryItem) => larder.users.inHousehold(h.record.id),
        ),
      }),
      groups: groupAttributes.withRelations({
        households: relation.many(
          () => t.households,
          (g: GroupRecord) =>
            [...(larder.groups.byId(g.id)?.households.values() ?? [])].map((h) => ({
              record: h.doc.data,
              groupName: g.name,
            })),
        ),
        users: relation.many(
          () => t.users,
          (g: GroupRecord) => larder.users.inGroup(g.id),
        ),
      }),
    };
    return t;
  };
  const admin = over(userAttributes);
  const member = over(userSummaryAttributes);
  const tables: PeopleTables = {
    ...admin,
    member,
    householdMembers: userAttributes.withRelations(userRelations(() => member)),
    userOf,
    householdOf,
    groupOf,
  };
  built.set(larder.groups, tables);
  return tables;
}
