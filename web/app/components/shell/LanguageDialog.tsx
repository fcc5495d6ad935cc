/**
 * The language dialog (spec §2 Other UI): each language with its percent translated, a link to the
 * translation guide, and a page reload after the change (a plain form post to /_lang: the server sets the
 * `lang` cookie and redirects back, so the new catalogue and direction come with the reloaded page).
 */
import { useRef } from "react";
import { useLocation } from "react-router";
import { Anchor, Badge, Group, Stack, Text, UnstyledButton } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useLanguage, useT } from "../../lib/i18n.js";
import { useRootData } from "../../lib/root-data.js";
import { formatPercent } from "../../lib/format.js";

/** The translation guide: docs/translating.md, served by routes/help.translating.tsx. */
export const TRANSLATION_GUIDE_URL = "/help/translating";

export function LanguageDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const t = useT("shell");
  return (
    <AppDialog opened={opened} onClose={onClose} title={t("language.title")} data-testid="language-dialog">
      <LanguageChoices />
    </AppDialog>
  );
}

/** The dialog's content, a component of its own: worked out only when the dialog shows it. */
function LanguageChoices() {
  const t = useT("shell");
  const { lang, dir } = useLanguage();
  const languages = useRootData()?.languages ?? [];
  const location = useLocation();
  const form = useRef<HTMLFormElement>(null);
  const here = location.pathname + location.search;
  return (
    <>
      <form method="post" action="/_lang" ref={form}>
        <input type="hidden" name="redirectTo" value={here} />
        <Stack gap={4} component="ul" className="language-list">
          {languages.map((l) => (
            <li key={l.code}>
              <UnstyledButton
                type="submit"
                name="lang"
                value={l.code}
                className="language-option"
                data-active={l.code === lang || undefined}
                aria-current={l.code === lang ? "true" : undefined}
                lang={l.code}
                dir={l.dir}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={l.code === lang ? 700 : 500}>{l.name}</Text>
                  {/* The figure is in the page's language, inside a row written in the listed one. */}
                  {/* The page's text colour on the badge's pale tint: the tint's own text shade is too light. */}
                  <Badge
                    variant="light"
                    color={l.progress >= 90 ? "success" : "gray"}
                    c="var(--mantine-color-text)"
                    lang={lang}
                    dir={dir}
                  >
                    {t("language.progress", { percent: formatPercent(l.progress, lang) })}
                  </Badge>
                </Group>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      </form>
      <Text size="sm" mt="md">
        <Anchor href={TRANSLATION_GUIDE_URL}>{t("language.guide")}</Anchor>
      </Text>
    </>
  );
}
