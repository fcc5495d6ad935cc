/**
 * /household (spec §2 household settings): the household's preferences — private household, locking
 * recipe edits from other households (spec §6 edit rule), first day of the week, recipe defaults.
 * Guard: canManageHousehold (spec §6).
 */
import { data as reply, useLoaderData, type MetaFunction } from "react-router";
import { Button, Paper, Select, Stack, Switch, Text, Title } from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
import { useSettingsFetcher } from "../components/settings/common.js";
import { metaT, useLanguage, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { field, flag, settingsViewer, settingsWrite } from "../lib/settings.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";
import { openedCopy } from "../lib/opened-copy.server.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "household")("preferences.title")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canManageHousehold: true } as const;

const SWITCHES = [
  "privateHousehold",
  "lockRecipeEditsFromOtherHouseholds",
  "recipePublic",
  "recipeShowNutrition",
  "recipeShowAssets",
  "recipeLandscapeView",
  "recipeDisableComments",
] as const;
type SwitchKey = (typeof SWITCHES)[number];

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  const h = args.context.larder.membership.household(actor);
  const p = h.preferences;
  return {
    shell,
    name: h.name,
    preferences: {
      firstDayOfWeek: p.firstDayOfWeek,
      ...(Object.fromEntries(SWITCHES.map((k) => [k, p[k] === true])) as Record<SwitchKey, boolean>),
    },
  };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  const form = await args.request.formData();
  if (field(form, "intent") !== "preferences") throw reply("Unknown intent", { status: 400 });
  const t = serverT(args.request, "household");
  const body: Record<string, unknown> = { firstDayOfWeek: Number(field(form, "firstDayOfWeek")) };
  for (const k of SWITCHES) body[k] = flag(form, k);
  return settingsWrite(args.context, "preferences", t("preferences.saved"), () =>
    args.context.larder.membership.updateHouseholdPreferences(actor, body, openedCopy(form)),
  );
}

/** Sunday = 0 … Saturday = 6 (Mealie's firstDayOfWeek), named in the page's language. */
function weekdays(lang: string): { value: string; label: string }[] {
  const fmt = new Intl.DateTimeFormat(lang, { weekday: "long", timeZone: "UTC" });
  // 2023-01-01 was a Sunday.
  return Array.from({ length: 7 }, (_, i) => ({
    value: String(i),
    label: fmt.format(Date.UTC(2023, 0, 1 + i)),
  }));
}

export default function HouseholdSettings() {
  const { shell, name, preferences } = useLoaderData<typeof loader>();
  const t = useT("household");
  const { lang } = useLanguage();
  const fetcher = useSettingsFetcher();
  // The form starts again from the household's preferences whenever they change (after a save, they are
  // what was saved, with anything another member changed meanwhile), and sends them as its base.
  const shown = JSON.stringify(preferences);
  const sw = (k: SwitchKey) => (
    <Switch
      key={k}
      name={k}
      defaultChecked={preferences[k]}
      label={t(`preferences.${k}.label`)}
      description={t(`preferences.${k}.help`)}
      data-testid={`pref-${k}`}
    />
  );
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame
        section="household"
        title={t("preferences.title")}
        intro={t("preferences.intro", { name })}
        testId="household-page"
      >
        <fetcher.Form method="post" key={shown}>
          <input type="hidden" name="intent" value="preferences" />
          <input type="hidden" name="base" value={shown} />
          <Stack gap="lg">
            <Paper withBorder p="lg" radius="md">
              <Title order={2} size="h3" mb="md">
                {t("preferences.household")}
              </Title>
              <Stack gap="md">
                {sw("privateHousehold")}
                {sw("lockRecipeEditsFromOtherHouseholds")}
                <Select
                  label={t("preferences.firstDayOfWeek")}
                  data={weekdays(lang)}
                  name="firstDayOfWeek"
                  defaultValue={String(preferences.firstDayOfWeek)}
                  allowDeselect={false}
                  maw={320}
                  comboboxProps={{ withinPortal: true }}
                  data-testid="pref-firstDayOfWeek"
                />
              </Stack>
            </Paper>
            <Paper withBorder p="lg" radius="md">
              <Title order={2} size="h3" mb="xs">
                {t("preferences.recipeDefaults")}
              </Title>
              <Text size="sm" c="dimmed" mb="md">
                {t("preferences.recipeDefaultsHelp")}
              </Text>
              <Stack gap="md">
                {sw("recipePublic")}
                {sw("recipeShowNutrition")}
                {sw("recipeShowAssets")}
                {sw("recipeLandscapeView")}
                {sw("recipeDisableComments")}
              </Stack>
            </Paper>
            <div>
              <Button type="submit" loading={fetcher.state !== "idle"} data-testid="save-preferences">
                {t("save")}
              </Button>
            </div>
          </Stack>
        </fetcher.Form>
      </SettingsFrame>
    </DefaultLayout>
  );
}
