/**
 * The share dialog (spec §4, §8, §9): the recipe's links load when it opens; a new link expires on the
 * day the user picks (default 30 days out) and is appended; a deleted one is removed. Links are built
 * from the browser's origin, so they work behind whatever address the user reached Larder on.
 *
 * The list is derived while rendering from the fetcher's data, never copied into state by an effect on
 * `list.data`: React Router keeps fetcher data in a mutable map outside React state, so a render React
 * discards as "nothing changed" (a bail-out) can already see the new data, record it as the effect's
 * dependency and drop the effect. The effect then never runs for that data and the dialog stayed on its
 * spinner although the list had arrived (the share journeys' timeouts on a loaded machine).
 */
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { ActionIcon, Group, Loader, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useLanguage, useT } from "../../lib/i18n.js";
import { failedText, toast } from "../../lib/toast.js";
import { copyText, defaultExpiryDate, expiryInstant, shareLink } from "../../lib/recipe-share.js";
import type { ShareRow } from "../../lib/recipe-types.js";
import { CopyIcon, TrashIcon } from "./icons.js";
import { useRecipeIntent } from "./use-recipe-intent.js";

export interface ShareDialogProps {
  opened: boolean;
  onClose: () => void;
  groupSlug: string;
  /** The recipe page's address (its action; the list loads from `${action}/shares`). */
  action: string;
}

export function ShareDialog({ opened, onClose, groupSlug, action }: ShareDialogProps) {
  const t = useT("recipe");
  const tc = useT("common");
  const { lang } = useLanguage();
  const list = useFetcher<{ shares: ShareRow[] }>();
  // The fetcher data present when this opening began (a previous opening's list): not shown again.
  const [stale, setStale] = useState<unknown>(undefined);
  // What this opening created or deleted, applied over the loaded list until a reload includes it.
  const [added, setAdded] = useState<ShareRow[]>([]);
  const [removed, setRemoved] = useState<string[]>([]);
  const [day, setDay] = useState(() => defaultExpiryDate());
  const [dayError, setDayError] = useState<string | null>(null);
  const { call, busy } = useRecipeIntent(action);

  useEffect(() => {
    if (!opened) return;
    setStale(list.data);
    setAdded([]);
    setRemoved([]);
    setDay(defaultExpiryDate());
    setDayError(null);
    list.load(`${action}/shares`);
    // Load once per opening; `list` changes identity as it loads.
  }, [opened, action]);

  const loaded = list.data && list.data !== stale ? list.data.shares : null;
  const tokens = loaded
    ? [...loaded, ...added.filter((a) => !loaded.some((s) => s.id === a.id))].filter(
        (s) => !removed.includes(s.id),
      )
    : null;

  const create = async () => {
    const expiresAt = expiryInstant(day);
    if (!expiresAt || Date.parse(expiresAt) <= Date.now()) return setDayError(t("share.badDate"));
    setDayError(null);
    const r = await call("shareCreate", { expiresAt });
    if (r.ok && r.share) {
      const share = r.share;
      // Remix has usually reloaded the list after the action already; `tokens` shows the link once.
      setAdded((cur) => [...cur, share]);
      toast.success(t("share.created"));
    } else toast.error(failedText(tc("errors.somethingWentWrong"), r));
  };

  const remove = async (id: string) => {
    const r = await call("shareDelete", { id });
    if (r.ok) {
      setRemoved((cur) => [...cur, id]);
      toast.success(t("share.deleted"));
    } else toast.error(failedText(tc("errors.somethingWentWrong"), r));
  };

  const copy = async (id: string) => {
    const outcome = await copyText(shareLink(window.location.origin, groupSlug, id));
    if (outcome === "copied") toast.success(t("share.copied"));
    else if (outcome === "failed") toast.error(tc("clipboard.failed"));
    else toast.error(tc("clipboard.notSupported"));
  };

  const date = (iso: string) => new Date(iso).toLocaleDateString(lang, { dateStyle: "medium" });

  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={t("share.title")}
      onSubmit={create}
      keepOpen
      loading={busy}
      submitLabel={t("share.create")}
      data-testid="share-dialog"
    >
      <Stack gap="sm">
        <Text size="sm">{t("share.intro")}</Text>
        <TextInput
          type="date"
          label={t("share.expires")}
          value={day}
          min={defaultExpiryDate(new Date(), 1)}
          onChange={(e) => setDay(e.currentTarget.value)}
          error={dayError}
          data-testid="share-expiry"
        />
        {tokens === null ? (
          <Loader size="sm" />
        ) : tokens.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("share.none")}
          </Text>
        ) : (
          <ul className="share-list" data-testid="share-list">
            {tokens.map((s) => (
              <li key={s.id} data-token={s.id}>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm">{t("share.expiresOn", { date: date(s.expiresAt) })}</Text>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label={t("share.copy")}>
                      <ActionIcon
                        variant="light"
                        aria-label={t("share.copy")}
                        onClick={() => void copy(s.id)}
                        data-testid="share-copy"
                      >
                        <CopyIcon />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t("share.delete")}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t("share.delete")}
                        onClick={() => void remove(s.id)}
                      >
                        <TrashIcon />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Group>
              </li>
            ))}
          </ul>
        )}
      </Stack>
    </AppDialog>
  );
}
