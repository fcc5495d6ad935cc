/** A new folder's empty home: the ways to bring recipes in (spec §2's create routes, zip, migrations). */
import { Link } from "react-router";
import { Button, Group } from "@mantine/core";
import { CAPABILITIES } from "../../lib/capabilities.js";
import { useT } from "../../lib/i18n.js";

export function EmptyHomeActions({ base }: { base: string }) {
  const t = useT("create");
  const actions = [
    CAPABILITIES.createFromUrl ? { to: `${base}/r/create/url`, label: t("empty.url"), primary: true } : null,
    CAPABILITIES.createNew ? { to: `${base}/r/create/new`, label: t("empty.new"), primary: false } : null,
    { to: `${base}/r/create/zip`, label: t("empty.zip"), primary: false },
    { to: `${base}/data/migrations`, label: t("empty.migrate"), primary: false },
  ].filter((a): a is { to: string; label: string; primary: boolean } => a !== null);
  return (
    <Group justify="center" gap="sm" mt="md" data-testid="empty-actions">
      {actions.map((a) => (
        <Button key={a.to} component={Link} to={a.to} variant={a.primary ? "filled" : "default"}>
          {a.label}
        </Button>
      ))}
    </Group>
  );
}
