/**
 * The people tables of a running Larder with their relations, as Mealie's models have them: a user's
 * `group` and `household`, a household's `group` and `users`, a group's `households` and `users`. A
 * list's `queryFilter`/`orderBy` then follows them (`household.slug` on users, `group.name` on
 * households, `user.username` on meal plans) the way Mealie's filter joins through a relationship.
 * The related items are looked up live, by id, in the registries.
 */
import type { Parts } from "../parts.js";
import { relation, type AttributeTable } from "../query/attribute-table.js";
import { userAttributes, type UserQueryItem } from "../query/attributes.js";
import type { GroupRecord } from "../schemas/records.js";
import { groupAttributes, householdAttributes, type HouseholdQueryItem } from "./attributes.js";

type Deps = Pick<Parts, "groups" | "users">;

export interface PeopleTables {
  users: AttributeTable<UserQueryItem>;
  households: AttributeTable<HouseholdQueryItem>;
  groups: AttributeTable<GroupRecord>;
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
  const users: AttributeTable<UserQueryItem> = userAttributes.withRelations({
    group: relation.one(
      () => groups,
      (u: UserQueryItem) => groupOf(u.groupId),
    ),
    household: relation.one(
      () => households,
      (u: UserQueryItem) => householdOf(u.householdId),
    ),
  });
  const households: AttributeTable<HouseholdQueryItem> = householdAttributes.withRelations({
    group: relation.one(
      () => groups,
      (h: HouseholdQueryItem) => groupOf(h.record.groupId),
    ),
    users: relation.many(
      () => users,
      (h: HouseholdQueryItem) => larder.users.inHousehold(h.record.id),
    ),
  });
  const groups: AttributeTable<GroupRecord> = groupAttributes.withRelations({
    households: relation.many(
      () => households,
      (g: GroupRecord) =>
        [...(larder.groups.byId(g.id)?.households.values() ?? [])].map((h) => ({
          record: h.doc.data,
          groupName: g.name,
        })),
    ),
    users: relation.many(
      () => users,
      (g: GroupRecord) => larder.users.inGroup(g.id),
    ),
  });
  const tables = { users, households, groups, userOf, householdOf, groupOf };
  built.set(larder.groups, tables);
  return tables;
}
