/**
 * The frame of a settings screen: the page title, the row of sibling pages of its section the viewer
 * may open (lib/settings-nav.ts), an intro line, and the page's own toolbar.
 */
import type { ReactNode } from "react";
import { NavLink as RouterLink } from "react-router";
import { Group, Stack, Text, Title } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import { settingsLinks, type SettingsSection } from "../../lib/settings-nav.js";
import { useSession } from "../../lib/use-session.js";

export function SettingsFrame({
  section,
  title,
  intro,
  toolbar,
  children,
  testId,
}: {
  section: SettingsSection;
  title: string;
  intro?: ReactNode;
  toolbar?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const t = useT("household");
  const session = useSession();
  const links = settingsLinks(session, section);
  return (
    <div className="page settings" data-testid={testId}>
      <Stack gap="md">
        <Title order={1} className="page__title">
          {title}
        </Title>
        {links.length > 1 ? (
          <nav className="settings__tabs" aria-label={t("nav.sections")}>
            {links.map((l) => (
              <RouterLink
                key={l.key}
                to={l.to}
                end
                prefetch="intent"
                className="settings__tab"
                data-testid={`settings-tab-${l.key}`}
              >
                {t(l.label)}
              </RouterLink>
            ))}
          </nav>
        ) : null}
        {intro ? (
          <Text c="dimmed" size="sm">
            {intro}
          </Text>
        ) : null}
        {toolbar ? (
          <Group gap="sm" className="settings__toolbar" wrap="wrap">
            {toolbar}
          </Group>
        ) : null}
        {children}
      </Stack>
    </div>
  );
}
