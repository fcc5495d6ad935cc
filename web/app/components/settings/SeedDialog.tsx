/**
 * Seeding a group's foods, units or labels (mealie-api-notes §4.4 seeders) from Larder's lists in a
 * chosen language, after a confirmation: names the group already has are skipped, nothing is removed.
 */
import { useState } from "react";
import { Alert, Button, Select, Stack, Text } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useLanguage, useT } from "../../lib/i18n.js";
import { submitForm, useOnSuccess, useSettingsFetcher } from "./common.js";

/** The languages templates/seed/ has lists for; another locale would fall back to American English. */
export const SEED_LOCALES = ["en-US", "de-DE", "es-ES", "fr-FR", "nl-NL"] as const;

function languageName(code: string, inLang: string): string {
  try {
    return new Intl.DisplayNames([inLang], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function SeedButton({ kind }: { kind: "foods" | "units" | "labels" }) {
  const t = useT("data");
  const { lang } = useLanguage();
  const [open, setOpen] = useState(false);
  const [locale, setLocale] = useState<string>(
    (SEED_LOCALES as readonly string[]).includes(lang) ? lang : "en-US",
  );
  const fetcher = useSettingsFetcher();
  useOnSuccess(fetcher, () => setOpen(false));
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)} data-testid="seed-open">
        {t("seed.button")}
      </Button>
      <AppDialog
        opened={open}
        onClose={() => setOpen(false)}
        title={t(`seed.title.${kind}`)}
        submitLabel={t("seed.confirm")}
        loading={fetcher.state !== "idle"}
        keepOpen
        onSubmit={() => submitForm(fetcher, { intent: "seed", locale })}
        data-testid="seed-dialog"
      >
        <Stack gap="sm">
          <Select
            label={t("seed.language")}
            data={SEED_LOCALES.map((code) => ({ value: code, label: languageName(code, lang) }))}
            value={locale}
            onChange={(v) => v && setLocale(v)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="seed-language"
          />
          <Alert variant="light" color="info">
            <Text size="sm">{t(`seed.explain.${kind}`)}</Text>
          </Alert>
        </Stack>
      </AppDialog>
    </>
  );
}
