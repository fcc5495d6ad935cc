/**
 * A small form dialog for a name (and optionally a group to put it in): creating or renaming a group
 * or household. "A Name is Required" when empty; the server's answer shows on the field or as a toast.
 */
import { useEffect, useState } from "react";
import { Select, Stack, TextInput } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { problemText } from "../profile/ProblemText.js";
import { useT } from "../../lib/i18n.js";
import { check, rules } from "../../lib/validation.js";
import { useFormAction } from "./use-form-action.js";

export function NameDialog({
  opened,
  onClose,
  title,
  intent,
  id,
  initialName = "",
  groups,
  initialGroupId,
  testId,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  intent: string;
  id?: string;
  initialName?: string;
  /** Offer a group choice (households). */
  groups?: { id: string; name: string }[];
  initialGroupId?: string;
  testId: string;
}) {
  const t = useT("admin");
  const tc = useT("common");
  const [name, setName] = useState(initialName);
  const [groupId, setGroupId] = useState(initialGroupId ?? groups?.[0]?.id ?? "");
  const [touched, setTouched] = useState(false);
  const { result, busy, submit } = useFormAction(() => onClose());
  useEffect(() => {
    if (!opened) return;
    setName(initialName);
    setGroupId(initialGroupId ?? groups?.[0]?.id ?? "");
    setTouched(false);
  }, [opened, id]);
  const local = check(name, rules.required, rules.maxLength(200));
  const problem = (touched ? local : null) ?? (result && !result.ok ? result.problems?.name : undefined);
  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={title}
      submitLabel={id ? tc("actions.save") : tc("actions.create")}
      keepOpen
      loading={busy}
      data-testid={testId}
      onSubmit={() => {
        setTouched(true);
        if (local) return false;
        return submit(intent, { name, ...(id ? { id } : {}), ...(groups ? { groupId } : {}) });
      }}
    >
      <Stack gap="sm">
        <TextInput
          label={t("common.name")}
          value={name}
          withAsterisk
          data-autofocus
          onChange={(e) => setName(e.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={problemText(tc, problem)}
          data-testid={`${testId}-name`}
        />
        {groups ? (
          <Select
            label={t("households.group")}
            data={groups.map((g) => ({ value: g.id, label: g.name }))}
            value={groupId}
            allowDeselect={false}
            onChange={(v) => setGroupId(v ?? groupId)}
            data-testid={`${testId}-group`}
          />
        ) : null}
      </Stack>
    </AppDialog>
  );
}
