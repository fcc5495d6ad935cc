/**
 * Stored records: the shapes of the JSON documents in the data folder (ARCHITECTURE §2). One zod schema
 * per entity gives the type and validates hand edits; presenters (core/presenters) turn records into
 * wire shapes. Nothing secret lives here: credentials are under `.larder/`.
 */
import { z } from "zod";

const ts = z.string().nullable().default(null);

export const UserRecord = z.object({
  id: z.string(),
  username: z.string(),
  fullName: z.string().default(""),
  email: z.string(),
  authMethod: z.enum(["Mealie", "LDAP", "OIDC"]).default("Mealie"),
  admin: z.boolean().default(false),
  advanced: z.boolean().default(false),
  canInvite: z.boolean().default(false),
  canManage: z.boolean().default(false),
  canManageHousehold: z.boolean().default(false),
  canOrganize: z.boolean().default(false),
  groupId: z.string(),
  householdId: z.string(),
  cacheKey: z.string().default("1"),
  showAnnouncements: z.boolean().default(true),
  lastReadAnnouncement: z.string().nullable().default(null),
  createdAt: ts,
  updatedAt: ts,
});
export type UserRecord = z.infer<typeof UserRecord>;
export const UsersDoc = z.object({ users: z.array(UserRecord).default([]) });
export type UsersDoc = z.infer<typeof UsersDoc>;

export const GroupPreferences = z.object({
  privateGroup: z.boolean().default(true),
  showAnnouncements: z.boolean().default(true),
});
export type GroupPreferences = z.infer<typeof GroupPreferences>;
export const GroupRecord = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  preferences: GroupPreferences.default({ privateGroup: true, showAnnouncements: true }),
  preferencesId: z.string().optional(),
  createdAt: ts,
  updatedAt: ts,
});
export type GroupRecord = z.infer<typeof GroupRecord>;

export const HouseholdPreferences = z.object({
  privateHousehold: z.boolean().default(true),
  showAnnouncements: z.boolean().default(true),
  lockRecipeEditsFromOtherHouseholds: z.boolean().default(true),
  firstDayOfWeek: z.number().int().min(0).max(6).default(0),
  recipePublic: z.boolean().default(true),
  recipeShowNutrition: z.boolean().default(false),
  recipeShowAssets: z.boolean().default(false),
  recipeLandscapeView: z.boolean().default(false),
  recipeDisableComments: z.boolean().default(false),
});
export type HouseholdPreferences = z.infer<typeof HouseholdPreferences>;
export const HouseholdRecord = z.object({
  id: z.string(),
  groupId: z.string(),
  name: z.string(),
  slug: z.string(),
  preferences: HouseholdPreferences.default(HouseholdPreferences.parse({})),
  preferencesId: z.string().optional(),
  createdAt: ts,
  updatedAt: ts,
});
export type HouseholdRecord = z.infer<typeof HouseholdRecord>;

export const OrganizerRecord = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  createdAt: ts,
  updatedAt: ts,
});
export type OrganizerRecord = z.infer<typeof OrganizerRecord>;
export const ToolRecord = OrganizerRecord.extend({ householdsWithTool: z.array(z.string()).default([]) });
export type ToolRecord = z.infer<typeof ToolRecord>;
export const OrganizersDoc = z.object({
  categories: z.array(OrganizerRecord).default([]),
  tags: z.array(OrganizerRecord).default([]),
  tools: z.array(ToolRecord).default([]),
});
export type OrganizersDoc = z.infer<typeof OrganizersDoc>;
export type OrganizerKind = "categories" | "tags" | "tools";

const alias = z.object({ name: z.string() });
export const FoodRecord = z.object({
  id: z.string(),
  name: z.string(),
  pluralName: z.string().nullable().default(null),
  description: z.string().default(""),
  extras: z.record(z.string(), z.string()).default({}),
  labelId: z.string().nullable().default(null),
  aliases: z.array(alias).default([]),
  householdsWithIngredientFood: z.array(z.string()).default([]),
  createdAt: ts,
  updatedAt: ts,
});
export type FoodRecord = z.infer<typeof FoodRecord>;
export const FoodsDoc = z.object({
  foods: z.array(FoodRecord).default([]),
  /** The fingerprint of the seed whose aliases this group was last offered (decision 0251). */
  seedAliases: z.string().optional(),
});

export const UnitRecord = z.object({
  id: z.string(),
  name: z.string(),
  pluralName: z.string().nullable().default(null),
  description: z.string().default(""),
  extras: z.record(z.string(), z.string()).default({}),
  fraction: z.boolean().default(true),
  abbreviation: z.string().default(""),
  pluralAbbreviation: z.string().nullable().default(""),
  useAbbreviation: z.boolean().default(false),
  aliases: z.array(alias).default([]),
  standardQuantity: z.number().nullable().default(null),
  standardUnit: z.string().nullable().default(null),
  createdAt: ts,
  updatedAt: ts,
});
export type UnitRecord = z.infer<typeof UnitRecord>;
export const UnitsDoc = z.object({ units: z.array(UnitRecord).default([]) });

export const LabelRecord = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string().default("#959595"),
  createdAt: ts,
  updatedAt: ts,
});
export type LabelRecord = z.infer<typeof LabelRecord>;
export const LabelsDoc = z.object({ labels: z.array(LabelRecord).default([]) });

export const SiteDoc = z.object({
  formatVersion: z.number().default(1),
  defaultGroup: z.string().default("home"),
});
export type SiteDoc = z.infer<typeof SiteDoc>;
