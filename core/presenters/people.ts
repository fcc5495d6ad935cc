/** Wire shapes of users, groups and households (contract: UserOut, UserSummary, GroupSummary, HouseholdSummary…). */
import type { Wire } from "../wire/index.js";
import type { GroupRecord, HouseholdRecord, UserRecord } from "../schemas/records.js";

export interface TokenSummary {
  id: number;
  name: string;
  createdAt: string | null;
}

export function presentUser(
  u: UserRecord,
  g: GroupRecord,
  h: HouseholdRecord,
  tokens: TokenSummary[] | null = null,
): Wire<"UserOut"> {
  return {
    id: u.id,
    username: u.username,
    fullName: u.fullName,
    email: u.email,
    authMethod: u.authMethod,
    admin: u.admin,
    group: g.name,
    household: h.name,
    advanced: u.advanced,
    showAnnouncements: u.showAnnouncements,
    lastReadAnnouncement: u.lastReadAnnouncement,
    canInvite: u.canInvite,
    canManage: u.canManage,
    canManageHousehold: u.canManageHousehold,
    canOrganize: u.canOrganize,
    groupId: g.id,
    groupSlug: g.slug,
    householdId: h.id,
    householdSlug: h.slug,
    tokens,
    cacheKey: u.cacheKey,
  };
}

export function presentUserSummary(u: UserRecord): Wire<"UserSummary"> {
  return {
    id: u.id,
    groupId: u.groupId,
    householdId: u.householdId,
    username: u.username,
    fullName: u.fullName,
  };
}

export function presentGroupPreferences(g: GroupRecord): Wire<"ReadGroupPreferences"> {
  return {
    privateGroup: g.preferences.privateGroup,
    showAnnouncements: g.preferences.showAnnouncements,
    groupId: g.id,
    id: g.preferencesId ?? g.id,
  };
}

export function presentGroupSummary(g: GroupRecord): Wire<"GroupSummary"> {
  return {
    name: g.name,
    id: g.id,
    slug: g.slug,
    preferences: presentGroupPreferences(g),
    aiProviderSettings: null,
  };
}

export function presentHouseholdPreferences(h: HouseholdRecord): Wire<"ReadHouseholdPreferences"> {
  return { ...h.preferences, id: h.preferencesId ?? h.id };
}

export function presentHouseholdSummary(h: HouseholdRecord): Wire<"HouseholdSummary"> {
  return {
    groupId: h.groupId,
    name: h.name,
    id: h.id,
    slug: h.slug,
    preferences: presentHouseholdPreferences(h),
  };
}

export function presentHouseholdInDb(
  h: HouseholdRecord,
  g: GroupRecord,
  users: UserRecord[],
): Wire<"HouseholdInDB"> {
  return {
    ...presentHouseholdSummary(h),
    group: g.name,
    users: users.map((u) => ({ id: u.id, fullName: u.fullName })),
    webhooks: [],
  };
}

/** `GroupInDB` (admin group routes): the group with its households, users and categories. */
export function presentGroupInDb(
  g: GroupRecord,
  households: HouseholdRecord[],
  users: UserRecord[],
  categories: readonly { id: string; name: string; slug: string }[],
): Wire<"GroupInDB"> {
  return {
    name: g.name,
    id: g.id,
    slug: g.slug,
    categories: categories.map((c) => ({ name: c.name, id: c.id, groupId: g.id, slug: c.slug })),
    webhooks: [],
    households: households.map((h) => ({ id: h.id, name: h.name })),
    users: users.map(presentUserSummary),
    preferences: presentGroupPreferences(g),
    aiProviderSettings: null,
  };
}

/** `ReadInviteToken`: the token itself is shown to the household that made it, as in Mealie. */
export function presentInviteToken(i: {
  token: string;
  usesLeft: number;
  groupId: string;
  householdId: string;
}): Wire<"ReadInviteToken"> {
  return { token: i.token, usesLeft: i.usesLeft, groupId: i.groupId, householdId: i.householdId };
}
