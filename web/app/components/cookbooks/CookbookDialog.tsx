/**
 * Create or edit a cookbook: its name, whether the public group page shows it, and its recipe filter
 * built from pickers (categories, tags, tools, foods, households; each may require all its picks), with
 * a live count of the recipes the filter selects. A filter the builder cannot show is kept as it is. An
 * organizer the filter names but the group no longer has shows as a deleted one, kept until removed.
 */
import { useEffect, useState } from "react";
import { Alert, Button, Code, Group, MultiSelect, Stack, Switch, Text, TextInput } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import {
  BUILDER_KEYS,
  builderToFilter,
  emptyBuilder,
  filterToBuilder,
  type BuilderKey,
  type BuilderState,
} from "../../lib/cookbook-filter.js";
import { organizerPicker } from "../../lib/rule-filter.js";

export interface CookbookDraft {
  id: string | null;
  name: string;
  public: boolean;
  queryFilterString: string;
}

export interface CookbookDialogProps {
  opened: boolean;
  onClose: () => void;
  draft: CookbookDraft;
  choices: Record<BuilderKey, { value: string; label: string }[]>;
  /** Where the live count comes from: `${previewUrl}?filter=…` answers `{count}`. */
  previewUrl: string;
  /** Resolves with an error message, or null once saved. */
  onSave: (value: { name: string; public: boolean; queryFilterString: string }) => Promise<string | null>;
}

const ALL_SWITCH: Partial<Record<BuilderKey, true>> = {
  categories: true,
  tags: true,
  tools: true,
  foods: true,
};

export function CookbookDialog({ opened, onClose, draft, choices, previewUrl, onSave }: CookbookDialogProps) {
  const t = useT("cookbooks");
  const [name, setName] = useState(draft.name);
  const [isPublic, setPublic] = useState(draft.public);
  const [builder, setBuilder] = useState<BuilderState | null>(() => filterToBuilder(draft.queryFilterString));
  const [error, setError] = useState<string | null>(null);
  const [count, setCount] = useState<number | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setName(draft.name);
    setPublic(draft.public);
    setBuilder(filterToBuilder(draft.queryFilterString));
    setError(null);
  }, [opened, draft]);

  const filter = builder ? builderToFilter(builder) : draft.queryFilterString;

  // The live preview: a short pause after the last pick, and only the latest answer counts.
  useEffect(() => {
    if (!opened) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      fetch(`${previewUrl}?filter=${encodeURIComponent(filter)}`, { signal: ctrl.signal })
        .then((r) => (r.ok ? (r.json() as Promise<{ count: number | null }>) : { count: null }))
        .then((r) => setCount(r.count))
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [opened, filter, previewUrl]);

  const setRule = (key: BuilderKey, patch: Partial<BuilderState[BuilderKey]>) =>
    setBuilder((b) => (b ? { ...b, [key]: { ...b[key], ...patch } } : b));

  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={draft.id ? t("edit.title") : t("edit.createTitle")}
      submitLabel={draft.id ? t("edit.save") : t("edit.create")}
      canSubmit={name.trim() !== ""}
      loading={busy}
      maxWidth={640}
      data-testid="cookbook-dialog"
      onSubmit={async () => {
        setBusy(true);
        const problem = await onSave({ name: name.trim(), public: isPublic, queryFilterString: filter });
        setBusy(false);
        setError(problem);
        return problem === null;
      }}
    >
      <Stack gap="sm">
        {error ? (
          <Alert color="red" data-testid="cookbook-error">
            {error}
          </Alert>
        ) : null}
        <TextInput
          label={t("edit.name")}
          value={name}
          required
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
          data-testid="cookbook-name"
        />
        <Switch
          label={t("edit.public")}
          description={t("edit.publicHint")}
          checked={isPublic}
          onChange={(e) => setPublic(e.currentTarget.checked)}
        />
        <Text fw={600} mt="xs">
          {t("edit.filter")}
        </Text>
        {builder ? (
          BUILDER_KEYS.map((key) => {
            const picker = organizerPicker(choices[key], builder[key].ids, (id) =>
              t(`edit.deleted.${key}`, { id: id.slice(0, 8) }),
            );
            return (
              <Stack key={key} gap={4}>
                <MultiSelect
                  label={t(`edit.${key}`)}
                  placeholder={builder[key].ids.length ? undefined : t("edit.any")}
                  data={picker.data}
                  value={picker.value}
                  onChange={(ids) => setRule(key, { ids })}
                  searchable
                  clearable
                  nothingFoundMessage={t("edit.nothingFound")}
                  description={picker.missing.length ? t("edit.deletedHint") : undefined}
                  data-testid={`cookbook-${key}`}
                />
                {ALL_SWITCH[key] && builder[key].ids.length > 1 ? (
                  <Switch
                    size="xs"
                    label={t("edit.requireAll")}
                    checked={builder[key].requireAll}
                    onChange={(e) => setRule(key, { requireAll: e.currentTarget.checked })}
                    data-testid={`cookbook-${key}-all`}
                  />
                ) : null}
              </Stack>
            );
          })
        ) : (
          <Alert color="yellow" data-testid="cookbook-advanced">
            <Stack gap="xs">
              <Text size="sm">{t("edit.advanced")}</Text>
              <Code block>{draft.queryFilterString}</Code>
              <Group>
                <Button size="xs" variant="light" onClick={() => setBuilder(emptyBuilder())}>
                  {t("edit.replaceFilter")}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="cookbook-preview">
          {count === undefined
            ? "\u00a0"
            : count === null
              ? t("edit.previewInvalid")
              : t("edit.preview", { count })}
        </Text>
      </Stack>
    </AppDialog>
  );
}
