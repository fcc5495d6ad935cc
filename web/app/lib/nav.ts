/**
 * The drawer's links as data (spec §2 Side drawer): top, secondary and bottom links; `restricted` links
 * show only in the user's own group; a link may have children; a link whose screen has not landed
 * (lib/capabilities.ts) is hidden.
 */
import { CAPABILITIES, type Capability } from "./capabilities.js";

export type NavIcon =
  | "recipes"
  | "favorites"
  | "planner"
  | "shopping"
  | "timeline"
  | "cookbooks"
  | "cookbook"
  | "organizers"
  | "settings";

export interface NavLinkData {
  key: string;
  /** A key of the shell catalogue, or literal text when `text` is set (cookbook names). */
  label: string;
  text?: boolean;
  icon?: NavIcon;
  to?: string;
  restricted?: boolean;
  adminOnly?: boolean;
  capability?: Capability;
  children?: NavLinkData[];
}

export interface NavViewer {
  ownGroup: boolean;
  admin: boolean;
}

/** The links this viewer may see; a parent left without children disappears too. */
export function visibleLinks(
  links: NavLinkData[],
  viewer: NavViewer,
  capabilities: Record<Capability, boolean> = CAPABILITIES,
): NavLinkData[] {
  const out: NavLinkData[] = [];
  for (const link of links) {
    if (link.restricted && !viewer.ownGroup) continue;
    if (link.adminOnly && !viewer.admin) continue;
    if (link.capability && !capabilities[link.capability]) continue;
    if (link.children) {
      const children = visibleLinks(link.children, viewer, capabilities);
      if (children.length === 0) continue;
      out.push({ ...link, children });
    } else out.push(link);
  }
  return out;
}

export interface DrawerLinks {
  top: NavLinkData[];
  secondary: NavLinkData[];
  bottom: NavLinkData[];
}

/** Every drawer link for a group; `visibleLinks` picks the viewer's. */
export function drawerLinks(groupSlug: string, cookbooks: { name: string; slug: string }[]): DrawerLinks {
  const g = `/g/${encodeURIComponent(groupSlug)}`;
  return {
    top: [
      { key: "recipes", label: "nav.recipes", icon: "recipes", to: g },
      {
        key: "planner",
        label: "nav.mealPlanner",
        icon: "planner",
        to: "/household/mealplan/planner/view",
        restricted: true,
        capability: "mealPlanner",
      },
      {
        key: "shopping",
        label: "nav.shoppingLists",
        icon: "shopping",
        to: "/shopping-lists",
        restricted: true,
        capability: "shoppingLists",
      },
      {
        key: "timeline",
        label: "nav.timeline",
        icon: "timeline",
        to: `${g}/recipes/timeline`,
        restricted: true,
        capability: "timeline",
      },
    ],
    secondary: [
      {
        key: "cookbooks",
        label: "nav.cookbooks",
        icon: "cookbooks",
        children: [
          ...cookbooks.map((c) => ({
            key: `cookbook-${c.slug}`,
            label: c.name,
            text: true,
            icon: "cookbook" as const,
            // Until the cookbook pages land, a cookbook opens the group home filtered by it (live, not dead).
            to: CAPABILITIES.cookbookPages
              ? `${g}/cookbooks/${encodeURIComponent(c.slug)}`
              : `${g}?cookbook=${encodeURIComponent(c.slug)}`,
          })),
          {
            key: "cookbooks-manage",
            label: "cookbooks:nav.manage",
            to: `${g}/cookbooks`,
            restricted: true,
            capability: "cookbookPages" as const,
          },
        ],
      },
      {
        key: "organizers",
        label: "nav.organizers",
        icon: "organizers",
        restricted: true,
        capability: "organizerPages",
        children: [
          { key: "categories", label: "nav.categories", to: `${g}/recipes/categories` },
          { key: "tags", label: "nav.tags", to: `${g}/recipes/tags` },
          { key: "tools", label: "nav.tools", to: `${g}/recipes/tools` },
        ],
      },
    ],
    bottom: [
      {
        key: "settings",
        label: "nav.settings",
        icon: "settings",
        to: "/admin/site-settings",
        adminOnly: true,
        capability: "adminSettings",
      },
    ],
  };
}
