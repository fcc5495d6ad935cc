/**
 * The side drawer (spec §2): avatar and full name, favourites (own group only), the Create menu (own
 * group only), top / secondary / bottom links from lib/nav.ts, the language dialog and the dark/light
 * toggle. The open/closed state and the 240 px width live in DefaultLayout and shell.css.
 */
import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { Avatar, Button, Menu, NavLink, Text, ActionIcon } from "@mantine/core";
import { Hint } from "../Hint.js";
import { LazyMenu } from "../LazyMenu.js";
import { CAPABILITIES } from "../../lib/capabilities.js";
import { useRootData } from "../../lib/root-data.js";
import { useT } from "../../lib/i18n.js";
import { useRememberedListQuery } from "../../lib/recipe-list-prefs.js";
import { drawerLinks, visibleLinks, type NavIcon, type NavLinkData } from "../../lib/nav.js";
import { settingsDrawerLinks } from "../../lib/settings-nav.js";
import type { ShellData } from "../../lib/shell.server.js";
import { avatarUrl, useSession } from "../../lib/use-session.js";
import { ColorSchemeToggle } from "./ColorSchemeToggle.js";
import { CalendarIcon } from "../mealplan/icons.js";
import {
  BookIcon,
  FilterIcon,
  HeartIcon,
  LanguageIcon,
  ListIcon,
  PlusIcon,
  RecipesIcon,
  SettingsIcon,
  SortAscIcon,
} from "./ShellIcons.js";

const ICONS: Record<NavIcon, ReactNode> = {
  recipes: <RecipesIcon />,
  favorites: <HeartIcon />,
  planner: <CalendarIcon />,
  shopping: <ListIcon />,
  timeline: <SortAscIcon />,
  cookbooks: <BookIcon />,
  cookbook: <BookIcon size="1em" />,
  organizers: <FilterIcon />,
  settings: <SettingsIcon />,
};

interface DrawerLinkProps {
  link: NavLinkData;
  path: string;
  search: string;
  /** The recipes link returns to the list's remembered query (lib/recipe-list-prefs.ts). */
  recipesQuery?: string;
}

function DrawerLink({ link, path, search, recipesQuery = "" }: DrawerLinkProps) {
  const t = useT("shell");
  const label = link.text ? link.label : t(link.label);
  const icon = link.icon ? ICONS[link.icon] : undefined;
  if (link.children) {
    return (
      // A button, not Mantine's default anchor: it only opens and closes its group (aria-expanded is not
      // allowed on a link).
      <NavLink
        component="button"
        type="button"
        label={label}
        leftSection={icon}
        defaultOpened
        data-testid={`nav-${link.key}`}
      >
        {link.children.map((c) => (
          <DrawerLink key={c.key} link={c} path={path} search={search} />
        ))}
      </NavLink>
    );
  }
  const base = link.to ?? "/";
  const to = link.key === "recipes" ? base + recipesQuery : base;
  const [toPath, toQuery = ""] = base.split("?");
  const active = toPath === path && (toQuery ? search === `?${toQuery}` : !search.includes("cookbook="));
  // Mantine's NavLink look as a plain link (shell.css): a drawer has a dozen of them on every page.
  return (
    <Link
      to={to}
      className="drawer-link mantine-focus-auto"
      data-active={active || undefined}
      aria-current={active ? "page" : undefined}
      data-testid={`nav-${link.key}`}
      prefetch="intent"
    >
      {icon ? <span className="drawer-link__icon">{icon}</span> : null}
      <div className="drawer-link__body">
        <span className="drawer-link__label">{label}</span>
      </div>
    </Link>
  );
}

/** Spec §2: a Create menu for a user in their own group. */
function CreateMenu({ groupSlug }: { groupSlug: string }) {
  const t = useT("shell");
  const tc = useT("create");
  const group = `/g/${encodeURIComponent(groupSlug)}`;
  const base = `${group}/r/create`;
  const imageServices = useRootData()?.appInfo.enableOpenaiImageServices === true;
  // Every way in, so a recipe zip or another app's export is found from the menu, not only from links
  // at the foot of the URL import.
  const items = [
    CAPABILITIES.createNew ? { key: "new", to: `${base}/new`, label: t("create.new") } : null,
    CAPABILITIES.createFromUrl ? { key: "url", to: `${base}/url`, label: t("create.url") } : null,
    CAPABILITIES.createFromImage && imageServices
      ? { key: "image", to: `${base}/image`, label: t("create.image") }
      : null,
    { key: "zip", to: `${base}/zip`, label: tc("empty.zip") },
    { key: "migrate", to: `${group}/data/migrations`, label: tc("empty.migrate") },
  ].filter((i): i is { key: string; to: string; label: string } => i !== null);
  if (items.length === 0) return null;
  return (
    <LazyMenu
      position="bottom-start"
      width={220}
      withinPortal
      target={
        <Button
          leftSection={<PlusIcon />}
          variant="light"
          fullWidth
          justify="flex-start"
          data-testid="create-menu"
        >
          {t("create.title")}
        </Button>
      }
    >
      {items.map((i) => (
        <Menu.Item key={i.key} component={Link} to={i.to}>
          {i.label}
        </Menu.Item>
      ))}
    </LazyMenu>
  );
}

export function SideDrawer({ shell, onLanguage }: { shell: ShellData | null; onLanguage: () => void }) {
  const t = useT("shell");
  const session = useSession();
  const { pathname, search } = useLocation();
  const groupSlug = shell?.groupSlug ?? session?.groupSlug ?? null;
  const ownGroup = shell ? shell.ownGroup : !!session?.groupSlug;
  const viewer = { ownGroup, admin: !!session?.admin };
  const links = groupSlug
    ? drawerLinks(groupSlug, shell?.cookbooks ?? [])
    : { top: [], secondary: [], bottom: [] };
  const top = visibleLinks(links.top, viewer);
  if (session && ownGroup) {
    // Favourites need the user id, so the link is added here; own group only (spec §2).
    top.splice(1, 0, {
      key: "favorites",
      label: "nav.favorites",
      icon: "favorites",
      to: `/user/${session.id}/favorites`,
    });
  }
  const secondary = visibleLinks(links.secondary, viewer);
  const recipesQuery = useRememberedListQuery(groupSlug);
  const bottom = visibleLinks(links.bottom, viewer);
  // Household, data-management and group settings, for the members whose flags open them (spec §6).
  const settings = ownGroup ? settingsDrawerLinks(session) : [];

  // Layout boxes, dividers and the scrolling list are plain elements with Mantine's spacing (shell.css):
  // the drawer is on every page, and each Mantine Stack, Group, Divider or ScrollArea is a component stack.
  return (
    <div className="drawer">
      {session ? (
        <Link to="/user/profile" className="drawer__user" prefetch="intent" data-testid="drawer-user">
          <div className="drawer__user-row">
            <Avatar src={session.hasAvatar ? avatarUrl(session) : null} alt="" radius="xl" color="primary">
              {session.userName.slice(0, 2).toUpperCase()}
            </Avatar>
            <Text fw={600} truncate data-testid="drawer-user-name">
              {session.userName}
            </Text>
          </div>
        </Link>
      ) : null}
      {groupSlug && ownGroup && session ? (
        <div className="drawer__create">
          <CreateMenu groupSlug={groupSlug} />
        </div>
      ) : null}
      <div className="drawer__scroll">
        <nav aria-label={t("nav.label")}>
          {top.map((l) => (
            <DrawerLink key={l.key} link={l} path={pathname} search={search} recipesQuery={recipesQuery} />
          ))}
          {secondary.length ? <hr className="drawer__divider drawer__divider--spaced" /> : null}
          {secondary.map((l) => (
            <DrawerLink key={l.key} link={l} path={pathname} search={search} />
          ))}
        </nav>
      </div>
      <hr className="drawer__divider" />
      {settings.map((l) => (
        <DrawerLink key={l.key} link={l} path={pathname} search={search} />
      ))}
      {bottom.map((l) => (
        <DrawerLink key={l.key} link={l} path={pathname} search={search} />
      ))}
      <div className="drawer__footer">
        <Hint label={t("language.title")}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={onLanguage}
            aria-label={t("language.title")}
            data-testid="language-button"
          >
            <LanguageIcon />
          </ActionIcon>
        </Hint>
        <ColorSchemeToggle />
      </div>
    </div>
  );
}
