/**
 * The top bar (spec §2): logo, brand name, a read-only search box that opens the search dialog (a
 * search icon on extra-small screens), and login or logout. Before hydration (or without JavaScript) the
 * box is a plain GET form to the group home's search, so it still works.
 */
import { Form, Link } from "react-router";
import { ActionIcon, Burger, Button, TextInput } from "@mantine/core";
import { Hint } from "../Hint.js";
import { LogoIcon } from "../icons.js";
import { useT } from "../../lib/i18n.js";
import { useHydrated } from "../../lib/use-hydrated.js";
import { useSession } from "../../lib/use-session.js";
import { LoginIcon, LogoutIcon, SearchIcon } from "./ShellIcons.js";

export interface AppHeaderProps {
  /** The group being browsed: enables search. */
  groupSlug?: string | null;
  /** Default layout: the burger that opens and closes the drawer. */
  drawer?: { wide: boolean; narrow: boolean; toggle: () => void };
  onOpenSearch?: () => void;
}

export function AppHeader({ groupSlug, drawer, onOpenSearch }: AppHeaderProps) {
  const t = useT("shell");
  const session = useSession();
  const hydrated = useHydrated();
  const home = groupSlug
    ? `/g/${encodeURIComponent(groupSlug)}`
    : session?.groupSlug
      ? `/g/${session.groupSlug}`
      : "/";
  const searchable = Boolean(groupSlug && onOpenSearch);

  return (
    <header className="shell__header no-print">
      {/* One button per drawer state, as the drawer has (shell.css shows the one for the screen's width):
          the server cannot know the width, and one button showed a phone's closed drawer as open until
          the page had measured the screen. */}
      {drawer
        ? (["wide", "narrow"] as const).map((kind) => (
            <Burger
              key={kind}
              className={`shell__burger shell__burger--${kind}`}
              opened={drawer[kind]}
              onClick={drawer.toggle}
              size="sm"
              aria-label={drawer[kind] ? t("nav.close") : t("nav.open")}
              aria-expanded={drawer[kind]}
              aria-controls="app-drawer"
              data-testid="drawer-toggle"
            />
          ))
        : null}
      <Link to={home} className="brand" aria-label={t("header.home")}>
        <LogoIcon className="brand__logo" />
        <span className="brand__name">{t("common:appName")}</span>
      </Link>
      <div className="shell__search">
        {searchable && hydrated ? (
          <>
            <TextInput
              readOnly
              visibleFrom="xs"
              className="shell__search-box"
              placeholder={t("search.placeholder")}
              aria-label={t("search.open")}
              aria-haspopup="dialog"
              leftSection={<SearchIcon />}
              rightSection={<kbd className="shell__kbd">/</kbd>}
              onClick={onOpenSearch}
              onKeyDown={(e) => {
                if (e.key === "Enter" || e.key === " " || e.key === "ArrowDown") {
                  e.preventDefault();
                  onOpenSearch?.();
                }
              }}
              radius="xl"
              data-testid="topbar-search"
            />
            <Hint label={t("search.open")}>
              <ActionIcon
                hiddenFrom="xs"
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={t("search.open")}
                onClick={onOpenSearch}
                data-testid="topbar-search-icon"
              >
                <SearchIcon />
              </ActionIcon>
            </Hint>
          </>
        ) : searchable && groupSlug ? (
          <Form
            method="get"
            action={`/g/${encodeURIComponent(groupSlug)}`}
            role="search"
            className="shell__search-form"
          >
            <TextInput
              name="search"
              type="search"
              className="shell__search-box"
              placeholder={t("search.placeholder")}
              aria-label={t("search.label")}
              leftSection={<SearchIcon />}
              radius="xl"
              autoComplete="off"
            />
          </Form>
        ) : null}
      </div>
      {session ? (
        <Form method="post" action="/logout" className="shell__account">
          <Button
            type="submit"
            variant="subtle"
            color="gray"
            leftSection={<LogoutIcon />}
            title={t("common:actions.logout")}
            data-testid="logout"
            visibleFrom="sm"
          >
            {t("common:actions.logout")}
          </Button>
          <ActionIcon
            type="submit"
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t("common:actions.logout")}
            title={t("common:actions.logout")}
            hiddenFrom="sm"
          >
            <LogoutIcon />
          </ActionIcon>
        </Form>
      ) : (
        <Button
          component={Link}
          to="/login"
          variant="subtle"
          color="gray"
          leftSection={<LoginIcon />}
          data-testid="login"
        >
          {t("common:actions.login")}
        </Button>
      )}
    </header>
  );
}
