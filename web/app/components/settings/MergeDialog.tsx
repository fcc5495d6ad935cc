/**
 * Merging two foods or two units (spec §3 payloads fromFood/toFood, fromUnit/toUnit): the first one
 * disappears and every recipe that named it names the second.
 */
import { useState } from "react";
import { Alert, Button, Select, Stack, Text } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import { submitForm, useOnSuccess, useSettingsFetcher } from "./common.js";

export function MergeButton({
  kind,
  items,
}: {
  kind: "foods" | "units";
  items: { id: string; name: string }[];
}) {
  const t = useT("data");
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const fetcher = useSettingsFetcher();
  useOnSuccess(fetcher, () => {
    setOpen(false);
    setFrom(null);
    setTo(null);
  });
  const data = items.map((i) => ({ value: i.id, label: i.name }));
  const fromName = items.find((i) => i.id === from)?.name ?? "";
  const toName = items.find((i) => i.id === to)?.name ?? "";
  return (
    <>
      <Button
        variant="default"
        onClick={() => setOpen(true)}
        disabled={items.length < 2}
        data-testid="merge-open"
      >
        {t("merge.button")}
      </Button>
      <AppDialog
        opened={open}
        onClose={() => setOpen(false)}
        title={t(`merge.title.${kind}`)}
        submitLabel={t("merge.confirm")}
        loading={fetcher.state !== "idle"}
        canSubmit={!!from && !!to && from !== to}
        keepOpen
        onSubmit={() => submitForm(fetcher, { intent: "merge", from, to })}
        data-testid="merge-dialog"
      >
        <Stack gap="sm">
          <Select
            label={t("merge.from")}
            data={data}
            value={from}
            onChange={setFrom}
            searchable
            comboboxProps={{ withinPortal: true }}
            data-testid="merge-from"
          />
          <Select
            label={t("merge.to")}
            data={data.filter((d) => d.value !== from)}
            value={to}
            onChange={setTo}
            searchable
            comboboxProps={{ withinPortal: true }}
            data-testid="merge-to"
          />
          {from && to ? (
            <Alert variant="light" color="warning">
              <Text size="sm">{t("merge.explain", { from: fromName, to: toName })}</Text>
            </Alert>
          ) : null}
        </Stack>
      </AppDialog>
    </>
  );
}
