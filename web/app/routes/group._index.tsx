/**
 * /group (spec §2 group settings): the group's name and its preferences (private group, announcements).
 * Renaming a group is an admin's (admin screens). Guard: canManage (spec §6).
 */
import { data as reply, useLoaderData, type MetaFunction } from "react-router";
import { Button, Paper, Stack, Switch, TextInput, Title } from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
import { useSettingsFetcher } from "../components/settings/common.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { field, flag, settingsViewer, settingsWrite } from "../lib/settings.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "household")("group.title")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canManage: true } as const;

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  const g = args.context.larder.membership.group(actor);
  return {
    shell,
    name: g.name,
    slug: args.context.larder.membership.group(actor).slug,
    privateGroup: g.preferences.privateGroup,
    showAnnouncements: g.preferences.showAnnouncements,
  };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  const form = await args.request.formData();
  if (field(form, "intent") !== "preferences") throw reply("Unknown intent", { status: 400 });
  const t = serverT(args.request, "household");
  return settingsWrite(args.context, "preferences", t("group.saved"), () =>
    args.context.larder.membership.updateGroupPreferences(actor, {
      privateGroup: flag(form, "privateGroup"),
      showAnnouncements: flag(form, "showAnnouncements"),
    }),
  );
}

export default function GroupSettings() {
  const { shell, name, slug, privateGroup, showAnnouncements } = useLoaderData<typeof loader>();
  const t = useT("household");
  const fetcher = useSettingsFetcher();
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame section="group" title={t("group.title")} intro={t("group.intro")} testId="group-page">
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="preferences" />
          <Stack gap="lg">
            <Paper withBorder p="lg" radius="md">
              <Stack gap="md">
                <TextInput
                  label={t("group.name")}
                  value={name}
                  readOnly
                  description={t("group.nameHelp", { slug })}
                />
                <Title order={2} size="h3">
                  {t("group.preferences")}
                </Title>
                <Switch
                  name="privateGroup"
                  defaultChecked={privateGroup}
                  label={t("group.privateGroup.label")}
                  description={t("group.privateGroup.help")}
                  data-testid="group-private"
                />
                <Switch
                  name="showAnnouncements"
                  defaultChecked={showAnnouncements}
                  label={t("group.showAnnouncements.label")}
                  description={t("group.showAnnouncements.help")}
                />
              </Stack>
            </Paper>
            <div>
              <Button type="submit" loading={fetcher.state !== "idle"} data-testid="save-group">
                {t("save")}
              </Button>
            </div>
          </Stack>
        </fetcher.Form>
      </SettingsFrame>
    </DefaultLayout>
  );
}
