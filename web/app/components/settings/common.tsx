/**
 * Pieces the settings screens share: a fetcher that shows the action's toast, the delete confirmation,
 * and a row of small icon buttons.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { ActionIcon, Text, Tooltip } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import { useDataToast } from "../../lib/toast.js";
import type { SettingsResult } from "../../lib/settings.server.js";

/** A fetcher for one settings form; its toast shows once per answer. */
export function useSettingsFetcher() {
  const fetcher = useFetcher<SettingsResult>();
  useDataToast(fetcher.data);
  return fetcher;
}

/** Calls `fn` once each time the fetcher comes back with a success (to close a dialog, say). */
export function useOnSuccess(fetcher: ReturnType<typeof useSettingsFetcher>, fn: () => void): void {
  const seen = useRef<unknown>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === seen.current) return;
    seen.current = fetcher.data;
    if (fetcher.data.ok) fn();
  });
}

/** Submit plain fields as a form post to the current route. */
/**
 * What the person just set, shown at once and until the submission's answer comes back: a fetcher's
 * form data appears only once the submission has started (a render later), and a controlled checkbox
 * would meanwhile flip back to the old value.
 */
export function useOptimistic<T>(
  fetcher: ReturnType<typeof useSettingsFetcher>,
  server: T,
): [T, (v: T) => void] {
  const [mine, setMine] = useState<{ value: T } | null>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) setMine(null);
  }, [fetcher.state, fetcher.data]);
  return [mine ? mine.value : server, (value) => setMine({ value })];
}

export function submitForm(
  fetcher: ReturnType<typeof useSettingsFetcher>,
  fields: Record<string, string | number | boolean | null | undefined>,
): void {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== null && v !== undefined) data[k] = String(v);
  fetcher.submit(data, { method: "post" });
}

export function IconButton({
  label,
  onClick,
  children,
  color = "gray",
  testId,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
  color?: string;
  testId?: string;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} aria-label={label} onClick={onClick} data-testid={testId}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** "Delete X?" with the fetcher's busy state; the parent clears `name` to close it. */
export function DeleteDialog({
  name,
  onClose,
  onConfirm,
  loading,
}: {
  name: string | null;
  onClose: () => void;
  onConfirm: () => void;
  loading: boolean;
}) {
  const tc = useT("common");
  const t = useT("data");
  return (
    <AppDialog
      opened={name !== null}
      onClose={onClose}
      title={t("deleteTitle")}
      submitLabel={tc("actions.delete")}
      submitColor="error"
      loading={loading}
      onSubmit={onConfirm}
      data-testid="delete-dialog"
    >
      <Text>{t("deleteConfirm", { name: name ?? "" })}</Text>
    </AppDialog>
  );
}

export function EditIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1.1em"
      height="1.1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4 12.5-12.5z" />
    </svg>
  );
}

/** Black or white text, whichever reads better on `hex` (WCAG relative luminance). */
export function textOn(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return "#000";
  const n = parseInt(m[1], 16);
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  return l > 0.179 ? "#000" : "#fff";
}

/**
 * A label's name on its colour. Plain markup: the long lists (foods, units) render one or two per row,
 * and Mantine's Badge costs several times the bytes and server time.
 */
export function LabelChip({ name, color }: { name: string; color: string }) {
  return (
    <span className="settings__chip" style={{ background: color, color: textOn(color) }}>
      {name}
    </span>
  );
}

/** A small icon button for the long lists' rows (plain markup, as LabelChip); `title` is its tooltip. */
export function RowButton({
  label,
  onClick,
  children,
  danger = false,
  testId,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
  danger?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      className={danger ? "settings__icon settings__icon--danger" : "settings__icon"}
      aria-label={label}
      title={label}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </button>
  );
}
