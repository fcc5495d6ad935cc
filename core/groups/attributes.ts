/**
 * `queryFilter`/`orderBy` paths of group and household lists (GET /groups/households,
 * /admin/groups, /admin/households), in the manner of core/query/attributes.ts.
 */
import { AttributeTable, attr } from "../query/attribute-table.js";
import type { GroupRecord, HouseholdRecord } from "../schemas/records.js";

/** A household list item: the record plus its group's name, for `group.name` (spec §7 orders by it). */
export interface HouseholdQueryItem {
  record: HouseholdRecord;
  groupName: string;
}

type H = HouseholdQueryItem;
export const householdAttributes = new AttributeTable<HouseholdQueryItem>("household", {
  id: attr.uuid((h: H) => h.record.id),
  name: attr.string((h: H) => h.record.name),
  slug: attr.string((h: H) => h.record.slug),
  groupId: attr.uuid((h: H) => h.record.groupId),
  "group.id": attr.uuid((h: H) => h.record.groupId),
  "group.name": attr.string((h: H) => h.groupName),
  "preferences.privateHousehold": attr.boolean((h: H) => h.record.preferences.privateHousehold),
  "preferences.recipePublic": attr.boolean((h: H) => h.record.preferences.recipePublic),
  createdAt: attr.datetime((h: H) => h.record.createdAt),
  updatedAt: attr.datetime((h: H) => h.record.updatedAt),
  updateAt: attr.datetime((h: H) => h.record.updatedAt),
});

type G = GroupRecord;
export const groupAttributes = new AttributeTable<GroupRecord>("group", {
  id: attr.uuid((g: G) => g.id),
  name: attr.string((g: G) => g.name),
  slug: attr.string((g: G) => g.slug),
  "preferences.privateGroup": attr.boolean((g: G) => g.preferences.privateGroup),
  createdAt: attr.datetime((g: G) => g.createdAt),
  updatedAt: attr.datetime((g: G) => g.updatedAt),
  updateAt: attr.datetime((g: G) => g.updatedAt),
});
