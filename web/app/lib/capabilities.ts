/**
 * Which screens exist yet. The issue rule is "show no dead control": a link or menu item whose screen
 * has not landed stays hidden. The issue that builds a screen flips its flag here.
 */
export const CAPABILITIES = {
  /** /household/mealplan/planner/view */
  mealPlanner: true,
  /** /shopping-lists */
  shoppingLists: true,
  /** /g/{groupSlug}/recipes/timeline */
  timeline: true,
  /** /g/{groupSlug}/recipes/categories, /tags, /tools */
  organizerPages: true,
  /** /g/{groupSlug}/cookbooks/{slug}; until then cookbook links open the group home filtered by cookbook. */
  cookbookPages: true,
  /** /household, /household/members|webhooks|notifiers, /group, /group/data/foods|units|labels|recipe-actions */
  settingsPages: true,
  /** /admin/site-settings (the drawer's Settings link, admins only) */
  adminSettings: true,
  /** /g/{groupSlug}/r/create/new */
  createNew: true,
  /** /g/{groupSlug}/r/create/url */
  createFromUrl: true,
  /** /g/{groupSlug}/r/create/image (also needs app info enableOpenaiImageServices) */
  createFromImage: true,
} as const;

export type Capability = keyof typeof CAPABILITIES;
