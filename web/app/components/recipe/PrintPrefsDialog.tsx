/** Print preferences (spec §2, §3, §9): image left/right/hidden, description, notes, nutrition; 816 px wide. */
import { useEffect, useState } from "react";
import { SegmentedControl, Stack, Switch, Text } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import { toast } from "../../lib/toast.js";
import { type ImagePosition, type PrintPrefs } from "../../lib/print-prefs.js";

export interface PrintPrefsDialogProps {
  opened: boolean;
  onClose: () => void;
  prefs: PrintPrefs;
  onSave: (prefs: PrintPrefs) => void;
}

export function PrintPrefsDialog({ opened, onClose, prefs, onSave }: PrintPrefsDialogProps) {
  const t = useT("recipe");
  const tc = useT("common");
  const [draft, setDraft] = useState(prefs);
  useEffect(() => {
    if (opened) setDraft(prefs);
  }, [opened, prefs]);
  const toggle = (key: Exclude<keyof PrintPrefs, "imagePosition">, label: string) => (
    <Switch
      label={label}
      checked={draft[key]}
      onChange={(e) => {
        const checked = e.currentTarget.checked;
        setDraft((d) => ({ ...d, [key]: checked }));
      }}
      data-testid={`print-${key}`}
    />
  );
  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={t("print.title")}
      maxWidth={816}
      submitLabel={tc("actions.save")}
      onSubmit={() => {
        onSave(draft);
        toast.success(t("print.saved"));
      }}
      data-testid="print-prefs-dialog"
    >
      <Stack gap="md">
        <div>
          <Text size="sm" fw={500} mb={4} id="print-image-label">
            {t("print.imagePosition")}
          </Text>
          <SegmentedControl
            aria-labelledby="print-image-label"
            value={draft.imagePosition}
            onChange={(v) => setDraft((d) => ({ ...d, imagePosition: v as ImagePosition }))}
            data={[
              { value: "left", label: t("print.imageLeft") },
              { value: "right", label: t("print.imageRight") },
              { value: "hidden", label: t("print.imageHidden") },
            ]}
          />
        </div>
        {toggle("showDescription", t("print.showDescription"))}
        {toggle("showNotes", t("print.showNotes"))}
        {toggle("showNutrition", t("print.showNutrition"))}
      </Stack>
    </AppDialog>
  );
}
