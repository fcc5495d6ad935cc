/**
 * The plain layout (spec §2 Layouts): the header without a menu, for the login page and the error page.
 * It still offers the language dialog and the dark/light toggle, so a visitor can fix both before login.
 */
import { useState, type ReactNode } from "react";
import { ActionIcon } from "@mantine/core";
import { Hint } from "../Hint.js";
import { useT } from "../../lib/i18n.js";
import { useShellReady } from "../../lib/use-shell-ready.js";
import { AppHeader } from "./AppHeader.js";
import { ColorSchemeToggle } from "./ColorSchemeToggle.js";
import { LanguageDialog } from "./LanguageDialog.js";
import { LanguageIcon } from "./ShellIcons.js";

export function PlainLayout({ children }: { children: ReactNode }) {
  const t = useT("shell");
  const [languageOpen, setLanguageOpen] = useState(false);
  const ready = useShellReady();
  return (
    <div className="shell shell--plain" {...ready}>
      <a className="skip-link" href="#main">
        {t("common:skipToContent")}
      </a>
      <AppHeader />
      <div className="shell__plain-tools no-print">
        <Hint label={t("language.title")}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={() => setLanguageOpen(true)}
            aria-label={t("language.title")}
            data-testid="language-button"
          >
            <LanguageIcon />
          </ActionIcon>
        </Hint>
        <ColorSchemeToggle />
      </div>
      {children}
      <LanguageDialog opened={languageOpen} onClose={() => setLanguageOpen(false)} />
    </div>
  );
}
