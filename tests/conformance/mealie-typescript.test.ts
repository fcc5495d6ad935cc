/**
 * Conformance with a real third-party client: every method of every API class of `mealie-typescript`
 * (generated from Mealie's OpenAPI, axios-based) is called against one real Larder server, with the
 * objects each call needs created first by the client itself. The server is `larder serve` in a process
 * of its own, the bundle users run when it is built (tests/support/served-larder.ts), so the whole API is
 * also checked as it is shipped. Methods are enumerated from the classes' prototypes, so a new client
 * version's methods fail here until they get a row in `CALLS`.
 *
 * A call passes when it answers 2xx and its JSON body parses. The calls of capabilities other open issues
 * build are listed once, in expected-failures.ts: the suite fails when one of those starts passing and
 * when any other call fails.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import axios from "axios";
import * as mealie from "mealie-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../cli/testing/run-cli.js";
import { startServedLarder, type ServedLarder } from "../support/served-larder.js";
import { CookieJar, IDP_CLIENT, browseSignIn, startTestIdp, type TestIdp } from "../support/oidc-provider.js";
import { EXPECTED_FAILURES } from "./expected-failures.js";

type Dict = Record<string, unknown>;
interface Ctx {
  t: ServedLarder;
  ids: Record<string, string>;
  png: Buffer;
  stubUrl: string;
  /** JSON from the server with the admin's token, for arguments that need current state. */
  get(path: string): Promise<Dict>;
}
type Who = "admin" | "user" | "anon";
interface Call {
  /** Lower runs first; creations 0–2, reads and updates 5, removals 8, session-ending calls 9. */
  phase?: number;
  as?: Who;
  args?: (c: Ctx) => unknown[] | Promise<unknown[]>;
  /** The answer is a redirect (sign-in): a 3xx with a Location passes, and it is not followed. */
  redirects?: boolean;
  /** Keeps what later calls need from the answer. */
  keep?: (data: unknown, c: Ctx) => void;
}

const ID = (c: Ctx, k: string): string => {
  const v = c.ids[k];
  if (!v) throw new Error(`no ${k} yet: a creating call failed or runs later`);
  return v;
};
const d = (x: unknown) => x as Dict;
const today = new Date().toISOString().slice(0, 10);
const blob = (b: Buffer, type: string) => new File([new Uint8Array(b)], "upload", { type });

/** The backup the create call made: the only one listed after it (remembered before the upload adds one). */
async function madeBackup(c: Ctx): Promise<string> {
  if (!c.ids.backup) {
    const { imports } = (await c.get("/api/admin/backups")) as { imports: { name: string }[] };
    if (imports.length !== 1) throw new Error(`expected the one backup just made, found ${imports.length}`);
    c.ids.backup = imports[0].name;
  }
  return c.ids.backup;
}

async function downloadBackup(c: Ctx, name: string): Promise<Buffer> {
  const { fileToken } = await c.get(`/api/admin/backups/${encodeURIComponent(name)}`);
  const res = await c.t.api(`/api/utils/download?token=${encodeURIComponent(String(fileToken))}`);
  if (!res.ok) throw new Error(`download of ${name}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** One row per client method. `undefined` args: the method's parameters are all optional. */
const CALLS: Record<string, Call> = {
  // --- admin ---
  "AdminAboutApi.checkAppConfigApiAdminAboutCheckGet": {},
  "AdminAboutApi.getAppInfoApiAdminAboutGet": {},
  "AdminAboutApi.getAppStatisticsApiAdminAboutStatisticsGet": {},
  "AdminBackupsApi.createOneApiAdminBackupsPost": { phase: 1 },
  "AdminBackupsApi.getAllApiAdminBackupsGet": {},
  "AdminBackupsApi.getOneApiAdminBackupsFileNameGet": { args: async (c) => [await madeBackup(c)] },
  // A real backup goes back up: the one made above, downloaded through its file token.
  "AdminBackupsApi.uploadOneApiAdminBackupsUploadPost": {
    phase: 2,
    args: async (c) => [blob(await downloadBackup(c, await madeBackup(c)), "application/zip")],
    keep: (r, c) => (c.ids.uploadedBackup = /Backup uploaded: (.+)$/.exec(String(d(r).message))?.[1] ?? ""),
  },
  // Restoring would replace the data the rest of the suite works on: it runs last of all.
  "AdminBackupsApi.importOneApiAdminBackupsFileNameRestorePost": {
    phase: 10,
    args: async (c) => [await madeBackup(c)],
  },
  "AdminBackupsApi.deleteOneApiAdminBackupsFileNameDelete": {
    phase: 8,
    args: (c) => [ID(c, "uploadedBackup")],
  },
  "AdminDebugApi.debugOpenaiApiAdminDebugOpenaiPost": {},
  "AdminEmailApi.checkEmailConfigApiAdminEmailGet": {},
  "AdminEmailApi.sendTestEmailApiAdminEmailPost": { args: () => [{ email: "someone@example.com" }] },
  "AdminMaintenanceApi.cleanImagesApiAdminMaintenanceCleanImagesPost": { phase: 8 },
  "AdminMaintenanceApi.cleanRecipeFoldersApiAdminMaintenanceCleanRecipeFoldersPost": { phase: 8 },
  "AdminMaintenanceApi.cleanTempApiAdminMaintenanceCleanTempPost": { phase: 8 },
  "AdminMaintenanceApi.getMaintenanceSummaryApiAdminMaintenanceGet": {},
  "AdminMaintenanceApi.getStorageDetailsApiAdminMaintenanceStorageGet": {},
  "AdminManageGroupsApi.createOneApiAdminGroupsPost": {
    phase: 0,
    args: () => [{ name: "Conformance Group" }],
    keep: (r, c) => (c.ids.group = String(d(r).id)),
  },
  "AdminManageGroupsApi.getAllApiAdminGroupsGet": {},
  "AdminManageGroupsApi.getOneApiAdminGroupsItemIdGet": { args: (c) => [ID(c, "group")] },
  "AdminManageGroupsApi.updateOneApiAdminGroupsItemIdPut": {
    args: (c) => [ID(c, "group"), { id: ID(c, "group"), name: "Conformance Group Renamed" }],
  },
  "AdminManageGroupsApi.deleteOneApiAdminGroupsItemIdDelete": { phase: 8, args: (c) => [ID(c, "group")] },
  "AdminManageHouseholdsApi.createOneApiAdminHouseholdsPost": {
    phase: 1,
    args: (c) => [{ name: "Conformance Household", groupId: ID(c, "myGroup") }],
    keep: (r, c) => (c.ids.household = String(d(r).id)),
  },
  "AdminManageHouseholdsApi.getAllApiAdminHouseholdsGet": {},
  "AdminManageHouseholdsApi.getOneApiAdminHouseholdsItemIdGet": { args: (c) => [ID(c, "household")] },
  "AdminManageHouseholdsApi.updateOneApiAdminHouseholdsItemIdPut": {
    args: (c) => [
      ID(c, "household"),
      { id: ID(c, "household"), groupId: ID(c, "myGroup"), name: "Conformance Household 2" },
    ],
  },
  "AdminManageHouseholdsApi.deleteOneApiAdminHouseholdsItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "household")],
  },
  "AdminManageUsersApi.createOneApiAdminUsersPost": {
    phase: 0,
    args: () => [
      {
        username: "conform",
        fullName: "Con Form",
        email: "conform@example.com",
        password: "conform-pass-1",
        canInvite: true,
        canManage: true,
        canOrganize: true,
      },
    ],
    keep: (r, c) => (c.ids.user = String(d(r).id)),
  },
  "AdminManageUsersApi.getAllApiAdminUsersGet": {},
  "AdminManageUsersApi.getOneApiAdminUsersItemIdGet": { args: (c) => [ID(c, "user")] },
  "AdminManageUsersApi.updateOneApiAdminUsersItemIdPut": {
    args: async (c) => [
      ID(c, "user"),
      { ...(await c.get(`/api/admin/users/${ID(c, "user")}`)), fullName: "Con Form II" },
    ],
  },
  "AdminManageUsersApi.generateTokenApiAdminUsersPasswordResetTokenPost": {
    phase: 6,
    args: () => [{ email: "conform@example.com" }],
    keep: (r, c) => (c.ids.resetToken = String(d(r).token)),
  },
  "AdminManageUsersApi.unlockUsersApiAdminUsersUnlockPost": {},
  "AdminManageUsersApi.deleteOneApiAdminUsersItemIdDelete": { phase: 9.5, args: (c) => [ID(c, "user")] },

  // --- app ---
  "AppAboutApi.getAppInfoApiAppAboutGet": { as: "anon" },
  "AppAboutApi.getAppThemeApiAppAboutThemeGet": { as: "anon" },
  "AppAboutApi.getStartupInfoApiAppAboutStartupInfoGet": { as: "anon" },

  // --- explore (public group) ---
  "ExploreCategoriesApi.getAllApiExploreGroupsGroupSlugOrganizersCategoriesGet": {
    as: "anon",
    args: (c) => [ID(c, "groupSlug")],
  },
  "ExploreCategoriesApi.getOneApiExploreGroupsGroupSlugOrganizersCategoriesItemIdGet": {
    as: "anon",
    args: (c) => [ID(c, "category"), ID(c, "groupSlug")],
  },
  "ExploreCookbooksApi.getAllApiExploreGroupsGroupSlugCookbooksGet": {
    as: "anon",
    args: (c) => [ID(c, "groupSlug")],
  },
  "ExploreCookbooksApi.getOneApiExploreGroupsGroupSlugCookbooksItemIdGet": {
    as: "anon",
    args: (c) => [ID(c, "cookbook"), ID(c, "groupSlug")],
  },
  "ExploreFoodsApi.getAllApiExploreGroupsGroupSlugFoodsGet": {
    as: "anon",
    args: (c) => [ID(c, "groupSlug")],
  },
  "ExploreFoodsApi.getOneApiExploreGroupsGroupSlugFoodsItemIdGet": {
    as: "anon",
    args: (c) => [ID(c, "food"), ID(c, "groupSlug")],
  },
  "ExploreHouseholdsApi.getAllApiExploreGroupsGroupSlugHouseholdsGet": {
    as: "anon",
    args: (c) => [ID(c, "groupSlug")],
  },
  "ExploreHouseholdsApi.getHouseholdApiExploreGroupsGroupSlugHouseholdsHouseholdSlugGet": {
    as: "anon",
    args: (c) => [ID(c, "householdSlug"), ID(c, "groupSlug")],
  },
  "ExploreRecipesApi.getAllApiExploreGroupsGroupSlugRecipesGet": {
    as: "anon",
    args: (c) => [ID(c, "groupSlug")],
  },
  "ExploreRecipesApi.getRecipeApiExploreGroupsGroupSlugRecipesRecipeSlugGet": {
    as: "anon",
    args: (c) => [ID(c, "recipeSlug"), ID(c, "groupSlug")],
  },
  "ExploreRecipesApi.suggestRecipesApiExploreGroupsGroupSlugRecipesSuggestionsGet": {
    as: "anon",
    args: (c) => [ID(c, "groupSlug")],
  },
  "ExploreTagsApi.getAllApiExploreGroupsGroupSlugOrganizersTagsGet": {
    as: "anon",
    args: (c) => [ID(c, "groupSlug")],
  },
  "ExploreTagsApi.getOneApiExploreGroupsGroupSlugOrganizersTagsItemIdGet": {
    as: "anon",
    args: (c) => [ID(c, "tag"), ID(c, "groupSlug")],
  },
  "ExploreToolsApi.getAllApiExploreGroupsGroupSlugOrganizersToolsGet": {
    as: "anon",
    args: (c) => [ID(c, "groupSlug")],
  },
  "ExploreToolsApi.getOneApiExploreGroupsGroupSlugOrganizersToolsItemIdGet": {
    as: "anon",
    args: (c) => [ID(c, "tool"), ID(c, "groupSlug")],
  },

  // --- groups ---
  "GroupsHouseholdsApi.getAllHouseholdsApiGroupsHouseholdsGet": {},
  "GroupsHouseholdsApi.getOneHouseholdApiGroupsHouseholdsHouseholdSlugGet": {
    args: (c) => [ID(c, "householdSlug")],
  },
  "GroupsMigrationsApi.startDataMigrationApiGroupsMigrationsPost": {
    phase: 1,
    args: () => [
      "myrecipebox",
      new File(
        [Buffer.from("title,ingredients,instructions\nMigrated Soup,1 cup water,Boil it.\n")],
        "recipes.csv",
        { type: "text/csv" },
      ),
    ],
    keep: (r, c) => (c.ids.report = String(d(r).id)),
  },
  "GroupsMultiPurposeLabelsApi.createOneApiGroupsLabelsPost": {
    phase: 0,
    args: () => [{ name: "Conformance Label" }],
    keep: (r, c) => (c.ids.label = String(d(r).id)),
  },
  "GroupsMultiPurposeLabelsApi.getAllApiGroupsLabelsGet": {},
  "GroupsMultiPurposeLabelsApi.getOneApiGroupsLabelsItemIdGet": { args: (c) => [ID(c, "label")] },
  "GroupsMultiPurposeLabelsApi.updateOneApiGroupsLabelsItemIdPut": {
    args: (c) => [
      ID(c, "label"),
      { id: ID(c, "label"), groupId: ID(c, "myGroup"), name: "Conformance Label 2", color: "#00ff00" },
    ],
  },
  "GroupsMultiPurposeLabelsApi.deleteOneApiGroupsLabelsItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "label")],
  },
  "GroupsReportsApi.getAllApiGroupsReportsGet": { args: () => ["migration"] },
  "GroupsReportsApi.getOneApiGroupsReportsItemIdGet": { args: (c) => [ID(c, "report")] },
  "GroupsReportsApi.deleteOneApiGroupsReportsItemIdDelete": { phase: 8, args: (c) => [ID(c, "report")] },
  "GroupsSeedersApi.seedFoodsApiGroupsSeedersFoodsPost": { args: () => [{ locale: "en-US" }] },
  "GroupsSeedersApi.seedLabelsApiGroupsSeedersLabelsPost": { args: () => [{ locale: "en-US" }] },
  "GroupsSeedersApi.seedUnitsApiGroupsSeedersUnitsPost": { args: () => [{ locale: "en-US" }] },
  "GroupsSelfServiceApi.getGroupMemberApiGroupsMembersUsernameOrIdGet": { args: () => ["conform"] },
  "GroupsSelfServiceApi.getGroupMembersApiGroupsMembersGet": {},
  "GroupsSelfServiceApi.getGroupPreferencesApiGroupsPreferencesGet": {},
  "GroupsSelfServiceApi.getLoggedInUserGroupApiGroupsSelfGet": {},
  "GroupsSelfServiceApi.getStorageApiGroupsStorageGet": {},
  "GroupsSelfServiceApi.updateGroupPreferencesApiGroupsPreferencesPut": {
    phase: 0,
    args: () => [{ privateGroup: false }],
  },

  // --- households ---
  "HouseholdsCookbooksApi.createOneApiHouseholdsCookbooksPost": {
    phase: 1,
    args: () => [{ name: "Conformance Cookbook", public: true }],
    keep: (r, c) => (c.ids.cookbook = String(d(r).id)),
  },
  "HouseholdsCookbooksApi.getAllApiHouseholdsCookbooksGet": {},
  "HouseholdsCookbooksApi.getOneApiHouseholdsCookbooksItemIdGet": { args: (c) => [ID(c, "cookbook")] },
  "HouseholdsCookbooksApi.updateManyApiHouseholdsCookbooksPut": {
    args: async (c) => [
      [{ ...(await c.get(`/api/households/cookbooks/${ID(c, "cookbook")}`)), position: 2 }],
    ],
  },
  "HouseholdsCookbooksApi.updateOneApiHouseholdsCookbooksItemIdPut": {
    args: (c) => [ID(c, "cookbook"), { name: "Conformance Cookbook", description: "updated", public: true }],
  },
  "HouseholdsCookbooksApi.deleteOneApiHouseholdsCookbooksItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "cookbook")],
  },
  "HouseholdsEventNotificationsApi.createOneApiHouseholdsEventsNotificationsPost": {
    phase: 1,
    args: (c) => [{ name: "Conformance Notifier", appriseUrl: `json://${new URL(c.stubUrl).host}/notify` }],
    keep: (r, c) => (c.ids.notifier = String(d(r).id)),
  },
  "HouseholdsEventNotificationsApi.getAllApiHouseholdsEventsNotificationsGet": {},
  "HouseholdsEventNotificationsApi.getOneApiHouseholdsEventsNotificationsItemIdGet": {
    args: (c) => [ID(c, "notifier")],
  },
  "HouseholdsEventNotificationsApi.testNotificationApiHouseholdsEventsNotificationsItemIdTestPost": {
    args: (c) => [ID(c, "notifier")],
  },
  "HouseholdsEventNotificationsApi.updateOneApiHouseholdsEventsNotificationsItemIdPut": {
    args: async (c) => [
      ID(c, "notifier"),
      { ...(await c.get(`/api/households/events/notifications/${ID(c, "notifier")}`)), name: "Renamed" },
    ],
  },
  "HouseholdsEventNotificationsApi.deleteOneApiHouseholdsEventsNotificationsItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "notifier")],
  },
  "HouseholdsInvitationsApi.createInviteTokenApiHouseholdsInvitationsPost": {
    phase: 1,
    args: () => [{ uses: 2 }],
  },
  "HouseholdsInvitationsApi.emailInvitationApiHouseholdsInvitationsEmailPost": {
    args: async (c) => {
      const tokens = (await c.get("/api/households/invitations")) as unknown as Dict[];
      return [{ email: "invitee@example.com", token: String(tokens[0]?.token) }];
    },
  },
  "HouseholdsInvitationsApi.getInviteTokensApiHouseholdsInvitationsGet": {},
  "HouseholdsMealplanRulesApi.createOneApiHouseholdsMealplansRulesPost": {
    phase: 1,
    args: () => [{ day: "unset", entryType: "dinner", queryFilterString: "" }],
    keep: (r, c) => (c.ids.rule = String(d(r).id)),
  },
  "HouseholdsMealplanRulesApi.getAllApiHouseholdsMealplansRulesGet": {},
  "HouseholdsMealplanRulesApi.getOneApiHouseholdsMealplansRulesItemIdGet": { args: (c) => [ID(c, "rule")] },
  "HouseholdsMealplanRulesApi.updateOneApiHouseholdsMealplansRulesItemIdPut": {
    args: (c) => [ID(c, "rule"), { day: "monday", entryType: "lunch", queryFilterString: "" }],
  },
  "HouseholdsMealplanRulesApi.deleteOneApiHouseholdsMealplansRulesItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "rule")],
  },
  "HouseholdsMealplansApi.createOneApiHouseholdsMealplansPost": {
    phase: 2,
    args: (c) => [{ date: today, entryType: "dinner", recipeId: ID(c, "recipe") }],
    keep: (r, c) => (c.ids.mealplan = String(d(r).id)),
  },
  "HouseholdsMealplansApi.createRandomMealApiHouseholdsMealplansRandomPost": {
    phase: 2,
    args: () => [{ date: today, entryType: "lunch" }],
  },
  "HouseholdsMealplansApi.getAllApiHouseholdsMealplansGet": {},
  "HouseholdsMealplansApi.getOneApiHouseholdsMealplansItemIdGet": { args: (c) => [ID(c, "mealplan")] },
  "HouseholdsMealplansApi.getTodaysMealsApiHouseholdsMealplansTodayGet": {},
  "HouseholdsMealplansApi.updateOneApiHouseholdsMealplansItemIdPut": {
    args: async (c) => [
      ID(c, "mealplan"),
      { ...(await c.get(`/api/households/mealplans/${ID(c, "mealplan")}`)), title: "Renamed" },
    ],
  },
  "HouseholdsMealplansApi.deleteOneApiHouseholdsMealplansItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "mealplan")],
  },
  "HouseholdsRecipeActionsApi.createOneApiHouseholdsRecipeActionsPost": {
    phase: 1,
    args: (c) => [{ actionType: "post", title: "Conformance Action", url: `${c.stubUrl}/action` }],
    keep: (r, c) => (c.ids.action = String(d(r).id)),
  },
  "HouseholdsRecipeActionsApi.getAllApiHouseholdsRecipeActionsGet": {},
  "HouseholdsRecipeActionsApi.getOneApiHouseholdsRecipeActionsItemIdGet": { args: (c) => [ID(c, "action")] },
  "HouseholdsRecipeActionsApi.triggerActionApiHouseholdsRecipeActionsItemIdTriggerRecipeSlugPost": {
    args: (c) => [ID(c, "action"), ID(c, "recipeSlug"), undefined, { recipeScale: 1 }],
  },
  "HouseholdsRecipeActionsApi.updateOneApiHouseholdsRecipeActionsItemIdPut": {
    args: async (c) => [
      ID(c, "action"),
      { ...(await c.get(`/api/households/recipe-actions/${ID(c, "action")}`)), title: "Renamed" },
    ],
  },
  "HouseholdsRecipeActionsApi.deleteOneApiHouseholdsRecipeActionsItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "action")],
  },
  "HouseholdsSelfServiceApi.getHouseholdMembersApiHouseholdsMembersGet": {},
  "HouseholdsSelfServiceApi.getHouseholdPreferencesApiHouseholdsPreferencesGet": {},
  "HouseholdsSelfServiceApi.getHouseholdRecipeApiHouseholdsSelfRecipesRecipeSlugGet": {
    args: (c) => [ID(c, "recipeSlug")],
  },
  "HouseholdsSelfServiceApi.getLoggedInUserHouseholdApiHouseholdsSelfGet": {},
  "HouseholdsSelfServiceApi.getStatisticsApiHouseholdsStatisticsGet": {},
  "HouseholdsSelfServiceApi.setMemberPermissionsApiHouseholdsPermissionsPut": {
    args: (c) => [
      {
        userId: ID(c, "user"),
        canManage: true,
        canInvite: true,
        canOrganize: true,
        canManageHousehold: false,
      },
    ],
  },
  "HouseholdsSelfServiceApi.updateHouseholdPreferencesApiHouseholdsPreferencesPut": {
    phase: 0,
    args: () => [{ privateHousehold: false, recipePublic: true }],
  },
  "HouseholdsShoppingListItemsApi.createOneApiHouseholdsShoppingItemsPost": {
    phase: 2,
    args: (c) => [{ shoppingListId: ID(c, "list"), note: "conformance eggs", quantity: 2 }],
    keep: (r, c) => (c.ids.item = String(d((d(r).createdItems as Dict[])[0]).id)),
  },
  "HouseholdsShoppingListItemsApi.createManyApiHouseholdsShoppingItemsCreateBulkPost": {
    phase: 2,
    args: (c) => [
      [
        { shoppingListId: ID(c, "list"), note: "bulk one" },
        { shoppingListId: ID(c, "list"), note: "bulk two" },
      ],
    ],
    keep: (r, c) => (c.ids.item2 = String(d((d(r).createdItems as Dict[])[0]).id)),
  },
  "HouseholdsShoppingListItemsApi.getAllApiHouseholdsShoppingItemsGet": {},
  "HouseholdsShoppingListItemsApi.getOneApiHouseholdsShoppingItemsItemIdGet": {
    args: (c) => [ID(c, "item")],
  },
  "HouseholdsShoppingListItemsApi.updateManyApiHouseholdsShoppingItemsPut": {
    args: async (c) => [
      [{ ...(await c.get(`/api/households/shopping/items/${ID(c, "item")}`)), checked: true }],
    ],
  },
  "HouseholdsShoppingListItemsApi.updateOneApiHouseholdsShoppingItemsItemIdPut": {
    args: async (c) => [
      ID(c, "item"),
      { ...(await c.get(`/api/households/shopping/items/${ID(c, "item")}`)), note: "renamed" },
    ],
  },
  "HouseholdsShoppingListItemsApi.deleteOneApiHouseholdsShoppingItemsItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "item")],
  },
  "HouseholdsShoppingListItemsApi.deleteManyApiHouseholdsShoppingItemsDelete": {
    phase: 8,
    args: (c) => [[ID(c, "item2")]],
  },
  "HouseholdsShoppingListsApi.createOneApiHouseholdsShoppingListsPost": {
    phase: 1,
    args: () => [{ name: "Conformance List" }],
    keep: (r, c) => (c.ids.list = String(d(r).id)),
  },
  "HouseholdsShoppingListsApi.addRecipeIngredientsToListApiHouseholdsShoppingListsItemIdRecipePost": {
    phase: 3,
    args: (c) => [ID(c, "list"), [{ recipeId: ID(c, "recipe") }]],
  },
  "HouseholdsShoppingListsApi.addSingleRecipeIngredientsToListApiHouseholdsShoppingListsItemIdRecipeRecipeIdPost":
    {
      phase: 3,
      args: (c) => [ID(c, "list"), ID(c, "recipe"), undefined, { recipeIncrementQuantity: 1 }],
    },
  "HouseholdsShoppingListsApi.removeRecipeIngredientsFromListApiHouseholdsShoppingListsItemIdRecipeRecipeIdDeletePost":
    {
      phase: 6,
      args: (c) => [ID(c, "list"), ID(c, "recipe"), undefined, { recipeDecrementQuantity: 1 }],
    },
  "HouseholdsShoppingListsApi.getAllApiHouseholdsShoppingListsGet": {},
  "HouseholdsShoppingListsApi.getOneApiHouseholdsShoppingListsItemIdGet": { args: (c) => [ID(c, "list")] },
  "HouseholdsShoppingListsApi.updateLabelSettingsApiHouseholdsShoppingListsItemIdLabelSettingsPut": {
    args: async (c) => [
      ID(c, "list"),
      (await c.get(`/api/households/shopping/lists/${ID(c, "list")}`)).labelSettings,
    ],
  },
  "HouseholdsShoppingListsApi.updateOneApiHouseholdsShoppingListsItemIdPut": {
    args: async (c) => {
      const list = await c.get(`/api/households/shopping/lists/${ID(c, "list")}`);
      return [ID(c, "list"), { ...list, name: "Renamed List", listItems: [] }];
    },
  },
  "HouseholdsShoppingListsApi.deleteOneApiHouseholdsShoppingListsItemIdDelete": {
    phase: 8.5,
    args: (c) => [ID(c, "list")],
  },
  "HouseholdsWebhooksApi.createOneApiHouseholdsWebhooksPost": {
    phase: 1,
    args: (c) => [
      {
        name: "Conformance Hook",
        url: `${c.stubUrl}/hook`,
        enabled: true,
        webhookType: "mealplan",
        scheduledTime: "10:00:00",
      },
    ],
    keep: (r, c) => (c.ids.webhook = String(d(r).id)),
  },
  "HouseholdsWebhooksApi.getAllApiHouseholdsWebhooksGet": {},
  "HouseholdsWebhooksApi.getOneApiHouseholdsWebhooksItemIdGet": { args: (c) => [ID(c, "webhook")] },
  "HouseholdsWebhooksApi.rerunWebhooksApiHouseholdsWebhooksRerunPost": {},
  "HouseholdsWebhooksApi.testOneApiHouseholdsWebhooksItemIdTestPost": { args: (c) => [ID(c, "webhook")] },
  "HouseholdsWebhooksApi.updateOneApiHouseholdsWebhooksItemIdPut": {
    args: (c) => [
      ID(c, "webhook"),
      {
        name: "Renamed Hook",
        url: `${c.stubUrl}/hook`,
        enabled: false,
        webhookType: "mealplan",
        scheduledTime: "11:00:00",
      },
    ],
  },
  "HouseholdsWebhooksApi.deleteOneApiHouseholdsWebhooksItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "webhook")],
  },

  // --- organizers ---
  "OrganizerCategoriesApi.createOneApiOrganizersCategoriesPost": {
    phase: 0,
    args: () => [{ name: "Conformance Category" }],
    keep: (r, c) => ((c.ids.category = String(d(r).id)), (c.ids.categorySlug = String(d(r).slug))),
  },
  "OrganizerCategoriesApi.getAllApiOrganizersCategoriesGet": {},
  "OrganizerCategoriesApi.getAllEmptyApiOrganizersCategoriesEmptyGet": {},
  "OrganizerCategoriesApi.getOneApiOrganizersCategoriesItemIdGet": { args: (c) => [ID(c, "category")] },
  "OrganizerCategoriesApi.getOneBySlugApiOrganizersCategoriesSlugCategorySlugGet": {
    args: (c) => [ID(c, "categorySlug")],
  },
  "OrganizerCategoriesApi.updateOneApiOrganizersCategoriesItemIdPut": {
    args: (c) => [ID(c, "category"), { name: "Conformance Category" }],
  },
  "OrganizerCategoriesApi.deleteOneApiOrganizersCategoriesItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "category")],
  },
  "OrganizerTagsApi.createOneApiOrganizersTagsPost": {
    phase: 0,
    args: () => [{ name: "Conformance Tag" }],
    keep: (r, c) => ((c.ids.tag = String(d(r).id)), (c.ids.tagSlug = String(d(r).slug))),
  },
  "OrganizerTagsApi.getAllApiOrganizersTagsGet": {},
  "OrganizerTagsApi.getEmptyTagsApiOrganizersTagsEmptyGet": {},
  "OrganizerTagsApi.getOneApiOrganizersTagsItemIdGet": { args: (c) => [ID(c, "tag")] },
  "OrganizerTagsApi.getOneBySlugApiOrganizersTagsSlugTagSlugGet": { args: (c) => [ID(c, "tagSlug")] },
  "OrganizerTagsApi.updateOneApiOrganizersTagsItemIdPut": {
    args: (c) => [ID(c, "tag"), { name: "Conformance Tag" }],
  },
  "OrganizerTagsApi.deleteRecipeTagApiOrganizersTagsItemIdDelete": { phase: 8, args: (c) => [ID(c, "tag")] },
  "OrganizerToolsApi.createOneApiOrganizersToolsPost": {
    phase: 0,
    args: () => [{ name: "Conformance Tool" }],
    keep: (r, c) => ((c.ids.tool = String(d(r).id)), (c.ids.toolSlug = String(d(r).slug))),
  },
  "OrganizerToolsApi.getAllApiOrganizersToolsGet": {},
  "OrganizerToolsApi.getOneApiOrganizersToolsItemIdGet": { args: (c) => [ID(c, "tool")] },
  "OrganizerToolsApi.getOneBySlugApiOrganizersToolsSlugToolSlugGet": { args: (c) => [ID(c, "toolSlug")] },
  "OrganizerToolsApi.updateOneApiOrganizersToolsItemIdPut": {
    args: (c) => [ID(c, "tool"), { name: "Conformance Tool", householdsWithTool: [] }],
  },
  "OrganizerToolsApi.deleteOneApiOrganizersToolsItemIdDelete": { phase: 8, args: (c) => [ID(c, "tool")] },

  // --- recipes: bulk actions ---
  "RecipeBulkActionsApi.bulkCategorizeRecipesApiRecipesBulkActionsCategorizePost": {
    args: async (c) => [
      {
        recipes: [ID(c, "recipeSlug")],
        categories: [await c.get(`/api/organizers/categories/${ID(c, "category")}`)],
      },
    ],
  },
  "RecipeBulkActionsApi.bulkTagRecipesApiRecipesBulkActionsTagPost": {
    args: async (c) => [
      { recipes: [ID(c, "recipeSlug")], tags: [await c.get(`/api/organizers/tags/${ID(c, "tag")}`)] },
    ],
  },
  "RecipeBulkActionsApi.bulkSettingsRecipesApiRecipesBulkActionsSettingsPost": {
    args: (c) => [
      {
        recipes: [ID(c, "recipeSlug")],
        settings: {
          public: true,
          showNutrition: true,
          showAssets: true,
          landscapeView: false,
          disableComments: false,
          locked: false,
        },
      },
    ],
  },
  "RecipeBulkActionsApi.bulkExportRecipesApiRecipesBulkActionsExportPost": {
    phase: 3,
    args: (c) => [{ recipes: [ID(c, "recipeSlug")], exportType: "json" }],
  },
  "RecipeBulkActionsApi.getExportedDataApiRecipesBulkActionsExportGet": {
    phase: 6,
    keep: (r, c) => (c.ids.export = String(d((r as Dict[])[0]).id)),
  },
  "RecipeBulkActionsApi.getExportedDataTokenApiRecipesBulkActionsExportExportIdDownloadGet": {
    phase: 7,
    args: (c) => [ID(c, "export")],
    keep: (r, c) => (c.ids.fileToken = String(d(r).fileToken)),
  },
  "RecipeBulkActionsApi.purgeExportDataApiRecipesBulkActionsExportPurgeDelete": { phase: 8.5 },
  "RecipeBulkActionsApi.bulkDeleteRecipesApiRecipesBulkActionsDeletePost": {
    phase: 8,
    args: (c) => [{ recipes: [ID(c, "htmlSlug")] }],
  },

  // --- recipes: CRUD ---
  "RecipeCRUDApi.createOneApiRecipesPost": {
    phase: 0,
    args: () => [{ name: "Conformance Stew" }],
    keep: (r, c) => (c.ids.recipeSlug = String(r)),
  },
  "RecipeCRUDApi.getOneApiRecipesSlugGet": {
    phase: 0.5,
    args: (c) => [ID(c, "recipeSlug")],
    keep: (r, c) => (c.ids.recipe = String(d(r).id)),
  },
  "RecipeCRUDApi.updateOneApiRecipesSlugPut": {
    phase: 0.6,
    args: async (c) => {
      const recipe = await c.get(`/api/recipes/${ID(c, "recipeSlug")}`);
      const ingredient = {
        quantity: 2,
        unit: { id: ID(c, "unit"), name: "conformance cup" },
        food: { id: ID(c, "food"), name: "conformance flour" },
        note: "",
        display: "2 cups flour",
        referenceId: crypto.randomUUID(),
      };
      return [
        ID(c, "recipeSlug"),
        {
          ...recipe,
          description: "A stew.",
          recipeIngredient: [ingredient],
          recipeInstructions: [{ id: crypto.randomUUID(), text: "Stir." }],
        },
      ];
    },
  },
  "RecipeCRUDApi.patchOneApiRecipesSlugPatch": {
    args: (c) => [ID(c, "recipeSlug"), { description: "A patched stew." }],
  },
  "RecipeCRUDApi.patchManyApiRecipesPatch": {
    args: (c) => [[{ slug: ID(c, "recipeSlug"), description: "Patched again." }]],
  },
  "RecipeCRUDApi.updateManyApiRecipesPut": {
    args: async (c) => [
      [{ ...(await c.get(`/api/recipes/${ID(c, "recipeSlug")}`)), description: "Put many." }],
    ],
  },
  "RecipeCRUDApi.updateLastMadeApiRecipesSlugLastMadePatch": {
    args: (c) => [ID(c, "recipeSlug"), { timestamp: new Date().toISOString() }],
  },
  "RecipeCRUDApi.getAllApiRecipesGet": {},
  "RecipeCRUDApi.suggestRecipesApiRecipesSuggestionsGet": {},
  "RecipeCRUDApi.duplicateOneApiRecipesSlugDuplicatePost": {
    phase: 1,
    args: (c) => [ID(c, "recipeSlug"), { name: "Conformance Copy" }],
    keep: (r, c) => (c.ids.copySlug = String(d(r).slug)),
  },
  "RecipeCRUDApi.deleteOneApiRecipesSlugDelete": { phase: 8, args: (c) => [ID(c, "copySlug")] },
  "RecipeCRUDApi.createRecipeFromHtmlOrJsonApiRecipesCreateHtmlOrJsonPost": {
    phase: 1,
    args: () => [
      {
        data: JSON.stringify({
          "@context": "https://schema.org",
          "@type": "Recipe",
          name: "Conformance Pasted",
          recipeIngredient: ["1 egg"],
          recipeInstructions: ["Cook."],
        }),
      },
    ],
    keep: (r, c) => (c.ids.htmlSlug = String(r)),
  },
  "RecipeCRUDApi.parseRecipeUrlApiRecipesCreateUrlPost": {
    phase: 1,
    args: (c) => [{ url: `${c.stubUrl}/recipe.html`, includeTags: false }],
  },
  "RecipeCRUDApi.parseRecipeUrlBulkApiRecipesCreateUrlBulkPost": {
    phase: 1,
    args: (c) => [{ imports: [{ url: `${c.stubUrl}/recipe.html` }] }],
  },
  "RecipeCRUDApi.testParseRecipeUrlApiRecipesTestScrapeUrlPost": {
    args: (c) => [{ url: `${c.stubUrl}/recipe.html` }],
  },
  // The generated client joins a file array into one text field (`images.join(",")`), which Mealie
  // refuses like Larder; an object whose join is the file makes it send the file itself.
  "RecipeCRUDApi.createRecipeFromImageApiRecipesCreateImagePost": {
    phase: 1,
    args: (c) => [{ join: () => blob(c.png, "image/png") }],
  },
  "RecipeCRUDApi.createRecipeFromZipApiRecipesCreateZipPost": {
    phase: 4,
    args: async (c) => {
      const res = await c.t.api(`/api/recipes/shared/${ID(c, "share")}/zip`);
      return [new File([new Uint8Array(await res.arrayBuffer())], "recipe.zip", { type: "application/zip" })];
    },
  },
  "RecipeCRUDApi.scrapeImageUrlApiRecipesSlugImagePost": {
    args: (c) => [ID(c, "recipeSlug"), { url: `${c.stubUrl}/image.png` }],
  },
  "RecipeCRUDApi.updateRecipeImageApiRecipesSlugImagePut": {
    phase: 1,
    args: (c) => [ID(c, "recipeSlug"), blob(c.png, "image/png"), "png"],
  },
  "RecipeCRUDApi.deleteRecipeImageApiRecipesSlugImageDelete": {
    phase: 8,
    args: (c) => [ID(c, "recipeSlug")],
  },
  "RecipeCRUDApi.uploadRecipeAssetApiRecipesSlugAssetsPost": {
    phase: 1,
    args: (c) => [
      ID(c, "recipeSlug"),
      "Notes",
      "mdi-file",
      "txt",
      new File([Buffer.from("notes")], "notes.txt", { type: "text/plain" }),
    ],
    keep: (r, c) => (c.ids.assetFile = String(d(r).fileName)),
  },

  // --- comments ---
  "RecipeCommentsApi.createOneApiCommentsPost": {
    phase: 1,
    args: (c) => [{ recipeId: ID(c, "recipe"), text: "Lovely." }],
    keep: (r, c) => (c.ids.comment = String(d(r).id)),
  },
  "RecipeCommentsApi.getAllApiCommentsGet": {},
  "RecipeCommentsApi.getOneApiCommentsItemIdGet": { args: (c) => [ID(c, "comment")] },
  "RecipeCommentsApi.getRecipeCommentsApiRecipesSlugCommentsGet": { args: (c) => [ID(c, "recipeSlug")] },
  "RecipeCommentsApi.updateOneApiCommentsItemIdPut": {
    args: (c) => [ID(c, "comment"), { id: ID(c, "comment"), text: "Still lovely." }],
  },
  "RecipeCommentsApi.deleteOneApiCommentsItemIdDelete": { phase: 8, args: (c) => [ID(c, "comment")] },

  // --- exports ---
  "RecipeExportsApi.getRecipeFormatsAndTemplatesApiRecipesExportsGet": {},
  "RecipeExportsApi.getRecipeAsFormatApiRecipesSlugExportsGet": {
    args: (c) => [ID(c, "recipeSlug"), "recipes.md"],
  },

  // --- images and assets ---
  "RecipeImagesAndAssetsApi.deleteRecipeImageApiRecipesSlugImageDelete": {
    phase: 7.5,
    args: (c) => [ID(c, "recipeSlug")],
  },
  "RecipeImagesAndAssetsApi.getRecipeAssetApiMediaRecipesRecipeIdAssetsFileNameGet": {
    as: "anon",
    args: (c) => [ID(c, "recipe"), ID(c, "assetFile")],
  },
  "RecipeImagesAndAssetsApi.getRecipeImgApiMediaRecipesRecipeIdImagesFileNameGet": {
    as: "anon",
    args: (c) => [ID(c, "recipe"), "original.webp"],
  },
  "RecipeImagesAndAssetsApi.getRecipeTimelineEventImgApiMediaRecipesRecipeIdImagesTimelineTimelineEventIdFileNameGet":
    {
      as: "anon",
      phase: 6,
      args: (c) => [ID(c, "recipe"), ID(c, "event"), "original.webp"],
    },
  "RecipeImagesAndAssetsApi.getUserImageApiMediaUsersUserIdFileNameGet": {
    as: "anon",
    args: (c) => [ID(c, "user"), "profile.webp"],
  },
  "RecipeImagesAndAssetsApi.getValidationTextApiMediaDockerValidateTxtGet": { as: "anon" },
  "RecipeImagesAndAssetsApi.scrapeImageUrlApiRecipesSlugImagePost": {
    args: (c) => [ID(c, "recipeSlug"), { url: `${c.stubUrl}/image.png` }],
  },
  "RecipeImagesAndAssetsApi.updateRecipeImageApiRecipesSlugImagePut": {
    phase: 1,
    args: (c) => [ID(c, "recipeSlug"), blob(c.png, "image/png"), "png"],
  },
  "RecipeImagesAndAssetsApi.uploadRecipeAssetApiRecipesSlugAssetsPost": {
    phase: 1,
    args: (c) => [
      ID(c, "recipeSlug"),
      "More notes",
      "mdi-file",
      "txt",
      new File([Buffer.from("more")], "more.txt", { type: "text/plain" }),
    ],
  },

  // --- parser ---
  "RecipeIngredientParserApi.parseIngredientApiParserIngredientPost": {
    args: () => [{ parser: "nlp", ingredient: "2 cups flour" }],
  },
  "RecipeIngredientParserApi.parseIngredientsApiParserIngredientsPost": {
    args: () => [{ parser: "nlp", ingredients: ["2 cups flour", "1 egg"] }],
  },

  // --- shares ---
  "SharedRecipesApi.createOneApiSharedRecipesPost": {
    phase: 3,
    args: (c) => [{ recipeId: ID(c, "recipe") }],
    keep: (r, c) => (c.ids.share = String(d(r).id)),
  },
  "SharedRecipesApi.getAllApiSharedRecipesGet": {},
  "SharedRecipesApi.getOneApiSharedRecipesItemIdGet": { phase: 4, args: (c) => [ID(c, "share")] },
  "SharedRecipesApi.deleteOneApiSharedRecipesItemIdDelete": { phase: 8, args: (c) => [ID(c, "share")] },
  "RecipeSharedApi.getSharedRecipeApiRecipesSharedTokenIdGet": {
    phase: 4,
    as: "anon",
    args: (c) => [ID(c, "share")],
  },
  "RecipeSharedApi.getSharedRecipeAsZipApiRecipesSharedTokenIdZipGet": {
    phase: 4,
    as: "anon",
    args: (c) => [ID(c, "share")],
  },

  // --- timeline ---
  "RecipeTimelineApi.createOneApiRecipesTimelineEventsPost": {
    phase: 1,
    args: (c) => [
      { recipeId: ID(c, "recipe"), subject: "Made it", eventType: "comment", eventMessage: "Good." },
    ],
    keep: (r, c) => (c.ids.event = String(d(r).id)),
  },
  "RecipeTimelineApi.getAllApiRecipesTimelineEventsGet": {},
  "RecipeTimelineApi.getOneApiRecipesTimelineEventsItemIdGet": { args: (c) => [ID(c, "event")] },
  "RecipeTimelineApi.updateEventImageApiRecipesTimelineEventsItemIdImagePut": {
    phase: 5,
    args: (c) => [ID(c, "event"), blob(c.png, "image/png"), "png"],
  },
  "RecipeTimelineApi.updateOneApiRecipesTimelineEventsItemIdPut": {
    args: (c) => [ID(c, "event"), { subject: "Made it again" }],
  },
  "RecipeTimelineApi.deleteOneApiRecipesTimelineEventsItemIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "event")],
  },

  // --- foods and units ---
  "RecipesFoodsApi.createOneApiFoodsPost": {
    phase: 0,
    args: () => [{ name: "conformance flour" }],
    keep: (r, c) => (c.ids.food = String(d(r).id)),
  },
  "RecipesFoodsApi.getAllApiFoodsGet": {},
  "RecipesFoodsApi.getOneApiFoodsItemIdGet": { args: (c) => [ID(c, "food")] },
  "RecipesFoodsApi.updateOneApiFoodsItemIdPut": {
    args: (c) => [ID(c, "food"), { name: "conformance flour", description: "milled" }],
  },
  "RecipesFoodsApi.mergeOneApiFoodsMergePut": {
    phase: 7,
    args: async (c) => {
      const other = d(
        (await (
          await c.t.api("/api/foods", { method: "POST", token: c.ids.token, json: { name: "merge me" } })
        ).json()) as unknown,
      );
      return [{ fromFood: String(other.id), toFood: ID(c, "food") }];
    },
  },
  "RecipesFoodsApi.deleteOneApiFoodsItemIdDelete": { phase: 9, args: (c) => [ID(c, "food")] },
  "RecipesUnitsApi.createOneApiUnitsPost": {
    phase: 0,
    args: () => [{ name: "conformance cup" }],
    keep: (r, c) => (c.ids.unit = String(d(r).id)),
  },
  "RecipesUnitsApi.getAllApiUnitsGet": {},
  "RecipesUnitsApi.getOneApiUnitsItemIdGet": { args: (c) => [ID(c, "unit")] },
  "RecipesUnitsApi.updateOneApiUnitsItemIdPut": {
    args: (c) => [ID(c, "unit"), { name: "conformance cup", abbreviation: "cc" }],
  },
  "RecipesUnitsApi.mergeOneApiUnitsMergePut": {
    phase: 7,
    args: async (c) => {
      const other = d(
        (await (
          await c.t.api("/api/units", { method: "POST", token: c.ids.token, json: { name: "merge unit" } })
        ).json()) as unknown,
      );
      return [{ fromUnit: String(other.id), toUnit: ID(c, "unit") }];
    },
  },
  "RecipesUnitsApi.deleteOneApiUnitsItemIdDelete": { phase: 9, args: (c) => [ID(c, "unit")] },

  // --- users ---
  "UsersAuthenticationApi.getTokenApiAuthTokenPost": {
    as: "anon",
    args: () => ["conform", "conform-pass-1"],
  },
  "UsersAuthenticationApi.refreshTokenApiAuthRefreshGet": { as: "user" },
  // Sign-in starts with a redirect to the stand-in IdP (a browser follows it; axios has no cookie jar).
  "UsersAuthenticationApi.oauthLoginApiAuthOauthGet": {
    as: "anon",
    redirects: true,
    args: () => [{ maxRedirects: 0, validateStatus: () => true }],
  },
  // A frontend relaying the code from its /login page gets Mealie's token JSON.
  "UsersAuthenticationApi.oauthCallbackApiAuthOauthCallbackGet": {
    as: "anon",
    args: async (c) => {
      const jar = new CookieJar();
      const back = await browseSignIn(jar, `${c.t.url}/api/auth/oauth`, "pete", `${c.t.url}/login`);
      return [{ params: Object.fromEntries(back.searchParams), headers: { cookie: jar.header() } }];
    },
  },
  "UsersAuthenticationApi.logoutApiAuthLogoutPost": { phase: 9.2, as: "user" },
  "UsersCRUDApi.getLoggedInUserApiUsersSelfGet": {},
  "UsersCRUDApi.getLoggedInUserFavoritesApiUsersSelfFavoritesGet": {},
  "UsersCRUDApi.getLoggedInUserRatingForRecipeApiUsersSelfRatingsRecipeIdGet": {
    phase: 6,
    as: "user",
    args: (c) => [ID(c, "recipe")],
  },
  "UsersCRUDApi.getLoggedInUserRatingsApiUsersSelfRatingsGet": {},
  "UsersCRUDApi.updatePasswordApiUsersPasswordPut": {
    phase: 9.1,
    as: "user",
    args: () => [{ currentPassword: "conform-pass-2", newPassword: "conform-pass-3" }],
  },
  "UsersCRUDApi.updateUserApiUsersItemIdPut": {
    as: "user",
    args: async (c) => [
      ID(c, "user"),
      { ...(await c.get(`/api/admin/users/${ID(c, "user")}`)), fullName: "Con Form III" },
    ],
  },
  "UsersImagesApi.updateUserImageApiUsersIdImagePost": {
    as: "user",
    args: (c) => [ID(c, "user"), blob(c.png, "image/png")],
  },
  "UsersPasswordsApi.forgotPasswordApiUsersForgotPasswordPost": {
    as: "anon",
    args: () => [{ email: "conform@example.com" }],
  },
  "UsersPasswordsApi.resetPasswordApiUsersResetPasswordPost": {
    phase: 7,
    as: "anon",
    args: (c) => [
      {
        token: ID(c, "resetToken"),
        email: "conform@example.com",
        password: "conform-pass-2",
        passwordConfirm: "conform-pass-2",
      },
    ],
  },
  "UsersRatingsApi.addFavoriteApiUsersIdFavoritesSlugPost": {
    phase: 5,
    as: "user",
    args: (c) => [ID(c, "user"), ID(c, "recipeSlug")],
  },
  "UsersRatingsApi.getFavoritesApiUsersIdFavoritesGet": {
    phase: 6,
    as: "user",
    args: (c) => [ID(c, "user")],
  },
  "UsersRatingsApi.getRatingsApiUsersIdRatingsGet": { phase: 6, as: "user", args: (c) => [ID(c, "user")] },
  "UsersRatingsApi.removeFavoriteApiUsersIdFavoritesSlugDelete": {
    phase: 8,
    as: "user",
    args: (c) => [ID(c, "user"), ID(c, "recipeSlug")],
  },
  "UsersRatingsApi.setRatingApiUsersIdRatingsSlugPost": {
    phase: 5,
    as: "user",
    args: (c) => [ID(c, "user"), ID(c, "recipeSlug"), { rating: 4 }],
  },
  "UsersRegistrationApi.registerNewUserApiUsersRegisterPost": {
    phase: 2,
    as: "anon",
    args: async (c) => {
      const tokens = (await c.get("/api/households/invitations")) as unknown as Dict[];
      return [
        {
          groupToken: String(tokens[0]?.token),
          email: "new@example.com",
          username: "newcomer",
          fullName: "New Comer",
          password: "newcomer-pass",
          passwordConfirm: "newcomer-pass",
        },
      ];
    },
  },
  "UsersTokensApi.createApiTokenApiUsersApiTokensPost": {
    phase: 1,
    args: () => [{ name: "conformance token" }],
    keep: (r, c) => (c.ids.apiToken = String(d(r).id)),
  },
  "UsersTokensApi.deleteApiTokenApiUsersApiTokensTokenIdDelete": {
    phase: 8,
    args: (c) => [ID(c, "apiToken")],
  },

  // --- utils ---
  "UtilsApi.downloadFileApiUtilsDownloadGet": { phase: 7.5, as: "anon", args: (c) => [ID(c, "fileToken")] },
};

/** Every method of every API class the installed client exports. */
function clientMethods(): { cls: string; method: string; key: string }[] {
  const out: { cls: string; method: string; key: string }[] = [];
  for (const [cls, ctor] of Object.entries(mealie)) {
    if (!cls.endsWith("Api") || typeof ctor !== "function") continue;
    for (const method of Object.getOwnPropertyNames((ctor as { prototype: object }).prototype)) {
      if (method === "constructor") continue;
      out.push({ cls, method, key: `${cls}.${method}` });
    }
  }
  return out;
}

let t: ServedLarder;
let stub: Server;
let idp: TestIdp;
const outcomes = new Map<string, { ok: boolean; why: string }>();

beforeAll(async () => {
  stub = createServer((req, res) => {
    if (req.url?.startsWith("/recipe.html")) {
      res.setHeader("Content-Type", "text/html");
      const ld = {
        "@context": "https://schema.org",
        "@type": "Recipe",
        name: "Stand-in Soup",
        recipeIngredient: ["1 carrot"],
        recipeInstructions: ["Simmer."],
      };
      res.end(
        `<html><head><title>Soup</title><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`,
      );
      return;
    }
    if (req.url === "/v1/chat/completions") {
      const recipe = {
        name: "Photographed Pie",
        recipeIngredient: ["1 apple"],
        recipeInstructions: ["Bake."],
      };
      req.resume();
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify({
          id: "x",
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(recipe) } }],
        }),
      );
      return;
    }
    if (req.url?.startsWith("/image.png")) {
      res.setHeader("Content-Type", "image/png");
      res.end(png);
      return;
    }
    req.resume();
    res.setHeader("Content-Type", "application/json");
    res.end("{}");
  });
  await new Promise<void>((r) => stub.listen(0, "127.0.0.1", r));
  idp = await startTestIdp();
  const stubBase = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  // `larder serve` in a process of its own: the bundle users run, when it is built (served-larder.ts).
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  t = await startServedLarder(
    {
      BASE_URL: url,
      LARDER_FETCH_ALLOW: "127.0.0.1",
      OPENAI_API_KEY: "sk-conformance",
      OPENAI_BASE_URL: `${stubBase}/v1`,
      OPENAI_MODEL: "stand-in",
      OIDC_AUTH_ENABLED: "true",
      OIDC_CONFIGURATION_URL: idp.discoveryUrl,
      OIDC_CLIENT_ID: IDP_CLIENT.id,
      OIDC_CLIENT_SECRET: IDP_CLIENT.secret,
      OIDC_REDIRECT_URI: `${url}/login`,
    },
    port,
  );
  await idp.register([`${t.url}/api/auth/oauth/callback`, `${t.url}/login`]);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((r) => stub?.close(r));
  await idp?.stop();
});

let png: Buffer;

/**
 * axios, but a JSON answer that does not parse is an error (axios' default hands back the raw text),
 * and every status is returned so the suite sees it.
 */
const strict = axios.create({
  transformResponse: [
    (raw: unknown, headers: Record<string, unknown> | { get?: (k: string) => unknown }) => {
      const type = String(
        (typeof headers.get === "function"
          ? headers.get("content-type")
          : (headers as Record<string, unknown>)["content-type"]) ?? "",
      );
      return type.includes("json") && typeof raw === "string" && raw !== ""
        ? (JSON.parse(raw) as unknown)
        : raw;
    },
  ],
});

async function runAll(): Promise<void> {
  png = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#8e44ad" } })
    .png()
    .toBuffer();
  const adminToken = await t.login();
  const stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  const ctx: Ctx = {
    t,
    ids: { token: adminToken },
    png,
    stubUrl,
    async get(path) {
      const res = await t.api(path, { token: adminToken });
      if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Dict;
    },
  };
  const self = await ctx.get("/api/users/self");
  ctx.ids.myGroup = String(self.groupId);
  ctx.ids.groupSlug = String(self.groupSlug);
  ctx.ids.householdSlug = String(self.householdSlug);

  const configs: Record<Who, () => mealie.Configuration> = {
    admin: () => new mealie.Configuration({ basePath: t.url, accessToken: adminToken }),
    anon: () => new mealie.Configuration({ basePath: t.url }),
    user: () => new mealie.Configuration({ basePath: t.url, accessToken: ctx.ids.userToken }),
  };
  const methods = clientMethods()
    .map((m, i) => ({ ...m, i, call: CALLS[m.key] }))
    .sort((a, b) => (a.call?.phase ?? 5) - (b.call?.phase ?? 5) || a.i - b.i);
  for (const m of methods) {
    if (!m.call) {
      outcomes.set(m.key, { ok: false, why: "no row in CALLS for this client method" });
      continue;
    }
    // The second user logs in once the admin has made them (phase 0), with whatever password is current.
    if (m.call.as === "user" && !ctx.ids.userToken) {
      ctx.ids.userToken = await t.login("conform", "conform-pass-1");
    }
    // After the password reset (phase 7) the user's sessions ended: sign in with the new password.
    if (m.call.as === "user" && (m.call.phase ?? 5) >= 7) {
      ctx.ids.userToken = await t.login("conform", "conform-pass-2").catch(() => ctx.ids.userToken);
    }
    try {
      const args = m.call.args ? await m.call.args(ctx) : [];
      type ApiCtor = new (
        c: mealie.Configuration,
        basePath: string,
        ax: typeof strict,
      ) => Record<string, (...a: unknown[]) => Promise<{ status: number; data: unknown }>>;
      const api = new (mealie as unknown as Record<string, ApiCtor>)[m.cls](
        configs[m.call.as ?? "admin"](),
        t.url,
        strict,
      );
      const res = await api[m.method](...args);
      if (m.call.redirects) {
        const location = (res as unknown as { headers: Record<string, unknown> }).headers.location;
        outcomes.set(m.key, {
          ok: res.status >= 300 && res.status < 400 && !!location,
          why: `${res.status} to ${String(location)}`,
        });
        continue;
      }
      m.call.keep?.(res.data, ctx);
      outcomes.set(m.key, { ok: res.status >= 200 && res.status < 300, why: `${res.status}` });
    } catch (e) {
      const err = e as { response?: { status: number; data: unknown }; message: string };
      const why = err.response
        ? `${err.response.status} ${JSON.stringify(err.response.data).slice(0, 300)}`
        : err.message;
      outcomes.set(m.key, { ok: false, why });
    }
  }
}

describe("mealie-typescript against a real server", () => {
  it("answers every client call whose capability Larder has, and no call on the expected-failure list", async () => {
    await runAll();
    const all = clientMethods();
    expect(all.length).toBeGreaterThan(200);
    const unexpected = all
      .filter((m) => !outcomes.get(m.key)?.ok && !(m.key in EXPECTED_FAILURES))
      .map((m) => `${m.key}: ${outcomes.get(m.key)?.why}`);
    const nowPassing = all
      .filter((m) => outcomes.get(m.key)?.ok && m.key in EXPECTED_FAILURES)
      .map((m) => m.key);
    expect(unexpected, "calls that fail and are not expected to").toEqual([]);
    expect(nowPassing, "expected failures that now pass: remove them from expected-failures.ts").toEqual([]);
  }, 120_000);

  it("keeps the expected-failure list short, about methods the client has, each tied to an open issue", () => {
    const keys = new Set(clientMethods().map((m) => m.key));
    const entries = Object.entries(EXPECTED_FAILURES);
    expect(entries.length).toBeLessThan(70);
    expect(entries.filter(([k]) => !keys.has(k))).toEqual([]);
    expect(entries.filter(([, issue]) => !/^#\d+ /.test(issue))).toEqual([]);
  });

  it("has an argument row for each client method, and no row for a method the client lacks", () => {
    const keys = clientMethods().map((m) => m.key);
    expect(keys.filter((k) => !(k in CALLS))).toEqual([]);
    expect(Object.keys(CALLS).filter((k) => !keys.includes(k))).toEqual([]);
  });
});
