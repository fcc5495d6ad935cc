/**
 * The admin layout (spec §2 Layouts): the top bar and a dark sidebar with the admin screens, a
 * developer section (Debug: OpenAI and the ingredient parser) and a sponsor link. The drawer opens and
 * closes as the default layout's does (open on wide screens, an overlay under 760 px).
 */
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { Divider, NavLink, ScrollArea, Stack, Text } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import { useSession } from "../../lib/use-session.js";
import { useShellReady } from "../../lib/use-shell-ready.js";
import { AppHeader } from "../shell/AppHeader.js";
import { LanguageDialog } from "../shell/LanguageDialog.js";
import { NARROW_QUERY } from "../shell/DefaultLayout.js";
import { ColorSchemeToggle } from "../shell/ColorSchemeToggle.js";
import {
  ArchiveIcon,
  BackIcon,
  BugIcon,
  CogIcon,
  GroupIcon,
  HeartIcon,
  HouseIcon,
  UsersIcon,
  WrenchIcon,
} from "./AdminIcons.js";

/** Where the sponsor link goes: the project whose API and data model Larder follows. */
export const SPONSOR_URL = "https://github.com/sponsors/mealie-recipes";

interface AdminLink {
  key: string;
  to: string;
  icon: ReactNode;
}

const MAIN: AdminLink[] = [
  { key: "siteSettings", to: "/admin/site-settings", icon: <CogIcon /> },
  { key: "users", to: "/admin/manage/users", icon: <UsersIcon /> },
  { key: "households", to: "/admin/manage/households", icon: <HouseIcon /> },
  { key: "groups", to: "/admin/manage/groups", icon: <GroupIcon /> },
  { key: "backups", to: "/admin/backups", icon: <ArchiveIcon /> },
  { key: "maintenance", to: "/admin/maintenance", icon: <WrenchIcon /> },
];
const DEBUG: AdminLink[] = [
  { key: "openai", to: "/admin/debug/openai", icon: null },
  { key: "parser", to: "/admin/debug/parser", icon: null },
];

function AdminDrawer({ onLanguage }: { onLanguage: () => void }) {
  const t = useT("admin");
  const session = useSession();
  const { pathname } = useLocation();
  const link = (l: AdminLink) => (
    <NavLink
      key={l.key}
      component={Link}
      to={l.to}
      label={t(`nav.${l.key}`)}
      leftSection={l.icon}
      active={pathname === l.to}
      aria-current={pathname === l.to ? "page" : undefined}
      data-testid={`admin-nav-${l.key}`}
      prefetch="intent"
    />
  );
  return (
    <Stack gap={0} h="100%">
      <Text className="admin-drawer__title" fw={700} px="md" pt="md" pb="xs">
        {t("nav.title")}
      </Text>
      <ScrollArea style={{ flex: 1 }} type="auto">
        <nav aria-label={t("nav.title")}>
          {session?.groupSlug ? (
            <NavLink
              component={Link}
              to={`/g/${encodeURIComponent(session.groupSlug)}`}
              label={t("nav.back")}
              leftSection={<BackIcon />}
              data-testid="admin-nav-back"
            />
          ) : null}
          {MAIN.map(link)}
          <Text className="admin-drawer__section" size="xs" fw={700} tt="uppercase" px="md" pt="md" pb={4}>
            {t("nav.developer")}
          </Text>
          <NavLink
            component="button"
            type="button"
            label={t("nav.debug")}
            leftSection={<BugIcon />}
            defaultOpened
            data-testid="admin-nav-debug"
          >
            {DEBUG.map(link)}
          </NavLink>
        </nav>
      </ScrollArea>
      <Divider className="admin-drawer__divider" />
      <NavLink
        component="a"
        href={SPONSOR_URL}
        target="_blank"
        rel="noopener noreferrer"
        label={t("nav.sponsor")}
        leftSection={<HeartIcon />}
        data-testid="admin-nav-sponsor"
      />
      <div className="admin-drawer__tools">
        <button
          type="button"
          className="admin-drawer__lang"
          onClick={onLanguage}
          data-testid="language-button"
        >
          {t("shell:language.title")}
        </button>
        <ColorSchemeToggle />
      </div>
    </Stack>
  );
}

export function AdminLayout({ children }: { children: ReactNode }) {
  const t = useT("shell");
  const [wideClosed, setWideClosed] = useState(false);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const [languageOpen, setLanguageOpen] = useState(false);
  const location = useLocation();
  const toggle = useCallback(() => {
    if (window.matchMedia(NARROW_QUERY).matches) setNarrowOpen((o) => !o);
    else setWideClosed((c) => !c);
  }, []);
  useEffect(() => setNarrowOpen(false), [location.pathname]);
  useEffect(() => {
    if (!narrowOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setNarrowOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [narrowOpen]);
  const ready = useShellReady();
  return (
    <div
      className="shell shell--admin"
      {...ready}
      data-wide-drawer={wideClosed ? "closed" : "open"}
      data-narrow-drawer={narrowOpen ? "open" : "closed"}
    >
      <a className="skip-link" href="#main">
        {t("common:skipToContent")}
      </a>
      <AppHeader drawer={{ wide: !wideClosed, narrow: narrowOpen, toggle }} />
      <aside
        className="shell__drawer admin-drawer no-print"
        id="app-drawer"
        aria-label={t("nav.label")}
        data-testid="admin-drawer"
      >
        <AdminDrawer onLanguage={() => setLanguageOpen(true)} />
      </aside>
      <div className="shell__scrim no-print" onClick={() => setNarrowOpen(false)} aria-hidden="true" />
      <main className="shell__main" id="main" tabIndex={-1}>
        <div className="page admin-page">{children}</div>
      </main>
      <LanguageDialog opened={languageOpen} onClose={() => setLanguageOpen(false)} />
    </div>
  );
}
