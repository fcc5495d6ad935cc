/** The top bar (spec §2): logo, brand, search box (a plain GET form), and a login or logout button. */
import { Form, Link } from "@remix-run/react";
import { LogoIcon, LogoutIcon, SearchIcon } from "./icons.js";

export interface TopBarProps {
  /** The signed-in user's group: enables the search box and the logout button. */
  groupSlug?: string | null;
  /** Current search text, to keep it in the box. */
  search?: string;
  userName?: string | null;
  /** The plain layout (login): brand only. */
  plain?: boolean;
}

export function TopBar({ groupSlug, search, userName, plain }: TopBarProps) {
  const home = groupSlug ? `/g/${groupSlug}` : "/";
  return (
    <header className="topbar no-print">
      <div className="topbar__inner">
        <Link to={home} className="brand" aria-label="Larder home">
          <LogoIcon className="brand__logo" />
          <span className="brand__name">Larder</span>
        </Link>
        {groupSlug && !plain ? (
          <Form method="get" action={`/g/${groupSlug}`} className="search" role="search">
            <label htmlFor="topbar-search" className="visually-hidden">
              Search recipes
            </label>
            <SearchIcon className="search__icon" />
            <input
              id="topbar-search"
              className="search__input"
              type="search"
              name="search"
              placeholder="Search"
              defaultValue={search ?? ""}
              key={search ?? ""}
              autoComplete="off"
            />
          </Form>
        ) : (
          <span className="topbar__spacer" />
        )}
        {plain ? null : groupSlug ? (
          <Form method="post" action="/logout" className="topbar__actions">
            {userName ? <span className="topbar__user">{userName}</span> : null}
            <button type="submit" className="button button--ghost" title="Logout">
              <LogoutIcon />
              <span className="button__label">Logout</span>
            </button>
          </Form>
        ) : (
          <Link to="/login" className="button button--ghost">
            Login
          </Link>
        )}
      </div>
    </header>
  );
}
