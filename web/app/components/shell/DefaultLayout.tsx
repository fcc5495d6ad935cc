/**
 * The default layout (spec §2 Layouts): top bar, side drawer, page. The drawer is 240 px, open by default
 * on wide screens and closed under 760 px (two states, as CSS decides which one applies, so the first
 * paint is right without JavaScript). '/' outside a text field opens the search dialog.
 */
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useFocusTrap, useMediaQuery } from "@mantine/hooks";
import type { ShellData } from "../../lib/shell.server.js";
import { useT } from "../../lib/i18n.js";
import { useShellReady } from "../../lib/use-shell-ready.js";
import { WhenOpened } from "../dialog/LazyModal.js";
import { AppHeader } from "./AppHeader.js";
import { LanguageDialog } from "./LanguageDialog.js";
import { SearchDialog } from "./SearchDialog.js";
import { SideDrawer } from "./SideDrawer.js";

/** Spec §2: under 760 px the drawer starts closed (and overlays the page when opened). */
export const NARROW_QUERY = "(max-width: 759.98px)";

function isTextField(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  if (el.tagName !== "INPUT") return false;
  const type = (el as HTMLInputElement).type;
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(type);
}

export function DefaultLayout({ shell, children }: { shell: ShellData | null; children: ReactNode }) {
  const t = useT("shell");
  const narrow = useMediaQuery(NARROW_QUERY, false, { getInitialValueInEffect: true });
  const [wideClosed, setWideClosed] = useState(false);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const [languageOpen, setLanguageOpen] = useState(false);
  const location = useLocation();
  const groupSlug = shell?.groupSlug ?? null;

  const toggle = useCallback(() => {
    if (window.matchMedia(NARROW_QUERY).matches) setNarrowOpen((o) => !o);
    else setWideClosed((c) => !c);
  }, []);

  // Navigating closes the overlay drawer and the search dialog (which clears itself on close).
  useEffect(() => {
    setNarrowOpen(false);
    setSearchOpen(false);
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!groupSlug) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (isTextField(e.target)) return;
      e.preventDefault();
      setSearchOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [groupSlug]);

  // The drawer over a phone's page is modal: Mantine's trap moves focus into it and keeps Tab there, the
  // page behind is inert, and Escape gives focus back to the menu button. Beside a wide page it is not
  // trapped. shell.css shows the opening drawer at once (not as its slide-in begins), so the trap's
  // first focus lands.
  const overlay = narrow && narrowOpen;
  const trapRef = useFocusTrap(overlay);
  useEffect(() => {
    if (!overlay) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setNarrowOpen(false);
      document.querySelector<HTMLElement>(".shell__burger--narrow")?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [overlay]);

  // Called after the key listeners' effects: once `data-ready` shows, '/' and Escape work.
  const ready = useShellReady();

  const openSearch = useCallback(() => setSearchOpen(true), []);
  const closeSearch = useCallback(() => setSearchOpen(false), []);
  const closeLanguage = useCallback(() => setLanguageOpen(false), []);

  return (
    <div
      className="shell"
      {...ready}
      data-wide-drawer={wideClosed ? "closed" : "open"}
      data-narrow-drawer={narrowOpen ? "open" : "closed"}
    >
      <a className="skip-link" href="#main">
        {t("common:skipToContent")}
      </a>
      <AppHeader
        groupSlug={groupSlug}
        drawer={{ wide: !wideClosed, narrow: narrowOpen, toggle }}
        onOpenSearch={groupSlug ? openSearch : undefined}
      />
      <aside
        ref={trapRef}
        className="shell__drawer no-print"
        id="app-drawer"
        // Named as a dialog on a phone; beside the page its <nav> carries the name (one landmark, one name).
        aria-label={overlay ? t("nav.label") : undefined}
        role={overlay ? "dialog" : undefined}
        aria-modal={overlay || undefined}
        data-testid="drawer"
      >
        <SideDrawer shell={shell} onLanguage={() => setLanguageOpen(true)} />
      </aside>
      <div className="shell__scrim no-print" onClick={() => setNarrowOpen(false)} aria-hidden="true" />
      <main className="shell__main" id="main" tabIndex={-1} inert={overlay || undefined}>
        {children}
      </main>
      {groupSlug ? (
        <WhenOpened opened={searchOpen}>
          <SearchDialog opened={searchOpen} onClose={closeSearch} groupSlug={groupSlug} />
        </WhenOpened>
      ) : null}
      <WhenOpened opened={languageOpen}>
        <LanguageDialog opened={languageOpen} onClose={closeLanguage} />
      </WhenOpened>
    </div>
  );
}
