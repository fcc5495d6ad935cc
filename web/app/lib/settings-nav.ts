/**
 * The settings screens (spec §2: data management, household and group settings) and who may open them
 * (spec §6 route guards): the pages' own tab row and the side drawer read the same table, so a link is
 * shown exactly when its guard would let the viewer in.
 */
import { CAPABILITIES } from "./capabilities.js";
import type { NavLinkData } from "./nav.js";

export type SettingsFlag = "canManageHousehold" | "canManage" | "canOrganize";
export type SettingsSection = "household" | "data" | "group";

export interface SettingsLink {
  key: string;
  section: SettingsSection;
  to: string;
  /** A key of the `household` or `data` catalogue (with its namespace). */
  label: string;
  requires: SettingsFlag;
}

export const SETTINGS_LINKS: readonly SettingsLink[] = [
  {
    key: "household",
    section: "household",
    to: "/household",
    label: "household:nav.preferences",
    requires: "canManageHousehold",
  },
  {
    key: "members",
    section: "household",
    to: "/household/members",
    label: "household:nav.members",
    requires: "canManage",
  },
  {
    key: "webhooks",
    section: "household",
    to: "/household/webhooks",
    label: "household:nav.webhooks",
    requires: "canManageHousehold",
  },
  {
    key: "notifiers",
    section: "household",
    to: "/household/notifiers",
    label: "household:nav.notifiers",
    requires: "canManageHousehold",
  },
  {
    key: "foods",
    section: "data",
    to: "/group/data/foods",
    label: "data:nav.foods",
    requires: "canOrganize",
  },
  {
    key: "units",
    section: "data",
    to: "/group/data/units",
    label: "data:nav.units",
    requires: "canOrganize",
  },
  {
    key: "labels",
    section: "data",
    to: "/group/data/labels",
    label: "data:nav.labels",
    requires: "canOrganize",
  },
  {
    key: "recipe-actions",
    section: "data",
    to: "/group/data/recipe-actions",
    label: "data:nav.recipeActions",
    requires: "canOrganize",
  },
  { key: "group", section: "group", to: "/group", label: "household:nav.group", requires: "canManage" },
];

export type SettingsViewerFlags = Partial<Record<SettingsFlag, boolean>>;

/** The settings links this viewer may open (none until the screens' capability is on). */
export function settingsLinks(viewer: SettingsViewerFlags | null, section?: SettingsSection): SettingsLink[] {
  if (!viewer || !CAPABILITIES.settingsPages) return [];
  return SETTINGS_LINKS.filter((l) => viewer[l.requires] === true && (!section || l.section === section));
}

/** One drawer entry per section the viewer may open, pointing at its first page. */
export function settingsEntries(viewer: SettingsViewerFlags | null): SettingsLink[] {
  const out: SettingsLink[] = [];
  for (const section of ["household", "data", "group"] as const) {
    const first = settingsLinks(viewer, section)[0];
    if (first) out.push(first);
  }
  return out;
}

const SECTION_LABELS: Record<SettingsSection, string> = {
  household: "household:nav.householdSettings",
  data: "data:nav.title",
  group: "household:nav.group",
};

/** The drawer's settings links (components/shell/SideDrawer.tsx): one per section the viewer may open. */
export function settingsDrawerLinks(viewer: SettingsViewerFlags | null): NavLinkData[] {
  return settingsEntries(viewer).map((l) => ({
    key: `settings-${l.section}`,
    label: SECTION_LABELS[l.section],
    icon: "settings" as const,
    to: l.to,
  }));
}
